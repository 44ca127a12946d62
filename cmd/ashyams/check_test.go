package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// refreshedState is the state refreshtest's Network writes: two loopback sites refreshed twice,
// three claims, observed and changed events, Candlelight's cached card image.
func refreshedState(t *testing.T) string {
	t.Helper()
	n := refreshtest.New(t)
	n.Network()
	return n.State
}

// A state without its cached images: check exits 1 naming exactly the claims that hold one,
// and no event (their ids verify under the same formula). The refreshed state with its media
// removed (Candlelight's), and the reference index's state, which lacks three.
func TestCheckStateWithoutMedia(t *testing.T) {
	state := refreshedState(t)
	if err := os.RemoveAll(filepath.Join(state, store.MediaDir)); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{state: 1}
	if corpus, ok := corpustest.Optional(t, "state"); ok {
		states[corpus] = 3
	}
	for state, n := range states {
		rc, out, errs := runCmd("check", "--state", state)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		want := fmt.Sprintf("ashyams check: %s: %d broken invariant", state, n)
		if n > 1 {
			want += "s"
		}
		if rc != 1 || len(lines) != n || errs != want+"\n" {
			t.Fatalf("exit %d, %d lines\n%s\n%s", rc, len(lines), out, errs)
		}
		for _, l := range lines {
			if !strings.Contains(l, "/claim.json: ") || !strings.Contains(l, "cached image media/") {
				t.Errorf("unexpected problem: %s", l)
			}
		}
	}
}

func TestCheckUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	rc, out, errs := runCmd("check", "--state", missing)
	want := "ashyams check: no state at " + missing + ": run `.github/state.sh checkout` or `ashyams refresh` first\n"
	if rc != 1 || out != "" || errs != want {
		t.Errorf("check of a missing state: exit %d: %q %q, want %q", rc, out, errs, want)
	}
	file := filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, errs = runCmd("check", "--state", file)
	if want := "ashyams check: the state at " + file + " is not a directory\n"; rc != 1 || out != "" || errs != want {
		t.Errorf("check of a file: exit %d: %q %q, want %q", rc, out, errs, want)
	}
	rc, out, _ = runCmd("check", "--state", t.TempDir())
	if rc != 0 || !strings.Contains(out, "every invariant holds") {
		t.Errorf("check of an empty state (no refresh yet): exit %d: %s", rc, out)
	}
	if !strings.Contains(out, `event ids verified by the reference index's event id: the first 20 hex digits of SHA-256("dreamweave-network event 1" LF kind`) {
		t.Errorf("check does not say which event-id formula it verifies: %s", out)
	}
	if rc, _, _ := runCmd("check", "extra"); rc != 2 {
		t.Errorf("an argument: exit %d, want 2", rc)
	}
	if rc, _, _ := runCmd("check", "--nope"); rc != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", rc)
	}
}

// One broken invariant is "1 broken invariant"; leftovers are counted apart; a file name that
// carries a newline and a workflow command is printed on one escaped line.
func TestCheckCountsAndEscapes(t *testing.T) {
	state := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(state, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("network.json", "{")
	rc, out, errs := runCmd("check", "--state", state)
	if rc != 1 || errs != "ashyams check: "+state+": 1 broken invariant\n" || !strings.HasPrefix(out, "network.json: does not parse as a record") {
		t.Fatalf("exit %d: %q %q", rc, out, errs)
	}
	write("network.json", `{"format": 1, "crawler": "c", "observed_at": "2026-10-10T12:00:00Z"}`)
	write("origins/x-00000000/.tmp-origin.json-1", "half")
	rc, out, errs = runCmd("check", "--state", state)
	if rc != 1 || out != "origins/x-00000000/.tmp-origin.json-1: "+store.LeftoverMessage+"\n" ||
		errs != "ashyams check: "+state+": 1 leftover from an interrupted write (the next refresh removes it); every invariant holds otherwise\n" {
		t.Fatalf("leftover: exit %d: %q %q", rc, out, errs)
	}
	write("sources/\n::error::pwned\x1b[2J.txt", "")
	rc, out, errs = runCmd("check", "--state", state)
	if rc != 1 || !strings.Contains(errs, "1 broken invariant, and 1 leftover") {
		t.Fatalf("exit %d: %q", rc, errs)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") || strings.ContainsAny(l, "\x1b\r") {
			t.Errorf("unescaped line %q", l)
		}
	}
	if !strings.Contains(out, `sources/\n::error::pwned\x1b[2J.txt: is not part of the state layout`) {
		t.Errorf("stray name not reported escaped:\n%s", out)
	}
	if strings.Contains(out+errs, "check: check:") || strings.Count(errs, "ashyams check: ") != 1 {
		t.Errorf("doubled prefix: %s%s", out, errs)
	}
}
