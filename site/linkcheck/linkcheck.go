// Package linkcheck checks a built site before it is published (SPEC section 5), reading
// every page from the output directory, as a host would serve it.
//
// Internal links, images and refreshes resolve to files, #fragments to ids on their page,
// ids are unique, URL schemes are http, https or mailto, every page has a title and a
// language, images have alt text, headings do not skip a level, and this index's own words
// never use ForbiddenWords.
//
// Text and links inside a <bdi> element or data-pub markup are the publisher's: their words
// are theirs, and their links are checked for scheme only (a manifest must not block the
// deploy of the whole index).
package linkcheck

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
)

// Problem is one thing check-site found wrong: the page (slash path relative to the output
// root) and what is wrong with it.
type Problem struct {
	Page    string
	Message string
}

// String is "page: message", the line check-site prints.
func (p Problem) String() string { return p.Page + ": " + p.Message }

// ForbiddenWords matches the words never used about a project (SPEC section 5), looked for
// in this index's own words only: publisher text is inside a <bdi> element or an element
// carrying data-pub, and nothing else is exempt. "safe" in a publisher's summary is the
// publisher speaking; the same word in a template fails.
var ForbiddenWords = regexp.MustCompile(`(?i)\b(trusted|safe|verified\s+author|official|recommended)\b`)

// Check reads the built site in out and returns every problem the package comment lists.
// Links under baseURL, and root-relative links under its path, are internal (a publisher's
// only checked for scheme). baseURL "" is the one the site's marker records, else none;
// another than the recorded one is one problem. The error is for an unreadable output
// directory only.
func Check(out, baseURL string) ([]Problem, error) {
	built, err := sitedir.BaseURL(out)
	if err != nil {
		return nil, fmt.Errorf("check-site: %w", err)
	}
	if baseURL == "" {
		baseURL = built
	} else if built != "" && canonLink(strings.TrimSuffix(built, "/")+"/") != canonLink(strings.TrimSuffix(baseURL, "/")+"/") {
		// One wrong base URL would otherwise be reported link by link.
		return []Problem{{Page: ".", Message: fmt.Sprintf("the site was built for %s, not %s: rebuild with `ashyams build --base-url %s`, or check it without --base-url", built, baseURL, baseURL)}}, nil
	}
	files := map[string]bool{}
	var pages []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		files[rel] = true
		if strings.HasSuffix(rel, ".html") {
			pages = append(pages, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check-site: %w", err)
	}
	if len(pages) == 0 {
		return []Problem{{Page: ".", Message: "no HTML pages in " + out}}, nil
	}
	sort.Strings(pages)
	c := &checker{out: out, files: files, ids: map[string]map[string]bool{}, base: canonLink(strings.TrimSuffix(baseURL, "/") + "/"), root: sitedir.BasePath(baseURL)}
	if baseURL == "" {
		c.base = ""
	}
	docs := map[string]*html.Node{}
	for _, p := range pages {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("check-site: %w", err)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			c.add(p, "does not parse as HTML: "+err.Error())
			continue
		}
		docs[p] = doc
		c.ids[p] = c.collectIDs(p, doc)
	}
	for _, p := range pages {
		if doc := docs[p]; doc != nil {
			c.page(p, doc)
		}
	}
	return c.problems, nil
}

type checker struct {
	out  string
	base string
	// root is the base URL's path: a root-relative link must start with it.
	root     string
	files    map[string]bool
	ids      map[string]map[string]bool
	problems []Problem
}

func (c *checker) add(page, msg string) { c.problems = append(c.problems, Problem{page, msg}) }

// fragmentState marks a page that reads its fragment as state (data-fragment-state): a
// "#key=value..." fragment to it names no id.
const fragmentState = "\x00state"

func (c *checker) collectIDs(page string, doc *html.Node) map[string]bool {
	ids := map[string]bool{}
	htmlnode.Walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			if id, ok := htmlnode.Attr(n, "id"); ok {
				if ids[id] {
					c.add(page, fmt.Sprintf("duplicate id %q", id))
				}
				ids[id] = true
			}
			if _, ok := htmlnode.Attr(n, "data-fragment-state"); ok {
				ids[fragmentState] = true
			}
		}
		return true
	})
	return ids
}

