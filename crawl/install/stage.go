package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// A change is built in a stage folder beside the mods folder and moved into place; its
// undo.json rolls back an error at once, or a killed run at the next command (recoverStages).

// stagePrefix begins a stage folder's name, followed by the mods folder's name.
const stagePrefix = ".ashyams-stage-"

// stage is one change in progress: new/<folder> as it will be, old/<folder> as it was.
type stage struct {
	dir  string
	mods string
	undo undo
}

// undo is what a stage needs to put things back.
type undo struct {
	CreatedMods bool         `json:"created_mods"`
	Folders     []undoFolder `json:"folders"`
	Files       []undoFile   `json:"files"`
}

// undoFolder is a mods folder the change replaces (New: with new/<Name>) or removes.
type undoFolder struct {
	Name string `json:"name"`
	New  bool   `json:"new"`
}

// undoFile is a file the change rewrites, as it was (Bytes nil: it did not exist).
type undoFile struct {
	Path  string `json:"path"`
	Bytes []byte `json:"bytes"`
}

// failAt, set by tests, is asked before each step of a change and fails it with its error.
var failAt func(step string) error

func step(s string) error {
	if failAt != nil {
		return failAt(s)
	}
	return nil
}

// newStage recovers the mods folder's unfinished changes, makes it if missing, and starts a stage.
func newStage(mods string) (*stage, error) {
	if err := recoverStages(mods); err != nil {
		return nil, err
	}
	s := &stage{mods: mods}
	if _, err := os.Stat(mods); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(mods, 0o755); err != nil {
			return nil, err
		}
		s.undo.CreatedMods = true
	}
	dir, err := os.MkdirTemp(stageParent(mods), stagePrefix+filepath.Base(mods)+"-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	for _, d := range []string{"new", "old"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			s.discard()
			return nil, err
		}
	}
	return s, nil
}

// stageParent is beside the folder mods names, links resolved, so a move in is a rename.
func stageParent(mods string) string {
	if r, err := filepath.EvalSymlinks(mods); err == nil {
		mods = r
	}
	return filepath.Dir(mods)
}

// newDir is where the folder name is built.
func (s *stage) newDir(name string) string { return filepath.Join(s.dir, "new", name) }

// discard removes the stage, and the mods folder when the stage made it and it is empty.
func (s *stage) discard() {
	os.RemoveAll(s.dir)
	if s.undo.CreatedMods {
		os.Remove(s.mods)
	}
}

// commit moves the folders into place and writes the files (nil removes), each atomically; on
// an error everything is put back.
func (s *stage) commit(folders []string, files map[string][]byte) (err error) {
	for _, f := range folders {
		_, serr := os.Stat(s.newDir(f))
		s.undo.Folders = append(s.undo.Folders, undoFolder{Name: f, New: serr == nil})
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		b, rerr := os.ReadFile(p)
		if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			s.discard()
			return rerr
		}
		s.undo.Files = append(s.undo.Files, undoFile{Path: p, Bytes: b})
	}
	if err := s.writeUndo(); err != nil {
		s.discard()
		return err
	}
	defer func() {
		if err != nil {
			if rerr := rollback(s.dir, s.mods, s.undo); rerr != nil {
				err = fmt.Errorf("%w; putting things back failed too: %v (the stage %s holds what is left)", err, rerr, s.dir)
			}
		}
	}()
	for _, f := range s.undo.Folders {
		cur := filepath.Join(s.mods, f.Name)
		if _, serr := os.Lstat(cur); serr == nil {
			if err := step("move aside " + f.Name); err != nil {
				return err
			}
			if err := os.Rename(cur, filepath.Join(s.dir, "old", f.Name)); err != nil {
				return err
			}
		}
		if f.New {
			if err := step("move in " + f.Name); err != nil {
				return err
			}
			if err := os.Rename(s.newDir(f.Name), cur); err != nil {
				return err
			}
		}
	}
	for _, f := range s.undo.Files {
		if err := step("write " + filepath.Base(f.Path)); err != nil {
			return err
		}
		if err := putFile(f.Path, files[f.Path]); err != nil {
			return err
		}
	}
	if err := step("finish"); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.dir, "undo.json")); err != nil {
		return err
	}
	os.RemoveAll(s.dir)
	return nil
}

func (s *stage) writeUndo() error {
	b, err := json.Marshal(s.undo)
	if err != nil {
		return err
	}
	return store.ReplaceFile(filepath.Join(s.dir, "undo.json"), b)
}

// putFile replaces the file at path with b atomically, or removes it when b is nil.
func putFile(path string, b []byte) error {
	if b == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return store.ReplaceFile(path, b)
}

// rollback puts the mods folder and files back as undo says and removes the stage; it can run
// again after it is cut short.
func rollback(dir, mods string, u undo) error {
	var errs []error
	for _, f := range slices.Backward(u.Folders) {
		cur, newDir, oldDir := filepath.Join(mods, f.Name), filepath.Join(dir, "new", f.Name), filepath.Join(dir, "old", f.Name)
		if _, err := os.Lstat(newDir); f.New && errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Lstat(cur); err == nil {
				errs = append(errs, os.Rename(cur, newDir))
			}
		}
		if _, err := os.Lstat(oldDir); err == nil {
			errs = append(errs, os.Rename(oldDir, cur))
		}
	}
	for _, f := range u.Files {
		errs = append(errs, putFile(f.Path, f.Bytes))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if u.CreatedMods {
		os.Remove(mods) // only when empty
	}
	return nil
}

// recoverStages rolls back each unfinished change of mods and removes stages without undo.json.
func recoverStages(mods string) error {
	parent := stageParent(mods)
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), stagePrefix+filepath.Base(mods)+"-")
		if !ok || !e.IsDir() || strings.Contains(rest, "-") {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, "undo.json"))
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			continue
		} else if err != nil {
			return err
		}
		var u undo
		if err := json.Unmarshal(b, &u); err != nil {
			return fmt.Errorf("the unfinished change in %s cannot be read (%v): put things back from it by hand", dir, err)
		}
		if err := rollback(dir, mods, u); err != nil {
			return fmt.Errorf("putting back the unfinished change in %s: %w", dir, err)
		}
	}
	return nil
}
