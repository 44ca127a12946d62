package refresh

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// LockedError is Run's answer when another refresh holds the state directory.
type LockedError struct {
	State string // the state directory
	How   string // what holds the lock and how a stale one is cleared
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another refresh is writing the state %s: %s", e.State, e.How)
}

// lockState creates the state directory if needed and locks it for the whole refresh (flock,
// else lockFile); it returns the release, or a *LockedError.
func lockState(dir string) (func(), error) {
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("the state directory cannot be created: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("the state directory cannot be read: %w", err)
	case !st.IsDir():
		return nil, fmt.Errorf("the state %s is not a directory", dir)
	}
	return lockDir(dir)
}

// LockFile is the lock file lockFile creates without flock; check ignores dot files.
const LockFile = ".ashyams-refresh.lock"

// lockFile takes the lock as an O_EXCL file holding pid and start time, removed on release; a
// stale one is named in the error.
func lockFile(dir, now string) (func(), error) {
	p := dir + string(os.PathSeparator) + LockFile
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		held, _ := os.ReadFile(p)
		return nil, &LockedError{State: dir, How: fmt.Sprintf("the lock file %s exists (%q); if no refresh is running (one killed without cleaning up), remove that file and refresh again", p, string(held))}
	}
	if err != nil {
		return nil, fmt.Errorf("the state directory cannot be locked: %w", err)
	}
	_, werr := fmt.Fprintf(f, "pid %d, started %s\n", os.Getpid(), now)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(p)
		return nil, fmt.Errorf("the state directory cannot be locked: %w", werr)
	}
	return func() { os.Remove(p) }, nil
}
