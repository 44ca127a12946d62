package store

import (
	"strings"
	"testing"
)

func TestNamesMatchReferenceIndex(t *testing.T) {
	cases := []struct {
		fn       func(string) string
		in, want string
	}{
		{SiteID, "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave.json", "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8"},
		{SourceID, "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/", "dreamweave-mp-github-io-dreamweave-mod-template-1d2d6801"},
		{SourceID, "https://dreamweave-mp.github.io/S3ctors-S3cret-St4sh/", "dreamweave-mp-github-io-s3ctors-s3cret-st4sh-5976fff5"},
		{SiteID, "https://dreamweave-mp.github.io/S3ctors-S3cret-St4sh/dreamweave.json", "dreamweave-mp-github-io-s3ctors-s3cret-st4sh-1222b2cc"},
		{SiteID, "https://dreamweave-mp.github.io/dream_archive/dreamweave.json", "dreamweave-mp-github-io-dream-archive-49534853"},
	}
	for _, c := range cases {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestSlugBounds(t *testing.T) {
	if got := Slug("--A__b..C--"); got != "a-b-c" {
		t.Errorf("Slug = %q", got)
	}
	long := ""
	for i := 0; i < 100; i++ {
		long += "ab/"
	}
	if got := Slug(long); len(got) > maxSlug || got[len(got)-1] == '-' {
		t.Errorf("Slug too long or ends in hyphen: %q", got)
	}
}

// One site index spelled several ways has one canonical spelling, so one site id; path, query
// and fragment stay as published; a canonical URL (every name in the corpus) is unchanged, so
// no held record is renamed.
func TestCanonicalURL(t *testing.T) {
	const want = "http://localhost:8080/e1/dreamweave.json"
	for _, in := range []string{
		want,
		"http://LOCALHOST:8080/e1/dreamweave.json",
		"HTTP://localhost.:8080/e1/dreamweave.json",
		"http://LocalHost.:8080/e1/dreamweave.json",
	} {
		if got := CanonicalURL(in); got != want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", in, got, want)
		}
		if SiteID(CanonicalURL(in)) != SiteID(want) {
			t.Errorf("%q names another site", in)
		}
	}
	for in, want := range map[string]string{
		"https://Example.ORG:443/A/B/?Q=1#F":          "https://example.org/A/B/?Q=1#F",
		"http://example.org:80/x":                     "http://example.org/x",
		"http://example.org:443/x":                    "http://example.org:443/x",
		"https://example.org:80/x":                    "https://example.org:80/x",
		"http://example.org:/x":                       "http://example.org/x",
		"https://bücher.example/mods/dreamweave.json": "https://xn--bcher-kva.example/mods/dreamweave.json",
		"https://BÜCHER.example./mods/":               "https://xn--bcher-kva.example/mods/",
		"https://XN--BCHER-KVA.example/mods/":         "https://xn--bcher-kva.example/mods/",
		"http://[::1]:8080/a%2Fb/dreamweave.json":     "http://[::1]:8080/a%2Fb/dreamweave.json",
		"http://[::FFFF:7F00:1]:80/":                  "http://[::ffff:7f00:1]/",
		"http://127.0.0.1:8080/e1/":                   "http://127.0.0.1:8080/e1/",
		"https://example.org":                         "https://example.org",
		"https://Example.org/with%20space/?a=%41":     "https://example.org/with%20space/?a=A",
		"https://my_host.Example/":                    "https://my_host.example/",
		"not a url":                                   "not a url",
		"/relative/path":                              "/relative/path",
		"https://user:pw@Example.org/":                "https://user:pw@Example.org/",
	} {
		if got := CanonicalURL(in); got != want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every URL the reference index named a record by is already canonical: the names stay.
func TestCorpusURLsAreCanonical(t *testing.T) {
	for _, u := range []string{
		"https://dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave.json",
		"https://dreamweave-mp.github.io/DreamWeave-Mod-Template/",
		"https://dreamweave-mp.github.io/S3ctors-S3cret-St4sh/dreamweave.json",
		"https://dreamweave-mp.github.io/dream_archive/dreamweave.json",
	} {
		if got := CanonicalURL(u); got != u {
			t.Errorf("CanonicalURL(%q) = %q: a held record would be renamed", u, got)
		}
	}
}

// RFC 3986 section 6.2.2: %-escape case, escaped unreserved characters and dot segments are
// spellings of one URL, so of one site index (one site id): an enrolled "x/../site/" is the
// site already enrolled as "site/", "%7Emods" is "~mods". Escapes of reserved characters,
// "//" and letter case in the path are the server's business and stay.
func TestCanonicalURLNormalizesPath(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/x/../site/dreamweave.json":      "http://h/site/dreamweave.json",
		"http://h/site/./dreamweave.json":         "http://h/site/dreamweave.json",
		"http://h/a/b/../../site/":                "http://h/site/",
		"http://h/../../site/":                    "http://h/site/",
		"http://h/site/..":                        "http://h/",
		"http://h/site/.":                         "http://h/site/",
		"http://h/a/%2e%2E/site/":                 "http://h/site/",
		"http://h/%7Emods/dreamweave.json":        "http://h/~mods/dreamweave.json",
		"http://h/%7emods/":                       "http://h/~mods/",
		"http://h/%41b%2d%5F/":                    "http://h/Ab-_/",
		"http://h/a%2fb/":                         "http://h/a%2Fb/",
		"http://h/a%c3%a9/":                       "http://h/a%C3%A9/",
		"http://h/a%zz/%4":                        "http://h/a%zz/%4",
		"http://h//a/../b":                        "http://h//b",
		"http://h/A/..x/.x/":                      "http://h/A/..x/.x/",
		"http://h/a/../b?q=../%7e#f/../%7e":       "http://h/b?q=../~#f/../%7e",
		"HTTP://H:80/x/../site/?%7E=1":            "http://h/site/?~=1",
		"https://dreamweave-mp.github.io/a/../b/": "https://dreamweave-mp.github.io/b/",
	} {
		if got := CanonicalURL(in); got != want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", in, got, want)
		}
		if got := CanonicalURL(want); got != want {
			t.Errorf("CanonicalURL is not idempotent on %q: %q", want, got)
		}
		if SiteID(CanonicalURL(in)) != SiteID(want) {
			t.Errorf("%q names another site than %q", in, want)
		}
	}
}

// CanonicalURL is applied to URLs from sources.toml and from redirects: on any input it must
// be idempotent (a canonical URL names the same site when canonicalized again).
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range []string{"http://h/x/../site/", "http://H:80/%7e/./a/..", "https://bücher.example./%2e%2E/", "http://h//a/../b?q=%41#%7e", "http://h/%", "http://[::1]:8080/a%2fb/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := CanonicalURL(s)
		if again := CanonicalURL(c); again != c {
			t.Errorf("CanonicalURL(%q) = %q, but CanonicalURL(%q) = %q", s, c, c, again)
		}
	})
}

