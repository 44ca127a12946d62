//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package refresh

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive, non-blocking flock on the directory itself. Nothing is written;
// the kernel releases the lock when the holder exits, however it ends, so it is never stale.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("the state directory cannot be locked: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{State: dir, How: "it holds an exclusive lock (flock) on the directory, which the system releases the moment that refresh ends, so the lock is never stale; wait for it to finish (or stop it) and refresh again"}
		}
		return nil, fmt.Errorf("the state directory cannot be locked: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
