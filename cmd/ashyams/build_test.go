package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// smallState is a generated state of 30 claims on two sites (statetest.Synthetic).
func smallState(t *testing.T) string { return statetest.Synthetic(t, 30).Root }

func runSiteCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(&env{stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// build and check-site on generated states (one of many claims, one a refresh wrote with its
// events), and on the corpus's when ../shared is present.
func TestBuildAndCheckSiteCommands(t *testing.T) {
	t.Run("generated", func(t *testing.T) { buildAndCheckSite(t, smallState(t), "2 sites, 30 claims in the catalog, 0 events") })
	t.Run("refreshed", func(t *testing.T) {
		buildAndCheckSite(t, refreshedState(t), "2 sites, 3 claims in the catalog, 4 events")
	})
	if state, ok := corpustest.Optional(t, "state"); ok {
		t.Run("corpus", func(t *testing.T) { buildAndCheckSite(t, state, "14 sites, 45 claims in the catalog, 15 events") })
	}
}

func buildAndCheckSite(t *testing.T, state, counts string) {
	out := filepath.Join(t.TempDir(), "public")
	code, stdout, stderr := runSiteCmd("build", "--state", state, "--curation", filepath.Join(t.TempDir(), "none.toml"), "--out", out, "--base-url", "https://idx.example/net/")
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, counts) {
		t.Errorf("build output: %q, want %q", stdout, counts)
	}
	code, stdout, stderr = runSiteCmd("check-site", "--out", out, "--base-url", "https://idx.example/net/")
	if code != 0 || !strings.Contains(stdout, "every check passed") {
		t.Fatalf("check-site: exit %d: %s %s", code, stdout, stderr)
	}
	// A broken page: check-site exits 1 naming the page and each problem.
	if err := os.WriteFile(filepath.Join(out, "about", "broken.html"), []byte(`<!DOCTYPE html><html><head><title>x</title></head><body><h1>x</h1><a href="nowhere.html">x</a><p>A recommended mod.</p></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runSiteCmd("check-site", "--out", out)
	if code != 1 {
		t.Fatalf("check-site on a broken site: exit %d", code)
	}
	for _, want := range []string{"about/broken.html: the page has no language", `about/broken.html: href "nowhere.html" does not resolve`, `about/broken.html: uses the word "recommended"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("check-site does not report %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "3 problems") {
		t.Errorf("stderr: %q", stderr)
	}
}

func TestBuildCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"build", "--state", filepath.Join(dir, "missing"), "--out", filepath.Join(dir, "o")}, 1, "no state at " + filepath.Join(dir, "missing") + ": run `.github/state.sh checkout` or `ashyams refresh` first"},
		{[]string{"build", "--nope"}, 2, "flag provided but not defined"},
		{[]string{"build", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"build", "--state", dir, "--out", filepath.Join(dir, "o"), "--base-url", "ftp://x/"}, 1, "--base-url"},
		// An --out overlapping the state is refused by site.Build, whoever calls it (case 3).
		{[]string{"build", "--state", dir, "--out", filepath.Join(dir, "public")}, 1, "the output directory " + filepath.Join(dir, "public") + " is inside the state directory " + dir},
		{[]string{"build", "--state", dir, "--out", dir}, 1, "is the state directory"},
		{[]string{"check-site", "--out", filepath.Join(dir, "missing")}, 1, "check-site"},
		{[]string{"check-site", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--out", filepath.Join(dir, "missing")}, 1, "no built site"},
		{[]string{"serve", "extra"}, 2, `unexpected argument "extra"`},
	} {
		code, _, stderr := runSiteCmd(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
