package refresh

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/refstate"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// sleeper records the waits a refresh asked for and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
	hook  func(n int) // called after the n-th wait (1-based), e.g. to change what is served
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	n := len(s.waits)
	hook := s.hook
	s.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

var clock = time.Date(2026, 10, 11, 6, 0, 0, 0, time.UTC)

// options for a refresh of state from urls, on loopback, with an instant sleeper.
func options(state string, sl *sleeper, urls ...string) Options {
	var srcs []sources.Source
	for i, u := range urls {
		srcs = append(srcs, sources.Source{URL: u, Entry: i + 1})
	}
	return Options{
		State:         state,
		Sources:       srcs,
		AllowLoopback: true,
		Now:           func() time.Time { return clock },
		Sleep:         sl.Sleep,
		Timeout:       5 * time.Second,
	}
}

func refresh(t *testing.T, o Options) *Summary {
	t.Helper()
	var progress bytes.Buffer
	o.Progress = &progress
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("refresh failed: %v\nprogress:\n%s", err, progress.String())
	}
	return sum
}

func mustCheck(t *testing.T, state string) {
	t.Helper()
	if ps := store.Open(state).Check(); len(ps) != 0 {
		t.Fatalf("check: %v", ps)
	}
	if err := refstate.Errors(state); err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, state string) *store.Snapshot {
	t.Helper()
	s, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// snapshotFiles reads every file under root (relative slash paths -> bytes).
func snapshotFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// restoreFiles makes root hold exactly files (a snapshotFiles result).
func restoreFiles(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		fp := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// crashAtEveryWrite is the crash drill: for k = 1, 2, ... the state is restored to base, before
// (if not nil) stages the sites, and a refresh of urls dies at its k-th write (every write from
// there fails, as if the process was killed). Each state it leaves must pass check; after(k,
// last) then asserts what the next refresh makes of it (last is the record the crash hit). The
// drill ends with the first k the refresh finishes under, which must be past minWrites writes,
// or the drill exercised too little. Under -short it crashes at the first shortCrashes writes
// and then at every shortStride-th, a sample of the same assertions.
func (l *lab) crashAtEveryWrite(t *testing.T, base map[string][]byte, minWrites int, urls []string, before func(), after func(k int, last string)) {
	t.Helper()
	next := func(k int) int {
		if testing.Short() && k >= shortCrashes {
			return k + shortStride
		}
		return k + 1
	}
	for k := 1; ; k = next(k) {
		restoreFiles(t, l.state, base)
		if before != nil {
			before()
		}
		cs := &crashing{Dir: store.Open(l.state), at: k}
		_, err := runWith(context.Background(), l.options(urls...), cs)
		if !cs.crashed() {
			if err != nil {
				t.Fatal(err)
			}
			if cs.n < minWrites {
				t.Fatalf("a refresh that writes only %d records cannot exercise the drill", cs.n)
			}
			t.Logf("the refresh writes %d records; crashed at each (at a sample under -short), every state passed check", cs.n)
			return
		}
		if !errors.Is(err, errCrash) {
			t.Fatalf("crash at write %d: err = %v", k, err)
		}
		if ps := store.Open(l.state).Check(); len(ps) != 0 {
			t.Fatalf("crash at write %d (%s): check: %v", k, cs.last, ps)
		}
		// From its first write on, a refresh that dies says so: network.json's start record.
		if x := load(t, l.state).Network.Interrupted; k > 1 && (x == nil || !x.Unknown) {
			t.Fatalf("crash at write %d (%s): network.json does not say the refresh did not finish: %+v", k, cs.last, x)
		}
		after(k, cs.last)
	}
}

// Under -short the crash drill crashes at writes 1 to shortCrashes (opening the run and the
// first records), then at every shortStride-th write.
const shortCrashes, shortStride = 4, 5

func sortedPaths(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// urlPath is the server path of a loopback URL ("/host/path").
func urlPath(srv *loopback.Server, u string) string {
	return "/" + strings.TrimPrefix(u, srv.URL())
}

// budgets replaces the wall clock of the time budgets (Options.budget): a budget ends when the
// test calls expire for its subject (a site id, an enrolled URL, "" for the deadline), never
// because time passed, so no test depends on how fast the machine is.
type budgets struct {
	mu      sync.Mutex
	live    map[string][]func()
	expired map[string]bool
}

func newBudgets() *budgets {
	return &budgets{live: map[string][]func(){}, expired: map[string]bool{}}
}

func (b *budgets) start(ctx context.Context, _ time.Duration, cause *BudgetError, subject string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	end := func() { cancel(cause) }
	b.mu.Lock()
	b.live[subject] = append(b.live[subject], end)
	gone := b.expired[subject]
	b.mu.Unlock()
	if gone {
		end()
	}
	return ctx, func() { cancel(context.Canceled) }
}

// expire ends every budget of subject, and every one started for it from now on.
func (b *budgets) expire(subject string) {
	b.mu.Lock()
	b.expired[subject] = true
	ends := b.live[subject]
	b.mu.Unlock()
	for _, end := range ends {
		end()
	}
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }
