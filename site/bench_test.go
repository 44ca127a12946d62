package site

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// synthState writes a state of n claims: n/10 sites of 10 claims each, every manifest with
// 5 releases, every claim requiring the previous project (>=1.0.0) and recommending a
// capability that one claim in 100 provides, one claim in 50 stale and one in 100 withdrawn,
// one in 200 a second site's claim of the previous project's id (an identity conflict, and a
// gap where the next claim requires the id nobody publishes), one observed event per claim,
// types by turns from synthTypes, one claim in 10 experimental (the rest active), one of 40
// themes as a tag and "Lua" on one claim in 5, current releases' OpenMW constraints by turns from
// synthOpenMW, and an openmw extension declaring one content file ("Synthetic NNNNN.esp",
// needing Morrowind.esm) in the current release's one component.
func synthState(tb testing.TB, root string, n int) {
	f := statetest.In(tb, root)
	var sites []string
	for s := 0; s < (n+9)/10; s++ {
		sites = append(sites, f.Site(fmt.Sprintf("https://site%04d.example/mods/dreamweave.json", s), fmt.Sprintf("Site %d", s)))
	}
	for i := 0; i < n; i++ {
		id, name, site := uuid(i), fmt.Sprintf("Synthetic project %05d", i), sites[i/10]
		if i%200 == 199 { // the previous project's id, claimed again by the next site
			id, name, site = uuid(i-1), fmt.Sprintf("Synthetic project %05d, again", i-1), sites[(i/10+1)%len(sites)]
		}
		m := sampleManifest(id, name, 5)
		m.Project.Type = synthTypes[i%len(synthTypes)]
		if i%10 == 9 {
			m.Project.Status = "experimental"
		}
		m.Project.Tags = []string{fmt.Sprintf("Theme %d", i%40)}
		if i%5 == 0 {
			m.Project.Tags = append([]string{"Lua"}, m.Project.Tags...)
		}
		m.Releases[0].Runtimes = map[string]string{"openmw": synthOpenMW[i%len(synthOpenMW)]}
		m.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(fmt.Sprintf(`{"components":{"main":{"data_directories":["."],`+
			`"content_files":["Synthetic %05d.esp"],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,`+
			`"requires_content":["Morrowind.esm"]}},"requires_content":[],"settings":[]}`, i))}
		if i > 0 {
			m.Releases[0].Relationships = []protocol.Relationship{
				{Kind: "requires", Project: uuid(i - 1), Version: ">=1.0.0"},
				{Kind: "recommends", Capability: fmt.Sprintf("synthetic:cap-%d", i/100)},
			}
		}
		if i%100 == 0 {
			m.Releases[0].Provides = []string{fmt.Sprintf("synthetic:cap-%d", i/100)}
		}
		d := f.Claim(site, m, func(c *store.Claim) {
			switch {
			case i%100 == 7:
				c.Health = store.ClaimWithdrawn
			case i%50 == 3:
				c.Health, c.Problem = store.ClaimOriginUnavailable, ptr("HTTP 503")
			}
		})
		f.Event(store.Event{Kind: store.EventObserved, Project: id, Origin: site, Name: m.Project.Name,
			ObservedAt: fmt.Sprintf("2026-09-%02dT%02d:%02d:00Z", 1+i%28, i%24, i%60), After: &d, Changes: []diff.Change{}})
	}
}

// synthTypes are the project types of synthState's claims, by turns: as in the real network,
// most are mods and no browse list by type holds every claim.
var synthTypes = []string{"mod", "mod", "mod", "mod", "mod", "mod", "library", "library", "tool", "total-conversion"}

// synthOpenMW are the OpenMW constraints of synthState's current releases, by turns.
var synthOpenMW = []string{">=0.49", "<0.49", "*", ">=0.48, <0.50"}

// peakHeap samples the heap in use every few milliseconds until stop is closed.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak {
				peak = v
			}
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

var (
	benchOnce  sync.Once
	benchState string
)

