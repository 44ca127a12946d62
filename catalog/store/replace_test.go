package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReplaceFile keeps a hand-edited file's permissions, creates a new one 0644, and leaves no
// temp file behind.
func TestReplaceFileKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sources.toml")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q, want %q", b, "new")
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	fresh := filepath.Join(dir, "fresh.toml")
	if err := ReplaceFile(fresh, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("directory holds %d files, want 2 (no temp file left)", len(ents))
	}
}

// A write that cannot happen is an error naming the path, and nothing is changed or left
// behind: a rename over a directory fails after the temp file is written, a missing directory
// before.
func TestReplaceFileFailureChangesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sources.toml")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "kept"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := ReplaceFile(p, []byte("new"))
	if err == nil || !strings.Contains(err.Error(), "write "+p) {
		t.Fatalf("err = %v, want a write error naming %s", err, p)
	}
	if b, _ := os.ReadFile(filepath.Join(p, "kept")); string(b) != "old" {
		t.Errorf("the directory's file holds %q, want it kept", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%s holds %d entries, want 1 (no temp file left)", dir, len(ents))
	}
	missing := filepath.Join(dir, "no-such-dir", "sources.toml")
	if err := ReplaceFile(missing, []byte("x")); err == nil || !strings.Contains(err.Error(), "write "+missing) {
		t.Errorf("err = %v, want a write error naming %s", err, missing)
	}
}
