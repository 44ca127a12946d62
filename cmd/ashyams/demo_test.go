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
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

func runDemoIn(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	_, rc, out, errs := runDemoTmp(t, args...)
	return rc, out, errs
}

// runDemoTmp runs the demo with a fresh TMPDIR (where its work directory goes) and returns it.
func runDemoTmp(t *testing.T, args ...string) (tmp string, rc int, stdout, stderr string) {
	t.Helper()
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out, errb bytes.Buffer
	rc = run(&env{stdout: &out, stderr: &errb}, append([]string{"demo"}, args...))
	return tmp, rc, out.String(), errb.String()
}

// tree reads every file below dir: slash path -> bytes.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = readFile(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// claimDir finds the claim page directory of (project, host) in a built site: site names
// start with the slug of the index URL's host ("lanterns-example-3d995664").
func claimDir(t *testing.T, out, project, host string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "projects", project))
	if err != nil {
		t.Fatalf("project %s has no page directory: %v", project, err)
	}
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), store.Slug(host)+"-") {
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
		"invalid publication: 1", "The example network's site is in " + out,
		"demo: 9 projects, 10 claims (1 identity conflict: one id published by more than one site)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}

	// Every project and every claim has its page, with the publisher's name.
	claims := example.Claims()
	heading := func(path string) string {
		return htmlcheck.Text(htmlcheck.One(t, htmlcheck.Parse(t, []byte(readFile(t, path))), "h1"))
	}
	for _, c := range claims {
		if h := heading(filepath.Join(out, "projects", c.Project, "index.html")); !strings.Contains(h, c.Name) {
			t.Errorf("project page of %s: its heading %q lacks its name %q", c.Project, h, c.Name)
		}
		if h := heading(filepath.Join(claimDir(t, out, c.Project, c.Host), "index.html")); !strings.Contains(h, c.Name) {
			t.Errorf("claim page of %s on %s: its heading %q lacks its name", c.Project, c.Host, h)
		}
	}
	list := readFile(t, filepath.Join(out, "projects", "index.html"))
	for _, c := range claims {
		if !strings.Contains(list, c.Project) {
			t.Errorf("the project list lacks %s (%s)", c.Name, c.Project)
		}
	}

	var cat catalogDoc
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "network-data", "catalog.json"))), &cat); err != nil {
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
	const banner = "This page may be out of date."
	broken := readFile(t, filepath.Join(claimDir(t, out, example.CinderpathID, example.BrokenHost), "index.html"))
	brokenDoc := htmlcheck.Parse(t, []byte(broken))
	if text := htmlcheck.Text(htmlcheck.One(t, brokenDoc, "#staleness")); !strings.Contains(text, banner) {
		t.Errorf("the broken claim's banner lacks %q: %q", banner, text)
	}
	if text := htmlcheck.Text(htmlcheck.One(t, brokenDoc, "main")); !strings.Contains(text, "invalid publication") {
		t.Errorf("the broken claim's page does not say %q", "invalid publication")
	}
	for _, at := range []string{"2026-10-10 00:00:00 UTC", "2026-10-10 06:00:00 UTC"} {
		if !strings.Contains(htmlcheck.Text(htmlcheck.One(t, brokenDoc, "#staleness")), at) {
			t.Errorf("the broken claim's banner does not give the time %s", at)
		}
	}
	// The banner leads in a player's words: its first paragraph names none of the index's
	// terms and no digest; the technical facts (both digests, the problem, the times) are
	// folded into its details.
	lead := htmlcheck.Text(htmlcheck.All(t, brokenDoc, "#staleness > p")[0])
	for _, term := range []string{"manifest", "observation", "SHA-256", "claim"} {
		if strings.Contains(strings.ToLower(lead), strings.ToLower(term)) {
			t.Errorf("the banner's first paragraph says %q: %q", term, lead)
		}
	}
	if n := htmlcheck.Count(t, brokenDoc, "#staleness > p"); n != 1 {
		t.Errorf("the banner has %d paragraphs outside its details, want 1", n)
	}
	digests := 0
	for _, c := range htmlcheck.Texts(t, brokenDoc, "#staleness > details code") {
		if len(c) == 64 && strings.Trim(c, "0123456789abcdef") == "" {
			digests++
		}
	}
	if n := digests; n < 2 {
		t.Errorf("the banner's details hold %d digests, want the advertised and the shown one", n)
	}
	if n := strings.Count(htmlcheck.Text(htmlcheck.One(t, brokenDoc, "#staleness > details")), " UTC"); n != 2 {
		t.Errorf("the banner's details give %d times, want the last success and the last attempt", n)
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
	strong := htmlcheck.Texts(t, htmlcheck.Parse(t, []byte(kwama)), "main strong")
	if !slices.Contains(strong, "Balmora") || !strings.Contains(kwama, "egg sacs glow at dusk") {
		t.Error("the sanitizer dropped the notes' prose")
	}

	// The card image and the featured project.
	ember := readFile(t, filepath.Join(claimDir(t, out, example.EmberglowID, "lanterns.example"), "index.html"))
	card := htmlcheck.Attr(htmlcheck.One(t, htmlcheck.Parse(t, []byte(ember)), "img.card-image"), "src")
	if card == "" {
		t.Fatal("Emberglow's claim page's card image has no src")
	}
	if _, err := os.Stat(filepath.Join(claimDir(t, out, example.EmberglowID, "lanterns.example"), filepath.FromSlash(card))); err != nil {
		t.Errorf("card image %s is not in the build: %v", card, err)
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
	// Served where `ashyams serve` serves it: under the base URL's path.
	if !regexp.MustCompile(`demo: serving \S+ at http://127\.0\.0\.1:\d+/ashyams-go/ `).MatchString(stdout) {
		t.Fatalf("stdout does not print the URL:\n%s", stdout)
	}
	if strings.Contains(stdout, "or run:") {
		t.Errorf("--serve serves the site itself, but stdout tells the user to run serve:\n%s", stdout)
	}
}

func TestDemoRefusesToBuildOverSomeonesFiles(t *testing.T) {
	out := t.TempDir()
	keep := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, stdout, stderr := runDemoIn(t, "--out", out)
	want := "ashyams demo: --out: " + out + " is not empty and holds no .ashyams-site: it is not a previous build, so it is left alone (remove it or name another directory)\n"
	if rc != 1 || stderr != want {
		t.Fatalf("exit %d: stderr %q, want %q", rc, stderr, want)
	}
	if stdout != "" {
		t.Errorf("the demo started before refusing its --out:\n%s", stdout)
	}
	if readFile(t, keep) != "mine" {
		t.Fatal("the demo changed a file it did not write")
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Fatalf("the demo wrote into a foreign directory: %v", ents)
	}
}

// An --out that is a file is refused before the crawl too.
func TestDemoRefusesAFileAsOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if err := os.WriteFile(out, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, stdout, stderr := runDemoIn(t, "--out", out)
	if want := "ashyams demo: --out: " + out + " is not a directory\n"; rc != 1 || stdout != "" || stderr != want {
		t.Fatalf("exit %d: stdout %q, stderr %q, want %q", rc, stdout, stderr, want)
	}
	if readFile(t, out) != "mine" {
		t.Fatal("the demo changed the file")
	}
}

func TestDemoUsage(t *testing.T) {
	if rc, _, stderr := runDemoIn(t, "extra"); rc != 2 || !strings.HasPrefix(stderr, "ashyams demo: unexpected argument \"extra\"\nusage: ashyams demo [flags]\n") {
		t.Fatalf("exit %d: %s", rc, stderr)
	}
	if rc, _, stderr := runDemoIn(t, "--serve", "--addr", "256.0.0.1:99999"); rc != 1 || !strings.Contains(stderr, "\nashyams demo: serve: listen tcp: ") {
		t.Fatalf("bad --addr: exit %d: %s", rc, stderr)
	}
}

// Two demo runs build byte-identical sites: the URLs are the example's own
// http://<host>.example/ (no loopback port anywhere), the site ids are named after the hosts,
// and publisher links point at the example sites, never at a closed loopback port.
func TestDemoBuildsTheSameBytesEveryRun(t *testing.T) {
	var sites [2]map[string]string
	for i := range sites {
		out := filepath.Join(t.TempDir(), "site")
		if rc, stdout, stderr := runDemoIn(t, "--out", out); rc != 0 {
			t.Fatalf("run %d: exit %d\n%s\n%s", i+1, rc, stdout, stderr)
		}
		sites[i] = tree(t, out)
	}
	if len(sites[0]) == 0 || len(sites[0]) != len(sites[1]) {
		t.Fatalf("the runs built %d and %d files", len(sites[0]), len(sites[1]))
	}
	for p, b := range sites[0] {
		if sites[1][p] != b {
			t.Errorf("%s differs between two runs", p)
		}
		if strings.Contains(b, "127.0.0.1") {
			t.Errorf("%s names a loopback address", p)
		}
	}
	var cat catalogDoc
	if err := json.Unmarshal([]byte(sites[0]["network-data/catalog.json"]), &cat); err != nil {
		t.Fatal(err)
	}
	origins := map[string]bool{}
	for _, c := range cat.Claims {
		origins[c.Origin] = true
	}
	for _, h := range example.Hosts {
		found := false
		for o := range origins {
			found = found || strings.HasPrefix(o, store.Slug(h)+"-")
		}
		if !found {
			t.Errorf("no catalog origin is named after %s: %v", h, origins)
		}
	}
	ember := ""
	for p, b := range sites[0] {
		if strings.HasPrefix(p, "projects/"+example.EmberglowID+"/lanterns-example-") && strings.HasSuffix(p, "/index.html") {
			ember = b
		}
	}
	for _, want := range []string{`a[href="http://lanterns.example/emberglow/"]`, `a[href^="http://lanterns.example/downloads/"]`} {
		if htmlcheck.Count(t, htmlcheck.Parse(t, []byte(ember)), "main "+want) == 0 {
			t.Errorf("Emberglow's claim page lacks a publisher link %s", want)
		}
	}
}

// The state is temporary: without --state nothing of it is left in TMPDIR; with --out absent
// the only thing left is the site the demo printed.
func TestDemoRemovesItsTemporaryState(t *testing.T) {
	tmp, rc, stdout, stderr := runDemoTmp(t, "--out", filepath.Join(t.TempDir(), "site"))
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, stdout, stderr)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("the demo left %v in TMPDIR", ents)
	}
	tmp, rc, stdout, stderr = runDemoTmp(t)
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, stdout, stderr)
	}
	ents, _ := os.ReadDir(tmp)
	if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "ashyams-demo-site-") {
		t.Fatalf("TMPDIR holds %v, want only the built site", ents)
	}
	site := filepath.Join(tmp, ents[0].Name())
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "The example network's site is in "+site) || !strings.Contains(stdout, " serve --out "+site+" (it serves the site at http://127.0.0.1:8080/ashyams-go/)") {
		t.Errorf("stdout does not name the site and how to serve it:\n%s", stdout)
	}
	if strings.Contains(stdout, "state is in") {
		t.Errorf("stdout names a state that was removed:\n%s", stdout)
	}
}

