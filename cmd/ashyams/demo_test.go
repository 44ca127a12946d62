package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
)

func runDemoIn(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir()) // the demo's state and sources go to a fresh temp dir
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, append([]string{"demo"}, args...))
	return rc, out.String(), errb.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// claimDir finds the claim page directory of (project, host) in a built site: site names are
// the slug of the loopback index URL, which holds the host's slug.
func claimDir(t *testing.T, out, project, host string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "projects", project))
	if err != nil {
		t.Fatalf("project %s has no page directory: %v", project, err)
	}
	for _, e := range ents {
		if e.IsDir() && strings.Contains(e.Name(), "-"+store.Slug(host)+"-") {
			return filepath.Join(out, "projects", project, e.Name())
		}
	}
	t.Fatalf("no claim page for %s on %s among %v", project, host, ents)
	return ""
}

type catalogDoc struct {
	Claims []struct {
		Project     string `json:"project"`
		Origin      string `json:"origin"`
		Health      string `json:"health"`
		Cached      bool   `json:"cached"`
		LastSuccess string `json:"last_success"`
		LastAttempt string `json:"last_attempt"`
	} `json:"claims"`
	Conflicts []struct {
		Project string `json:"project"`
		Claims  []struct {
			Origin string `json:"origin"`
		} `json:"claims"`
	} `json:"conflicts"`
}