func (c *checker) page(p string, doc *html.Node) {
	var lang, title string
	var haveTitle bool
	lastHeading := 0
	htmlnode.Walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		switch n.DataAtom {
		case atom.Html:
			lang, _ = htmlnode.Attr(n, "lang")
		case atom.Title:
			haveTitle = true
			title = strings.TrimSpace(textOf(n))
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			lvl := int(n.Data[1] - '0')
			if lastHeading == 0 && lvl != 1 {
				c.add(p, fmt.Sprintf("the first heading is h%d, not h1", lvl))
			} else if lastHeading != 0 && lvl > lastHeading+1 {
				c.add(p, fmt.Sprintf("heading h%d follows h%d (skips a level): %q", lvl, lastHeading, truncate(textOf(n), 60)))
			}
			lastHeading = lvl
		case atom.Meta:
			if u, ok := refreshURL(n); ok {
				c.link(p, "refresh", u)
			}
		case atom.Img:
			if _, ok := htmlnode.Attr(n, "alt"); !ok {
				src, _ := htmlnode.Attr(n, "src")
				c.add(p, fmt.Sprintf("image %q has no alt attribute", src))
			}
		}
		for _, a := range n.Attr {
			switch a.Key {
			case "href", "src", "action", "poster", "data", "formaction", "cite":
				if a.Key == "href" && n.DataAtom == atom.A && underPublisher(n) {
					c.publisherLink(p, a.Key, a.Val)
				} else {
					c.link(p, a.Key, a.Val)
				}
			case "srcset":
				for _, cand := range strings.Split(a.Val, ",") {
					if f := strings.Fields(cand); len(f) > 0 {
						c.link(p, a.Key, f[0])
					}
				}
			}
		}
		return true
	})
	if strings.TrimSpace(lang) == "" {
		c.add(p, "the page has no language (<html lang>)")
	}
	if !haveTitle || title == "" {
		c.add(p, "the page has no title")
	}
	c.words(p, doc)
}

// refreshURL is the address a <meta http-equiv=refresh> leads to ("0;url=a/index.html"
// gives "a/index.html"); ok is false for other elements and a refresh to no address.
func refreshURL(n *html.Node) (u string, ok bool) {
	if n.DataAtom != atom.Meta {
		return "", false
	}
	if v, _ := htmlnode.Attr(n, "http-equiv"); !strings.EqualFold(v, "refresh") {
		return "", false
	}
	content, _ := htmlnode.Attr(n, "content")
	_, rest, ok := strings.Cut(content, ";")
	rest = strings.TrimSpace(rest)
	if !ok || len(rest) < 4 || !strings.EqualFold(rest[:4], "url=") {
		return "", false
	}
	return strings.Trim(strings.TrimSpace(rest[4:]), `"'`), true
}

func textOf(n *html.Node) string {
	var b strings.Builder
	htmlnode.Walk(n, func(m *html.Node) bool {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
		return true
	})
	return b.String()
}

func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// isPublisher reports whether n holds publisher text: it is a <bdi> or carries data-pub.
func isPublisher(n *html.Node) bool {
	if n.DataAtom == atom.Bdi {
		return true
	}
	_, ok := htmlnode.Attr(n, "data-pub")
	return ok
}

// publisherTexts are the texts of a page's publisher elements (and publisher images' alt
// text), longest first: what its <title> and meta description may quote.
func publisherTexts(doc *html.Node) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	htmlnode.Walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && isPublisher(n) {
			add(textOf(n))
			if alt, ok := htmlnode.Attr(n, "alt"); ok {
				add(alt)
			}
		}
		return true
	})
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// withoutPublisher removes every publisher text of the page from s, leaving the index's own
// words, comparing bidi controls away (pubtext.Plain drops them). A title's quotation cut
// with "…" is taken out too: the longest end before each "…" that begins a publisher text.
func withoutPublisher(s string, pub []string) string {
	stripped := make([]string, 0, len(pub))
	for _, p := range pub {
		if p = textdir.Strip(p); p != "" {
			stripped = append(stripped, p)
		}
	}
	var cut strings.Builder
	for rest := textdir.Strip(s); ; {
		head, tail, ok := strings.Cut(rest, "…")
		if !ok {
			cut.WriteString(rest)
			break
		}
		quoted := 0
		for _, p := range stripped {
			for k := min(len(p), len(head)); k > quoted; k-- {
				if head[len(head)-k] == p[0] && strings.HasSuffix(head, p[:k]) {
					quoted = k
					break
				}
			}
		}
		cut.WriteString(head[:len(head)-quoted])
		cut.WriteString(" ")
		rest = tail
	}
	s = cut.String()
	for _, p := range stripped {
		s = strings.ReplaceAll(s, p, " ")
	}
	return s
}

// words looks for forbidden words in this index's own text: text nodes and human-readable
// attributes outside publisher elements; the <title> and meta description with every
// publisher text of the page taken out.
func (c *checker) words(p string, doc *html.Node) {
	seen := map[string]bool{}
	report := func(s string) {
		for _, m := range ForbiddenWords.FindAllString(s, -1) {
			w := strings.ToLower(strings.Join(strings.Fields(m), " "))
			if !seen[w] {
				seen[w] = true
				c.add(p, fmt.Sprintf("uses the word %q in the index's own text: %q", w, truncate(s, 80)))
			}
		}
	}
	pub := publisherTexts(doc)
	htmlnode.Walk(doc, func(n *html.Node) bool {
		switch n.Type {
		case html.ElementNode:
			if isPublisher(n) || n.DataAtom == atom.Script || n.DataAtom == atom.Style {
				return false
			}
			if n.DataAtom == atom.Title {
				report(withoutPublisher(textOf(n), pub))
				return false
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "alt", "title", "aria-label", "placeholder":
					report(a.Val)
				case "content":
					if _, refresh := refreshURL(n); n.DataAtom == atom.Meta && !refresh { // a refresh's is a link, no words
						report(withoutPublisher(a.Val, pub))
					}
				}
			}
		case html.TextNode:
			report(n.Data)
		}
		return true
	})
}

