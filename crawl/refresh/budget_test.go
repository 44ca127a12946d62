package refresh

import (
	"bytes"
	"errors"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// A site's time budget: when it runs out, the claims not read yet keep their last good
// manifest, manifest-unreachable, the problem naming the budget; the index was read, the site is
// healthy, the refresh succeeds. The budget ends when the slow manifest is asked for (injected,
// so the test does not race the machine's speed).
func TestDrillSiteBudget(t *testing.T) {
	l := newLab(t)
	bs := newBudgets()
	l.opt = func(o *Options) { o.SiteBudget, o.budget = 200*time.Millisecond, bs.start }
	src := l.source(tplDir)
	site := l.site(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	l.publish(tplDir, tallow, l.changedTallow(" Slow."), true)
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Delay: time.Minute})
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, tallow+".json") {
			bs.expire(site)
		}
		return false
	})
	sum := l.refresh(src)
	wantClaimExactly(t, l.claim(tallow, tplDir), store.ClaimManifestUnreachable, "the manifest was not read: the site's time budget (200ms) ran out")
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
	wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
	if c := l.claim(tallow, tplDir); c.Rejected != nil {
		t.Errorf("a budget is not refused bytes: %+v", c.Rejected)
	}
	if sum.Problems[store.ClaimManifestUnreachable] != 1 || sum.SitesRead != 1 || sum.Interrupted != nil {
		t.Errorf("problems %v, sites read %d, interrupted %+v", sum.Problems, sum.SitesRead, sum.Interrupted)
	}
	l.sameHeld(before)
	// Both manifests cut: one line for both (the same reason at one site). The budget ends
	// once both are asked for.
	bs = newBudgets()
	l.publish(tplDir, candle, bytes.Replace(l.raw(manifestPath(tplDir, candle)), []byte(`"name": "Candlelight"`), []byte(`"name": "Candlelight!"`), 1), true)
	l.rules(loopback.Rule{Path: `/projects/.*\.json$`, Delay: time.Minute})
	var asked atomic.Int32
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/projects/") && asked.Add(1) == 2 {
			bs.expire(site)
		}
		return false
	})
	sum = l.refresh(src)
	want := "2 claims at " + site + ": manifest unreachable: the manifest was not read: the site's time budget (200ms) ran out (" + candle + ", " + tallow + ")"
	if len(sum.Failures) != 1 || sum.Failures[0] != want {
		t.Errorf("failures %q\nwant [%q]", sum.Failures, want)
	}
	l.sameHeld(before)
	// In time again: read.
	bs = newBudgets()
	l.setIntercept(nil)
	l.rules()
	l.refresh(src)
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
}

// The refresh's deadline is an interrupt: no new work starts, requests in flight are
// abandoned, and network.json says the refresh was interrupted and what it did not read; what
// it did not read keeps its records untouched. Run returns an *InterruptedError (the command
// exits 3), and the next refresh reads everything. The deadline ends when a slow request is
// asked for (injected, no wall clock).
func TestDrillRefreshDeadline(t *testing.T) {
	t.Run("during discovery", func(t *testing.T) {
		l := newLab(t)
		bs := newBudgets()
		l.opt = func(o *Options) { o.budget = bs.start }
		tpl, ini := l.source(tplDir), l.source(iniDir)
		l.refresh(tpl, ini)
		before := snapshotFiles(t, l.state)
		l.rules(loopback.Rule{Path: "^/" + tplDir + "/$", Delay: time.Minute}, loopback.Rule{Path: "^/" + iniDir + "/$", Delay: time.Minute})
		l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/"+tplDir+"/" {
				bs.expire("")
			}
			return false
		})
		sum, err := Run(t.Context(), l.options(tpl, ini))
		l.runs++
		var ie *InterruptedError
		if !errors.As(err, &ie) || !ie.Deadline || ie.Reason != "the refresh's deadline (45m0s) ran out" {
			t.Fatalf("err = %v, want the deadline's interrupt", err)
		}
		mustCheck(t, l.state)
		after := snapshotFiles(t, l.state)
		for p, b := range before {
			if own, _ := store.OwnPath(store.NetworkFile); p != store.NetworkFile && p != own && !bytes.Equal(after[p], b) {
				t.Errorf("%s changed, though discovery was cut short", p)
			}
		}
		x := load(t, l.state).Network.Interrupted
		want := &store.Interrupted{At: x.At, Reason: ie.Reason, SourcesNotRead: sortedStrings(tpl, ini),
			SitesNotRead: sortedStrings(l.site(tplDir), l.site(iniDir)), SitesPartlyRead: []store.PartlyRead{}}
		if !reflect.DeepEqual(x, want) || !reflect.DeepEqual(sum.Interrupted, want) {
			t.Errorf("network.json interrupted %+v\nsummary %+v\nwant %+v", x, sum.Interrupted, want)
		}
		if first, _, _ := strings.Cut(sum.String(), "\n"); !strings.Contains(first, "INTERRUPTED (the refresh's deadline (45m0s) ran out)") {
			t.Errorf("the summary's first line does not say so: %q", first)
		}
		// The next refresh reads everything and records a complete refresh.
		bs = newBudgets()
		l.setIntercept(nil)
		l.rules()
		l.refresh(tpl, ini)
		if n := load(t, l.state).Network; n.Interrupted != nil {
			t.Errorf("a complete refresh left %+v", n.Interrupted)
		}
	})
	t.Run("while reading a site", func(t *testing.T) {
		l := newLab(t)
		bs := newBudgets()
		// One claim at a time, in the index's order: candle is read before tallow's request
		// ends the budget, however the scheduler orders the claims' goroutines.
		l.opt = func(o *Options) { o.budget, o.MaxSources = bs.start, 1 }
		src := l.source(tplDir)
		l.refresh(src)
		tallowRecord := l.raw0(store.ClaimPath(tallow, l.site(tplDir)))
		l.publish(tplDir, tallow, l.changedTallow(" Late."), true)
		l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Delay: time.Minute})
		l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
			if strings.HasSuffix(r.URL.Path, tallow+".json") {
				bs.expire("")
			}
			return false
		})
		sum, err := Run(t.Context(), l.options(src))
		l.runs++
		var ie *InterruptedError
		if !errors.As(err, &ie) || !ie.Deadline {
			t.Fatalf("err = %v, want the deadline's interrupt", err)
		}
		mustCheck(t, l.state)
		if got := l.raw0(store.ClaimPath(tallow, l.site(tplDir))); !bytes.Equal(got, tallowRecord) {
			t.Errorf("the claim not read was rewritten:\n%s", got)
		}
		if c := l.claim(candle, tplDir); c.LastAttempt != l.options().Now().Add(-6*time.Hour).UTC().Format(store.TimeFormat) {
			t.Errorf("candle (read) last_attempt %s", c.LastAttempt)
		}
		want := []store.PartlyRead{{Site: l.site(tplDir), Projects: []string{tallow}}}
		x := load(t, l.state).Network.Interrupted
		if x == nil || !reflect.DeepEqual(x.SitesPartlyRead, want) || len(x.SitesNotRead) != 0 || len(x.SourcesNotRead) != 0 {
			t.Fatalf("network.json interrupted %+v, want the site partly read, tallow not read", x)
		}
		if !strings.Contains(sum.String(), "site partly read: "+l.site(tplDir)+" (1 claim not read: "+tallow+")") {
			t.Errorf("summary:\n%s", sum)
		}
		bs = newBudgets()
		l.setIntercept(nil)
		l.rules()
		l.refresh(src)
		wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	})
}

