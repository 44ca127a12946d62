package discover

import (
	"bytes"
	"mime"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The DreamWeave media types a <link rel="alternate"> may carry (SPEC section 1, step 2).
const (
	IndexMediaType   = "application/vnd.dreamweave.index+json"
	ProjectMediaType = "application/vnd.dreamweave.project+json"
)

// Link is the DreamWeave <link> of an HTML page.
type Link struct {
	Href string // the href resolved against the page URL: absolute
	Kind string // KindIndex or KindProject, from the type attribute
}

// FindLink reads exactly one thing from an HTML page: its <link rel="alternate"> with type
// IndexMediaType or ProjectMediaType (SPEC section 1, step 2). Nothing else is read: no <a>, no
// <base> (hrefs are resolved against pageURL, as the spec says), nothing after the head.
//
// Rules, as HTML reads them: only links in the head count (the head ends at </head>, <body>, any
// element that cannot be in a head, or non-space text); links inside <template> are inert; rel is
// a set of space-separated tokens compared ASCII case-insensitively; type is a MIME type compared
// case-insensitively, parameters ignored; href has surrounding ASCII whitespace stripped and must
// not be empty. An index link wins over a project link; otherwise the first in document order.
// ok is false when there is no such link (or its href does not parse as a URL).
func FindLink(page []byte, pageURL *url.URL) (l Link, ok bool) {
	var project *Link
	z := html.NewTokenizer(bytes.NewReader(page))
	template := 0
	rawText := false // the next text token is the content of <title>, <style>, <script>...
	for {
		tt := z.Next()
		wasRaw := rawText
		rawText = false
		switch tt {
		case html.ErrorToken:
			return finish(project)
		case html.TextToken:
			if !wasRaw && template == 0 && strings.Trim(string(z.Text()), " \t\n\f\r") != "" {
				return finish(project) // text outside head elements starts the body
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Head, atom.Html:
				return finish(project)
			case atom.Template:
				if template > 0 {
					template--
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Html, atom.Head, atom.Meta, atom.Base:
				continue
			case atom.Title, atom.Style, atom.Script, atom.Noscript:
				rawText = tt == html.StartTagToken
				continue
			case atom.Template:
				if tt == html.StartTagToken {
					template++
				}
				continue
			case atom.Link:
			default:
				if template > 0 {
					continue
				}
				return finish(project) // an element that cannot be in a head: the body has begun
			}
			if template > 0 || !hasAttr {
				continue
			}
			found, ok := linkAttrs(z, pageURL)
			if !ok {
				continue
			}
			if found.Kind == KindIndex {
				return found, true
			}
			if project == nil {
				project = &found
			}
		}
	}
}

// linkAttrs reads the attributes of the <link> tag z is at and returns the DreamWeave link it
// declares: rel has the token alternate, type is a DreamWeave media type, and href, whitespace
// stripped, is not empty and parses against pageURL. ok is false for any other link.
func linkAttrs(z *html.Tokenizer, pageURL *url.URL) (l Link, ok bool) {
	var rel, typ, href string
	var haveHref bool
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) { // the tokenizer lowercases attribute names
		case "rel":
			rel = string(v)
		case "type":
			typ = string(v)
		case "href":
			href, haveHref = string(v), true
		}
	}
	kind := dreamweaveType(typ)
	if kind == "" || !hasRelAlternate(rel) || !haveHref {
		return Link{}, false
	}
	href = strings.Trim(href, " \t\n\f\r")
	if href == "" {
		return Link{}, false
	}
	u, err := pageURL.Parse(href)
	if err != nil {
		return Link{}, false
	}
	return Link{Href: u.String(), Kind: kind}, true
}

func finish(project *Link) (Link, bool) {
	if project != nil {
		return *project, true
	}
	return Link{}, false
}

// hasRelAlternate reports whether rel, a set of ASCII-whitespace-separated tokens, holds
// "alternate" (ASCII case-insensitive).
func hasRelAlternate(rel string) bool {
	for _, tok := range strings.FieldsFunc(rel, func(r rune) bool { return strings.ContainsRune(" \t\n\f\r", r) }) {
		if strings.EqualFold(tok, "alternate") {
			return true
		}
	}
	return false
}

// dreamweaveType maps a type attribute to KindIndex / KindProject, or "".
func dreamweaveType(typ string) string {
	mt, _, err := mime.ParseMediaType(typ)
	if err != nil {
		mt = strings.ToLower(strings.Trim(typ, " \t\n\f\r"))
	}
	switch mt {
	case IndexMediaType:
		return KindIndex
	case ProjectMediaType:
		return KindProject
	}
	return ""
}
