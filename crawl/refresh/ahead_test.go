package refresh

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// Over an unchanged site enrolled by its page, discovery asks the held site index while it
// asks the page (two requests in flight to the site, as politeness allows): the page is not
// answered until the index request has arrived, which only an overlap lets happen. Each is
// asked once, both conditionally, and the trail is the one a sequential discovery records.
func TestDiscoveryAsksTheHeldIndexAhead(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	first := l.sourceRecord(src)
	indexPath := "/" + tplDir + "/dreamweave.json"
	arrived := make(chan struct{})
	var once sync.Once
	overlapped := false
	var mu sync.Mutex
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		switch r.URL.Path {
		case indexPath:
			once.Do(func() { close(arrived) })
		case "/" + tplDir + "/":
			select {
			case <-arrived:
				mu.Lock()
				overlapped = true
				mu.Unlock()
			case <-time.After(time.Minute): // a bound for a broken build only
			}
		}
		return false
	})
	l.srv.ResetRequests()
	l.refresh(src)
	mu.Lock()
	defer mu.Unlock()
	if !overlapped {
		t.Fatal("the page was answered before the held index was asked: no overlap")
	}
	var page, index int
	for _, q := range l.srv.Requests() {
		switch {
		case q.Path == indexPath:
			index++
			if q.IfNoneMatch == "" || q.Status != http.StatusNotModified {
				t.Errorf("the index was asked %+v, want conditionally, answered 304", q)
			}
		case q.Path == "/"+tplDir+"/":
			page++
		case strings.HasSuffix(q.Path, ".json"):
			t.Errorf("an unchanged site's %s was requested", q.Path)
		}
	}
	if page != 1 || index != 1 {
		t.Errorf("page asked %d times, index %d; want once each", page, index)
	}
	s := l.sourceRecord(src)
	if len(s.Trail) != 2 || s.Trail[0].Outcome != discover.OutcomePageUnchanged || s.Trail[1].Outcome != discover.OutcomeIndexUnchanged ||
		s.Trail[1].URL != first.Trail[len(first.Trail)-1].URL || *s.Method != *first.Method {
		t.Errorf("trail %+v, method %s; first discovery %+v", s.Trail, *s.Method, first.Trail)
	}
}

// With no host slot free, nothing is asked ahead: discovery asks the held index itself, in
// turn, and the limit of two requests in flight per host holds.
func TestAheadTakesOnlyAFreeSlot(t *testing.T) {
	t.Parallel()
	lim := newHostLimit(2)
	r1, err := lim.acquire(t.Context(), "http://a.example/x")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := lim.acquire(t.Context(), "http://a.example/y")
	if err != nil {
		t.Fatal(err)
	}
	f := ahead(nil, lim)
	if wait := f(t.Context(), guardRequest("http://a.example/dreamweave.json")); wait != nil {
		t.Fatal("a request was asked ahead with both slots taken")
	}
	r2()
	if rel, ok := lim.tryAcquire("http://a.example/z"); !ok {
		t.Fatal("a freed slot was not taken")
	} else {
		rel()
	}
	r1()
}

func guardRequest(u string) guard.Request { return guard.Request{URL: u} }
