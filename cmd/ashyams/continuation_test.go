package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/refstate"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// The continuation: this index takes over the reference index's state as its operator would
// (docs/adoption.md). The reference's network-state branch is on a local bare remote of its
// own; the operator fetches it, pushes it as this index's network-state, checks it out with
// .github/state.sh and checks it. The built ashyams then refreshes it against the same
// documents at the same URLs. Nothing the sites publish changed, so the refresh downloads no
// manifest, records no event, keeps every held manifest, site index and event byte for byte
// and every first_observed, and leaves every claim current; the state it leaves passes check
// and builds, and its commit is pushed. The hand-back: the branch pushed back to the
// reference's remote is a fast-forward of the reference's, and a clone of it reads under the
// reference's loader rules, with this index's own files and without.
//
// Two reference states: a generated one, the state of refreshtest's Network without this
// index's own files and without its cached image, refreshed against the same loopback sites;
// and, when ../shared is present, ../shared/corpus/state (45 claims, 3 card images not held),
// refreshed against the corpus's documents at their real URLs, served byte for byte by
// ../shared/tools/realnet.py in a loopback-only namespace.
func TestContinueTheReferenceState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs whole refreshes; skipped with -short")
	}
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		n := refreshtest.New(t)
		urls := n.Network()
		for _, rel := range []string{store.OwnDir, store.MediaDir} {
			if err := os.RemoveAll(filepath.Join(n.State, rel)); err != nil {
				t.Fatal(err)
			}
		}
		dir := t.TempDir()
		var toml string
		for _, u := range urls {
			toml += fmt.Sprintf("[[source]]\nurl = %q\nadded = \"2026-09-28\"\nnote = \"A loopback site.\"\n\n", u)
		}
		sources, curation := writeFile(t, dir, "sources.toml", toml), writeFile(t, dir, "curation.toml", "# No decisions.\n")
		host := strings.TrimPrefix(n.URL(""), "http://")
		continueState(t, continuation{state: n.State, sources: sources, curation: curation, claims: 3, missingMedia: 1,
			refresh: func(cmd *exec.Cmd) []logged {
				n.ForgetRequests()
				if err := cmd.Run(); err != nil {
					t.Fatalf("refresh: %v\nstdout:\n%s\nstderr:\n%s", err, cmd.Stdout, cmd.Stderr)
				}
				var out []logged
				for _, p := range n.Requests() {
					out = append(out, logged{Method: "GET", Host: host, Path: p})
				}
				return out
			}})
	})
	root, ok := corpustest.FindShared("")
	if _, corpus := corpustest.Optional(t, "state"); !ok || !corpus {
		return
	}
	t.Run("corpus", func(t *testing.T) {
		realnet(t)
		t.Parallel()
		log := filepath.Join(t.TempDir(), "requests.log")
		continueState(t, continuation{state: filepath.Join(root, "corpus", "state"),
			sources:  filepath.Join(root, "corpus", "network", "sources.toml"),
			curation: filepath.Join(root, "corpus", "network", "curation.toml"), claims: 45, missingMedia: 3,
			refresh: func(cmd *exec.Cmd) []logged {
				rn := exec.Command("python3", append([]string{filepath.Join(root, "tools", "realnet.py"), "--log", log, "--"}, cmd.Args...)...)
				rn.Stdout, rn.Stderr = cmd.Stdout, cmd.Stderr
				if err := rn.Run(); err != nil {
					t.Fatalf("refresh under realnet: %v\nstdout:\n%s\nstderr:\n%s", err, cmd.Stdout, cmd.Stderr)
				}
				return readLog(t, log)
			}})
	})
}

// continuation is a reference state to take over and the sites it observed.
type continuation struct {
	state, sources, curation string
	claims, missingMedia     int // claims in the state, and card images they name without holding
	// refresh runs cmd (the built ashyams refresh of the state, stdout and stderr set) against
	// the sites and returns the requests they answered, failing the test if it fails.
	refresh func(cmd *exec.Cmd) []logged
}

