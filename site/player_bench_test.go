package site

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// BenchmarkPlayerPages measures what a player's browser pays on synthetic sites of 1,000 and
// 10,000 claims (synthState), served gzipped on loopback, in headless Chromium: for the home,
// projects, a browse list, updates, setup and plan pages, on a desktop (1280x900) and on a
// phone (390x844, CPU throttled 4x), the bytes transferred on first load (compressed, every
// request until the load event), the DOM elements, and the load time; on the projects page
// also the first search after focus (the index's fetch included), the median and worst
// keystroke, and a filter change (each until the results are in). It prints a table and
// reports the 10k figures as metrics. It is a measurement, not a test: nothing is asserted.
//
//	ASHYAMS_BROWSER=/usr/bin/chromium go test ./site -run '^$' -bench BenchmarkPlayerPages -benchtime 1x -timeout 60m
//
// ASHYAMS_BENCH_SIZES (e.g. "1000") chooses other sizes; ASHYAMS_BENCH_DIR keeps the states and
// sites between runs (they are rebuilt when missing).
func BenchmarkPlayerPages(b *testing.B) {
	bin := os.Getenv("ASHYAMS_BROWSER")
	if bin == "" {
		b.Skip("ASHYAMS_BROWSER is unset")
	}
	sizes := benchSizes(b, 1000, 10_000)
	dir := os.Getenv("ASHYAMS_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	var rows []string
	for i := 0; i < b.N; i++ {
		for _, n := range sizes {
			out := filepath.Join(dir, fmt.Sprintf("synth-%d", n), "public")
			if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
				state := filepath.Join(dir, fmt.Sprintf("synth-%d", n), "state")
				_ = os.RemoveAll(state)
				synthState(b, state, n)
				if _, err := Build(Options{State: state, Out: out}); err != nil {
					b.Fatal(err)
				}
			}
			size, files := treeSize(b, out)
			rows = append(rows, fmt.Sprintf("%d claims: site %.1f MB in %d files, %.1f KB per claim", n, float64(size)/1e6, files, float64(size)/1e3/float64(n)))
			for _, phone := range []bool{false, true} {
				ms := measurePlayer(b, bin, out, phone)
				for _, m := range ms {
					rows = append(rows, fmt.Sprintf("%d claims, %s: %s", n, map[bool]string{false: "desktop", true: "phone"}[phone], m))
				}
			}
		}
	}
	b.StopTimer()
	for _, r := range rows {
		fmt.Println(r)
	}
}

// treeSize is the bytes and files under dir.
func treeSize(tb testing.TB, dir string) (int64, int) {
	var size int64
	files := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		size += info.Size()
		files++
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return size, files
}

// gzipped serves h's answers gzip-compressed to a client that accepts it, as a static host
// does.
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Del("Content-Length")
		gz := gzip.NewWriter(w)
		defer gz.Close()
		h.ServeHTTP(gzipWriter{ResponseWriter: w, w: gz}, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	w *gzip.Writer
}

func (g gzipWriter) Write(p []byte) (int, error) { return g.w.Write(p) }
func (g gzipWriter) WriteHeader(code int) {
	g.ResponseWriter.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

// measurePlayer loads each page of the site in out and says what it cost, one line a page.
func measurePlayer(b *testing.B, bin, out string, phone bool) []string {
	srv := httptest.NewServer(gzipped(preview.Handler(out)))
	defer srv.Close()
	root := srv.URL + BasePath(DefaultBaseURL)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(b.TempDir()), chromedp.Flag("disable-background-networking", true))
	defer cancelAlloc()
	var mu sync.Mutex
	var bytes int64
	listen := func(ev any) {
		if e, ok := ev.(*network.EventLoadingFinished); ok {
			mu.Lock()
			bytes += int64(e.EncodedDataLength)
			mu.Unlock()
		}
	}
	var lines []string
	pages := []string{"index.html", "projects/index.html", "browse/recently-updated/index.html", "updates/index.html", plan.SetupPage, "plan/index.html"}
	for _, rel := range pages {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel))); err != nil {
			continue
		}
		// A fresh tab a page: an empty cache, as on a first visit.
		ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(listen))
		ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
		w, h := int64(1280), int64(900)
		if phone {
			w, h = 390, 844
		}
		rate := 1.0
		if phone {
			rate = 4
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h), func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
				return chromedp.Void{}, err
			}
			if _, err := cdp.Call(ctx, tg, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
				return chromedp.Void{}, err
			}
			_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
			return chromedp.Void{}, err
		}); err != nil {
			b.Fatal(err)
		}
		mu.Lock()
		bytes = 0
		mu.Unlock()
		navigate(b, ctx, root+rel, "body > footer")
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 500))`, chromedp.EvalAwaitPromise)); err != nil {
			b.Fatal(err)
		}
		load, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => { const n = performance.getEntriesByType("navigation")[0]; return n.loadEventEnd - n.startTime })()`))
		if err != nil {
			b.Fatalf("%s: %v", rel, err)
		}
		elements, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementsByTagName("*").length`))
		if err != nil {
			b.Fatalf("%s: %v", rel, err)
		}
		mu.Lock()
		first := bytes
		mu.Unlock()
		line := fmt.Sprintf("%s: %.1f KB on first load, %d elements, loaded in %.0f ms", rel, float64(first)/1024, elements, load)
		if rel == "projects/index.html" {
			line += "; " + searchTimes(b, ctx)
		}
		lines = append(lines, line)
		cancelTime()
		cancel()
	}
	return lines
}

// searchTimes times the project list's search in the page of ctx: the first search after
// focus, keystrokes one by one, and a filter change, each until the list is no longer busy.
func searchTimes(b *testing.B, ctx context.Context) string {
	const js = `(async () => {
  const q = document.getElementById("q"), list = document.getElementById("results");
  const settled = () => new Promise(r => { const f = () => list.hasAttribute("aria-busy") ? setTimeout(f, 1) : requestAnimationFrame(() => r()); f(); });
  const type = async (v) => { const t = performance.now(); q.value = v; q.dispatchEvent(new Event("input", {bubbles: true})); await settled(); return performance.now() - t; };
  const t0 = performance.now(); q.focus(); await type("s"); const first = performance.now() - t0;
  const word = "ynthetic projec", keys = [];
  for (let i = 1; i <= word.length; i++) { keys.push(await type("s" + word.slice(0, i))); }
  const sel = document.getElementById("f-health"); const t1 = performance.now();
  sel.value = "current"; sel.dispatchEvent(new Event("change", {bubbles: true})); await settled();
  return {first, keys, filter: performance.now() - t1};
})()`
	type times struct {
		First  float64   `json:"first"`
		Keys   []float64 `json:"keys"`
		Filter float64   `json:"filter"`
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[times](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("search: %v", err)
	}
	first, keys, filter := res.First, res.Keys, res.Filter
	sort.Float64s(keys)
	med, worst := 0.0, 0.0
	if len(keys) > 0 {
		med, worst = keys[len(keys)/2], keys[len(keys)-1]
	}
	return fmt.Sprintf("first search after focus %.0f ms, keystroke median %.0f ms (worst %.0f), filter change %.0f ms", first, med, worst, filter)
}
