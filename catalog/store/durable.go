package store

import (
	"os"
	"path/filepath"
	"sync"
)

// batch remembers what a Dir in batch mode wrote, for Sync.
type batch struct {
	mu    sync.Mutex
	files map[string]bool // file system paths of renamed files
	dirs  map[string]bool // their directories
}

// OpenBatch returns the state directory at root in batch mode: writes replace their files
// atomically but are not synced one by one; Sync makes all of them durable at once.
func OpenBatch(root string) *Dir {
	return &Dir{Root: root, batch: &batch{files: map[string]bool{}, dirs: map[string]bool{}}}
}

// wrote notes a renamed file in batch mode (outside it, WriteBytes synced the file itself).
func (d *Dir) wrote(path string) {
	if d.batch == nil {
		return
	}
	d.batch.mu.Lock()
	d.batch.files[path] = true
	d.batch.dirs[filepath.Dir(path)] = true
	d.batch.mu.Unlock()
}

// Sync makes every write of a batch-mode Dir durable and forgets them: on Linux one syncfs(2),
// elsewhere each written file, then each directory written into. Outside batch mode it does
// nothing.
func (d *Dir) Sync() error {
	if d.batch == nil {
		return nil
	}
	d.batch.mu.Lock()
	files, dirs := d.batch.files, d.batch.dirs
	d.batch.files, d.batch.dirs = map[string]bool{}, map[string]bool{}
	d.batch.mu.Unlock()
	if len(files) == 0 {
		return nil
	}
	return syncAll(d.Root, files, dirs)
}

// fsyncPaths syncs each path (files, then directories): the portable way.
func fsyncPaths(files, dirs map[string]bool) error {
	for _, m := range []map[string]bool{files, dirs} {
		for p := range m {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			err = f.Sync()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
