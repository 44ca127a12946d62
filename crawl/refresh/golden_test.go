package refresh

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from what the refreshes write")

// The golden refreshes: the example network's sites at their own names (http://<host>/, served
// on loopback in host mode, so every URL recorded is the same on every run), a first refresh,
// then one change and a second refresh six hours later. The state the second one leaves (every
// record, and the digest of every file kept as served) and its summary are compared with
// testdata/golden/<name>.txt, which shows the records in the reference index's shapes for the
// case (FORMATS sections 1.2 to 1.5 and 1.11). go test ./crawl/refresh -run TestGolden -update
// rewrites them.
func TestGolden(t *testing.T) {
	t.Parallel()
	const tide, lanterns = "http://tidewater.example/", "http://lanterns.example/"
	for _, tc := range []struct {
		name          string
		first, second []string
		change        func(g *goldenWeb)
	}{
		// The site moves to another host: its old address answers 301 to the new one.
		{"move", []string{tide}, []string{tide}, func(g *goldenWeb) {
			g.copyHost("tidewater.example", "tide.example")
			g.redirect("tidewater.example/", http.StatusMovedPermanently, "http://tide.example/")
			g.redirect("tidewater.example/dw/dreamweave.json", http.StatusMovedPermanently, "http://tide.example/dw/dreamweave.json")
		}},
		// The source leaves sources.toml: its record, its site and the site's claims go.
		{"removal", []string{lanterns, tide}, []string{lanterns}, nil},
		// The site index answers 503: the source and the site say so, the claims are stale.
		{"outage", []string{tide}, []string{tide}, func(g *goldenWeb) {
			g.redirect("tidewater.example/dw/dreamweave.json", http.StatusServiceUnavailable, "")
		}},
		// The site index speaks a newer protocol (schema_version "3").
		{"newer-protocol", []string{tide}, []string{tide}, func(g *goldenWeb) {
			g.edit("tidewater.example/dw/dreamweave.json", func(b []byte) []byte {
				return bytes.Replace(b, []byte(`"schema_version": "2"`), []byte(`"schema_version": "3"`), 1)
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGoldenWeb(t)
			state := filepath.Join(t.TempDir(), "state")
			g.refresh(state, 0, tc.first)
			if tc.change != nil {
				tc.change(g)
			}
			sum := g.refresh(state, 1, tc.second)
			mustCheck(t, state)
			got := dumpState(t, state) + "== summary\n" + sum.String()
			golden := filepath.Join("testdata", "golden", tc.name+".txt")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("the state after %s differs from %s (run with -update, then read the diff):\n%s", tc.name, golden, firstDifference(string(want), got))
			}
		})
	}
}

// goldenWeb is the example network's web root, served in host mode, changed between refreshes.
type goldenWeb struct {
	t     *testing.T
	mu    sync.Mutex
	files fstest.MapFS
	moved map[string]redirect // "<host><path>" -> the answer
	srv   *loopback.Server
}

func newGoldenWeb(t *testing.T) *goldenWeb {
	g := &goldenWeb{t: t, files: fstest.MapFS{}, moved: map[string]redirect{}}
	err := fs.WalkDir(example.Web(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(example.Web(), p)
		g.files[p] = &fstest.MapFile{Data: b, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := loopback.Start(g.root(), loopback.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			g.mu.Lock()
			mv, ok := g.moved[strings.ToLower(r.Host)+r.URL.Path]
			g.mu.Unlock()
			if ok {
				if mv.to != "" {
					w.Header().Set("Location", mv.to)
				}
				w.Header().Set("Content-Length", "0")
				w.WriteHeader(mv.status)
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	g.srv = srv
	return g
}

func (g *goldenWeb) root() fs.FS {
	g.mu.Lock()
	defer g.mu.Unlock()
	m := fstest.MapFS{}
	for p, f := range g.files {
		m[p] = &fstest.MapFile{Data: bytes.Clone(f.Data), Mode: f.Mode}
	}
	return m
}

func (g *goldenWeb) sync() {
	if err := g.srv.SetRoot(g.root()); err != nil {
		g.t.Fatal(err)
	}
}

// redirect answers "<host><path>" with status and Location to ("" for none).
func (g *goldenWeb) redirect(hostPath string, status int, to string) {
	g.mu.Lock()
	g.moved[hostPath] = redirect{status: status, to: to}
	g.mu.Unlock()
}

// edit rewrites one file of the web root.
func (g *goldenWeb) edit(p string, f func([]byte) []byte) {
	g.mu.Lock()
	g.files[p] = &fstest.MapFile{Data: f(g.files[p].Data), Mode: 0o644}
	g.mu.Unlock()
	g.sync()
}

// copyHost publishes a copy of one host's files under another host: every "http://<from>/"
// in them becomes "http://<to>/" and the index advertises the copies' digests.
func (g *goldenWeb) copyHost(from, to string) {
	g.mu.Lock()
	digests := map[string]string{}
	var indexes []string
	for p, f := range g.files {
		if !strings.HasPrefix(p, from+"/") {
			continue
		}
		np := to + "/" + strings.TrimPrefix(p, from+"/")
		b := bytes.ReplaceAll(f.Data, []byte("http://"+from+"/"), []byte("http://"+to+"/"))
		g.files[np] = &fstest.MapFile{Data: b, Mode: 0o644}
		digests[store.Digest(f.Data)] = store.Digest(b)
		if strings.HasSuffix(np, "/dreamweave.json") {
			indexes = append(indexes, np)
		}
	}
	for _, p := range indexes {
		b := g.files[p].Data
		for o, n := range digests {
			b = bytes.ReplaceAll(b, []byte(o), []byte(n))
		}
		g.files[p].Data = b
	}
	g.mu.Unlock()
	g.sync()
}

// refresh runs the n-th refresh (n times six hours after the golden clock) of urls into state.
func (g *goldenWeb) refresh(state string, n int, urls []string) *Summary {
	g.t.Helper()
	var srcs []sources.Source
	for i, u := range urls {
		srcs = append(srcs, sources.Source{URL: u, Entry: i + 1})
	}
	at := clock.Add(time.Duration(n) * 6 * time.Hour)
	var progress bytes.Buffer
	sum, err := Run(context.Background(), Options{
		State: state, Sources: srcs, AllowLoopback: true,
		Resolver: g.srv.Resolver(), Dial: g.srv.Dial,
		Now:      func() time.Time { return at },
		Sleep:    (&sleeper{}).Sleep,
		Progress: &progress,
		Timeout:  5 * time.Second,
	})
	if err != nil {
		g.t.Fatalf("refresh %d: %v\n%s", n, err, progress.String())
	}
	return sum
}

// dumpState renders a state directory as text: each file by path, records in full, the files
// kept as served (site indexes, manifests, images) by size and digest.
func dumpState(t *testing.T, root string) string {
	t.Helper()
	files := snapshotFiles(t, root)
	var b strings.Builder
	for _, p := range sortedPaths(files) {
		body := files[p]
		if strings.HasSuffix(p, "/"+store.ManifestFile) || strings.HasSuffix(p, "/"+store.IndexFile) || strings.HasPrefix(p, store.MediaDir+"/") {
			fmt.Fprintf(&b, "== %s (as served: %d bytes, sha256 %s)\n", p, len(body), store.Digest(body))
			continue
		}
		fmt.Fprintf(&b, "== %s\n%s", p, body)
		if !bytes.HasSuffix(body, []byte("\n")) {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// firstDifference shows where two texts part: a few lines of each from the first line that
// differs.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	lo := max(i-3, 0)
	show := func(l []string) string {
		hi := min(i+6, len(l))
		if lo >= hi {
			return "  (ends)"
		}
		return "  " + strings.Join(l[lo:hi], "\n  ")
	}
	return fmt.Sprintf("line %d:\nwant:\n%s\ngot:\n%s", i+1, show(w), show(g))
}