// underPublisher reports whether n is a rel=nofollow link or n or an element around it
// carries data-pub: a link there is the publisher's, even under the base URL, which a
// publisher's host may share (github.io). An image marked so still loads the index's file.
func underPublisher(n *html.Node) bool {
	if n.DataAtom == atom.A {
		if rel, _ := htmlnode.Attr(n, "rel"); slices.Contains(strings.Fields(rel), "nofollow") {
			return true
		}
	}
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && isPublisher(n) {
			return true
		}
	}
	return false
}

// publisherLink checks a publisher's URL found in page p under attribute key: only its
// scheme, since whether it resolves is the publisher's matter and must not block a deploy.
func (c *checker) publisherLink(p, key, raw string) {
	v := strings.TrimSpace(raw)
	u, err := url.Parse(v)
	if err != nil {
		c.add(p, fmt.Sprintf("publisher %s %q does not parse: %v", key, v, err))
		return
	}
	if !allowedScheme(u.Scheme) {
		c.add(p, fmt.Sprintf("publisher %s %q is not an absolute http, https or mailto URL", key, v))
	}
}

// allowedScheme reports whether a URL scheme is one a built page may link to.
func allowedScheme(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "http", "https", "mailto":
		return true
	}
	return false
}

// link checks one URL found in page p under attribute key.
func (c *checker) link(p, key, raw string) {
	v := strings.TrimSpace(raw)
	if v == "" {
		c.add(p, fmt.Sprintf("empty %s", key))
		return
	}
	if strings.HasPrefix(v, "//") {
		c.add(p, fmt.Sprintf("%s %q is protocol-relative", key, v))
		return
	}
	if strings.HasPrefix(v, "/") && c.root != "/" {
		rest, ok := strings.CutPrefix(canonLink(v), c.root)
		if !ok {
			c.add(p, fmt.Sprintf("%s %q is root-relative but outside the site's base path %s", key, v, c.root))
			return
		}
		c.internal(p, key, raw, "/"+rest)
		return
	}
	if c.base != "" {
		if rest, ok := strings.CutPrefix(canonLink(v), c.base); ok {
			c.internal(p, key, raw, "/"+rest)
			return
		}
	}
	u, err := url.Parse(v)
	if err != nil {
		c.add(p, fmt.Sprintf("%s %q does not parse: %v", key, v, err))
		return
	}
	if u.Scheme != "" {
		if !allowedScheme(u.Scheme) {
			c.add(p, fmt.Sprintf("%s %q uses the scheme %q (only http, https and mailto are allowed)", key, v, u.Scheme))
		}
		return
	}
	c.internal(p, key, raw, v)
}

// canonLink is link v with its path in canonPath's spelling, so it compares with the base
// URL however either escapes its path.
func canonLink(v string) string {
	end := strings.IndexAny(v, "?#")
	if end < 0 {
		end = len(v)
	}
	start := 0
	if i := strings.Index(v[:end], "://"); i >= 0 {
		if j := strings.Index(v[i+3:end], "/"); j >= 0 {
			start = i + 3 + j
		} else {
			return v
		}
	}
	return v[:start] + sitedir.CanonPath(v[start:end]) + v[end:]
}

// internal resolves an internal reference v from page p; a leading "/" means the site root.
func (c *checker) internal(p, key, raw, v string) {
	u, err := url.Parse(v)
	if err != nil {
		c.add(p, fmt.Sprintf("%s %q does not parse: %v", key, raw, err))
		return
	}
	target := p
	if u.Path != "" {
		var joined string
		if strings.HasPrefix(u.Path, "/") {
			joined = path.Clean(strings.TrimPrefix(u.Path, "/"))
		} else {
			joined = path.Join(path.Dir(p), u.Path)
		}
		if joined == ".." || strings.HasPrefix(joined, "../") {
			c.add(p, fmt.Sprintf("%s %q points outside the site", key, raw))
			return
		}
		if joined == "." {
			joined = ""
		}
		switch {
		case c.files[joined]:
			target = joined
		case c.files[path.Join(joined, "index.html")]:
			target = path.Join(joined, "index.html")
		default:
			c.add(p, fmt.Sprintf("%s %q does not resolve to a file (%s)", key, raw, strconv.Quote(joined)))
			return
		}
	}
	if u.Fragment != "" && strings.HasSuffix(target, ".html") {
		if !c.ids[target][u.Fragment] && !(c.ids[target][fragmentState] && strings.Contains(u.Fragment, "=")) {
			c.add(p, fmt.Sprintf("%s %q: no id %q on %s", key, raw, u.Fragment, target))
		}
	}
}
