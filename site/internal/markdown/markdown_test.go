package markdown

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

func TestMarkdownKeepsProseAndLinks(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain *em* **strong** `code`", "<p>plain <em>em</em> <strong>strong</strong> <code>code</code></p>\n"},
		{"[site](https://example.org/a?b=c)", `<p><a href="https://example.org/a?b=c" rel="nofollow">site</a></p>` + "\n"},
		{"[http](http://example.org/)", `<p><a href="http://example.org/" rel="nofollow">http</a></p>` + "\n"},
		{"<mailto:a@example.org>", `<p><a href="mailto:a@example.org" rel="nofollow">mailto:a@example.org</a></p>` + "\n"},
		{"- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"},
		{"1. one", "<ol>\n<li>one</li>\n</ol>\n"},
		{"> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>\n"},
		{"```\nx < y\n```", "<pre><code>x &lt; y\n</code></pre>\n"},
		{"a  \nb", "<p>a<br>\nb</p>\n"},
		{"---", "<hr>\n"},
		// Publisher headings never disturb the page outline.
		{"# Big", "<p><strong>Big</strong></p>\n"},
		{"### *Small*", "<p><strong><em>Small</em></strong></p>\n"},
		// Images are dropped; their alt text stays visible.
		{"![a cat](https://example.org/cat.png)", "<p>[image: a cat]</p>\n"},
		{"![](https://example.org/cat.png)", "<p>[image]</p>\n"},
		// Relative and unsafe links lose the link, keep the words.
		{"[rel](/relative/path)", "<p>rel</p>\n"},
		{"[js](javascript:alert(1))", "<p>js</p>\n"},
		{"[ftp](ftp://example.org/)", "<p>ftp</p>\n"},
		// Raw HTML passes goldmark and meets the allowlist: the prose stays, elements and
		// attributes not listed go, and so does what script, style and frames contain.
		{"<b>bold</b>", "<p>bold</p>\n"},
		{"<div onclick=x>hi</div>", "hi"},
		{`<p align="center">Big release: ferns sway.</p>`, "<p>Big release: ferns sway.</p>"},
		{"<details><summary>Full list</summary>\nGrass is greener.\n</details>", "Full list\nGrass is greener.\n"},
		{"<div>\n\n*em* inside\n\n</div>", "\n<p><em>em</em> inside</p>\n"},
		{"<script>alert(1)</script>", ""},
		{"<script>alert(1)</script>\n\nafter", "\n<p>after</p>\n"},
		{"<style>body{display:none}</style>kept", "kept"},
		{"<iframe src=https://evil.example/>frame text</iframe>", ""},
		{"<p onmouseover=alert(1) style=color:red>x</p>", "<p>x</p>"},
		{`<a href="javascript:alert(1)">js</a> text`, "<p>js text</p>\n"},
		{`<a href="https://example.org/" onclick="x">ok</a>`, `<p><a href="https://example.org/" rel="nofollow">ok</a></p>` + "\n"},
		{`<img src=x onerror=alert(1) alt="pic">`, ""},
		{`inline <span onclick=x>span</span> and <script>alert(1)</script> and <svg><script>x</script></svg>`, "<p>inline span and  and </p>\n"},
		{"<!-- comment -->", ""},
	}
	for _, c := range cases {
		if got := string(Markdown(c.in)); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMarkdownItemsDropsEmpty: an item that sanitizes to nothing is left out, so the claim
// page shows no empty bullet (case 1: an added entry of only a <div> was <li></li>).
func TestMarkdownItemsDropsEmpty(t *testing.T) {
	got := Items([]string{"<div>Mossy rocks.</div>", "<script>x()</script>", "  ", "<p></p>", "plain"})
	var texts []string
	for _, h := range got {
		texts = append(texts, htmlcheck.Text(htmlcheck.Parse(t, []byte(h))))
	}
	if !slices.Equal(texts, []string{"Mossy rocks.", "plain"}) {
		t.Errorf("Items = %q, want the two items with words", got)
	}
}

func TestSafeURL(t *testing.T) {
	ok := []string{"https://example.org/", "http://example.org/a b"[:19], "https://example.org/p?q=1#f", "mailto:a@example.org", "HTTPS://EXAMPLE.ORG/"}
	for _, u := range ok {
		if SafeURL(u) != u {
			t.Errorf("SafeURL(%q) refused a web address", u)
		}
	}
	bad := []string{"", "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
		"data:text/html,x", "vbscript:x", "file:///etc/passwd", "ftp://example.org/", "//example.org/x", "/relative",
		"relative/path", "https://", "https:example.org", "mailto:", "https://example.org/\"onmouseover=x", "https://ex ample.org/",
		"https://example.org/\x00", "https://example.org/<script>", "&#106;avascript:alert(1)", "https://example.org\\@evil.example/", "https://example.org@evil.example/",
		strings.Repeat("a", 9000)}
	for _, u := range bad {
		if got := SafeURL(u); got != "" {
			t.Errorf("SafeURL(%q) = %q, want refused", u, got)
		}
	}
}

// markdownProblems lists what must never come out of Markdown, whatever the input.
func markdownProblems(out string) []string {
	allowed := map[atom.Atom]bool{atom.P: true, atom.Br: true, atom.Em: true, atom.Strong: true, atom.Code: true,
		atom.Pre: true, atom.Blockquote: true, atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Hr: true, atom.Del: true, atom.A: true}
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return []string{err.Error()}
	}
	var probs []string
	for _, n := range nodes {
		htmlnode.Walk(n, func(m *html.Node) bool {
			if m.Type != html.ElementNode {
				return true
			}
			if !allowed[m.DataAtom] || m.Namespace != "" {
				probs = append(probs, "element <"+m.Data+">")
			}
			for _, a := range m.Attr {
				switch {
				case m.DataAtom == atom.A && a.Key == "href":
					if SafeURL(a.Val) == "" {
						probs = append(probs, "href "+a.Val)
					}
				case m.DataAtom == atom.A && a.Key == "rel" && a.Val == "nofollow":
				default:
					probs = append(probs, "attribute "+a.Key+"="+a.Val)
				}
			}
			return true
		})
	}
	return probs
}

