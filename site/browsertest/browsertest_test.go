package browsertest

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// recorder is a testing.TB whose failures are kept, not reported, so a test can assert how
// another one fails. Fatalf ends the goroutine, as testing's does.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// A step that never ends (a condition that never holds) fails its test once the tab has been
// open for Limit, naming the step, and the next test gets a browser of its own.
func TestHungTabFailsNamingItsStep(t *testing.T) {
	Until(t, Start(t, nil), "true") // the shared browser, launched before the clock starts
	browserMu.Lock()
	first := browserCtx
	browserMu.Unlock()

	defer func(d time.Duration) { Limit = d }(Limit)
	Limit = 5 * time.Second
	r := &recorder{TB: t}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		Until(r, Start(r, nil), "false")
	}()
	<-ended
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	if len(r.errs) != 2 || !strings.Contains(r.errs[0], "open for 5s: taken as hung and closed") || !strings.HasPrefix(r.errs[1], "waiting for false: ") {
		t.Fatalf("a hung tab failed its test with %q; want the watch's failure, then the wait's naming its condition", r.errs)
	}

	ctx := Start(t, nil)
	Until(t, ctx, "true")
	browserMu.Lock()
	next := browserCtx
	browserMu.Unlock()
	if next == first || next == nil {
		t.Error("the test after a hung tab runs in the browser the tab was hung in")
	}
	if first.Err() != nil {
		t.Error("retiring the hung browser closed it before Stop: tabs still working in it would be cut short")
	}
}

// A watch stopped before Limit (the test ended in time) neither fails the test nor closes
// its tab when its clock runs out.
func TestWatchStoppedInTime(t *testing.T) {
	defer func(d time.Duration) { Limit = d }(Limit)
	Limit = 20 * time.Millisecond
	r := &recorder{TB: t}
	closed := false
	stop := watch(r, context.Background(), func() { closed = true })
	stop()
	time.Sleep(10 * Limit)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) != 0 || closed {
		t.Errorf("a watch stopped in time failed its test (%q) or closed its tab (%v)", r.errs, closed)
	}
}