// The README's first command, end to end: the built site shows every example project, the
// identity conflict, the gaps, a staleness banner for the broken site, the card image and the
// featured project, and neutralizes the hostile notes.
func TestDemoBuildsTheExampleNetwork(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	rc, stdout, stderr := runDemoIn(t, "--out", out)
	if rc != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", rc, stdout, stderr)
	}
	for _, want := range []string{"every invariant holds", "check-site: " + out + ": every check passed",
		"invalid: 1", "The example network's site is in " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}

	// Every project and every claim has its page, with the publisher's name.
	claims := example.Claims()
	for _, c := range claims {
		if p := readFile(t, filepath.Join(out, "projects", c.Project, "index.html")); !strings.Contains(p, c.Name) {
			t.Errorf("project page of %s lacks its name %q", c.Project, c.Name)
		}
		if p := readFile(t, filepath.Join(claimDir(t, out, c.Project, c.Host), "index.html")); !strings.Contains(p, c.Name) {
			t.Errorf("claim page of %s on %s lacks its name", c.Project, c.Host)
		}
	}
	list := readFile(t, filepath.Join(out, "projects", "index.html"))
	for _, c := range claims {
		if !strings.Contains(list, c.Project) {
			t.Errorf("the project list lacks %s (%s)", c.Name, c.Project)
		}
	}

	var cat catalogDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "catalog.json"))), &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Claims) != len(claims) {
		t.Errorf("catalog.json has %d claims, the example %d", len(cat.Claims), len(claims))
	}

	// The identity conflict: Wickwork from two sites, both shown.
	if len(cat.Conflicts) != 1 || cat.Conflicts[0].Project != example.WickworkID || len(cat.Conflicts[0].Claims) != 2 {
		t.Errorf("catalog conflicts %+v, want Wickwork from two sites", cat.Conflicts)
	}
	conflicts := readFile(t, filepath.Join(out, "conflicts", "index.html"))
	for _, h := range []string{"lanterns.example", "ashfall.example"} {
		if !strings.Contains(conflicts, filepath.Base(claimDir(t, out, example.WickworkID, h))) {
			t.Errorf("the conflicts page does not show Wickwork's claim on %s", h)
		}
	}

	// The gaps: a project id, a capability and a URL nobody in the network publishes.
	gaps := readFile(t, filepath.Join(out, "gaps", "index.html"))
	for _, want := range []string{example.GapID, example.GapCapability, example.GapURL, "inspect"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("the gaps page lacks %q", want)
		}
	}

	// The broken site: its claim keeps the last good manifest under a staleness banner that
	// names both times; every other claim is current and has no banner.
	const banner = "Cached from the last successful observation"
	broken := readFile(t, filepath.Join(claimDir(t, out, example.CinderpathID, example.BrokenHost), "index.html"))
	for _, want := range []string{banner, "invalid publication", `datetime="2026-10-10T00:00:00Z"`, `datetime="2026-10-10T06:00:00Z"`} {
		if !strings.Contains(broken, want) {
			t.Errorf("the broken claim's page lacks %q", want)
		}
	}
	for _, c := range cat.Claims {
		wantHealth, wantCached := "current", false
		if c.Project == example.CinderpathID {
			wantHealth, wantCached = "invalid", true
		}
		if c.Health != wantHealth || c.Cached != wantCached {
			t.Errorf("catalog claim %s on %s: health %s cached %v, want %s %v", c.Project, c.Origin, c.Health, c.Cached, wantHealth, wantCached)
		}
	}
	for _, c := range claims {
		if c.Project == example.CinderpathID {
			continue
		}
		if strings.Contains(readFile(t, filepath.Join(claimDir(t, out, c.Project, c.Host), "index.html")), banner) {
			t.Errorf("current claim %s on %s shows a staleness banner", c.Name, c.Host)
		}
	}

	// The hostile notes are neutralized on every page; their prose survives.
	hostile := regexp.MustCompile(`(?i)<script>alert|<iframe|<style>body|onerror\s*=|javascript:alert|kwama-script|kwama-img`)
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		if m := hostile.FindString(readFile(t, p)); m != "" {
			t.Errorf("%s carries hostile markup %q", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	kwama := readFile(t, filepath.Join(claimDir(t, out, example.KwamaID, "lanterns.example"), "index.html"))
	if !strings.Contains(kwama, "<strong>Balmora</strong>") || !strings.Contains(kwama, "egg sacs glow at dusk") {
		t.Error("the sanitizer dropped the notes' prose")
	}

	// The card image and the featured project.
	ember := readFile(t, filepath.Join(claimDir(t, out, example.EmberglowID, "lanterns.example"), "index.html"))
	m := regexp.MustCompile(`<img class="card-image" src="([^"]+)"`).FindStringSubmatch(ember)
	if m == nil {
		t.Fatal("Emberglow's claim page has no card image")
	}
	if _, err := os.Stat(filepath.Join(claimDir(t, out, example.EmberglowID, "lanterns.example"), filepath.FromSlash(m[1]))); err != nil {
		t.Errorf("card image %s is not in the build: %v", m[1], err)
	}
	home := readFile(t, filepath.Join(out, "index.html"))
	if !strings.Contains(home, "Emberglow shows most of what a manifest can say") {
		t.Error("the home page lacks the featured project's curation note")
	}

	// The second refresh's update: Emberglow's development build moved.
	if updates := readFile(t, filepath.Join(out, "updates", "index.html")); !strings.Contains(updates, "2.2.0-dev.6") {
		t.Error("the updates page lacks Emberglow's new development build")
	}
}

func TestDemoServesTheBuiltSite(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	oldCtx, oldHook := demoContext, demoServing
	t.Cleanup(func() { demoContext, demoServing = oldCtx, oldHook })
	demoContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	var home, project int
	var body string
	demoServing = func(url string) {
		defer cancel()
		get := func(u string) (int, string) {
			resp, err := http.Get(u)
			if err != nil {
				t.Errorf("GET %s: %v", u, err)
				return 0, ""
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		home, body = get(url)
		project, _ = get(url + "projects/" + example.EmberglowID + "/")
	}
	rc, stdout, stderr := runDemoIn(t, "--serve", "--addr", "127.0.0.1:0")
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, stdout, stderr)
	}
	if home != 200 || project != 200 || !strings.Contains(body, "Emberglow") {
		t.Fatalf("served home %d, project %d", home, project)
	}
	if !regexp.MustCompile(`demo: serving \S+ at http://127\.0\.0\.1:\d+/`).MatchString(stdout) {
		t.Fatalf("stdout does not print the URL:\n%s", stdout)
	}
}

func TestDemoRefusesToBuildOverSomeonesFiles(t *testing.T) {
	out := t.TempDir()
	keep := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, _, stderr := runDemoIn(t, "--out", out)
	if rc != 1 || !strings.Contains(stderr, "demo: build:") {
		t.Fatalf("exit %d: %s", rc, stderr)
	}
	if readFile(t, keep) != "mine" {
		t.Fatal("the demo changed a file it did not write")
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Fatalf("the demo wrote into a foreign directory: %v", ents)
	}
}

func TestDemoUsage(t *testing.T) {
	if rc, _, stderr := runDemoIn(t, "extra"); rc != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Fatalf("exit %d: %s", rc, stderr)
	}
	if rc, _, stderr := runDemoIn(t, "--serve", "--addr", "256.0.0.1:99999"); rc != 1 || !strings.Contains(stderr, "demo: serve:") {
		t.Fatalf("bad --addr: exit %d: %s", rc, stderr)
	}
}
