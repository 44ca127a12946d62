package htmlcheck

import (
	"reflect"
	"testing"
)

const page = `<!doctype html><html><head><title>T</title><script>var x = "<a href=/no/>";</script></head>
<body><main id="content" class="page wide">
<!-- <a href="/commented/">no</a> -->
<nav><a href="/a/" class="crumb">A</a> <a href="/b/" class="crumb current" aria-current="page">B</a></nav>
<section data-kind='claim'><h2>Claims   of
 <bdi>Site</bdi></h2><ul><li><a href="https://x.example/p/">p</a></li><li>q</li></ul></section>
</main><footer class="site"><a href="/about/">About</a></footer></body></html>`

func TestSelectors(t *testing.T) {
	doc := Parse(t, []byte(page))
	for sel, want := range map[string][]string{
		"a":                           {"A", "B", "p", "About"},
		"nav a.crumb":                 {"A", "B"},
		"a.crumb.current":             {"B"},
		`a[aria-current="page"]`:      {"B"},
		"a[aria-current]":             {"B"},
		"main > nav > a":              {"A", "B"},
		"main > a":                    nil,
		"main a[href^=https]":         {"p"},
		"a[href$='/p/']":              {"p"},
		"a[href*=about]":              {"About"},
		"a[class~=current]":           {"B"},
		"#content section h2":         {"Claims of Site"},
		"section[data-kind=claim] li": {"p", "q"},
		"footer.site a, h2 bdi":       {"Site", "About"},
		"*[href='/a/']":               {"A"},
		"MAIN > NAV > A[HREF='/b/']":  {"B"},
	} {
		if got := Texts(t, doc, sel); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if got := Attr(One(t, doc, "a.current"), "href"); got != "/b/" {
		t.Errorf("href %q", got)
	}
	if n := Count(t, doc, `a[href="/no/"], a[href="/commented/"]`); n != 0 {
		t.Errorf("a link in a script or a comment matched (%d)", n)
	}
	if got := Text(One(t, doc, "head")); got != "T" {
		t.Errorf("head text %q: script text is not text", got)
	}
}

func TestBadSelectors(t *testing.T) {
	for _, sel := range []string{"", "a,", "> a", "a >", "a:hover", "a[", "a[=x]", "a[x|=y]", "#", ".", "a b + c", "a::before"} {
		if _, err := Compile(sel); err == nil {
			t.Errorf("Compile(%q) accepted a selector outside the subset", sel)
		}
	}
}
