package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
)

// xssCase puts one hostile value into one field of one claim's manifest (or record). Text,
// when set, must appear as visible text on the claim page: the value was shown, escaped, not
// dropped.
type xssCase struct {
	name string
	edit func(m *protocol.Manifest, c *store.Claim)
	text string
}

// pageScripts are the only scripts each page may load, all from assets/.
var pageScripts = map[string]map[string]bool{
	"projects/index.html": {"version.js": true, "shards.js": true, "find.js": true, "site.js": true},
	plan.SetupPage:        {"version.js": true, "openmwcfg.js": true, "shards.js": true, "setupcheck.js": true, "setup.js": true},
	plan.PlanPage:         {"version.js": true, "openmwcfg.js": true, "shards.js": true, "find.js": true, "plan.js": true, "planpage.js": true},
}

func notes(md string) func(*protocol.Manifest, *store.Claim) {
	return func(m *protocol.Manifest, _ *store.Claim) { m.Releases[0].Notes = &protocol.Notes{Summary: md} }
}

var xssCases = []xssCase{
	// Publisher CommonMark: goldmark, then the allowlist.
	{name: "notes script element", edit: notes("before <script>alert(1)</script> after")},
	{name: "notes img onerror", edit: notes(`<img src=x onerror=alert(1)>`)},
	{name: "notes javascript link", edit: notes(`[click](javascript:alert(1))`), text: "click"},
	{name: "notes data link", edit: notes(`[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`)},
	{name: "notes vbscript link", edit: notes(`[x](vbscript:msgbox(1))`)},
	{name: "notes mixed-case scheme", edit: notes(`[x](JaVaScRiPt:alert(1))`)},
	{name: "notes entity-encoded scheme", edit: notes(`[x](&#106;avascript:alert(1)) [y](&#x6A;&#x61;vascript&#58;alert(1))`)},
	{name: "notes tab-split scheme", edit: notes("[x](<java\tscript:alert(1)>) [y](java&#9;script:alert(1)) <java\tscript:alert(1)>")},
	{name: "notes newline-split scheme", edit: notes("[x](java&#10;script:alert(1)) [y](java&#13;script:alert(1))")},
	{name: "notes reference-style link", edit: notes("[click][r]\n\n[r]: javascript:alert(1) \"t\"")},
	{name: "notes reference-style data", edit: notes("[click][r]\n\n[r]: <data:text/html,<script>alert(1)</script>>")},
	{name: "notes autolink javascript", edit: notes(`<javascript:alert(1)>`)},
	{name: "notes raw iframe", edit: notes(`<iframe src="https://evil.example/"></iframe>`)},
	{name: "notes srcset", edit: notes(`<img srcset="javascript:alert(1) 1x, x.png 2x"><picture><source srcset="javascript:alert(1)"></picture>`)},
	{name: "notes style element and attribute", edit: notes("<style>body{display:none}</style>\n\n<p style=\"background:url(javascript:alert(1))\">x</p>")},
	{name: "notes svg", edit: notes(`<svg onload=alert(1)><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>`)},
	{name: "notes mathml", edit: notes(`<math><mi xlink:href="javascript:alert(1)">x</mi></math>`)},
	{name: "notes markdown image", edit: notes(`![an <b>alt</b>](javascript:alert(1)) ![pic](https://evil.example/track.png)`), text: "[image: pic]"},
	{name: "notes object and embed", edit: notes(`<object data="x.swf"></object><embed src="x.swf">`)},
	{name: "notes form", edit: notes(`<form action="javascript:alert(1)"><input type=submit formaction="javascript:alert(1)"><button>go</button></form>`)},
	{name: "notes event handler on a link", edit: notes(`<a href="https://ok.example/" onclick="alert(1)">x</a> [ok](https://ok.example/ "t\" onmouseover=\"alert(1)")`)},
	{name: "notes comment breakout", edit: notes(`<!--><script>alert(1)</script>--> <!-- --!><img src=x onerror=alert(1)> -->`)},
	{name: "notes meta refresh and base", edit: notes(`<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:alert(1)//">`)},
	{name: "notes list items", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Notes = &protocol.Notes{Added: []string{"<script>alert(1)</script>"}, Breaking: []string{"[b](javascript:alert(1))"},
			KnownIssues: []string{"<img src=x onerror=alert(1)>"}, Migration: "<iframe src=x></iframe>", Highlights: "<svg/onload=alert(1)>"}
	}},
	// Publisher plain text: escaped by html/template.
	{name: "project name", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Name = "<script>alert(1)</script>" }, text: "<script>alert(1)</script>"},
	{name: "summary attribute breakout", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Summary = `"><img src=x onerror=alert(1)>` }, text: `"><img src=x onerror=alert(1)>`},
	{name: "tags", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Tags = []string{"<script>x</script>", `" onmouseover="alert(1)`}
	}},
	{name: "credit name and role", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Credits = []protocol.Credit{{Name: "<iframe src=//evil.example>", Role: "<style>*{}</style>", URL: "javascript:alert(1)"}}
	}, text: "<iframe src=//evil.example>"},
	{name: "component description", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Components = []protocol.Component{{ID: "main", Name: "<b onclick=alert(1)>x</b>", Path: ".", Required: true, Default: true,
			Description: "<style>body{}</style>", Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}}}
	}},
	{name: "openmw content file names", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(`{"components":{"main":{"data_directories":["."],` +
			`"content_files":["</script><script>alert(1)</script>.esp","<img src=x onerror=alert(1)>.omwscripts"],"groundcover_files":[],` +
			`"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":["<!--<script>.esm"]}},` +
			`"requires_content":["</SCRIPT>.esm"],"settings":[]}`)}
	}},
	{name: "yank reason", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Status, m.Releases[0].Yanked = "yanked", &protocol.Notice{Reason: "<script>alert(1)</script>", Replacement: "<img src=x>"}
	}},
	{name: "unknown extension JSON", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Extensions = map[string]json.RawMessage{"org.evil": json.RawMessage(`{"x":"</pre><script>alert(1)</script>"}`)}
	}},
	{name: "relationship name, url and reason", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "recommends", Name: "<svg onload=alert(1)>", URL: "JAVASCRIPT:alert(1)", Reason: "<img src=x onerror=alert(1)>"}}
	}, text: "<svg onload=alert(1)>"},
	// Publisher URLs: links only when http, https or mailto.
	{name: "maintainer javascript URL", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Maintainers = []protocol.Person{{Name: "Mallory", URL: "javascript:alert(1)"}}
	}, text: "javascript:alert(1)"},
	{name: "page data URL", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Links.Page = "data:text/html,<script>alert(1)</script>"
	}},
	{name: "source tab-split URL", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Links.Source = "java\tscript:alert(1)" }},
	{name: "issues entity URL", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Links.Issues = "&#106;avascript:alert(1)" }},
	{name: "documentation leading space", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Links.Documentation = " javascript:alert(1)" }},
	{name: "homepage protocol-relative", edit: func(m *protocol.Manifest, _ *store.Claim) { m.Project.Links.Homepage = "//evil.example/x" }},
	{name: "donate quote breakout", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Links.Donate = `https://ok.example/" onmouseover="alert(1)`
	}},
	{name: "media url, alt, caption", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Project.Media = []protocol.Media{{Kind: "image", URL: "javascript:alert(1)", Alt: `" onerror="alert(1)`, Caption: "<script>alert(1)</script>", Thumbnail: "data:image/svg+xml,<svg onload=alert(1)>"}}
	}, text: `" onerror="alert(1)`},
	{name: "artifact source and signature URLs", edit: func(m *protocol.Manifest, _ *store.Claim) {
		a := &m.Releases[0].Artifacts[0]
		a.Filename = "<script>.zip"
		a.Sources = []protocol.ArtifactSource{{URL: "vbscript:msgbox(1)", Kind: "publisher", Name: "<b>x</b>"}, {URL: "data:application/zip;base64,AAAA", Kind: "mirror"}}
		a.Signatures = []protocol.Signature{{Format: "sigstore-bundle", URL: "javascript:alert(1)", Issuer: "<script>", Identity: "<img src=x>"}}
	}, text: "<script>.zip"},
	{name: "release source URLs", edit: func(m *protocol.Manifest, _ *store.Claim) {
		m.Releases[0].Source = protocol.Source{Repository: "javascript:alert(1)", Release: "data:text/html,x", Tag: "<script>"}
	}},
	// Record fields that carry publisher-controlled words.
	{name: "claim problem in the staleness banner", edit: func(_ *protocol.Manifest, c *store.Claim) {
		c.Health, c.Problem = store.ClaimInvalid, ptr(`<img src=x onerror=alert(1)> "at /releases/0"`)
	}, text: "<img src=x onerror=alert(1)>"},
	{name: "card image alt", edit: func(_ *protocol.Manifest, c *store.Claim) {
		c.Media = &store.Media{URL: "https://example.org/card.png", Alt: `"><script>alert(1)</script>`}
	}},
}

