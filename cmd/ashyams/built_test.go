package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builtCommand is the ashyams command built by `go build`, once per test binary, for the tests
// that run it as a user would (the realnet drills, in parallel): linking it costs seconds of
// CPU that two builds paid twice. TestMain removes it.
func builtCommand(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ashyams-built-")
		if err != nil {
			builtErr = err
			return
		}
		builtDir = dir
		bin := filepath.Join(dir, "ashyams")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			builtErr = &buildError{err: err, out: out}
			return
		}
		builtBin = bin
	})
	if builtErr != nil {
		t.Fatalf("go build: %v", builtErr)
	}
	return builtBin
}

var (
	builtOnce sync.Once
	builtDir  string // removed by TestMain
	builtBin  string
	builtErr  error
)

// buildError is a failed `go build` with what it printed.
type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }
