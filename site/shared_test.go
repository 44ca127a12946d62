package site

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

// Builds shared by the tests of one test binary: a build costs seconds (the synthetic site
// of 1,200 claims most of a minute on a loaded machine), and the tests that read one never
// write to it, so each is made once, by the first test that asks, and removed by TestMain.

var (
	sharedMu   sync.Mutex
	sharedDirs []string // removed by endShared, from TestMain
)

// sharedTempDir is a new temporary directory that outlives the test making it (t.TempDir
// does not: the next test reading a shared build would find it gone); TestMain removes it.
func sharedTempDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	sharedMu.Lock()
	sharedDirs = append(sharedDirs, dir)
	sharedMu.Unlock()
	return dir, nil
}

// endShared ends the browser the tests share (browsertest.Stop) and removes every directory
// sharedTempDir made.
func endShared() {
	browsertest.Stop()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for _, d := range sharedDirs {
		os.RemoveAll(d)
	}
	sharedDirs = nil
}

// synthBuilt is one synthetic site of synthBuild: its state, output and the build's result,
// or why making it failed.
type synthBuilt struct {
	once  sync.Once
	state string
	out   string
	res   *Result
	err   error
}

var (
	synthMu    sync.Mutex
	synthSites = map[int]*synthBuilt{}
)

// synthBuild is the site built from synthState's state of n claims, as build makes it (and
// check-site passes it), once per test binary for each n: the state directory, the build's
// result and the output directory. Callers read them and never write to them.
func synthBuild(t *testing.T, n int) (state string, res *Result, out string) {
	t.Helper()
	synthMu.Lock()
	s := synthSites[n]
	if s == nil {
		s = &synthBuilt{}
		synthSites[n] = s
	}
	synthMu.Unlock()
	s.once.Do(func() {
		dir, err := sharedTempDir(fmt.Sprintf("ashyams-synth-%d-", n))
		if err != nil {
			s.err = err
			return
		}
		s.state, s.out = filepath.Join(dir, "state"), filepath.Join(dir, "public")
		synthState(t, s.state, n)
		if s.res, s.err = Build(Options{State: s.state, Out: s.out}); s.err != nil {
			return
		}
		probs, err := linkcheck.Check(s.out, "")
		if err != nil {
			s.err = err
			return
		}
		if len(probs) > 0 {
			s.err = fmt.Errorf("check-site: %v", probs)
		}
	})
	if s.err != nil {
		t.Fatalf("the synthetic site of %d claims: %v", n, s.err)
	}
	if s.res == nil {
		t.Fatalf("the synthetic site of %d claims was not made (its first build stopped)", n)
	}
	return s.state, s.res, s.out
}
