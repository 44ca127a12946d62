package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// templateSite serves the corpus's Mod Template site on loopback and returns its enrolled URL.
func templateSite(t *testing.T) (*loopback.Server, string) {
	t.Helper()
	www := filepath.Join("..", "..", "..", "shared", "corpus", "www")
	if _, err := os.Stat(www); err != nil {
		t.Skipf("../shared/corpus is absent (%v): this test serves the real corpus", err)
	}
	srv, err := loopback.Start(os.DirFS(www), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, srv.URL() + "dreamweave-mp.github.io/DreamWeave-Mod-Template/"
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, args)
	return rc, out.String(), errb.String()
}

func TestRefreshCheckInspect(t *testing.T) {
	_, src := templateSite(t)
	dir := t.TempDir()
	srcs := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+src+"\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	state := filepath.Join(dir, "state")
	noCuration := filepath.Join(dir, "curation.toml") // absent: an empty curation

	rc, out, errs := runCmd("refresh", "--sources", srcs, "--curation", noCuration, "--state", state, "--allow-loopback")
	if rc != 0 {
		t.Fatalf("refresh exit %d\n%s\n%s", rc, out, errs)
	}
	if !strings.Contains(out, ": 1 sources, 1 sites read, 2 manifests fetched, 0 unchanged, 2 accepted, 2 events") {
		t.Errorf("summary: %s", out)
	}
	if !strings.Contains(errs, "refresh: source 1/1 "+src) || !strings.Contains(errs, "refresh: site 1/1 ") {
		t.Errorf("progress on stderr: %s", errs)
	}

	rc, out, _ = runCmd("check", "--state", state)
	if rc != 0 || !strings.Contains(out, "every invariant holds") {
		t.Fatalf("check exit %d: %s", rc, out)
	}
	m, _ := filepath.Glob(filepath.Join(state, "claims", "*", "*", "manifest.json"))
	if len(m) != 2 {
		t.Fatalf("%d manifests held", len(m))
	}
	if err := os.WriteFile(m[0], []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, errs = runCmd("check", "--state", state)
	rel, _ := filepath.Rel(state, m[0])
	if rc != 1 || !strings.Contains(out, filepath.ToSlash(rel)+": hashes to ") || !strings.Contains(errs, "broken invariant") {
		t.Errorf("check of a corrupt state: exit %d\n%s\n%s", rc, out, errs)
	}

	rc, out, _ = runCmd("inspect", src, "--allow-loopback")
	if rc != 0 || !strings.Contains(out, "discovery trail:") || !strings.Contains(out, "Candlelight: current") || !strings.Contains(out, "nothing was written") {
		t.Errorf("inspect exit %d:\n%s", rc, out)
	}
	rc, out, _ = runCmd("inspect", src) // loopback refused without the flag
	if rc != 1 || !strings.Contains(out, "refused by the address guard") {
		t.Errorf("inspect without --allow-loopback: exit %d\n%s", rc, out)
	}
}

func TestRefreshRefusesBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	bad := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \"https://ok.example/\"\n\n[[source]]\nurl = \"ftp://nope.example/\"\n")
	rc, _, errs := runCmd("refresh", "--sources", bad, "--state", state)
	if rc != 1 || !strings.Contains(errs, "line 5: [[source]] #2: url \"ftp://nope.example/\" is not an absolute http or https URL") {
		t.Errorf("bad sources: exit %d: %s", rc, errs)
	}
	if _, err := os.Stat(state); err == nil {
		t.Error("a refused source list still touched the state")
	}
	good := writeFile(t, dir, "ok.toml", "[[source]]\nurl = \"https://ok.example/\"\n")
	cur := writeFile(t, dir, "curation.toml", "[[featured]]\nproject = \"not-a-uuid\"\nnote = \"x\"\n")
	rc, _, errs = runCmd("refresh", "--sources", good, "--curation", cur, "--state", state)
	if rc != 1 || !strings.Contains(errs, "not a lowercase UUID") {
		t.Errorf("bad curation: exit %d: %s", rc, errs)
	}
	rc, _, _ = runCmd("refresh", "extra")
	if rc != 2 {
		t.Errorf("an argument: exit %d, want 2", rc)
	}
}
