package store

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// syncAll is one syncfs(2) of the file system holding root: every dirty page and inode of it
// written back, the batch's files and renames among them.
func syncAll(root string, files, dirs map[string]bool) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("sync the state's file system: %w", err)
	}
	return nil
}
