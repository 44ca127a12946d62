// Package browsertest starts the headless Chromium that browser tests drive (chromedp), the
// same way for every package that has such tests: one place for the browser's path, its flags
// and where screenshots go. Browser tests are slow, so they skip under `go test -short`.
package browsertest

import (
	"context"
	"os"
	"os/exec"
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

// Start launches a fresh headless Chromium (Path; its own profile, no network of its own:
// no QUIC, background fetches, component updates or sync; a 1280x900 window) and returns a
// chromedp context on a tab of it. listen, when not nil, receives every event of the tab.
// Everything stops when the test ends. No clock bounds it: a loaded machine makes a browser
// slow, not wrong, and a hung one is stopped by go test's -timeout.
func Start(t testing.TB, listen func(ev any)) context.Context {
	t.Helper()
	bin := Path(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	var opts []chromedp.ContextOption
	if listen != nil {
		opts = append(opts, chromedp.WithListener(listen))
	}
	ctx, cancel := chromedp.NewContext(alloc, opts...)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	return ctx
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