// BenchmarkBuild10k builds the site from a synthetic state of 10,000 claims. It reports the
// time per build, the CPU time per build (cpu-s/op: on a machine shared with other work it
// varies less than the wall clock), the files and HTML pages written, the bytes of those
// pages (html-bytes, counted with the timer stopped and its allocation left out), the peak
// heap in use during a build (MB), the bytes allocated per build (MB) and the process's
// maximum resident set size (MB, state generation included).
//
//	go test ./site -run '^$' -bench BenchmarkBuild10k -benchtime 3x
func BenchmarkBuild10k(b *testing.B) {
	benchOnce.Do(func() {
		// Not b.TempDir: the benchmark function runs more than once (b.N = 1 first) and the
		// state is written only once; TestMain removes it.
		dir, err := os.MkdirTemp("", "ashyams-bench-*")
		if err != nil {
			b.Fatal(err)
		}
		benchState = filepath.Join(dir, "state")
		synthState(b, benchState, 10_000)
	})
	tmp := b.TempDir()
	var peak uint64
	var files, pages int
	var htmlBytes int64
	var counted uint64 // bytes allocated while counting htmlBytes
	var ms0, ms1, c0, c1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cpu0 := cpuTime()
		// A fresh output directory each time, as in CI: replacing a previous build adds the
		// time to delete it, which says more about the file system than about the build.
		out := filepath.Join(tmp, fmt.Sprint("public", i))
		stop := make(chan struct{})
		res := peakHeap(stop)
		r, err := Build(Options{State: benchState, Out: out})
		close(stop)
		cpu += cpuTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.ReadMemStats(&c0)
		if htmlBytes, err = sizeOfHTML(out); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&c1)
		counted += c1.TotalAlloc - c0.TotalAlloc
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if p := <-res; p > peak {
			peak = p
		}
		files, pages = r.Files, len(r.Pages)
		if len(r.Network.Claims) != 10_000 {
			b.Fatalf("%d claims", len(r.Network.Claims))
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(pages), "pages")
	b.ReportMetric(float64(htmlBytes), "html-bytes")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc-counted)/float64(b.N)/(1<<20), "alloc-MB/op")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB")
	}
}

// sizeOfHTML adds up the sizes in bytes of the .html files under dir.
func sizeOfHTML(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".html" {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		return nil
	})
	return n, err
}

// TestMain ends the shared browser and removes the benchmark's state and the shared builds
// (the corpus's, sharedTempDir's) after every test and benchmark has run.
func TestMain(m *testing.M) {
	code := m.Run()
	endShared()
	if benchState != "" {
		os.RemoveAll(filepath.Dir(benchState))
	}
	if corpusOut != "" {
		os.RemoveAll(filepath.Dir(corpusOut))
	}
	os.Exit(code)
}

// oneSiteState writes a state of one site listing n projects whose manifests were never read
// (manifests absent: each claim is manifest-unreachable with no held manifest), the shape of
// one publisher's very large site index; the site records one publication issue per claim,
// as a refresh does.
func oneSiteState(tb testing.TB, root string, n int) {
	f := statetest.In(tb, root)
	site := f.Site("https://big.example/mods/dreamweave.json", "Big Site")
	var o store.Origin
	if err := f.Dir.ReadJSON(store.OriginPath(site), &o); err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < n; i++ {
		id := uuid(i)
		o.Issues = append(o.Issues, fmt.Sprintf("%s (Project %05d): manifest unreachable: HTTP 404 for the manifest", id, i))
		f.Write(store.ClaimPath(id, site), store.Claim{
			Project: id, Origin: site,
			Entry: protocol.IndexEntry{ID: id, Name: fmt.Sprintf("Project %05d", i), Summary: ptr(fmt.Sprintf("Summary of project %d.", i)),
				Type: "mod", Status: "active", Page: fmt.Sprintf("https://big.example/mods/p%d/", i),
				Manifest: fmt.Sprintf("https://big.example/mods/p%d.json", i), ManifestSHA256: sha([]byte(id)), Updated: ptr("2026-10-01"),
				Channels: map[string]string{"stable": "1.0.0"}},
			AdvertisedSHA256: sha([]byte(id)), Health: store.ClaimManifestUnreachable, Problem: ptr("HTTP 404 for the manifest"),
			FirstObserved: "2026-09-01T00:00:00Z", LastAttempt: statetest.Time,
		})
	}
	sort.Strings(o.Issues)
	f.Write(store.OriginPath(site), o)
}

// BenchmarkBuildOneSite builds one site of 2,000 and of 8,000 projects (oneSiteState): the
// build is linear in the projects of one site when the second takes about four times as long
// as the first. It reports the CPU time per build (cpu-s/op) beside the wall clock.
//
//	go test ./site -run '^$' -bench BenchmarkBuildOneSite -benchtime 1x
func BenchmarkBuildOneSite(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			state := filepath.Join(b.TempDir(), "state")
			oneSiteState(b, state, n)
			tmp := b.TempDir()
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Build(Options{State: state, Out: filepath.Join(tmp, fmt.Sprint("public", i))}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the CPU time (user and system) the process has used: on a machine shared with
// other work, it measures a build better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
