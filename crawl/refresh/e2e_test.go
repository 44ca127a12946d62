package refresh

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// TestEndToEnd: a network replayed on loopback, the enrolled URLs rewritten to it: the lab's
// two sites (corpustest.Sites: the corpus's Mod Template and dream-ini, or their stand-ins),
// and with ../shared the whole corpus web root with the reference's 14 enrolled URLs. Every
// claim ends current, each held manifest is byte for byte what was served, check passes; a
// second refresh over unchanged sites downloads no manifest.
func TestEndToEnd(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{}
	for p, b := range labWeb(t) {
		web[p] = &fstest.MapFile{Data: b}
	}
	endToEnd(t, web, func(srv *loopback.Server) []string {
		return []string{srv.URL() + tplDir + "/", srv.URL() + iniDir + "/"}
	}, 3, 2)
	www, ok := corpustest.Optional(t, "www")
	if !ok {
		return
	}
	refSnap, err := store.Open(corpustest.Path(t, "state")).Load()
	if err != nil {
		t.Fatal(err)
	}
	endToEnd(t, os.DirFS(www), func(srv *loopback.Server) []string {
		var urls []string
		for _, s := range refSnap.Sources {
			urls = append(urls, srv.Rewrite(s.URL))
		}
		return urls
	}, 45, 14)
}

