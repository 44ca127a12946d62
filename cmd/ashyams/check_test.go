package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reference index's state fails our event-id test (its formula is its own) and lacks its
// cached images: check exits 1 naming exactly those records.
func TestCheckCorpusState(t *testing.T) {
	state := filepath.Join("..", "..", "..", "shared", "corpus", "state")
	if _, err := os.Stat(state); err != nil {
		t.Skipf("../shared/corpus is absent (%v)", err)
	}
	rc, out, errs := runCmd("check", "--state", state)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if rc != 1 || len(lines) != 18 || !strings.Contains(errs, "18 broken invariant(s)") {
		t.Fatalf("exit %d, %d lines\n%s\n%s", rc, len(lines), out, errs)
	}
	for _, l := range lines {
		if !strings.Contains(l, "does not match its facts") && !strings.Contains(l, "cached image media/") {
			t.Errorf("unexpected problem: %s", l)
		}
	}
}

func TestCheckUsage(t *testing.T) {
	rc, out, _ := runCmd("check", "--state", filepath.Join(t.TempDir(), "none"))
	if rc != 1 || !strings.Contains(out, "does not exist") {
		t.Errorf("check of a missing state: exit %d: %s", rc, out)
	}
	rc, out, _ = runCmd("check", "--state", t.TempDir())
	if rc != 0 || !strings.Contains(out, "every invariant holds") {
		t.Errorf("check of an empty state (no refresh yet): exit %d: %s", rc, out)
	}
	if rc, _, _ := runCmd("check", "extra"); rc != 2 {
		t.Errorf("an argument: exit %d, want 2", rc)
	}
	if rc, _, _ := runCmd("check", "--nope"); rc != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", rc)
	}
}
