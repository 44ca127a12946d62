package refresh

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// LockedError is Run's answer when another refresh holds the state directory: two refreshes
// writing one state interleave their records into a state neither produced (a source recorded
// removed by one while the other keeps its site's claims current).
type LockedError struct {
	State string // the state directory
	How   string // the lock, in words: what holds it and how a stale one is cleared
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another refresh is writing the state %s: %s", e.State, e.How)
}

// lockState creates the state directory if needed and locks it for the whole refresh: an flock
// on the directory where the system has one (nothing written that the branch could commit, and
// never stale), else lockFile. A lock held elsewhere is a *LockedError at once. It returns the
// release.
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

// LockFile is the name of the lock file lockFile creates in the state directory on systems
// without flock. It starts with ".", so check and the state loader ignore it, as they ignore
// .git; it exists only while a refresh runs.
const LockFile = ".ashyams-refresh.lock"

// lockFile takes the lock as a file created with O_EXCL, holding the holder's pid and start
// time, removed on release. A killed refresh leaves it: the error names it and says to remove it.
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