// endToEnd refreshes the enrolled URLs that urls gives for root served on loopback, twice, and
// checks the state holds claims current claims of sources sources, as TestEndToEnd says.
func endToEnd(t *testing.T, root fs.FS, urls func(*loopback.Server) []string, claims, sources int) {
	t.Helper()
	// Count requests in flight: at most two to one host. A request waits (up to a second) until
	// the limit has been in flight once, so reaching it does not depend on the scheduler, then
	// is held 5 ms so that a third would overlap.
	var mu sync.Mutex
	inFlight, peak := 0, 0
	reached := func() bool { mu.Lock(); defer mu.Unlock(); return peak >= DefaultPerHost }
	srv, err := loopback.Start(root, loopback.Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inFlight++
			peak = max(peak, inFlight)
			mu.Unlock()
			for end := time.Now().Add(time.Second); !reached() && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(5 * time.Millisecond)
			next.ServeHTTP(w, r)
			mu.Lock()
			inFlight--
			mu.Unlock()
		})
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	enrolled := urls(srv)
	if len(enrolled) != sources {
		t.Fatalf("%d sources enrolled, want %d", len(enrolled), sources)
	}
	state := filepath.Join(t.TempDir(), "state")
	sl := &sleeper{}
	sum := refresh(t, options(state, sl, enrolled...))
	t.Logf("first refresh:\n%s", sum)

	snap := load(t, state)
	if len(snap.Claims) != claims {
		t.Fatalf("%d claims, want %d", len(snap.Claims), claims)
	}
	d := store.Open(state)
	for _, c := range snap.Claims {
		if c.Health != store.ClaimCurrent || c.Problem != nil {
			t.Errorf("%s: health %s, problem %v", c.Dir, c.Health, deref(c.Problem))
		}
		held, err := d.ReadBytes(c.Dir + "/manifest.json")
		if err != nil {
			t.Fatal(err)
		}
		served, ok := srv.Bytes(urlPath(srv, c.Entry.Manifest))
		if !ok || !bytes.Equal(held, served) {
			t.Errorf("%s: held manifest is not byte-identical to what %s served", c.Dir, c.Entry.Manifest)
		}
		if store.Digest(held) != c.Ingested() || c.Ingested() != c.AdvertisedSHA256 {
			t.Errorf("%s: digests held %s, ingested %s, advertised %s", c.Dir, store.Digest(held), c.Ingested(), c.AdvertisedSHA256)
		}
	}
	for _, o := range snap.Origins {
		if o.Health != store.OriginHealthy {
			t.Errorf("origin %s: %s %v", o.ID, o.Health, deref(o.Problem))
		}
	}
	if len(snap.Sources) != sources || len(snap.Origins) != sources || sum.Accepted != claims || sum.Events != claims || len(snap.Events) != claims {
		t.Errorf("sources %d, origins %d, accepted %d, events %d/%d", len(snap.Sources), len(snap.Origins), sum.Accepted, sum.Events, len(snap.Events))
	}
	mustCheck(t, state)
	mu.Lock()
	if peak != DefaultPerHost {
		t.Errorf("at most %d requests were in flight to the one host; want exactly the limit, %d", peak, DefaultPerHost)
	}
	mu.Unlock()
	for _, q := range srv.Requests() {
		if q.UserAgent != product.UserAgent {
			t.Errorf("%s sent User-Agent %q", q.Path, q.UserAgent)
		}
	}
	if len(sl.Waits()) != 0 {
		t.Errorf("a consistent network needed waits: %v", sl.Waits())
	}

	// network.json names what changed health: here, every claim and site, first seen.
	var n1 store.Network
	if err := store.Open(state).ReadJSON(store.NetworkFile, &n1); err != nil {
		t.Fatal(err)
	}
	if len(n1.HealthChanges) != claims+sources || n1.HealthChanges[0].Before != "" || !reflectEqual(n1.HealthChanges, sum.HealthChanges) {
		t.Errorf("network.json health changes: %d, want %d first sightings", len(n1.HealthChanges), claims+sources)
	}

	before := snapshotFiles(t, state)
	ownNetwork, _ := store.OwnPath(store.NetworkFile)
	srv.ResetRequests()
	sum2 := refresh(t, options(state, sl, enrolled...))
	t.Logf("second refresh:\n%s", sum2)
	// Exactly two requests per source, both conditional and both answered 304: the enrolled
	// page and its site index. No manifest, no image, nothing else. The server logs a request
	// before answering it, so every request the refresh made is in the log once it returns.
	var want []string
	for _, s := range load(t, state).Sources {
		var o store.Origin
		if err := store.Open(state).ReadJSON(store.OriginPath(*s.Origin), &o); err != nil {
			t.Fatal(err)
		}
		want = append(want, urlPath(srv, s.URL)+" 304", urlPath(srv, o.IndexURL)+" 304")
	}
	var got []string
	for _, q := range srv.Requests() {
		got = append(got, fmt.Sprintf("%s %d", q.Path, q.Status))
		if q.IfNoneMatch == "" && q.IfModifiedSince == "" {
			t.Errorf("second refresh: %s was asked without validators", q.Path)
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("second refresh requests:\n%s\nwant exactly:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sum2.Fetched != 0 || sum2.Unchanged != claims || sum2.Events != 0 || sum2.EventsKnown != 0 || len(sum2.HealthChanges) != 0 || len(sum2.Failures) != 0 {
		t.Errorf("second refresh: fetched %d, unchanged %d, events %d (%d known), health changes %d, failures %v",
			sum2.Fetched, sum2.Unchanged, sum2.Events, sum2.EventsKnown, len(sum2.HealthChanges), sum2.Failures)
	}
	after := snapshotFiles(t, state)
	for _, p := range sortedPaths(before) {
		if strings.HasPrefix(p, "sources/") || p == store.NetworkFile || strings.HasPrefix(p, store.OwnDir+"/sources/") || p == ownNetwork {
			continue // the trail now says 304 (so the own files are bound to new bytes), and nothing changed health: checked below
		}
		if !bytes.Equal(before[p], after[p]) {
			t.Errorf("the same observations at the same time changed %s", p)
		}
	}
	var n2 store.Network
	if err := store.Open(state).ReadJSON(store.NetworkFile, &n2); err != nil {
		t.Fatal(err)
	}
	if n2.ObservedAt != n1.ObservedAt || n2.Crawler != n1.Crawler || len(n2.HealthChanges) != 0 {
		t.Errorf("second network.json: %+v", n2)
	}
	for _, s := range load(t, state).Sources {
		last := s.Trail[len(s.Trail)-1]
		if s.Health != store.SourceResolved || last.Outcome != "site index unchanged (HTTP 304)" {
			t.Errorf("source %s: %s, last step %+v", s.URL, s.Health, last)
		}
	}
	if _, ok := after[ownNetwork]; ok || len(after) != len(before)-1 {
		t.Errorf("files: %d before, %d after; want the same, less %s (no health changed)", len(before), len(after), ownNetwork)
	}
	mustCheck(t, state)
}

func reflectEqual(a, b any) bool { return reflect.DeepEqual(a, b) }

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
