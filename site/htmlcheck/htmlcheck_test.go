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

// recorder is a testing.TB that records failures; Fatalf stops the check as FailNow would.
type recorder struct {
	testing.TB
	errors, fatals int
}

type stopped struct{}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }
func (r *recorder) Fatalf(string, ...any) { r.fatals++; panic(stopped{}) }

// run is what check reports to a recorder: its Errorf and Fatalf calls.
func run(t *testing.T, check func(tb testing.TB)) (errors, fatals int) {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil && v != (stopped{}) {
				panic(v)
			}
		}()
		check(r)
	}()
	return r.errors, r.fatals
}

// TestHasWantLacks: Has, Want and Lacks look only in the elements sel matches, and each
// fails the test when sel matches nothing, so an empty selection never passes.
func TestHasWantLacks(t *testing.T) {
	doc := Parse(t, []byte(page))
	for _, c := range []struct {
		name           string
		check          func(tb testing.TB)
		errors, fatals int
	}{
		{"has", func(tb testing.TB) {
			if !Has(tb, doc, "h2", "Claims of Site") || Has(tb, doc, "h2", "About") {
				tb.Errorf("Has")
			}
		}, 0, 0},
		{"has none", func(tb testing.TB) { Has(tb, doc, "table", "x") }, 0, 1},
		{"want", func(tb testing.TB) { Want(tb, doc, "li", "p", "q") }, 0, 0},
		{"want missing", func(tb testing.TB) { Want(tb, doc, "li", "p", "About", "r") }, 2, 0},
		{"want none", func(tb testing.TB) { Want(tb, doc, "table", "x") }, 0, 1},
		{"lacks", func(tb testing.TB) { Lacks(tb, doc, "nav a", "About", "no") }, 0, 0},
		{"lacks present", func(tb testing.TB) { Lacks(tb, doc, "nav a", "A", "B", "C") }, 2, 0},
		{"lacks none", func(tb testing.TB) { Lacks(tb, doc, "table", "x") }, 0, 1},
	} {
		if e, f := run(t, c.check); e != c.errors || f != c.fatals {
			t.Errorf("%s: %d errors and %d fatal, want %d and %d", c.name, e, f, c.errors, c.fatals)
		}
	}
}
