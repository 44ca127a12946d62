package refresh

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// benchLatency is what every response of the benchmark's sites waits before it is answered.
const benchLatency = 50 * time.Millisecond

// BenchmarkRefreshUnchanged measures an unchanged refresh of N sites on N host names served on
// loopback, every response delayed by benchLatency, against the politeness bound: a site costs
// two requests (its page and its site index, both answered 304) and eight sites are read at
// once, so 2 x N x latency / 8. Reported: "x-bound" (wall time over that bound; the target is
// at most 1.3), "bound-s", and "maxrss-MB" (the whole test process, the synthetic network and
// its first refresh included). Each site is a page linking its site index, which lists one
// project. The state is made by a first refresh without latency, outside the timer.
//
//	go test ./crawl/refresh -run '^$' -bench 'BenchmarkRefreshUnchanged/sites=1000$' -benchtime 1x
func BenchmarkRefreshUnchanged(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("sites=%d", n), func(b *testing.B) { benchUnchanged(b, n) })
	}
}

func benchUnchanged(b *testing.B, n int) {
	root, urls := benchNetwork(b, n)
	srv, err := loopback.Start(root, loopback.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	state := filepath.Join(b.TempDir(), "state")
	opts := func() Options {
		var srcs []sources.Source
		for i, u := range urls {
			srcs = append(srcs, sources.Source{URL: u, Entry: i + 1})
		}
		return Options{State: state, Sources: srcs, AllowLoopback: true, Resolver: srv.Resolver(), Dial: srv.Dial}
	}
	sum, err := Run(context.Background(), opts())
	if err != nil || sum.SitesRead != n || sum.Accepted != n {
		b.Fatalf("first refresh: %v\n%s", err, sum)
	}
	if err := srv.SetRules([]loopback.Rule{{Path: ".", Delay: benchLatency}}); err != nil {
		b.Fatal(err)
	}
	bound := time.Duration(2*n) * benchLatency / DefaultMaxSources
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		o := opts()
		o.Progress = io.Discard

		sum, err := Run(context.Background(), o)
		if err != nil || sum.SitesRead != n || sum.Unchanged != n || sum.Fetched != 0 {
			b.Fatalf("unchanged refresh: %v\n%s", err, sum)
		}
	}
	elapsed := time.Since(start) / time.Duration(b.N)

	b.StopTimer()
	b.ReportMetric(elapsed.Seconds()/bound.Seconds(), "x-bound")
	b.ReportMetric(bound.Seconds(), "bound-s")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB") // Linux: kilobytes
	}
}

// benchNetwork is n sites on the hosts site00001.example...: a page linking its site index,
// which lists one project (the lab's Tallow under an id of its own).
func benchNetwork(b *testing.B, n int) (fstest.MapFS, []string) {
	web := labWeb(b)
	man, idx := web[manifestPath(tplDir, tallow)], web[tplDir+"/dreamweave.json"]
	var doc map[string]any
	if err := json.Unmarshal(idx, &doc); err != nil {
		b.Fatal(err)
	}
	entry := doc["projects"].([]any)[1].(map[string]any) // Tallow's
	root := fstest.MapFS{}
	var urls []string
	for i := 1; i <= n; i++ {
		host := fmt.Sprintf("site%05d.example", i)
		id := fmt.Sprintf("%08d-0000-4000-8000-000000000000", i)
		m := bytes.ReplaceAll(man, []byte(tallow), []byte(id))
		e := map[string]any{}
		for k, v := range entry {
			e[k] = v
		}
		e["id"], e["manifest"], e["manifest_sha256"] = id, "http://"+host+"/projects/"+id+".json", store.Digest(m)
		doc["projects"] = []any{e}
		doc["site"] = map[string]any{"name": "Site " + host, "url": "http://" + host + "/"}
		ib, err := json.Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		root[host+"/index.html"] = &fstest.MapFile{Data: []byte(`<!doctype html><html><head><title>` + host + `</title>` +
			`<link rel="alternate" type="application/vnd.dreamweave.index+json" href="dreamweave.json"></head><body></body></html>`)}
		root[host+"/dreamweave.json"] = &fstest.MapFile{Data: ib}
		root[host+"/projects/"+id+".json"] = &fstest.MapFile{Data: m}
		urls = append(urls, "http://"+host+"/")
	}
	return root, urls
}
