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
