package site

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// TestEscapedBasePaths: a base URL whose path needs escapes (a space, a non-ASCII letter) or
// holds a character html/template escapes in links (an apostrophe, written %27) builds a site
// check-site passes, and serve answers under the base path however the request spells it.
// (break2 cases 3 and 4: check-site refused the apostrophe site it had built; serve answered
// 404 for every URL under an escaped base path, the one it printed included.)
func TestEscapedBasePaths(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	f.Claim(site, sampleManifest(uuid(1), "One", 1))
	for _, c := range []struct{ base, path, alt string }{
		{"https://mods.example.org/my%20index/", "/my%20index/", "/my index/"},
		{"https://mods.example.org/ind%C3%A9x/", "/ind%C3%A9x/", "/ind%c3%a9x/"},
		{"https://mods.example.org/indéx/", "/ind%C3%A9x/", "/ind%c3%a9x/"},
		{"https://mods.example.org/it's/", "/it%27s/", "/it's/"},
	} {
		_, out := build(t, state, Options{BaseURL: c.base})
		problems, err := linkcheck.Check(out, "")
		if err != nil || len(problems) > 0 {
			t.Errorf("%s: check-site: %v %v", c.base, err, problems)
		}
		if got := BasePath(c.base); got != c.path {
			t.Errorf("BasePath(%q) = %q, want %q", c.base, got, c.path)
		}
		srv := httptest.NewServer(preview.Handler(out))
		for _, p := range []string{c.path, c.path + "projects/", c.path + "assets/site.css", c.alt, c.alt + "projects/"} {
			resp, err := http.Get(srv.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("%s: GET %s: %d, want 200", c.base, p, resp.StatusCode)
			}
		}
		srv.Close()
	}
}