// --state DIR keeps the state, which passes check; a non-empty DIR is refused before anything
// is written.
func TestDemoKeepsTheStateWhenAsked(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	rc, stdout, stderr := runDemoIn(t, "--state", state, "--out", filepath.Join(t.TempDir(), "site"))
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, stdout, stderr)
	}
	if !strings.Contains(stdout, "Its state is in "+state) {
		t.Errorf("stdout does not name the kept state:\n%s", stdout)
	}
	if ps := store.Open(state).Check(); len(ps) != 0 {
		t.Fatalf("the kept state does not check: %v", ps)
	}
	snap, err := store.Open(state).Load()
	if err != nil || len(snap.Claims) != len(example.Claims()) {
		t.Fatalf("kept state: %v, claims %d", err, len(snap.Claims))
	}

	before := tree(t, state)
	out := filepath.Join(t.TempDir(), "site")
	rc, _, stderr = runDemoIn(t, "--state", state, "--out", out)
	if rc != 1 || !strings.HasPrefix(stderr, "ashyams demo: --state: "+state+" is not empty") {
		t.Fatalf("non-empty --state: exit %d: %s", rc, stderr)
	}
	after := tree(t, state)
	if len(after) != len(before) {
		t.Fatalf("a refused demo changed the state: %d files, was %d", len(after), len(before))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("a refused demo changed %s", p)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused demo built a site: %v", err)
	}
}

func TestSelfCommand(t *testing.T) {
	for arg0, want := range map[string]string{
		"./ashyams":                            "./ashyams",
		"ashyams":                              "ashyams",
		"/tmp/go-build123456/b001/exe/ashyams": "go run ./cmd/ashyams",
		"":                                     "go run ./cmd/ashyams",
	} {
		if got := selfCommand(arg0); got != want {
			t.Errorf("selfCommand(%q) = %q, want %q", arg0, got, want)
		}
	}
}
