package discover

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

func TestFindLink(t *testing.T) {
	page, _ := url.Parse("https://example.org/site/sub/page.html?q=1#frag")
	cases := []struct {
		name, html string
		want       Link
		ok         bool
	}{
		{"relative href", `<!doctype html><html><head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="../dreamweave.json"></head><body></body></html>`,
			Link{"https://example.org/site/dreamweave.json", KindIndex}, true},
		{"absolute href", `<head><link rel=alternate type=application/vnd.dreamweave.index+json href="https://cdn.example.net/i.json"></head>`,
			Link{"https://cdn.example.net/i.json", KindIndex}, true},
		{"root-relative href", `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="/dreamweave.json">`,
			Link{"https://example.org/dreamweave.json", KindIndex}, true},
		{"several rel tokens, any case", `<head><LINK REL="Feed  ALTERNATE	me" TYPE="Application/VND.DreamWeave.Index+JSON; charset=utf-8" HREF=" idx.json "></head>`,
			Link{"https://example.org/site/sub/idx.json", KindIndex}, true},
		{"self-closing", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="a.json"/></head>`,
			Link{"https://example.org/site/sub/a.json", KindIndex}, true},
		{"project link", `<head><link rel="alternate" type="application/vnd.dreamweave.project+json" href="p.json"></head>`,
			Link{"https://example.org/site/sub/p.json", KindProject}, true},
		{"index link wins over an earlier project link", `<head><link rel="alternate" type="application/vnd.dreamweave.project+json" href="p.json"><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"></head>`,
			Link{"https://example.org/site/sub/i.json", KindIndex}, true},
		{"first index link wins", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="one.json"><link rel="alternate" type="application/vnd.dreamweave.index+json" href="two.json"></head>`,
			Link{"https://example.org/site/sub/one.json", KindIndex}, true},
		{"base href is not read", `<head><base href="https://elsewhere.example/"><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"></head>`,
			Link{"https://example.org/site/sub/i.json", KindIndex}, true},
		{"after title, style and script with markup-like text", `<head><title>a <link> b</title><style>p{}</style><script>var s = "<body>";</script><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"></head>`,
			Link{"https://example.org/site/sub/i.json", KindIndex}, true},
		{"no head tags at all", `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"><p>hi`,
			Link{"https://example.org/site/sub/i.json", KindIndex}, true},
		{"link in body ignored", `<html><head><title>x</title></head><body><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"></body></html>`, Link{}, false},
		{"link after body content ignored", `<head></head><p>text</p><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json">`, Link{}, false},
		{"link after stray text ignored", `stray text <link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json">`, Link{}, false},
		{"a element ignored", `<head></head><body><a rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json">index</a></body>`, Link{}, false},
		{"a in head position ignored", `<a rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json">`, Link{}, false},
		{"link in template ignored", `<head><template><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"></template></head>`, Link{}, false},
		{"link in comment ignored", `<head><!-- <link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"> --></head>`, Link{}, false},
		{"rel without alternate", `<head><link rel="stylesheet" type="application/vnd.dreamweave.index+json" href="i.json"></head>`, Link{}, false},
		{"rel as a substring only", `<head><link rel="alternates" type="application/vnd.dreamweave.index+json" href="i.json"></head>`, Link{}, false},
		{"other type", `<head><link rel="alternate" type="application/atom+xml" href="atom.xml"></head>`, Link{}, false},
		{"no type", `<head><link rel="alternate" href="i.json"></head>`, Link{}, false},
		{"empty href", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="  "></head>`, Link{}, false},
		{"no href", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json"></head>`, Link{}, false},
		{"unparseable href skipped", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="http://[::1"><link rel="alternate" type="application/vnd.dreamweave.index+json" href="ok.json"></head>`,
			Link{"https://example.org/site/sub/ok.json", KindIndex}, true},
		{"unterminated tag", `<head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="i.json"`, Link{}, false},
		{"unclosed head, unquoted attributes", `<html><head><meta charset=utf-8><link rel=alternate type=application/vnd.dreamweave.index+json href=i.json>`,
			Link{"https://example.org/site/sub/i.json", KindIndex}, true},
		{"not HTML at all", "\x00\xff\xfe garbage <<<>>>", Link{}, false},
		{"empty", ``, Link{}, false},
	}
	for _, tc := range cases {
		got, ok, _ := ReadLinks([]byte(tc.html), page)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: ReadLinks = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFindLinkFrontPages: the front pages of corpustest.Sites (the corpus's, or their
// stand-ins) link their index only in their body, which never counts, nor does a <link> or an
// <a> with a DreamWeave type there; a page with the <link> in its head gives it. With ../shared, of every corpus front page only S3ctors-S3cret-St4sh's links its
// index.
func TestFindLinkFrontPages(t *testing.T) {
	pages := map[string][]byte{corpustest.SitesHost + "/linked/index.html": page(link("dreamweave.json")).Data,
		// the <link> and an <a> like it, both after the body has begun in a head left open
		corpustest.SitesHost + "/in-body/index.html": []byte("<!doctype html><html><head><title>t</title><p>" +
			link("dreamweave.json") + strings.Replace(link("dreamweave.json"), "<link", "<a", 1) + "</p></html>")}
	for p, b := range corpustest.Sites(t) {
		if strings.HasSuffix(p, "/index.html") {
			pages[p] = b
		}
	}
	links := 1 // linked's
	if www, ok := corpustest.Optional(t, "www"); ok {
		links++ // S3ctors-S3cret-St4sh's
		files, _ := filepath.Glob(filepath.Join(www, corpustest.SitesHost, "*", "index.html"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(www, f)
			pages[filepath.ToSlash(rel)] = b
		}
	}
	found := 0
	for p, b := range pages {
		site := path.Dir(p)
		base, _ := url.Parse("https://" + site + "/")
		l, ok, _ := ReadLinks(b, base)
		if base := path.Base(site); base == "S3ctors-S3cret-St4sh" || base == "linked" {
			found++
			if want := (Link{"https://" + site + "/dreamweave.json", KindIndex}); !ok || l != want {
				t.Errorf("%s: %+v %v; want %+v", site, l, ok, want)
			}
		} else if ok {
			t.Errorf("%s: found %+v; its front page has no DreamWeave <link> (its body <a> must not count)", site, l)
		}
	}
	if len(pages) < 4 || found != links {
		t.Errorf("%d front pages read, %d with a <link>; want %d", len(pages), found, links)
	}
}

// TestReadLinksIgnored: a DreamWeave <link> whose href is empty or not a URL is skipped and
// reported with why, in document order, beside the link that is used; links that are not
// DreamWeave links are not reported at all. A long href is cut in the trail's words.
func TestReadLinksIgnored(t *testing.T) {
	base, _ := url.Parse("https://example.org/site/page.html")
	idx := `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="%s">`
	prj := `<link rel="alternate" type="application/vnd.dreamweave.project+json" href="%s">`
	l := func(f, h string) string { return strings.Replace(f, "%s", h, 1) }
	page := "<head>" + l(prj, "http://[::1") + l(idx, "  ") + `<link rel="stylesheet" href="http://[bad">` + l(prj, "p.json") + l(idx, "%zz") + "</head>"
	got, ok, ignored := ReadLinks([]byte(page), base)
	if !ok || got != (Link{"https://example.org/site/p.json", KindProject}) {
		t.Errorf("link %+v, %v; want the project link p.json", got, ok)
	}
	var words []string
	for _, ig := range ignored {
		words = append(words, ig.String())
	}
	want := []string{
		`ignored <link> href "http://[::1": not a URL (missing ']' in host)`,
		`ignored <link> href "": empty`,
		`ignored <link> href "%zz": not a URL (invalid URL escape "%zz")`,
	}
	if strings.Join(words, "\n") != strings.Join(want, "\n") {
		t.Errorf("ignored:\n%s\nwant:\n%s", strings.Join(words, "\n"), strings.Join(want, "\n"))
	}
	long := Ignored{Href: "http://[" + strings.Repeat("é", 300), Why: "not a URL"}.String()
	if !utf8.ValidString(long) || !strings.HasSuffix(long, `…": not a URL`) || len(long) > maxIgnoredHref+40 {
		t.Errorf("a long href is not cut on a rune boundary: %q", long)
	}
}

func FuzzFindLink(f *testing.F) {
	www, _ := corpustest.Find("www")
	pages, _ := filepath.Glob(filepath.Join(www, "dreamweave-mp.github.io", "*", "index.html"))
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<head><link rel=alternate type=application/vnd.dreamweave.index+json href=../i.json></head>`))
	f.Add([]byte(`<head><template><link rel=alternate type=application/vnd.dreamweave.project+json href=p.json></template><title><body></title>`))
	base, _ := url.Parse("https://example.org/site/page.html")
	f.Fuzz(func(t *testing.T, page []byte) {
		l, ok, ignored := ReadLinks(page, base)
		for _, ig := range ignored {
			if w := ig.String(); !utf8.ValidString(ig.Why) || !strings.HasPrefix(w, "ignored <link> href \"") || len(w) > maxIgnoredHref+len(ig.Why)+64 {
				t.Fatalf("ignored link words %q", w)
			}
		}
		if !ok {
			if l != (Link{}) {
				t.Fatalf("no link but %+v", l)
			}
			return
		}
		if l.Kind != KindIndex && l.Kind != KindProject {
			t.Fatalf("kind %q", l.Kind)
		}
		u, err := url.Parse(l.Href)
		if err != nil || !u.IsAbs() {
			t.Fatalf("href %q is not an absolute URL: %v", l.Href, err)
		}
		if !strings.Contains(strings.ToLower(string(page)), "dreamweave") {
			t.Fatalf("found %+v in a page that never mentions a DreamWeave media type", l)
		}
	})
}
