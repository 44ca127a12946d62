package refresh

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// testResolver maps every name under .test to 127.0.0.1, and nothing else.
type testResolver struct{}

func (testResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if strings.HasSuffix(host, ".test") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// busyServer serves a site per host name, each with perSite projects, and records how many
// requests are in flight: to every host together (busy hosts) and to each host. A request is
// held until the concurrency it tests has shown (or two seconds have passed), so the peaks are
// reached whenever the crawler allows them, and then a little longer, so a crawler allowing more
// would be seen exceeding them.
type busyServer struct {
	*httptest.Server
	files map[string][]byte // path -> body, the same for every host ("{host}" in the index is the request's)

	mu        sync.Mutex
	inFlight  map[string]int
	busyHosts int
	peakHosts int
	peakHost  map[string]int
}

func newBusyServer(t *testing.T, perSite int) *busyServer {
	web := labWeb(t)
	idxRaw, manRaw := web[tplDir+"/dreamweave.json"], web[manifestPath(tplDir, tallow)]
	var idx map[string]any
	if err := json.Unmarshal(idxRaw, &idx); err != nil {
		t.Fatal(err)
	}
	entry := idx["projects"].([]any)[1].(map[string]any) // Tallow's
	s := &busyServer{files: map[string][]byte{}, inFlight: map[string]int{}, peakHost: map[string]int{}}
	var projects []any
	for i := 1; i <= perSite; i++ {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		m := bytes.ReplaceAll(manRaw, []byte(tallow), []byte(id))
		s.files["/p/"+id+".json"] = m
		e := map[string]any{}
		for k, v := range entry {
			e[k] = v
		}
		e["id"], e["manifest"], e["manifest_sha256"] = id, "http://{host}/p/"+id+".json", store.Digest(m)
		projects = append(projects, e)
	}
	idx["projects"] = projects
	b, err := json.Marshal(idx)
	if err != nil {
		t.Fatal(err)
	}
	s.files["/dreamweave.json"] = b
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *busyServer) serve(w http.ResponseWriter, r *http.Request) {
	h := r.Host
	s.mu.Lock()
	s.inFlight[h]++
	if s.inFlight[h] == 1 {
		s.busyHosts++
	}
	s.peakHosts = max(s.peakHosts, s.busyHosts)
	s.peakHost[h] = max(s.peakHost[h], s.inFlight[h])
	s.mu.Unlock()
	shown := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.URL.Path == "/dreamweave.json" {
			return s.peakHosts >= DefaultMaxSources
		}
		return s.peakHost[h] >= DefaultPerHost
	}
	for end := time.Now().Add(2 * time.Second); !shown() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond)
	s.mu.Lock()
	s.inFlight[h]--
	if s.inFlight[h] == 0 {
		s.busyHosts--
	}
	s.mu.Unlock()
	b, ok := s.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(bytes.ReplaceAll(b, []byte("{host}"), []byte(h))) // the index names its own host's manifests
}

// Politeness (seeds/crawler.txt, "Who is knocking"): at most eight sources are read at once,
// and at most two requests are in flight to any one site. Twelve sites on twelve host names,
// five changed manifests each: the peaks are reached and never exceeded.
func TestPolitenessLimits(t *testing.T) {
	t.Parallel()
	srv := newBusyServer(t, 5)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	var urls []string
	for i := 1; i <= 12; i++ {
		urls = append(urls, fmt.Sprintf("http://site%02d.test:%d/dreamweave.json", i, port))
	}
	o := options(filepath.Join(t.TempDir(), "state"), &sleeper{}, urls...)
	o.Resolver = testResolver{}
	sum := refresh(t, o)
	if sum.SitesRead != 12 || sum.Accepted != 60 {
		t.Fatalf("sites read %d, accepted %d; want 12 and 60\n%s", sum.SitesRead, sum.Accepted, sum)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.peakHosts > DefaultMaxSources || srv.peakHosts < 2 {
		t.Errorf("at most %d sites were read at once; want more than 1 and at most %d", srv.peakHosts, DefaultMaxSources)
	}
	t.Logf("peak sites at once: %d", srv.peakHosts)
	reached := false
	for h, n := range srv.peakHost {
		if n > DefaultPerHost {
			t.Errorf("%d requests in flight to %s at once; the limit is %d", n, h, DefaultPerHost)
		}
		reached = reached || n == DefaultPerHost
	}
	if !reached || len(srv.peakHost) != 12 {
		t.Errorf("per-host peaks %v: the limit of %d was never reached", srv.peakHost, DefaultPerHost)
	}
}