// FuzzMarkdown: whatever a publisher writes, the output holds only the allowlisted elements,
// no attribute but a link's href (http, https or mailto) and its rel.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"# h\n\n*x* [l](https://a.example/)", "<script>alert(1)</script>", "[x](javascript:alert(1))",
		"![a](data:x)", "<img src=x onerror=y>", "[r]\n\n[r]: vbscript:x", "<a href=\"https://x.example/\" onclick=\"y\">z</a>",
		"<svg><a xlink:href=\"javascript:x\">y</a></svg>", "java\tscript:x <java\tscript:x>", "&#106;avascript:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if probs := markdownProblems(string(Markdown(s))); len(probs) > 0 {
			t.Errorf("Markdown(%q) let through: %v", s, probs)
		}
	})
}

// FuzzSafeURL: whatever a publisher writes as a URL, SafeURL gives back either nothing or the
// same string, and what it gives back is an http(s) URL with a host or a mailto URL, with no
// character that could end an attribute or hide a scheme, and check-site accepts it as a link.
// Seeds: javascript:, data:, vbscript:, entity-encoded and tab- or newline-split schemes,
// mixed case, leading whitespace, unicode look-alikes, protocol-relative and user-info tricks.
func FuzzSafeURL(f *testing.F) {
	for _, s := range []string{
		"https://example.org/", "http://example.org/a?b=c#d", "mailto:a@example.org", "HTTPS://EXAMPLE.ORG/",
		"javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\tjavascript:alert(1)", "java\tscript:alert(1)",
		"java\nscript:alert(1)", "java\x00script:alert(1)", "&#106;avascript:alert(1)", "&#x6A;avascript:alert(1)", "javascript&colon;alert(1)",
		"data:text/html;base64,PHNjcmlwdD4=", "DATA:text/html,x", "vbscript:msgbox(1)", "//evil.example/", "\\\\evil.example\\x",
		"https://example.org@evil.example/", "https://example.org\\@evil.example/", "https:evil.example", "https://", "mailto:",
		"ｊａｖａｓｃｒｉｐｔ:alert(1)", "https://exa\u200bmple.org/", "https://пример.example/", "https://example.org/\"onmouseover=alert(1)",
		"https://example.org/<script>", "\u00a0https://example.org/", "https://example.org/ ", "file:///etc/passwd",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		got := SafeURL(u)
		if got == "" {
			return
		}
		if got != u {
			t.Fatalf("SafeURL(%q) = %q: changed, not accepted or refused", u, got)
		}
		p, err := url.Parse(got)
		if err != nil {
			t.Fatalf("SafeURL accepted %q, which does not parse: %v", got, err)
		}
		switch strings.ToLower(p.Scheme) {
		case "http", "https":
			if p.Host == "" || p.User != nil {
				t.Fatalf("SafeURL accepted %q: no host or user info", got)
			}
		case "mailto":
		default:
			t.Fatalf("SafeURL accepted %q with scheme %q", got, p.Scheme)
		}
		for _, r := range got {
			if r <= ' ' || r == 0x7f || r == '"' || r == '<' || r == '>' || r == '`' || r == '\\' {
				t.Fatalf("SafeURL accepted %q holding %q", got, r)
			}
		}
		probs, err := linkcheck.Check(sitetest.WriteSite(t, map[string]string{"index.html": sitetest.Doc(`<a href="` + html.EscapeString(got) + `">x</a>`)}), "")
		if err != nil || len(probs) > 0 {
			t.Fatalf("check-site refuses the link SafeURL accepted: %v %v", probs, err)
		}
	})
}

