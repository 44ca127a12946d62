// Package browsertest starts the headless Chromium that browser tests drive (chromedp), the
// same way for every package that has such tests: one place for the browser's path, its flags
// and where screenshots go. The tests of one binary share one browser, each in a tab and a
// browser context of its own. Browser tests are slow, so they skip under `go test -short`.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path returns the browser to run: ASHYAMS_BROWSER when set (then the test must run), else a
// chromium on PATH. It skips the test under -short, or when there is no browser, saying why.
func Path(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test; skipped with -short")
	}
	if p := os.Getenv("ASHYAMS_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("ASHYAMS_BROWSER is unset and no chromium was found on PATH")
	return ""
}

// Start opens a tab of the test binary's headless Chromium (shared) in a browser context of
// its own (its own cookies, storage and cache, as a fresh browser would have) and returns a
// chromedp context on it. listen, when not nil, receives every event of the tab. The tab and
// its browser context close when the test ends. No step has a deadline (a loaded machine makes
// a browser slow, not wrong), but a tab open for Limit is hung: see watch.
func Start(t testing.TB, listen func(ev any)) context.Context {
	t.Helper()
	bin := Path(t)
	root, err := shared(bin)
	if err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	opts := []chromedp.ContextOption{chromedp.WithNewBrowserContext()}
	if listen != nil {
		opts = append(opts, chromedp.WithListener(listen))
	}
	ctx, cancel := chromedp.NewContext(root, opts...)
	stopWatch := watch(t, root, cancel)
	t.Cleanup(func() { stopWatch(); cancel() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab in %s: %v", bin, err)
	}
	return ctx
}

// Limit is how long a tab may stay open: several times the slowest browser test under the
// race detector on a loaded 2-core machine, well below go test's -timeout.
var Limit = 10 * time.Minute

// watch fails t once its tab has been open for Limit, then closes the tab (cancel), so the
// step waiting in it fails naming itself, and retires its browser (root), so the next tests
// get a fresh one. The returned func, called before t ends, stops the watch.
func watch(t testing.TB, root context.Context, cancel func()) (stop func()) {
	var mu sync.Mutex
	ended := false
	timer := time.AfterFunc(Limit, func() {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		t.Errorf("the tab was open for %v: taken as hung and closed", Limit)
		retire(root)
		cancel()
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		ended = true
		timer.Stop()
	}
}

// The browser the tests of one binary share: launching Chromium costs about a second of CPU,
// and a package's browser tests would otherwise each launch their own.
var (
	browserMu   sync.Mutex
	browserCtx  context.Context // a context on the browser's first tab; nil before shared
	browserStop func()
	retired     []func() // stop browsers retired by a hung tab, at Stop
)

// retire makes the next Start launch a new browser when root, which may be hung as a whole,
// is the shared one. It ends at Stop, not now: other tests' tabs may still work in it.
func retire(root context.Context) {
	browserMu.Lock()
	defer browserMu.Unlock()
	if root == browserCtx {
		retired = append(retired, browserStop)
		browserCtx, browserStop = nil, nil
	}
}

// shared returns the shared browser, launching it (bin, its own profile, no network of its
// own: no QUIC, background fetches, component updates or sync; a 1280x900 window) when there
// is none or the last one is gone.
func shared(bin string) (context.Context, error) {
	browserMu.Lock()
	defer browserMu.Unlock()
	if browserCtx != nil && browserCtx.Err() == nil {
		return browserCtx, nil
	}
	stopLocked()
	dir, err := os.MkdirTemp("", "ashyams-chromium-")
	if err != nil {
		return nil, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	stop := func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, err
	}
	browserCtx, browserStop = ctx, stop
	return ctx, nil
}

// Stop ends the shared browser, if Start launched one, and any browser a hung tab retired.
// TestMain calls it after the tests, so no Chromium outlives the test binary.
func Stop() {
	browserMu.Lock()
	defer browserMu.Unlock()
	stopLocked()
	for _, stop := range retired {
		stop()
	}
	retired = nil
}

func stopLocked() {
	if browserStop != nil {
		browserStop()
	}
	browserCtx, browserStop = nil, nil
}

// ArtifactDir is where screenshots go: ASHYAMS_ARTIFACTS when set (CI keeps it), else a
// temporary directory of the test.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("ASHYAMS_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// Until waits in the page until the JavaScript expression cond is true, with no deadline of
// its own: the page checks cond on its own timer, and a navigation that replaces the page while
// it waits (a reload, Back) starts the wait again in the new one. It fails the test when the
// browser is gone or keeps failing; a condition that never holds is stopped by go test's
// -timeout, as any hung test is.
func Until(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	js := `new Promise(r => { const f = () => { let ok = false; try { ok = !!(` + cond + `); } catch (e) {} ok ? r(true) : setTimeout(f, 20); }; f(); })`
	for failed := 0; ; failed++ {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		if err == nil {
			return
		}
		if ctx.Err() != nil || failed == 10000 {
			t.Fatalf("waiting for %s: %v", cond, err)
		}
		// The page went away under the wait (its execution context was destroyed): wait in
		// the one that replaces it, once it has one.
		time.Sleep(10 * time.Millisecond)
	}
}