func continueState(t *testing.T, ct continuation) {
	corpus := ct.state
	g := newGitEnv(t)
	dir := t.TempDir()
	bin := builtCommand(t)

	// The reference's remote: network-state holds the corpus state, committed by the reference.
	refRemote := filepath.Join(g.root, "reference.git")
	g.git(g.root, "init", "-q", "--bare", "reference.git")
	refWork := filepath.Join(g.root, "reference-state")
	if err := os.CopyFS(refWork, os.DirFS(corpus)); err != nil {
		t.Fatal(err)
	}
	g.git(refWork, "init", "-q", "-b", "network-state")
	g.git(refWork, "add", ".")
	g.git(refWork, "commit", "-q", "-m", "refresh by the reference index")
	g.git(refWork, "push", "-q", "file://"+refRemote, "network-state")
	refHead := g.git(refWork, "rev-parse", "HEAD")

	// The takeover (docs/adoption.md, "Take over", steps 2 and 3; TestHandBackRunbook runs
	// step 2 as written), with the reference's URL replaced by the local remote.
	c := g.clone("operator")
	g.git(c, "remote", "add", "reference", "file://"+refRemote)
	g.git(c, "fetch", "-q", "reference", "network-state")
	g.git(c, "fetch", "-q", "origin")
	g.git(c, "push", "-q", "--force-with-lease", "origin", "refs/remotes/reference/network-state:refs/heads/network-state")
	if out := g.mustState(c, "checkout"); !strings.Contains(out, "checked out origin/network-state into state") {
		t.Fatalf("checkout of the taken-over branch: %s", out)
	}
	state := filepath.Join(c, "state")
	// check names the card images the claims hold without their files, and nothing else.
	out, err := exec.Command(bin, "check", "--state", state).CombinedOutput()
	if err == nil || strings.Count(string(out), "does not exist") != ct.missingMedia || !strings.Contains(string(out), fmt.Sprintf("%d broken invariant", ct.missingMedia)) {
		t.Fatalf("check of the taken-over branch: %v\n%s", err, out)
	}
	before := treeFiles(t, state)
	sources, curation := ct.sources, ct.curation
	cmd := exec.Command(bin, "refresh", "--state", state, "--sources", sources, "--curation", curation, "--allow-loopback")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	requests := ct.refresh(cmd)
	after := treeFiles(t, state)

	// No manifest was asked for: every manifest URL a held claim's entry names, and any URL of
	// a manifest directory.
	manifests := map[string]bool{}
	for p, b := range before {
		if !strings.HasSuffix(p, "/claim.json") {
			continue
		}
		var c struct {
			Entry struct {
				Manifest string `json:"manifest"`
			} `json:"entry"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		u, err := url.Parse(c.Entry.Manifest)
		if err != nil {
			t.Fatalf("%s: manifest URL %q: %v", p, c.Entry.Manifest, err)
		}
		manifests[u.Host+u.Path] = true
	}
	if len(manifests) != ct.claims {
		t.Fatalf("%d manifest URLs in the claims, want %d", len(manifests), ct.claims)
	}
	if len(requests) == 0 {
		t.Fatalf("no request logged: the refresh read nothing\nstderr:\n%s", stderr.String())
	}
	for _, r := range requests {
		path, _, _ := strings.Cut(r.Path, "?")
		if manifests[r.Host+path] || strings.Contains(path, "/dreamweave/projects/") {
			t.Errorf("a manifest was requested: %s %s%s (status %d)", r.Method, r.Host, r.Path, r.Status)
		}
	}

	// No event recorded; every held manifest, site index and event byte for byte.
	for p, b := range before {
		if strings.HasPrefix(p, "events/") || strings.HasSuffix(p, "/manifest.json") || strings.HasSuffix(p, "/dreamweave.json") {
			if a, ok := after[p]; !ok {
				t.Errorf("%s is gone", p)
			} else if !bytes.Equal(a, b) {
				t.Errorf("%s changed", p)
			}
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && (strings.HasPrefix(p, "events/") || strings.HasPrefix(p, "claims/") || strings.HasPrefix(p, "origins/") || strings.HasPrefix(p, "sources/")) {
			t.Errorf("the refresh wrote a new record %s", p)
		}
	}

	// Every claim current, every first_observed unchanged (claims and sites).
	current := 0
	for p, b := range after {
		if strings.HasPrefix(p, store.OwnDir+"/") || !strings.HasSuffix(p, "/claim.json") && !strings.HasSuffix(p, "/origin.json") {
			continue
		}
		var now, was struct {
			Health        string `json:"health"`
			FirstObserved string `json:"first_observed"`
		}
		if err := json.Unmarshal(b, &now); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := json.Unmarshal(before[p], &was); err != nil {
			t.Fatalf("%s before: %v", p, err)
		}
		if now.FirstObserved != was.FirstObserved {
			t.Errorf("%s: first_observed %s, was %s", p, now.FirstObserved, was.FirstObserved)
		}
		if strings.HasSuffix(p, "/claim.json") {
			if now.Health == "current" {
				current++
			} else {
				t.Errorf("%s: health %s", p, now.Health)
			}
		}
	}
	if current != ct.claims {
		t.Errorf("%d claims current, want %d\nsummary:\n%s", current, ct.claims, stdout.String())
	}

	// The reference's records changed only where a refresh of the same observations changes
	// them: when it ran, what discovery answered, the validators the site sent, and the card
	// images the claims name without holding. Nothing else, and no key of this index's own.
	allowed := map[string][]string{
		"network": {"observed_at"},
		"sources": {"last_attempt", "last_success", "trail"},
		"origins": {"last_attempt", "last_success", "validators"},
		"claims":  {"last_attempt", "last_success", "media"},
	}
	changed := map[string]map[string]int{}
	files := 0
	for p, b := range before {
		a, ok := after[p]
		if !ok || bytes.Equal(a, b) || !strings.HasSuffix(p, ".json") || strings.HasSuffix(p, "/manifest.json") || strings.HasSuffix(p, "/dreamweave.json") {
			continue
		}
		files++
		kind, _, _ := strings.Cut(p, "/")
		kind = strings.TrimSuffix(kind, ".json")
		var was, now map[string]json.RawMessage
		if err := json.Unmarshal(b, &was); err != nil {
			t.Fatalf("%s before: %v", p, err)
		}
		if err := json.Unmarshal(a, &now); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if changed[kind] == nil {
			changed[kind] = map[string]int{}
		}
		for k := range now {
			if _, had := was[k]; !had {
				t.Errorf("%s: the refresh added the key %q", p, k)
			} else if !bytes.Equal(was[k], now[k]) {
				changed[kind][k]++
				if !slices.Contains(allowed[kind], k) {
					t.Errorf("%s: the refresh changed %q: %s -> %s", p, k, was[k], now[k])
				}
			}
		}
	}
	t.Logf("the refresh changed %d of the reference's record files; keys changed, by record kind: %v", files, changed)

	// The state reads under the reference's loader, with this index's own files and without:
	// handed back, the Rust index reads it as it is.
	if err := refstate.Errors(state); err != nil {
		t.Error(err)
	}
	handedBack := filepath.Join(dir, "handed-back")
	if err := os.CopyFS(handedBack, os.DirFS(state)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(handedBack, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(handedBack, store.OwnDir)); err != nil {
		t.Fatal(err)
	}
	if err := refstate.Errors(handedBack); err != nil {
		t.Error(err)
	}
	if out, err := exec.Command(bin, "check", "--state", handedBack).CombinedOutput(); err != nil {
		t.Errorf("check without this index's own files: %v\n%s", err, out)
	}

	if out, err := exec.Command(bin, "check", "--state", state).CombinedOutput(); err != nil {
		t.Errorf("check after the continuation: %v\n%s", err, out)
	}
	// What an operator sees with git: only the reference's record files, ashyams-go/ and media/
	// (the card images a state names without holding, fetched again).
	for _, line := range strings.Split(g.git(c, "-C", "state", "status", "--short"), "\n") {
		if len(line) < 3 {
			t.Fatalf("git status after the refresh: %q", line)
		}
		p := strings.TrimSpace(line[2:])
		if !(p == "network.json" || strings.HasPrefix(p, "sources/") || strings.HasPrefix(p, "origins/") || strings.HasPrefix(p, "claims/") || p == store.OwnDir+"/" || p == store.MediaDir+"/") {
			t.Errorf("git status after the refresh: %q", line)
		}
	}
	summary := filepath.Join(dir, "summary.txt")
	if err := os.WriteFile(summary, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g.mustState(c, "commit", summary)
	g.mustState(c, "push")

	// The hand-back: network-state goes back to the reference's remote, a fast-forward of what
	// it wrote, and reads there under its loader's rules with and without ashyams-go/.
	g.git(c, "push", "-q", "reference", "network-state")
	if parent := g.git(refWork, "-C", refRemote, "rev-parse", "network-state^"); parent != refHead {
		t.Errorf("the branch handed back is not one commit on top of the reference's: parent %s, want %s", parent, refHead)
	}
	back := filepath.Join(g.root, "handed-back")
	g.git(g.root, "clone", "-q", "-b", "network-state", "file://"+refRemote, back)
	if err := os.RemoveAll(filepath.Join(back, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := refstate.Errors(back); err != nil {
		t.Error(err)
	}
	public := filepath.Join(dir, "public")
	if out, err := exec.Command(bin, "build", "--state", state, "--curation", curation, "--out", public).CombinedOutput(); err != nil {
		t.Errorf("build after the continuation: %v\n%s", err, out)
	} else if _, err := os.Stat(filepath.Join(public, "index.html")); err != nil {
		t.Errorf("build wrote no index.html: %v", err)
	}
}

// realnet makes sure ../shared/tools/realnet.py can run here: its tools are installed and this
// machine lets it make its namespaces. Outside CI a machine that cannot skips the test; under
// ASHYAMS_CI it fails, since the continuation is what CI must show.
func realnet(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a realnet.py run of the whole corpus; skipped with -short")
	}
	missing := func(why string) {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("realnet.py cannot run here, and CI must run the continuation: %s", why)
		}
		t.Skipf("realnet.py cannot run here: %s", why)
	}
	for _, tool := range []string{"python3", "unshare", "ip", "openssl"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(tool + " is not installed")
			return
		}
	}
	if out, err := exec.Command("unshare", "--user", "--map-root-user", "--net", "--mount", "true").CombinedOutput(); err != nil {
		missing("unshare cannot make user, network and mount namespaces: " + err.Error() + ": " + strings.TrimSpace(string(out)))
	}
}

// treeFiles reads every file under root, but a worktree's .git: slash paths relative to root ->
// bytes.
func treeFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || p == filepath.Join(root, ".git") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// logged is one line of realnet.py's --log.
type logged struct {
	Method string `json:"method"`
	Host   string `json:"host"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

func readLog(t *testing.T, p string) []logged {
	t.Helper()
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []logged
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l logged
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("realnet log line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