// TestMarkdownEmptyRunsNoParser: an empty or blank field (most optional fields of a release)
// is "" without parsing or sanitizing anything: no allocation at all.
func TestMarkdownEmptyRunsNoParser(t *testing.T) {
	for _, in := range []string{"", " ", "\n\t \r\n"} {
		if got := Markdown(in); got != "" {
			t.Errorf("Markdown(%q) = %q, want \"\"", in, got)
		}
		if n := testing.AllocsPerRun(100, func() { Markdown(in) }); n != 0 {
			t.Errorf("Markdown(%q) allocates %.0f times: a parser ran", in, n)
		}
	}
	if n := testing.AllocsPerRun(20, func() { Markdown("*x*") }); n == 0 {
		t.Error("Markdown of text allocates nothing: the measure cannot tell a parser from none")
	}
}

// BenchmarkMarkdown renders, unmemoized, texts like the notes publishers write (prose, lists,
// links, raw HTML) and the hostile texts: the per-text cost a build pays once per distinct text.
func BenchmarkMarkdown(b *testing.B) {
	texts := append([]string{
		"Release 1.0.2 with **bold** notes and a [link](https://example.org/notes).",
		"Fixes the *crash* on load.\n\n- one\n- two\n- three with `code`\n\nSee <https://example.org/changes>.",
		"<p align=\"center\">Big release: ferns sway.</p>\n\n<details><summary>Full list</summary>\nGrass is greener.\n</details>",
	}, hostileMarkdown...)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range texts {
			Markdown(s)
		}
	}
}

// hasTextRef is hasText's rule said as a pattern: strip every tag, look for text left.
func hasTextRef(h string) bool {
	return strings.Contains(h, "<hr>") || strings.TrimSpace(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(h, "")) != ""
}

// FuzzHasText: hasText tells sanitized HTML that shows something from HTML that shows nothing
// exactly as stripping the tags with a pattern does, for any bytes.
func FuzzHasText(f *testing.F) {
	cases := map[string]bool{
		"": false, "<p></p>\n": false, "<p> \n\t</p>": false, "<p>\u3000\u00a0</p>": false, "<br><br>": false,
		"<hr>": true, "<hr>\n": true, "a": true, "<p>a</p>": true, "&lt;": true, "<p>x</p><": true,
		"<a": true, "<p>\n<a href=\"x\"></a></p>": false, "<em></em>.": true, "<p>\xff</p>": true,
	}
	for h, want := range cases {
		if got := new(mdScratch).hasText([]byte(h)); got != want {
			f.Errorf("hasText(%q) = %v, want %v", h, got, want)
		}
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if got, want := new(mdScratch).hasText([]byte(h)), hasTextRef(h); got != want {
			t.Errorf("hasText(%q) = %v, stripping the tags says %v", h, got, want)
		}
	})
}
