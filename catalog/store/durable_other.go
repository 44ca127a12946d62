//go:build !linux

package store

// syncAll syncs each written file, then each directory written into.
func syncAll(_ string, files, dirs map[string]bool) error { return fsyncPaths(files, dirs) }