// hostilePNG is a tiny opaque image for the card case.
func hostilePNG(tb testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 36))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(3, 3, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestXSSCorpus renders every case through the real build, parses every page with
// golang.org/x/net/html and asserts there is no executable markup anywhere: no script but
// the site's own, no on* attribute, no javascript:/data:/vbscript: URL in any URL attribute
// after entity decoding, no style, iframe, object, embed, svg, math, form or img that the
// site did not put there itself.
func TestXSSCorpus(t *testing.T) {
	if len(xssCases) < 30 {
		t.Fatalf("only %d XSS cases; the issue asks for at least 30", len(xssCases))
	}
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://evil.example/mods/dreamweave.json", "<script>alert('site')</script>")
	card := f.Media(hostilePNG(t), "png")
	pages := map[string]xssCase{}
	for i, tc := range xssCases {
		id := uuid(1000 + i)
		m := sampleManifest(id, "case "+tc.name, 2)
		f.Claim(site, m)
		var rec store.Claim
		if err := f.Dir.ReadJSON(store.ClaimPath(id, site), &rec); err != nil {
			t.Fatal(err)
		}
		tc.edit(m, &rec)
		if rec.Media != nil {
			rec.Media.File = &card
		}
		f.Claim(site, m, func(c *store.Claim) {
			c.Health, c.Problem, c.Media = rec.Health, rec.Problem, rec.Media
			c.Entry.Name = m.Project.Name
		})
		pages[paths.Claim(id, site)] = tc
	}
	// An event whose name and changes carry hostile text.
	first := uuid(1000)
	f.Event(store.Event{Kind: store.EventChanged, Project: first, Origin: site, Name: "<script>alert('event')</script>", ObservedAt: statetest.Time,
		Before: ptr(sha([]byte("a"))), After: ptr(sha([]byte("b"))),
		Changes: []diff.Change{{Change: "project-field", Field: "name", Before: json.RawMessage(`"<img src=x onerror=alert(1)>"`), After: json.RawMessage(`"</li><script>alert(1)</script>"`)}}})

	out := filepath.Join(t.TempDir(), "public")
	res, err := Build(Options{State: state, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	for p, tc := range pages {
		doc := parsePage(t, out, p)
		if tc.text != "" && !htmlcheck.Has(t, doc, "main", tc.text) {
			t.Errorf("%s: the hostile value %q is not shown as text on %s", tc.name, tc.text, p)
		}
	}
	for _, p := range res.Pages {
		doc := parsePage(t, out, p)
		assertInert(t, p, doc)
		for _, prob := range referrerProblems(p, doc) {
			t.Error(prob)
		}
	}
	// The setup page's data parts carry the hostile content file names (as JSON text, checked inert above).
	setup := setupDataOf(t, out)
	for _, name := range []string{"</script><script>alert(1)</script>.esp", "<img src=x onerror=alert(1)>.omwscripts"} {
		if len(setup.ContentFiles[name]) != 1 {
			t.Errorf("the setup data do not list the hostile content file %q: %v", name, setup.ContentFiles)
		}
	}
	// The staleness banner of the "claim problem" case is there, with the problem as text
	// (quoted value marked as the publisher's, no element from it).
	for p, tc := range pages {
		if tc.name != "claim problem in the staleness banner" {
			continue
		}
		doc := parsePage(t, out, p)
		banner := htmlcheck.One(t, doc, "#staleness")
		htmlcheck.Want(t, doc, "#staleness p", "This page may be out of date.", `Invalid publication: <img src=x onerror=alert(1)> "at /releases/0".`)
		if n := htmlcheck.Count(t, banner, "img"); n != 0 {
			t.Errorf("%s: the banner holds %d <img> from the problem text", p, n)
		}
	}
	// The Atom feed's summaries are HTML: they must hold text only.
	var atomDoc struct {
		Entries []struct {
			Summary string `xml:"summary"`
			Title   string `xml:"title"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(readOut(t, out, feed.FeedFile), &atomDoc); err != nil {
		t.Fatal(err)
	}
	if len(atomDoc.Entries) == 0 {
		t.Fatal("the feed has no entries")
	}
	for _, e := range atomDoc.Entries {
		frag, err := html.ParseFragment(strings.NewReader(e.Summary), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range frag {
			walk(n, func(m *html.Node) bool {
				if m.Type == html.ElementNode {
					t.Errorf("the feed summary %q holds the element <%s>", e.Summary, m.Data)
				}
				return true
			})
		}
	}
	// The site still passes check-site: hostile URLs became text, not broken links.
	probs, err := linkcheck.Check(out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("check-site: %s", p)
	}
}

func parsePage(tb testing.TB, out, rel string) *html.Node {
	tb.Helper()
	doc, err := html.Parse(bytes.NewReader(readOut(tb, out, rel)))
	if err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
	return doc
}

func visibleText(doc *html.Node) string {
	var b strings.Builder
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Head) {
			return false
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Img {
			if alt, ok := attr(n, "alt"); ok {
				b.WriteString(alt)
			}
		}
		return true
	})
	return b.String()
}

// urlAttrs are the attributes that take a URL.
var urlAttrs = map[string]bool{"href": true, "src": true, "action": true, "formaction": true, "poster": true,
	"data": true, "cite": true, "background": true, "longdesc": true, "usemap": true, "manifest": true, "xlink:href": true, "ping": true}

// normalizeURL is what a browser effectively sees: ASCII whitespace and control characters
// removed, lowercased.
func normalizeURL(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			continue
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}

func assertInert(t *testing.T, page string, doc *html.Node) {
	t.Helper()
	for _, p := range inertProblems(page, doc) {
		t.Error(p)
	}
}

// inertProblems lists the executable or foreign markup in doc, a page at page.
func inertProblems(page string, doc *html.Node) []string {
	var probs []string
	errorf := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		name := n.Data
		if n.Namespace != "" {
			errorf("%s: foreign element <%s:%s>", page, n.Namespace, name)
		}
		switch n.DataAtom {
		case atom.Script:
			src, _ := attr(n, "src")
			typ, _ := attr(n, "type")
			id, _ := attr(n, "id")
			switch {
			case pageScripts[page][path.Base(src)] && strings.HasSuffix(src, "assets/"+path.Base(src)) && n.FirstChild == nil:
			case (page == plan.SetupPage && id == "setup-data" || page == plan.PlanPage && id == "plan-data") && src == "" && typ == "application/json":
				// The setup data: one JSON text with no "<" at all, so nothing in it can end
				// the element or start markup.
				data := textOf(n)
				if strings.Contains(data, "<") || !json.Valid([]byte(data)) || n.FirstChild == nil || n.FirstChild.NextSibling != nil {
					errorf("%s: the setup data block is not one JSON text free of \"<\": %.200q", page, data)
				}
			default:
				errorf("%s: script element (src %q, type %q)", page, src, typ)
			}
		case atom.Style, atom.Iframe, atom.Object, atom.Embed, atom.Svg, atom.Math, atom.Base, atom.Frame, atom.Frameset,
			atom.Applet, atom.Template, atom.Noscript, atom.Audio, atom.Video, atom.Picture, atom.Source:
			errorf("%s: <%s> element", page, name)
		case atom.Textarea, atom.Button:
			if page != plan.SetupPage && !(page == plan.PlanPage && n.DataAtom == atom.Button) {
				errorf("%s: <%s> element", page, name)
			}
		case atom.Form, atom.Input, atom.Select, atom.Option, atom.Label:
			if page != "projects/index.html" && page != plan.PlanPage && (page != plan.SetupPage || n.DataAtom == atom.Select || n.DataAtom == atom.Option) {
				errorf("%s: <%s> element", page, name)
			}
		case atom.Img:
			class, _ := attr(n, "class")
			src, _ := attr(n, "src")
			if !((class == "card-image" || class == "card-thumb") && path.Base(path.Dir(src)) == "cards") && !(class == "graph" && strings.HasSuffix(src, "graph.svg")) {
				errorf("%s: <img> the site did not make (class %q, src %q)", page, class, src)
			}
		case atom.Meta:
			v, ok := attr(n, "http-equiv")
			switch {
			case !ok || strings.EqualFold(v, "Content-Security-Policy"):
			case v == "refresh" && strings.HasPrefix(page, "projects/"): // a one-site project page: to its claim's, beside it
				content, _ := attr(n, "content")
				to, ok := strings.CutPrefix(content, "0;url=")
				if nu := normalizeURL(to); !ok || !strings.HasSuffix(to, "/index.html") || strings.ContainsAny(nu, ":?#\\") ||
					strings.HasPrefix(nu, "/") || strings.HasPrefix(nu, ".") || strings.Count(to, "/") != 1 {
					errorf("%s: <meta http-equiv=refresh content=%q> does not lead to a page beside it", page, content)
				}
			default:
				errorf("%s: <meta http-equiv=%q>", page, v)
			}
		case atom.Link:
			rel, _ := attr(n, "rel")
			switch rel {
			case "stylesheet", "icon", "alternate", "canonical":
			default:
				errorf("%s: <link rel=%q>", page, rel)
			}
		}
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			if a.Namespace != "" {
				key = a.Namespace + ":" + key
			}
			if strings.HasPrefix(key, "on") {
				errorf("%s: <%s %s=%q>", page, name, key, a.Val)
			}
			if key == "style" {
				errorf("%s: <%s style=%q>", page, name, a.Val)
			}
			var urls []string
			switch {
			case urlAttrs[key] || strings.HasSuffix(key, ":href"):
				urls = []string{a.Val}
			case key == "srcset":
				for _, c := range strings.Split(a.Val, ",") {
					if fs := strings.Fields(c); len(fs) > 0 {
						urls = append(urls, fs[0])
					}
				}
			}
			for _, u := range urls {
				nu := normalizeURL(u)
				for _, bad := range []string{"javascript:", "data:", "vbscript:", "file:"} {
					if strings.HasPrefix(nu, bad) {
						errorf("%s: <%s %s=%q> is a %s URL", page, name, key, u, bad)
					}
				}
				if i := strings.IndexByte(nu, ':'); i > 0 && !strings.ContainsAny(nu[:i], "/?#") {
					switch nu[:i] {
					case "http", "https", "mailto":
					default:
						errorf("%s: <%s %s=%q> has the scheme %q", page, name, key, u, nu[:i])
					}
				}
			}
		}
		return true
	})
	return probs
}

// referrerProblems lists the links of doc (a page at page) that leave the index without the
// index's rule for a publisher's address: each link to an http, https or mailto address but
// this index's own (its repository, DefaultRepository, its issues) carries rel=nofollow, none opens a new browsing
// context (target), and a page with such a link tells the browser to send no referrer (the
// head's <meta name=referrer content=no-referrer>).
func referrerProblems(page string, doc *html.Node) []string {
	var probs []string
	outside := false
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if n.DataAtom != atom.A {
			return true
		}
		if tg, ok := attr(n, "target"); ok {
			probs = append(probs, fmt.Sprintf("%s: a link opens a new browsing context (target=%q)", page, tg))
		}
		href, _ := attr(n, "href")
		nu := normalizeURL(href)
		if !strings.HasPrefix(nu, "http:") && !strings.HasPrefix(nu, "https:") && !strings.HasPrefix(nu, "mailto:") ||
			href == DefaultRepository || strings.HasPrefix(href, DefaultRepository+"/") {
			return true
		}
		outside = true
		if rel, _ := attr(n, "rel"); !hasWord(rel, "nofollow") {
			probs = append(probs, fmt.Sprintf("%s: the outside link %q has rel %q, not nofollow", page, href, rel))
		}
		return true
	})
	metas := 0
	walk(doc, func(n *html.Node) bool {
		if noReferrerMeta.Match(n) {
			metas++
		}
		return true
	})
	if outside && metas != 1 {
		probs = append(probs, page+": links outside the index without one <meta name=referrer content=no-referrer> in its head")
	}
	return probs
}

var noReferrerMeta, _ = htmlcheck.Compile(`head meta[name="referrer"][content="no-referrer"]`)

// hasWord reports whether the space-separated list holds w.
func hasWord(list, w string) bool { return slices.Contains(strings.Fields(list), w) }

func TestXSSHelpersCatchExecutableMarkup(t *testing.T) {
	// referrerProblems must fail on the links it looks for.
	for _, s := range []string{
		`<body><a href="https://x.example/" rel="nofollow">x</a>`,
		`<head><meta name="referrer" content="no-referrer"></head><body><a href="` + DefaultRepository + `.evil.example/">x</a>`,
		`<head><meta name="referrer" content="no-referrer"></head><body><a href="https://x.example/">x</a>`,
		`<head><meta name="referrer" content="no-referrer"></head><body><a href=" MAILTO:a@x.example" rel="noopener">x</a>`,
		`<head><meta name="referrer" content="no-referrer"></head><body><a href="../x/index.html" target="_blank">x</a>`,
	} {
		doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html>" + s + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if len(referrerProblems("x.html", doc)) == 0 {
			t.Errorf("referrerProblems accepts %s", s)
		}
	}
	ok := `<!DOCTYPE html><html><head><meta name="referrer" content="no-referrer"></head><body><a href="https://x.example/" rel="nofollow">x</a><footer><a href="` + DefaultRepository + `">source</a></footer></body></html>`
	if doc, err := html.Parse(strings.NewReader(ok)); err != nil || len(referrerProblems("x.html", doc)) != 0 {
		t.Errorf("referrerProblems refuses %s: %v %v", ok, err, referrerProblems("x.html", doc))
	}

	// The assertions above must fail on the markup they look for, or the corpus proves nothing.
	bad := []string{
		`<script>alert(1)</script>`, `<a href="java&#x09;script:alert(1)">x</a>`, `<a href=" JAVASCRIPT:x">x</a>`,
		`<img src=x onerror=alert(1)>`, `<p style="x">x</p>`, `<svg></svg>`, `<iframe></iframe>`,
		`<a href="data:text/html,x">x</a>`, `<img class="card-image" srcset="cards/a.png 1x, vbscript:x 2x" src="cards/a.png">`,
		`<a href="ftp://x">x</a>`, `<meta http-equiv="refresh" content="0">`, `<form></form>`,
	}
	for _, s := range bad {
		doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><body>" + s + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if len(inertProblems("x.html", doc)) == 0 {
			t.Errorf("inertProblems accepts %s", s)
		}
	}
	// On the setup page: its data block only as one JSON text without "<", and no other script.
	for _, s := range []string{
		`<script type="application/json" id="setup-data">{"a":"<b>x</b>"}</script>`,
		`<script type="application/json" id="setup-data">{"a": </script>`,
		`<script type="application/json" id="other">{}</script>`,
		`<script>alert(1)</script>`, `<script src="../assets/evil.js"></script>`, `<select></select>`,
	} {
		doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><body>" + s + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if len(inertProblems(plan.SetupPage, doc)) == 0 {
			t.Errorf("inertProblems accepts %s on the setup page", s)
		}
	}
}

// TestCorpusOutsideLinksSendNoReferrer: on a generated network's pages and the real one's,
// every link to a publisher's address is rel=nofollow, opens nothing new, and its page sends
// no referrer.
func TestCorpusOutsideLinksSendNoReferrer(t *testing.T) {
	for _, b := range bothBuilds(t) {
		t.Run(b.name, func(t *testing.T) {
			out, res := b.out, b.res
			outside := 0
			for _, p := range res.Pages {
				doc := parsePage(t, out, p)
				outside += htmlcheck.Count(t, doc, `a[href^="http"]`)
				for _, prob := range referrerProblems(p, doc) {
					t.Error(prob)
				}
			}
			if outside == 0 {
				t.Fatal("no page links outside the site: the test checks nothing")
			}
		})
	}
}
