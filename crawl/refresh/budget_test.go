package refresh

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// A site's time budget (/tmp/break case 6: slow manifests held a refresh for minutes): when it
// runs out, the claims not read yet keep their last good manifest, manifest-unreachable, the
// problem naming the budget; the index was read, the site is healthy, the refresh succeeds.
func TestDrillSiteBudget(t *testing.T) {
	l := newLab(t)
	l.opt = func(o *Options) { o.SiteBudget = 200 * time.Millisecond }
	src := l.source(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	l.publish(tplDir, tallow, l.changedTallow(" Slow."), true)
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Delay: time.Minute})
	sum := l.refresh(src)
	wantClaimExactly(t, l.claim(tallow, tplDir), store.ClaimManifestUnreachable, "the manifest was not read: the site's time budget (200ms) ran out")
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
	wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
	if c := l.claim(tallow, tplDir); c.Rejected != nil {
		t.Errorf("a budget is not refused bytes: %+v", c.Rejected)
	}
	if sum.Problems[store.ClaimManifestUnreachable] != 1 || sum.SitesRead != 1 {
		t.Errorf("problems %v, sites read %d", sum.Problems, sum.SitesRead)
	}
	l.sameHeld(before)
	// Both manifests cut: one line for both (the same reason at one site).
	l.publish(tplDir, candle, bytes.Replace(l.raw(manifestPath(tplDir, candle)), []byte(`"name": "Candlelight"`), []byte(`"name": "Candlelight!"`), 1), true)
	l.rules(loopback.Rule{Path: `/projects/.*\.json$`, Delay: time.Minute})
	sum = l.refresh(src)
	want := "2 claims at " + l.site(tplDir) + ": manifest unreachable: the manifest was not read: the site's time budget (200ms) ran out (" + candle + ", " + tallow + ")"
	if len(sum.Failures) != 1 || sum.Failures[0] != want {
		t.Errorf("failures %q\nwant [%q]", sum.Failures, want)
	}
	l.sameHeld(before)
	// In time again: read.
	l.rules()
	l.refresh(src)
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
}

// The refresh's overall deadline: what was not read by then keeps its last good data and names
// the deadline (a site whose index was not read: origin-unavailable claims; one whose index was
// read: manifest-unreachable), and the refresh still succeeds, so the scheduled job reaches its
// commit and deploy.
func TestDrillRefreshDeadline(t *testing.T) {
	t.Run("before any index", func(t *testing.T) {
		l := newLab(t)
		// The deadline, not the discovery budget, cuts discovery here.
		l.opt = func(o *Options) { o.Deadline, o.DiscoveryBudget = 300*time.Millisecond, time.Minute }
		tpl, ini := l.source(tplDir), l.source(iniDir)
		l.refresh(tpl, ini)
		before := l.held()
		l.rules(loopback.Rule{Path: "^/" + tplDir + "/$", Delay: time.Minute}, loopback.Rule{Path: "^/" + iniDir + "/$", Delay: time.Minute})
		var progress strings.Builder
		o := l.options(tpl, ini)
		o.Progress = &progress
		sum, err := Run(t.Context(), o)
		l.runs++
		if err != nil {
			t.Fatalf("a deadline failed the refresh: %v", err)
		}
		mustCheck(t, l.state)
		for _, tc := range []struct{ dir, src string }{{tplDir, tpl}, {iniDir, ini}} {
			problem := "the enrolled URL " + tc.src + " was not read: the refresh's deadline (300ms) ran out"
			wantOriginExactly(t, l.origin(tc.dir), store.OriginUnreachable, problem)
		}
		wantClaimExactly(t, l.claim(candle, tplDir), store.ClaimOriginUnavailable,
			"the site could not be read on the last crawl: the enrolled URL "+tpl+" was not read: the refresh's deadline (300ms) ran out")
		if len(sum.Warnings) != 1 || sum.Warnings[0] != "every source failed: the refresh's deadline ran out before any was read" ||
			!strings.HasSuffix(progress.String(), "refresh: WARNING: "+sum.Warnings[0]+"\n") {
			t.Errorf("warnings %q, progress ends %q", sum.Warnings, progress.String()[max(0, progress.Len()-200):])
		}
		l.sameHeld(before)
	})
	t.Run("after the index", func(t *testing.T) {
		l := newLab(t)
		l.opt = func(o *Options) { o.Deadline = 2 * time.Second }
		src := l.source(tplDir)
		l.refresh(src)
		before := l.heldManifests()
		l.publish(tplDir, tallow, l.changedTallow(" Late."), true)
		l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Delay: time.Minute})
		sum := l.refresh(src)
		wantClaimExactly(t, l.claim(tallow, tplDir), store.ClaimManifestUnreachable, "the manifest was not read: the refresh's deadline (2s) ran out")
		wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
		if len(sum.Warnings) != 0 {
			t.Errorf("warnings %q", sum.Warnings)
		}
		l.sameHeld(before)
	})
}

// One source whose discovery is slow (every level of its walk answers after a minute;
// /tmp/break2 case 2 linked a manifest 300 directories deep, each level a slow 404) is cut by
// its discovery budget: the problem names the budget, and the healthy site is read (its
// changed manifest accepted) instead of waiting for the deadline.
func TestDrillDiscoveryBudget(t *testing.T) {
	l := newLab(t)
	l.opt = func(o *Options) { o.DiscoveryBudget = 300 * time.Millisecond }
	tpl, slow := l.source(tplDir), l.url("slow.example/a/b/c/")
	l.refresh(tpl)
	l.publish(tplDir, tallow, l.changedTallow(" Not starved."), true)
	l.rules(loopback.Rule{Path: `^/slow\.example/.*dreamweave\.json$`, Delay: time.Minute})
	sum := l.refresh(tpl, slow)
	s := l.sourceRecord(slow)
	want := "walking up the path stopped at " + l.url("slow.example/a/b/c/dreamweave.json") + ", which was not read: the source's discovery budget (300ms) ran out"
	if s.Health != store.SourceUnresolved || deref(s.Problem) != want {
		t.Errorf("slow source: %s %q\nwant %q", s.Health, deref(s.Problem), want)
	}
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	if c := l.claim(tallow, tplDir); c.IngestedSHA256 != store.Digest(l.served(manifestPath(tplDir, tallow))) {
		t.Errorf("the healthy site's changed manifest was not accepted")
	}
	line := "source " + slow + ": unresolved: " + want
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