// Every URL a state holds (enrolled URLs and site index URLs), the refreshed state's and the
// reference index's, is already canonical and names its record as held: normalising URLs
// renames nothing.
func TestStateNamesUnchanged(t *testing.T) {
	for _, sc := range wholeStates(t) {
		s, err := Open(sc.root).Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range s.Origins {
			if CanonicalURL(o.IndexURL) != o.IndexURL || SiteID(CanonicalURL(o.IndexURL)) != o.ID {
				t.Errorf("%s: site %s (%s) would be renamed %s", sc.name, o.ID, o.IndexURL, SiteID(CanonicalURL(o.IndexURL)))
			}
		}
		for _, src := range s.Sources {
			if CanonicalURL(src.URL) != src.URL {
				t.Errorf("%s: enrolled URL %s is canonicalised to %s", sc.name, src.URL, CanonicalURL(src.URL))
			}
		}
		if len(s.Origins) == 0 || len(s.Sources) == 0 {
			t.Fatalf("%s holds no sites", sc.name)
		}
	}
}

// The reference index's naming rule (FORMATS section 1.8) on the edge cases where a simpler
// rule differs: a port is not part of the readable name (the hash still sees it), a site is
// named by its index URL's directory whatever the file is called, a source naming the index
// itself keeps "dreamweave-json", the readable part is cut at 56 characters, the path is read
// percent-encoded, and the hash is over the url crate's serialization (default port dropped,
// host lowercased, empty path "/"). Expected values were computed outside Go (Python hashlib
// over the rule as FORMATS writes it).
func TestNamesReferenceEdgeCases(t *testing.T) {
	long := "https://example.org/" + strings.Repeat("a-very-long-directory-name/", 4) + "dreamweave.json"
	cases := []struct {
		fn       func(string) string
		in, want string
	}{
		{SiteID, "https://example.org:8443/mods/dreamweave.json", "example-org-mods-7f5402a4"},
		{SiteID, "https://example.org/mods/index.json", "example-org-mods-efb436d2"},
		{SiteID, long, "example-org-a-very-long-directory-name-a-very-long-direc-a18588fa"},
		{SiteID, "https://example.org:443/mods/dreamweave.json", "example-org-mods-f3197d2c"},
		{SiteID, "https://EXAMPLE.org/mods/dreamweave.json", "example-org-mods-f3197d2c"},
		{SiteID, "https://bücher.example/mods/dreamweave.json", "xn-bcher-kva-example-mods-dd43cb3e"},
		{SourceID, "https://example.org/mods/dreamweave.json", "example-org-mods-dreamweave-json-f3197d2c"},
		{SourceID, "https://Example.ORG", "example-org-8198d1ba"},
		{SourceID, "https://example.org/caf%C3%A9/", "example-org-caf-c3-a9-acd6fc6d"},
		{SourceID, "https://example.org/café/", "example-org-caf-c3-a9-acd6fc6d"},
	}
	for _, c := range cases {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	if s := Slug(strings.Repeat("ab-", 40)); len(s) > 56 || strings.HasSuffix(s, "-") {
		t.Errorf("Slug cut: %q", s)
	}
	if u, _ := parseWHATWG("HTTPS://Example.ORG:443"); u.String() != "https://example.org/" {
		t.Errorf("parseWHATWG = %q", u.String())
	}
}

// Every source file and site directory of a state is named by the rule: the refreshed
// state's 2 sources and 2 sites, the reference index's 14 and 14.
func TestStateNamesFollowTheRule(t *testing.T) {
	for _, sc := range wholeStates(t) {
		s, err := Open(sc.root).Load()
		must(t, err)
		for i, src := range s.Sources {
			if got := SourceID(src.URL) + ".json"; got != s.SourceFiles[i] {
				t.Errorf("%s: source %s: named %s, rule gives %s", sc.name, src.URL, s.SourceFiles[i], got)
			}
		}
		for _, o := range s.Origins {
			if got := SiteID(o.IndexURL); got != o.ID {
				t.Errorf("%s: site %s: named %s, rule gives %s", sc.name, o.IndexURL, o.ID, got)
			}
		}
		if len(s.Sources) != sc.sources || len(s.Origins) != sc.origins {
			t.Errorf("%s: %d sources, %d sites, want %d and %d", sc.name, len(s.Sources), len(s.Origins), sc.sources, sc.origins)
		}
	}
}
