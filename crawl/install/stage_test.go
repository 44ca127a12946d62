package install

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// snapshot is every file and folder under root with its bytes' digest ("/" ends a folder).
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return filepath.SkipDir
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(h[:8])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnap(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, "-"+k)
		}
	}
	for k, v := range b {
		if w, ok := a[k]; !ok || w != v {
			out = append(out, "+"+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func writeFile(t testing.TB, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stageChange sets up a mods folder with folders A and B and a cfg file, and stages a change:
// A replaced, B removed, C added, the cfg rewritten and a lock file created.
func stageChange(t *testing.T, root string) (*stage, []string, map[string][]byte) {
	t.Helper()
	mods := filepath.Join(root, "mods")
	s, err := newStage(mods)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(s.newDir("A"), "a.esp"), "new A")
	writeFile(t, filepath.Join(s.newDir("C"), "c.esp"), "C")
	return s, []string{"A", "B", "C"}, map[string][]byte{
		filepath.Join(root, "openmw.cfg"): []byte("content=a.esp\ncontent=c.esp\n"),
		filepath.Join(mods, LockName):     []byte("{}"),
	}
}

func setupMods(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "mods", "A", "a.esp"), "old A")
	writeFile(t, filepath.Join(root, "mods", "B", "b.esp"), "B")
	writeFile(t, filepath.Join(root, "mods", "Mine", "mine.esp"), "the player's")
	writeFile(t, filepath.Join(root, "openmw.cfg"), "content=Morrowind.esm\n")
	return root
}

var commitSteps = []string{"move aside A", "move in A", "move aside B", "move in C", "write LOCK", "write openmw.cfg", "finish"}

func TestCommitFailureAtEachStepPutsEverythingBack(t *testing.T) {
	defer func() { failAt = nil }()
	for _, at := range commitSteps {
		at = strings.Replace(at, "LOCK", LockName, 1)
		t.Run(at, func(t *testing.T) {
			root := setupMods(t)
			before := snapshot(t, root)
			s, folders, files := stageChange(t, root)
			failAt = func(s string) error {
				if s == at {
					return errors.New("injected")
				}
				return nil
			}
			if err := s.commit(folders, files); err == nil || err.Error() != "injected" {
				t.Fatalf("commit: %v", err)
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Errorf("changed after a failure at %q: %s", at, d)
			}
		})
	}
}

func TestKilledChangeRolledBackByTheNextRun(t *testing.T) {
	defer func() { failAt = nil }()
	for _, at := range commitSteps {
		at = strings.Replace(at, "LOCK", LockName, 1)
		t.Run(at, func(t *testing.T) {
			root := setupMods(t)
			before := snapshot(t, root)
			s, folders, files := stageChange(t, root)
			failAt = func(s string) error {
				if s == at {
					panic("killed")
				}
				return nil
			}
			func() {
				defer func() { recover() }()
				s.commit(folders, files)
			}()
			failAt = nil
			if err := recoverStages(filepath.Join(root, "mods")); err != nil {
				t.Fatal(err)
			}
			if d := diffSnap(before, snapshot(t, root)); d != "" {
				t.Errorf("after a kill at %q and the next run: %s", at, d)
			}
		})
	}
}

func TestCommitDone(t *testing.T) {
	root := setupMods(t)
	s, folders, files := stageChange(t, root)
	if err := s.commit(folders, files); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, root)
	want := map[string]string{"mods/A/a.esp": "new A", "mods/C/c.esp": "C", "mods/Mine/mine.esp": "the player's",
		"openmw.cfg": "content=a.esp\ncontent=c.esp\n", "mods/" + LockName: "{}"}
	for p, body := range want {
		h := sha256.Sum256([]byte(body))
		if got[p] != hex.EncodeToString(h[:8]) {
			t.Errorf("%s: %q", p, got[p])
		}
	}
	for p := range got {
		if strings.HasPrefix(p, stagePrefix) || strings.HasPrefix(p, "mods/B") {
			t.Errorf("%s is left", p)
		}
	}
}

func TestStageWithoutUndoRemoved(t *testing.T) {
	root := setupMods(t)
	before := snapshot(t, root)
	s, _, _ := stageChange(t, root) // killed while extracting: no undo.json yet
	if _, err := os.Stat(s.dir); err != nil {
		t.Fatal(err)
	}
	if d := diffSnap(before, snapshot(t, root)); !strings.HasPrefix(d, "+"+stagePrefix) || strings.Contains(d, "mods/") || strings.Contains(d, "openmw.cfg") {
		t.Errorf("while staging, only the stage is new: %s", d)
	}
	if err := recoverStages(filepath.Join(root, "mods")); err != nil {
		t.Fatal(err)
	}
	if d := diffSnap(before, snapshot(t, root)); d != "" {
		t.Errorf("after recovery: %s", d)
	}
}

// TestStageBesideALinkedModsFolder: a mods folder reached through a symbolic link gets its
// stage beside the folder the link leads to, so its folders move in by rename.
func TestStageBesideALinkedModsFolder(t *testing.T) {
	root := setupMods(t)
	elsewhere := filepath.Join(t.TempDir(), "real")
	if err := os.Rename(filepath.Join(root, "mods"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "mods")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	s, folders, files := stageChange(t, root)
	if filepath.Dir(s.dir) != filepath.Dir(elsewhere) {
		t.Errorf("the stage %s is not beside %s", s.dir, elsewhere)
	}
	if err := s.commit(folders, files); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "C", "c.esp")); string(b) != "C" {
		t.Errorf("C not moved in: %q", b)
	}
}
