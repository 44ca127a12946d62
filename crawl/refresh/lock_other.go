//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package refresh

import (
	"time"
)

// lockDir falls back to a lock file where the system has no flock.
func lockDir(dir string) (func(), error) {
	return lockFile(dir, time.Now().UTC().Format(time.RFC3339))
}