func sortedStrings(v ...string) []string { sort.Strings(v); return v }

// One source whose discovery is slow (every level of its walk answers after a minute; a page
// linking a manifest 300 directories deep, each level a slow 404) is cut by its discovery
// budget: the problem names the budget, and the healthy site is read (its changed manifest
// accepted) instead of waiting for the deadline. The slow source's budget ends when its walk
// asks for the slow level (injected).
func TestDrillDiscoveryBudget(t *testing.T) {
	l := newLab(t)
	bs := newBudgets()
	l.opt = func(o *Options) { o.DiscoveryBudget, o.budget = 300*time.Millisecond, bs.start }
	tpl, slow := l.source(tplDir), l.url("slow.example/a/b/c/")
	l.refresh(tpl)
	l.publish(tplDir, tallow, l.changedTallow(" Not starved."), true)
	l.rules(loopback.Rule{Path: `^/slow\.example/.*dreamweave\.json$`, Delay: time.Minute})
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/slow.example/") && strings.HasSuffix(r.URL.Path, "/dreamweave.json") {
			bs.expire(slow)
		}
		return false
	})
	sum := l.refresh(tpl, slow)
	s := l.sourceRecord(slow)
	want := "walking up the path stopped at " + l.url("slow.example/a/b/c/dreamweave.json") + ", which was not read: the source's discovery budget (300ms) ran out"
	if s.Health != store.SourceUnreachable || deref(s.Problem) != want {
		t.Errorf("slow source: %s %q\nwant %q", s.Health, deref(s.Problem), want)
	}
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	if c := l.claim(tallow, tplDir); c.Ingested() != store.Digest(l.served(manifestPath(tplDir, tallow))) {
		t.Errorf("the healthy site's changed manifest was not accepted")
	}
	line := "source " + slow + ": unreachable: " + want
	if sum.SitesRead != 1 || sum.Accepted != 1 || !contains(sum.Failures, line) || len(sum.Warnings) != 0 {
		t.Errorf("sites read %d, accepted %d, failures %q, warnings %q", sum.SitesRead, sum.Accepted, sum.Failures, sum.Warnings)
	}
}

// The discovery budget defaults to 2 minutes, or a third of a shorter deadline, so discovery
// never eats the time the sites need; an explicit budget stands.
func TestDiscoveryBudgetDefault(t *testing.T) {
	for _, tc := range []struct{ deadline, budget, want time.Duration }{
		{0, 0, 2 * time.Minute},
		{30 * time.Second, 0, 10 * time.Second},
		{time.Hour, 0, 2 * time.Minute},
		{30 * time.Second, time.Minute, time.Minute},
	} {
		o := Options{Deadline: tc.deadline, DiscoveryBudget: tc.budget}
		o.defaults()
		if o.DiscoveryBudget != tc.want {
			t.Errorf("deadline %s, budget %s: %s, want %s", tc.deadline, tc.budget, o.DiscoveryBudget, tc.want)
		}
	}
}
