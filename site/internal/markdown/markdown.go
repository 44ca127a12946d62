// Package markdown renders publisher CommonMark for the pages (SPEC section 5): goldmark, then
// a bluemonday allowlist; Memo renders each distinct text once per build. SafeURL checks a
// publisher URL before a page links it.
package markdown

import (
	"bytes"
	"html/template"
	"net/url"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Publisher CommonMark (release notes, untrusted) goes through goldmark and then a
// bluemonday allowlist: prose and links survive; scripts, frames, styles, images, forms
// and every attribute but href do not.

var (
	mdOnce   sync.Once
	mdEngine goldmark.Markdown
	mdPolicy *bluemonday.Policy
)

func markdownSetup() {
	// WithUnsafe: raw HTML passes goldmark, so the prose inside <p align>, <details> or
	// <div> reaches the page; bluemonday below drops every element and attribute not listed,
	// and the content of script, style, iframe, object, noscript and title.
	mdEngine = goldmark.New(
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(flattenTransformer{}, 100))),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "hr", "del", "a")
	p.AllowAttrs("href").OnElements("a")
	web := func(u *url.URL) bool { return u.Host != "" && u.Opaque == "" && u.User == nil }
	p.AllowURLSchemeWithCustomPolicy("http", web)
	p.AllowURLSchemeWithCustomPolicy("https", web)
	p.AllowURLSchemeWithCustomPolicy("mailto", func(u *url.URL) bool { return u.Opaque != "" })
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	// rel=nofollow: the index vouches for no publisher's link. The pages printing publisher
	// links send no referrer (the layout's meta) and open no new browsing context.
	p.RequireNoFollowOnLinks(true)
	mdPolicy = p
}

// flattenTransformer keeps publisher markup from disturbing the outline or loading
// anything: a heading becomes a bold paragraph, an image its alt text in brackets.
type flattenTransformer struct{}

func (flattenTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	var headings, images []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Heading:
			headings = append(headings, n)
		case *ast.Image:
			images = append(images, n)
		}
		return ast.WalkContinue, nil
	})
	for _, h := range headings {
		para := ast.NewParagraph()
		strong := ast.NewEmphasis(2)
		for c := h.FirstChild(); c != nil; {
			next := c.NextSibling()
			strong.AppendChild(strong, c)
			c = next
		}
		para.AppendChild(para, strong)
		para.SetLines(h.Lines())
		h.Parent().ReplaceChild(h.Parent(), h, para)
	}
	src := reader.Source()
	for _, img := range images {
		alt := nodeText(img, src)
		label := "[image]"
		if alt != "" {
			label = "[image: " + alt + "]"
		}
		img.Parent().ReplaceChild(img.Parent(), img, ast.NewString([]byte(label)))
	}
}

// nodeText is the plain text inside n (an image's alt text).
func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// Markdown renders publisher CommonMark as sanitized HTML; "" when nothing visible is left,
// so templates can leave out the element around it. Goldmark cannot fail writing to a
// buffer; if it did, the text is shown escaped. Buffers are reused between renders.
func Markdown(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return "" // most optional fields are empty: no parser for them
	}
	mdOnce.Do(markdownSetup)
	s := mdScratchPool.Get().(*mdScratch)
	defer mdScratchPool.Put(s)
	h := s.render(src)
	if !s.hasText(h) {
		return ""
	}
	return template.HTML(h) // #nosec: sanitized by the allowlist above
}

// Items renders each item with Markdown and keeps, in order, those with something to show.
func Items(items []string) []template.HTML { return renderItems(items, Markdown) }

// renderItems renders each item with render and keeps the non-empty results, in order.
func renderItems(items []string, render func(string) template.HTML) []template.HTML {
	var out []template.HTML
	for _, it := range items {
		if h := render(it); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// mdScratch is one Markdown render's buffers, reused from render to render.
type mdScratch struct {
	src       []byte
	md, clean bytes.Buffer
	rd        bytes.Reader
	text      []byte
}

var mdScratchPool = sync.Pool{New: func() any { return new(mdScratch) }}

// render is src as sanitized HTML, held in s's buffers until s renders again.
func (s *mdScratch) render(src string) []byte {
	s.src = append(s.src[:0], src...)
	s.md.Reset()
	s.clean.Reset()
	if err := mdEngine.Convert(s.src, bufWriter{&s.md}); err != nil {
		template.HTMLEscape(&s.clean, s.src)
		return s.clean.Bytes()
	}
	if len(bytes.TrimSpace(s.md.Bytes())) == 0 {
		return s.md.Bytes() // nothing to sanitize, as SanitizeBytes has it
	}
	s.rd.Reset(s.md.Bytes())
	if err := mdPolicy.SanitizeReaderToWriter(&s.rd, &s.clean); err != nil {
		return nil // what SanitizeBytes gives for markup it cannot read
	}
	return s.clean.Bytes()
}

// hasText reports whether sanitized HTML h shows anything: text outside its tags, or a
// thematic break. Every "<" of h starts a tag (bluemonday escapes text's); one without a
// ">" after it is text.
func (s *mdScratch) hasText(h []byte) bool {
	if bytes.Contains(h, thematicBreak) {
		return true
	}
	s.text = s.text[:0]
	for len(h) > 0 {
		i := bytes.IndexByte(h, '<')
		if i < 0 {
			s.text = append(s.text, h...)
			break
		}
		s.text = append(s.text, h[:i]...)
		j := bytes.IndexByte(h[i:], '>')
		if j < 0 {
			s.text = append(s.text, h[i:]...)
			break
		}
		h = h[i+j+1:]
	}
	return len(bytes.TrimSpace(s.text)) > 0
}

var thematicBreak = []byte("<hr>")

// bufWriter hands goldmark a bytes.Buffer as its buffered writer, sparing a 4 KiB
// bufio.Writer per render.
type bufWriter struct{ *bytes.Buffer }

// Buffered is 0: every byte written is in the buffer already.
func (bufWriter) Buffered() int { return 0 }

// Flush has nothing to do.
func (bufWriter) Flush() error { return nil }

// SafeURL returns u when it is an absolute http or https URL with a host, or a mailto URL,
// and "" otherwise. Publisher URLs are links only when SafeURL accepts them, else text.
func SafeURL(u string) string {
	if u == "" || len(u) > 8192 {
		return ""
	}
	for _, r := range u {
		if r <= ' ' || r == 0x7f || r == '\\' || r == '"' || r == '<' || r == '>' || r == '`' {
			return ""
		}
	}
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" || p.Opaque != "" || p.User != nil {
			return ""
		}
	case "mailto":
		if p.Opaque == "" {
			return ""
		}
	default:
		return ""
	}
	return u
}
