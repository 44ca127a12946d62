package store

import "testing"

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
		"https://Example.org/with%20space/?a=%41":     "https://example.org/with%20space/?a=%41",
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
