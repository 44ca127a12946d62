package discover

import (
	"bytes"
	"errors"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

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

// Ignored is a DreamWeave <link> skipped for an empty or unparsable href (FORMATS: `ignored
// <link> href "<href>": <why>`).
type Ignored struct {
	Href string // the href as written, surrounding whitespace stripped
	Why  string // why it was skipped, in words
}

// String is the trail's words for the skipped link, the href quoted and cut to maxIgnoredHref.
func (i Ignored) String() string {
	h := i.Href
	if len(h) > maxIgnoredHref {
		cut := maxIgnoredHref
		for cut > 0 && !utf8.RuneStart(h[cut]) {
			cut--
		}
		h = h[:cut] + "…"
	}
	return "ignored <link> href " + strconv.Quote(h) + ": " + i.Why
}

const maxIgnoredHref = 200

// ReadLinks reads an HTML page's DreamWeave <link rel="alternate"> (SPEC section 1, step 2),
// resolved against pageURL, as HTML reads them: in the head only, not in <template>, rel and
// type case-insensitive, href trimmed and non-empty. An index link wins, else the first; ok is
// false without one; ignored are the links skipped for their href.
func ReadLinks(page []byte, pageURL *url.URL) (l Link, ok bool, ignored []Ignored) {
	var project *Link
	finish := func(project *Link) (Link, bool, []Ignored) {
		if project != nil {
			return *project, true, ignored
		}
		return Link{}, false, ignored
	}
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
			found, ok, skipped := linkAttrs(z, pageURL)
			if skipped != nil {
				ignored = append(ignored, *skipped)
			}
			if !ok {
				continue
			}
			if found.Kind == KindIndex {
				return found, true, ignored
			}
			if project == nil {
				project = &found
			}
		}
	}
}

// linkAttrs reads the <link> tag z is at: ok when it declares a usable DreamWeave link;
// skipped says why a DreamWeave link's href cannot be used.
func linkAttrs(z *html.Tokenizer, pageURL *url.URL) (l Link, ok bool, skipped *Ignored) {
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
		return Link{}, false, nil
	}
	href = strings.Trim(href, " \t\n\f\r")
	if href == "" {
		return Link{}, false, &Ignored{Why: "empty"}
	}
	u, err := pageURL.Parse(href)
	if err != nil {
		why := err.Error()
		var ue *url.Error
		if errors.As(err, &ue) {
			why = ue.Err.Error()
		}
		return Link{}, false, &Ignored{Href: href, Why: "not a URL (" + why + ")"}
	}
	return Link{Href: u.String(), Kind: kind}, true, nil
}

// hasRelAlternate reports whether rel's whitespace-separated tokens hold "alternate".
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
