//go:build !linux

package store

func syncAll(_ string, files, dirs map[string]bool) error { return fsyncPaths(files, dirs) }
