package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// The interrupt drill: a refresh of a fresh state is interrupted by SIGINT once every source is
// discovered, while the sites' manifests are in flight (slowed to two minutes). It exits 130,
// its summary and network.json say it was interrupted and what was not read, check passes and
// diff says so. The next refresh (nothing slowed) completes and loses nothing: it holds exactly
// the sites, claims and events an uninterrupted refresh of a fresh state holds.
//
// It runs the built command, as a user would, against generated sites (refreshtest's Network,
// on loopback) and, when ../shared is present, against the real network at its real URLs
// (../shared/tools/realnet.py: a loopback-only namespace serving the corpus byte for byte).
func TestRealnetInterruptedRefresh(t *testing.T) {
	if testing.Short() {
		t.Skip("whole refreshes of the built command; skipped with -short")
	}
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		n := refreshtest.New(t)
		urls := n.Network()
		var toml string
		for _, u := range urls {
			toml += fmt.Sprintf("[[source]]\nurl = %q\nadded = \"2026-09-28\"\nnote = \"A loopback site.\"\n\n", u)
		}
		dir := t.TempDir()
		interruptedRefresh(t, writeFile(t, dir, "sources.toml", toml), writeFile(t, dir, "curation.toml", "# No decisions.\n"),
			func(slow bool, env []string, script string) {
				if n.BringUp(); slow {
					n.Slow("/dreamweave/projects/", 2*time.Minute)
				}
				cmd := exec.Command("sh", "-c", script)
				cmd.Env = append(os.Environ(), env...)
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v\n%s", err, b)
				}
			})
	})
	root, ok := corpustest.FindShared("tools/realnet.py")
	if !ok && os.Getenv("ASHYAMS_CI") != "" {
		t.Fatal("ASHYAMS_CI is set but ../shared is absent")
	}
	srcs, ok2 := corpustest.Optional(t, "network/sources.toml")
	if !ok || !ok2 {
		return
	}
	t.Run("corpus", func(t *testing.T) {
		t.Parallel()
		realnet, srcs := absPath(t, root), absPath(t, srcs)
		// Every manifest (a project id's .json) answers after two minutes; site indexes and pages
		// are served at once.
		scenario := filepath.Join(t.TempDir(), "slow-manifests.json")
		if err := os.WriteFile(scenario, []byte(`{"rules": [{"path": "/[0-9a-f-]{36}\\.json$", "delay": 120}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		interruptedRefresh(t, srcs, absPath(t, filepath.Join("..", "..", "network", "curation.toml")),
			func(slow bool, env []string, script string) {
				args := []string{realnet}
				if slow {
					args = append(args, "--scenario", scenario)
				}
				cmd := exec.Command("python3", append(args, "--", "sh", "-c", script)...)
				cmd.Env = append(os.Environ(), env...)
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("realnet: %v\n%s", err, b)
				}
			})
	})
}

func absPath(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// interruptedRefresh is the drill on the sites of the sources file srcs; run runs a shell
// script with env added where the sites answer, their manifests slowed when slow is set.
func interruptedRefresh(t *testing.T, srcs, curation string, run func(slow bool, env []string, script string)) {
	raw, err := os.ReadFile(srcs)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(raw), "[[source]]")
	dir := t.TempDir()
	bin := builtCommand(t)
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"BIN=" + bin, "SRC=" + srcs, "CUR=" + curation, "STATE=" + state, "OUT=" + out, "N=" + strconv.Itoa(n)}
	// The refresh runs in the background; SIGINT once the progress says every source was
	// discovered (the sites' manifests are then being asked for, and answer in two minutes).
	run(true, env, `
"$BIN" refresh --sources "$SRC" --curation "$CUR" --state "$STATE" --allow-loopback > "$OUT/summary.txt" 2> "$OUT/progress.txt" &
pid=$!
i=0
until grep -q "^refresh: source $N/$N " "$OUT/progress.txt"; do
  kill -0 $pid 2>/dev/null || break
  i=$((i + 1)); [ $i -lt 1200 ] || break
  sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid; echo $? > "$OUT/rc"
"$BIN" check --state "$STATE" > "$OUT/check.txt" 2>&1; echo $? > "$OUT/check.rc"
"$BIN" diff --state "$STATE" > "$OUT/diff.txt" 2>&1; echo $? > "$OUT/diff.rc"
`)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if rc := strings.TrimSpace(read("rc")); rc != strconv.Itoa(exitSIGINT) {
		t.Fatalf("the interrupted refresh exited %s, want %d\nsummary:\n%s\nprogress:\n%s", rc, exitSIGINT, read("summary.txt"), read("progress.txt"))
	}
	summary := read("summary.txt")
	first, _, _ := strings.Cut(summary, "\n")
	if !strings.Contains(first, " INTERRUPTED (interrupted by SIGINT): "+strconv.Itoa(n)+" sources, ") || !strings.Contains(summary, "\nInterrupted at ") {
		t.Errorf("summary:\n%s", summary)
	}
	snap, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	x := snap.Network.Interrupted
	if x == nil || x.Reason != "interrupted by SIGINT" || x.Unknown || len(x.SitesNotRead)+len(x.SitesPartlyRead) == 0 {
		t.Fatalf("network.json interrupted %+v", x)
	}
	for _, p := range x.SitesPartlyRead {
		if !strings.Contains(summary, "site partly read: "+p.Site) {
			t.Errorf("the summary does not name %s, partly read", p.Site)
		}
	}
	for _, s := range x.SitesNotRead {
		if !strings.Contains(summary, "site not read: "+s) {
			t.Errorf("the summary does not name %s, not read", s)
		}
	}
	if rc := strings.TrimSpace(read("check.rc")); rc != "0" {
		t.Errorf("check after the interrupt: exit %s\n%s", rc, read("check.txt"))
	}
	if d := read("diff.txt"); strings.TrimSpace(read("diff.rc")) != "0" || !strings.HasPrefix(d, "The last refresh (") || !strings.Contains(strings.SplitN(d, "\n", 2)[0], "was INTERRUPTED") {
		t.Errorf("diff after the interrupt:\n%s", d)
	}
	t.Logf("interrupted: %d sites not read, %d partly read", len(x.SitesNotRead), len(x.SitesPartlyRead))

	// Nothing slowed: the next refresh completes; a fresh state refreshed once is the reference.
	run(false, env, `
"$BIN" refresh --sources "$SRC" --curation "$CUR" --state "$STATE" --allow-loopback > "$OUT/summary2.txt" 2>&1; echo $? > "$OUT/rc2"
"$BIN" check --state "$STATE" > "$OUT/check2.txt" 2>&1; echo $? > "$OUT/check2.rc"
"$BIN" refresh --sources "$SRC" --curation "$CUR" --state "$STATE.ref" --allow-loopback > "$OUT/summary3.txt" 2>&1; echo $? > "$OUT/rc3"
`)
	for _, f := range []string{"rc2", "check2.rc", "rc3"} {
		if rc := strings.TrimSpace(read(f)); rc != "0" {
			t.Fatalf("%s = %s\n%s\n%s", f, rc, read("summary2.txt"), read("check2.txt"))
		}
	}
	got, want := essentials(t, state), essentials(t, state+".ref")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the interrupted refresh and the next one:\n%s\nafter one refresh of a fresh state:\n%s", got, want)
	}
	if n := got.claims; n == "" {
		t.Error("no claim was recorded")
	}
}

// stateEssentials is what a refresh observed, without its times: each site's health and held
// index, each claim's health and held manifest, the event ids, and network.json's interrupt.
type stateEssentials struct{ sites, claims, events, interrupted string }

func essentials(t *testing.T, state string) stateEssentials {
	t.Helper()
	s, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	var e stateEssentials
	var lines []string
	for _, o := range s.Origins {
		lines = append(lines, fmt.Sprintf("%s %s %s", o.ID, o.Health, deref(o.IndexSHA256)))
	}
	e.sites = strings.Join(lines, "\n")
	lines = nil
	for _, c := range s.Claims {
		lines = append(lines, fmt.Sprintf("%s/%s %s %s", c.Project, c.Origin, c.Health, deref(c.IngestedSHA256)))
	}
	e.claims = strings.Join(lines, "\n")
	lines = nil
	for _, ev := range s.Events {
		lines = append(lines, ev.ID+" "+ev.Kind)
	}
	sort.Strings(lines)
	e.events = strings.Join(lines, "\n")
	b, _ := json.Marshal(s.Network.Interrupted)
	e.interrupted = string(b)
	return e
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (e stateEssentials) String() string {
	return "sites:\n" + e.sites + "\nclaims:\n" + e.claims + "\nevents:\n" + e.events + "\ninterrupted: " + e.interrupted
}
