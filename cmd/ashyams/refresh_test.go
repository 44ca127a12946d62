package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// templateSite serves the corpus's Mod Template site (or its stand-in, corpustest.Sites) on
// loopback and returns its enrolled URL.
func templateSite(t *testing.T) (*loopback.Server, string) {
	t.Helper()
	srv, err := loopback.Start(sitesFS(t), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, srv.URL() + corpustest.TemplateDir + "/"
}

// sitesFS is corpustest.Sites as a file system.
func sitesFS(t *testing.T) fstest.MapFS {
	m := fstest.MapFS{}
	for p, b := range corpustest.Sites(t) {
		m[p] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	return m
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
	if !strings.Contains(out, ": 1 source, 1 site read, 2 manifests fetched, 0 unchanged, 2 accepted, 2 events\n") ||
		!strings.Contains(out, "\nHealth: 2 claims first seen, 1 site first seen\n") {
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
	if rc != 0 || !strings.Contains(out, "discovery trail:") || !strings.Contains(out, `"Candlelight": current`) || !strings.Contains(out, "nothing was written") {
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
	good := writeFile(t, dir, "ok.toml", "[[source]]\nurl = \"https://ok.example/\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	cur := writeFile(t, dir, "curation.toml", "[[featured]]\nproject = \"not-a-uuid\"\nnote = \"x\"\n")
	rc, _, errs = runCmd("refresh", "--sources", good, "--curation", cur, "--state", state)
	if rc != 1 || !strings.Contains(errs, "not a lowercase UUID") {
		t.Errorf("bad curation: exit %d: %s", rc, errs)
	}
	rc, _, _ = runCmd("refresh", "extra")
	if rc != 2 {
		t.Errorf("an argument: exit %d, want 2", rc)
	}
	for _, bad := range [][]string{{"--deadline", "0s"}, {"--site-budget", "-1s"}, {"--discovery-budget", "-1m"}} {
		rc, _, errs = runCmd(append([]string{"refresh", "--sources", good, "--state", state}, bad...)...)
		if rc != 2 || !strings.Contains(errs, "--deadline, --site-budget and --discovery-budget must be positive") {
			t.Errorf("%s %s: exit %d: %s", bad[0], bad[1], rc, errs)
		}
	}
}

// A state that fails check is refused before anything is read: exit 1, every problem named
// once, with the command's prefix said once.
func TestRefreshRefusesABrokenState(t *testing.T) {
	srv, src := templateSite(t)
	dir := t.TempDir()
	srcs := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+src+"\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	state := filepath.Join(dir, "state")
	noCuration := filepath.Join(dir, "curation.toml")
	if rc, out, errs := runCmd("refresh", "--sources", srcs, "--curation", noCuration, "--state", state, "--allow-loopback"); rc != 0 {
		t.Fatalf("refresh exit %d\n%s\n%s", rc, out, errs)
	}
	m, _ := filepath.Glob(filepath.Join(state, "claims", "*", "*", "manifest.json"))
	e, _ := filepath.Glob(filepath.Join(state, "events", "*.json"))
	if len(m) != 2 || len(e) != 2 {
		t.Fatalf("%d manifests, %d events", len(m), len(e))
	}
	if err := os.WriteFile(m[0], []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(e[0], filepath.Join(filepath.Dir(e[0]), "00000000000000000000.json")); err != nil {
		t.Fatal(err)
	}
	srv.ResetRequests()
	rc, _, errs := runCmd("refresh", "--sources", srcs, "--curation", noCuration, "--state", state, "--allow-loopback")
	mrel, _ := filepath.Rel(state, m[0])
	if rc != 1 || strings.Count(errs, "\n") != strings.Count(errs, "ashyams refresh: ") || !strings.HasPrefix(errs, "ashyams refresh: the state "+state+" fails check with 3 problems") ||
		!strings.Contains(errs, "\nashyams refresh:   "+filepath.ToSlash(mrel)+": hashes to ") || !strings.Contains(errs, "\nashyams refresh:   events/00000000000000000000.json: ") {
		t.Errorf("exit %d:\n%s", rc, errs)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("a refused state still made %d requests", n)
	}
}

// When every source fails, the refresh says so loudly at the end (still exit 0). (The loopback
// hint needs a name resolving to loopback, which the loader cannot see: crawl/refresh tests it
// with an injected resolver.)
func TestRefreshWarnsWhenEverySourceFails(t *testing.T) {
	_, src := templateSite(t)
	dir := t.TempDir()
	noCuration := filepath.Join(dir, "curation.toml")
	closed := writeFile(t, dir, "closed.toml", "[[source]]\nurl = \"http://127.0.0.1:1/site/\"\nadded = \"2026-09-28\"\nnote = \"nobody listens\"\n")
	rc, _, errs := runCmd("refresh", "--sources", closed, "--curation", noCuration, "--state", filepath.Join(dir, "state"), "--allow-loopback")
	if rc != 0 || !strings.HasSuffix(errs, "\nrefresh: WARNING: every source failed; is the network reachable?\n") || strings.Contains(errs, "did you mean") {
		t.Errorf("exit %d, stderr:\n%s", rc, errs)
	}
	// A source that works: no warning.
	srcs := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+src+"\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	state := filepath.Join(dir, "state2")
	rc, _, errs = runCmd("refresh", "--sources", srcs, "--curation", noCuration, "--state", state, "--allow-loopback")
	if rc != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("exit %d with a working source:\n%s", rc, errs)
	}
	// The deadline running out interrupts the refresh: exit 3, the summary's first line and
	// network.json say so and list what was not read, the state passes check, diff says so.
	rc, out, errs := runCmd("refresh", "--sources", srcs, "--curation", noCuration, "--state", state, "--allow-loopback", "--deadline", "1ns")
	first, _, _ := strings.Cut(out, "\n")
	if rc != exitDeadline || !strings.Contains(first, " INTERRUPTED (the refresh's deadline (1ns) ran out): ") ||
		!strings.Contains(out, "\n  source not read: "+src+"\n") || !strings.Contains(errs, "ashyams refresh: the refresh was interrupted") {
		t.Errorf("--deadline 1ns: exit %d\n%s\n%s", rc, out, errs)
	}
	if rc, out, _ := runCmd("check", "--state", state); rc != 0 {
		t.Errorf("check after a deadline: exit %d\n%s", rc, out)
	}
	rc, out, _ = runCmd("diff", "--state", state)
	if rc != 0 || !strings.HasPrefix(out, "The last refresh (") || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "was INTERRUPTED") ||
		!strings.Contains(out, "source not read: "+src) || strings.Contains(out, "nothing changed") {
		t.Errorf("diff after a deadline: exit %d\n%s", rc, out)
	}
}

// SIGINT stops a refresh: exit 130, the summary's first line and network.json say it was
// interrupted and which claims were not read (their records untouched), check passes, diff
// says so, and the next refresh completes. A second SIGINT exits at once (exitNow).
var realNotify = notifySignals

func TestRefreshInterruptedBySignal(t *testing.T) {
	var mu sync.Mutex
	signals := 0 // SIGINTs to send when a manifest is asked for
	srv, err := loopback.Start(sitesFS(t), loopback.Options{
		Rules: []loopback.Rule{{Path: `/projects/.*\.json$`, Delay: time.Minute}},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.URL.Path, "/projects/") {
					mu.Lock()
					n := signals
					signals = 0
					mu.Unlock()
					for range n {
						if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
							t.Error(err)
						}
						time.Sleep(10 * time.Millisecond) // the handler takes one at a time
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	src := srv.URL() + "dreamweave-mp.github.io/DreamWeave-Mod-Template/"
	dir := t.TempDir()
	srcs := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+src+"\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	state := filepath.Join(dir, "state")
	args := []string{"refresh", "--sources", srcs, "--curation", filepath.Join(dir, "curation.toml"), "--state", state, "--allow-loopback"}

	mu.Lock()
	signals = 1
	mu.Unlock()
	rc, out, errs := runCmd(args...)
	first, _, _ := strings.Cut(out, "\n")
	if rc != exitSIGINT || !strings.Contains(first, " INTERRUPTED (interrupted by SIGINT): 1 source, 0 sites read, ") ||
		!strings.Contains(out, "site partly read: ") || !strings.Contains(errs, "ashyams refresh: SIGINT: stopping") {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	snap, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	x := snap.Network.Interrupted
	if x == nil || x.Reason != "interrupted by SIGINT" || len(x.SitesPartlyRead) != 1 || len(x.SitesPartlyRead[0].Projects) != 2 || len(snap.Claims) != 0 {
		t.Fatalf("network.json interrupted %+v, %d claims (none was read)", x, len(snap.Claims))
	}
	if rc, out, _ := runCmd("check", "--state", state); rc != 0 {
		t.Errorf("check after SIGINT: exit %d\n%s", rc, out)
	}
	if rc, out, _ := runCmd("diff", "--state", state); rc != 0 || !strings.Contains(out, "was INTERRUPTED") || !strings.Contains(out, "2 claims not read") {
		t.Errorf("diff after SIGINT: exit %d\n%s", rc, out)
	}

	// Twice: the second exits at once with the same status. The two signals are queued
	// together (an injected relay: two real ones may be merged into one by the kernel).
	exited := make(chan int, 1)
	exitNow = func(code int) { exited <- code }
	relay := make(chan chan<- os.Signal, 1)
	notifySignals = func(c chan<- os.Signal) func() { relay <- c; return func() {} }
	defer func() { exitNow, notifySignals = os.Exit, realNotify }()
	go func() {
		c := <-relay
		mu.Lock()
		signals = 0
		mu.Unlock()
		c <- os.Interrupt
		c <- os.Interrupt
	}()
	runCmd(args...)
	select {
	case code := <-exited:
		if code != exitSIGINT {
			t.Errorf("a second SIGINT exited %d, want %d", code, exitSIGINT)
		}
	case <-time.After(time.Minute): // only a bound for a broken build, never reached when it works
		t.Error("a second SIGINT did not exit at once")
	}
	notifySignals = realNotify

	// Nothing slow: the next refresh completes, and network.json says nothing of an interrupt.
	if err := srv.SetRules(nil); err != nil {
		t.Fatal(err)
	}
	rc, out, errs = runCmd(args...)
	if rc != 0 || strings.Contains(out, "INTERRUPTED") {
		t.Fatalf("the next refresh: exit %d\n%s\n%s", rc, out, errs)
	}
	snap, err = store.Open(state).Load()
	if err != nil || snap.Network.Interrupted != nil || len(snap.Claims) != 2 {
		t.Fatalf("after the next refresh: %v, interrupted %+v, %d claims", err, snap.Network.Interrupted, len(snap.Claims))
	}
}

// --discovery-budget bounds one source's discovery: a site that never answers is cut by it,
// the budget named as the source's problem, exit 0.
func TestRefreshDiscoveryBudgetFlag(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	dir := t.TempDir()
	srcs := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+srv.URL+"/site/\"\nadded = \"2026-09-28\"\nnote = \"silent\"\n")
	rc, out, errs := runCmd("refresh", "--sources", srcs, "--curation", filepath.Join(dir, "curation.toml"), "--state", filepath.Join(dir, "state"),
		"--allow-loopback", "--discovery-budget", "200ms")
	want := "- source " + srv.URL + "/site/: unreachable: the enrolled URL " + srv.URL + "/site/ was not read: the source's discovery budget (200ms) ran out\n"
	if rc != 0 || !strings.Contains(out, want) || !strings.HasSuffix(errs, "refresh: WARNING: every source failed: the source's discovery budget ran out before any was read\n") {
		t.Errorf("exit %d\n%s\nwant %q\nstderr:\n%s", rc, out, want, errs)
	}
}

// A refresh that reached no source at all (two sources, nothing listening where either points)
// exits exitUnreachable, prints no summary, says on stderr that the likely cause is this
// machine's own network, and leaves the state byte for byte as it was; help documents the status.
func TestRefreshReachingNoSourceExits4(t *testing.T) {
	_, src := templateSite(t)
	dir := t.TempDir()
	noCuration := filepath.Join(dir, "curation.toml")
	state := filepath.Join(dir, "state")
	one := writeFile(t, dir, "one.toml", "[[source]]\nurl = \""+src+"\"\nadded = \"2026-09-28\"\nnote = \"test\"\n")
	if rc, out, errs := runCmd("refresh", "--sources", one, "--curation", noCuration, "--state", state, "--allow-loopback"); rc != 0 {
		t.Fatalf("refresh exit %d\n%s\n%s", rc, out, errs)
	}
	before := map[string]string{}
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			before[p] = string(b)
		}
		return err
	})
	var body strings.Builder
	for range 2 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&body, "[[source]]\nurl = \"http://%s/mods/\"\nadded = \"2026-09-28\"\nnote = \"test\"\n\n", ln.Addr())
		ln.Close()
	}
	none := writeFile(t, dir, "none.toml", body.String())
	rc, out, errs := runCmd("refresh", "--sources", none, "--curation", noCuration, "--state", state, "--allow-loopback")
	if rc != exitUnreachable || exitUnreachable != 4 {
		t.Fatalf("refresh reaching nothing: exit %d; want 4\n%s\n%s", rc, out, errs)
	}
	if out != "" {
		t.Errorf("a summary was printed (it would be committed): %q", out)
	}
	if !strings.Contains(errs, "no enrolled source could be reached") || !strings.Contains(errs, "this machine's own network") {
		t.Errorf("stderr does not name the cause:\n%s", errs)
	}
	after := 0
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			after++
			if b, _ := os.ReadFile(p); string(b) != before[p] {
				t.Errorf("%s changed", p)
			}
		}
		return err
	})
	if after != len(before) {
		t.Errorf("the state had %d files, now %d", len(before), after)
	}
	if _, help, _ := runCmd("help", "refresh"); !strings.Contains(help, "4 no source reached") {
		t.Errorf("help refresh does not document exit 4:\n%s", help)
	}
}
