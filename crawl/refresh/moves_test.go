package refresh

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// maintenancePage is an HTML page with no DreamWeave <link>: where a site under maintenance
// sends its visitors.
var maintenancePage = []byte("<!doctype html><html><head><title>Down for maintenance</title></head><body>back soon</body></html>")

// A temporary redirect during an outage is not a move. GitHub Pages layout:
// the user site above the enrolled project site publishes its own index. The enrolled page
// answers 302 (or 307) to a maintenance page beside the user site's index, so walking up from
// there reaches the user site; the held index answers 503, or answers normally. Nothing moves:
// no claim is withdrawn, the user site never enters the state, and after the outage everything
// is as it was, without an event.
func TestDrillTemporaryRedirectIsNotAMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int  // the enrolled page's redirect
		down   bool // the held index answers 503
	}{
		{"302, held index down", 302, true},
		{"307, held index answering", 307, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.set(host+"/dreamweave.json", l.raw(iniDir+"/dreamweave.json")) // the user site's own index
			l.set(host+"/maintenance.html", maintenancePage)
			src := l.source(tplDir)
			l.refresh(src)
			before := l.held()
			nEvents := len(l.events())
			site := l.site(tplDir)
			x, root := l.url(tplDir+"/dreamweave.json"), l.url(host+"/dreamweave.json")
			out := map[string]redirect{tplDir + "/": {tc.status, "{base}" + host + "/maintenance.html"}}
			if tc.down {
				out[tplDir+"/dreamweave.json"] = redirect{503, ""}
			}
			l.redirects(out)
			sum := l.refresh(src)
			if tc.down {
				problem := "walking up the path reached the site index " + root + ", but the held site index " + x +
					" answered HTTP 503 (service unavailable); a temporary redirect is no evidence of a move, so none is recorded"
				wantOriginExactly(t, l.origin(tplDir), store.OriginUnreachable, problem)
				for _, p := range []string{candle, tallow} {
					wantClaimExactly(t, l.claim(p, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+problem)
				}
				if s := l.sourceRecord(src); s.Health != store.SourceUnreachable || deref(s.Problem) != problem || s.Origin == nil || *s.Origin != site {
					t.Errorf("source: %s %q %v", s.Health, deref(s.Problem), s.Origin)
				}
			} else {
				wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
				for _, p := range []string{candle, tallow} {
					wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
				}
				s := l.sourceRecord(src)
				last := s.Trail[len(s.Trail)-1]
				if s.Health != store.SourceResolved || last.URL != x || last.Outcome != "site index unchanged (HTTP 304); the held site index stands (walking up also reached "+root+")" {
					t.Errorf("source: %s, trail %+v", s.Health, s.Trail)
				}
			}
			snap := load(t, l.state)
			if len(snap.Origins) != 1 || len(snap.Claims) != 2 || len(snap.Events) != nEvents {
				t.Errorf("a temporary redirect changed the network: %d origins, %d claims, %d events (was 1, 2, %d)", len(snap.Origins), len(snap.Claims), len(snap.Events), nEvents)
			}
			if sum.Problems["moved"] != 0 || sum.Problems[store.ClaimWithdrawn] != 0 {
				t.Errorf("problems %v", sum.Problems)
			}
			l.sameHeld(before)

			// The outage ends: everything as it was, nothing recorded twice.
			l.redirects(nil)
			sum = l.refresh(src)
			wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
			for _, p := range []string{candle, tallow} {
				wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
			}
			if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 || len(snap.Events) != nEvents || sum.Events != 0 {
				t.Errorf("after the outage: %d origins, %d claims, %d events", len(snap.Origins), len(snap.Claims), len(snap.Events))
			}
			l.sameHeld(before)
		})
	}
}

// A site that moved by a permanent redirect and then moved back: the
// enrolled page answers 301 to the new directory, whose index sits beside it, and the held index
// is gone (404): a move. Then the new directory is gone (404) and the index is served beside the
// enrolled URL again: the held index is gone and the one found is at the enrolled URL's own
// level, so the source moves back, the claims restored where they were, never stuck.
func TestDrillMoveAndMoveBack(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	oldSite := l.site(tplDir)
	const movedDir = host + "/moved-template"
	l.copySite(tplDir, movedDir)
	l.redirects(map[string]redirect{tplDir + "/": {301, "{base}" + movedDir + "/"}, tplDir + "/dreamweave.json": {404, ""}})
	l.refresh(src)
	newSite := l.site(movedDir)
	if s := l.sourceRecord(src); s.Health != store.SourceResolved || *s.Origin != newSite {
		t.Fatalf("source leads to %v (%s), want %s", s.Origin, deref(s.Problem), newSite)
	}
	st := store.Open(l.state)
	for _, p := range []string{candle, tallow} {
		if st.Exists(store.ClaimPath(p, oldSite)) {
			t.Errorf("%s is still held at the site moved away from", p)
		}
		wantClaim(t, l.claim(p, movedDir), store.ClaimCurrent)
	}

	// Moved back: the new directory is gone, the enrolled page and its index are served again.
	l.redirects(map[string]redirect{movedDir + "/": {404, ""}, movedDir + "/dreamweave.json": {404, ""}})
	sum := l.refresh(src)
	s := l.sourceRecord(src)
	if s.Health != store.SourceResolved || *s.Origin != oldSite {
		t.Fatalf("source leads to %v (%s), want %s: stuck", s.Origin, deref(s.Problem), oldSite)
	}
	x, back := l.url(movedDir+"/dreamweave.json"), l.url(tplDir+"/dreamweave.json")
	if last := s.Trail[len(s.Trail)-1]; last.URL != x || last.Outcome != "not found (HTTP 404); the held site index is gone, and "+back+" is at the enrolled URL's own level: the source moved there" {
		t.Errorf("trail: %+v", s.Trail)
	}
	for _, p := range []string{candle, tallow} {
		wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
		if st.Exists(store.ClaimPath(p, newSite)) {
			t.Errorf("%s is still held at the site moved away from", p)
		}
	}
	wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
	if len(sum.Removed) != 1 || sum.Removed[0] != "moved: "+newSite+" now continues as "+oldSite {
		t.Errorf("removed %q", sum.Removed)
	}
	backs := 0
	for _, e := range l.events() {
		if e.Kind == store.EventWithdrawn {
			t.Errorf("a move recorded a withdrawal: %+v", e)
		}
		if e.Origin == oldSite && e.MovedFrom != nil && *e.MovedFrom == newSite && e.Kind == store.EventObserved {
			backs++
		}
	}
	if backs != 2 {
		t.Errorf("%d events of the move back, want 2", backs)
	}
	// Settled: the next refresh changes nothing.
	n := len(l.events())
	if sum := l.refresh(src); sum.Events != 0 || len(l.events()) != n || len(sum.Failures) != 0 {
		t.Errorf("not settled: %d events, failures %q", sum.Events, sum.Failures)
	}
}

// A page that linked its index in a subdirectory drops the link and publishes the index beside
// itself, the old one gone: a move by discovery, the first walk-up
// candidate being the enrolled URL's own level. While the old index still answers, it stands;
// when the old index is gone but the only index left is in a parent directory, nothing moves.
func TestDrillLinkDroppedIndexBesideThePage(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	front := tplDir + "/index.html"
	page := l.raw(front)
	index := l.raw(tplDir + "/dreamweave.json")
	linked := []byte(strings.Replace(string(page), "</head>", `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="data/dreamweave.json"></head>`, 1))
	l.set(front, linked)
	l.set(tplDir+"/data/dreamweave.json", index)
	l.redirects(map[string]redirect{tplDir + "/dreamweave.json": {404, ""}})
	src := l.source(tplDir)
	l.refresh(src)
	dataSite := l.site(tplDir + "/data")
	if s := l.sourceRecord(src); s.Origin == nil || *s.Origin != dataSite || deref(s.Method) != "the page links the site index" {
		t.Fatalf("source %v %v", s.Origin, deref(s.Method))
	}
	dataHeld := l.held()

	// The link is dropped and the index published beside the page, the old one still there:
	// the held index stands (an index beside the page is weak evidence).
	l.set(front, page)
	l.redirects(nil)
	l.refresh(src)
	if s := l.sourceRecord(src); s.Origin == nil || *s.Origin != dataSite {
		t.Fatalf("moved while the held index still answers: %v", s.Origin)
	}
	wantOrigin(t, l.origin(tplDir+"/data"), store.OriginHealthy)

	// The old index is gone: the index beside the page is adopted.
	l.redirects(map[string]redirect{tplDir + "/data/dreamweave.json": {410, ""}})
	l.refresh(src)
	site := l.site(tplDir)
	if s := l.sourceRecord(src); s.Health != store.SourceResolved || s.Origin == nil || *s.Origin != site || deref(s.Method) != "found by walking up the path" {
		t.Fatalf("source %s %v (%s): stuck", s.Health, s.Origin, deref(s.Problem))
	}
	for _, p := range []string{candle, tallow} {
		nc := l.claim(p, tplDir)
		wantClaim(t, nc, store.ClaimCurrent)
		if nc.MovedFrom != nil || nc.FirstObserved != l.origin(tplDir).LastAttempt {
			t.Errorf("%s: moved_from %v, first observed %s: a moved claim starts afresh", p, nc.MovedFrom, nc.FirstObserved)
		}
	}
	moved := 0
	for _, e := range l.events() {
		if e.Origin == site && e.MovedFrom != nil && *e.MovedFrom == dataSite && e.Kind == store.EventObserved {
			moved++
		}
	}
	if moved != 2 {
		t.Errorf("%d events of the move, want 2", moved)
	}
	for p := range dataHeld { // the site moved away from is removed
		if store.Open(l.state).Exists(p) {
			t.Errorf("%s is still held", p)
		}
	}
}

// The other side of the rule: the held index gone (404) and the only index left in a parent
// directory beyond the enrolled URL's own level (a GitHub Pages user site) is no move.
func TestDrillGoneIndexParentOnlyIsNotAMove(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.set(host+"/dreamweave.json", l.raw(iniDir+"/dreamweave.json"))
	src := l.source(tplDir)
	l.refresh(src)
	before := l.held()
	l.redirects(map[string]redirect{tplDir + "/dreamweave.json": {404, ""}})
	for i := 0; i < 2; i++ { // and again: still no move
		l.refresh(src)
		x, root := l.url(tplDir+"/dreamweave.json"), l.url(host+"/dreamweave.json")
		problem := "walking up the path reached the site index " + root + ", but the held site index " + x +
			" answered HTTP 404 (not found); a walk up alone is no evidence of a move, so none is recorded"
		wantOriginExactly(t, l.origin(tplDir), store.OriginNoIndex, problem)
		if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 {
			t.Errorf("%d origins, %d claims: the user site was adopted", len(snap.Origins), len(snap.Claims))
		}
		l.sameHeld(before)
	}
}

// A refresh recording a move (the site moved by permanent redirects, one manifest changed on
// the way) killed at each of its writes: every state passes check, and the next refresh
// finishes the move with the events an uninterrupted one records, the moved claims' "observed"
// events starting from the old site's digests with their differences and moved_from, never
// from nothing, and the old site removed.
func TestDrillMoveKilledAtEveryWrite(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	oldSite := l.site(tplDir)
	const movedDir = "moved.example/DreamWeave-Mod-Template"
	l.copySite(tplDir, movedDir)
	l.publish(movedDir, tallow, bytes.Replace(l.raw(manifestPath(movedDir, tallow)), []byte(tallowSummary), []byte(tallowSummary+" Moved."), 1), true)
	l.redirects(map[string]redirect{
		tplDir + "/":                {301, "{base}" + movedDir + "/"},
		tplDir + "/dreamweave.json": {301, "{base}" + movedDir + "/dreamweave.json"},
	})
	base := snapshotFiles(t, l.state)
	newSite := l.site(movedDir)
	// moveEvents are the events at the new site, as "kind project before changes".
	moveEvents := func() []string {
		var out []string
		for _, e := range l.events() {
			if e.Origin == newSite {
				out = append(out, fmt.Sprintf("%s %s %s %d moved_from=%s", e.Kind, e.Project, deref(e.Before), len(e.Changes), deref(e.MovedFrom)))
			}
		}
		sort.Strings(out)
		return out
	}
	restoreFiles(t, l.state, base)
	if _, err := Run(context.Background(), l.options(src)); err != nil {
		t.Fatal(err)
	}
	want := moveEvents()
	if len(want) != 2 {
		t.Fatalf("the uninterrupted move recorded %q", want)
	}
	for _, w := range want {
		if !strings.HasPrefix(w, store.EventObserved+" ") || strings.Contains(w, " <nil> ") || !strings.HasSuffix(w, " moved_from="+oldSite) {
			t.Fatalf("the uninterrupted move recorded %q", want)
		}
	}
	for _, w := range want {
		if strings.Contains(w, " "+tallow+" ") && strings.Contains(w, " 0 moved_from") {
			t.Fatalf("tallow's typed differences are not in %q", want)
		}
	}
	l.crashAtEveryWrite(t, base, 7, []string{src}, nil, func(k int, last string) {
		if _, err := Run(context.Background(), l.options(src)); err != nil {
			t.Fatalf("refresh after a crash at write %d: %v", k, err)
		}
		mustCheck(t, l.state)
		if got := moveEvents(); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("crash at write %d (%s): events at the new site\n%s\nwant\n%s", k, last, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, p := range []string{candle, tallow} {
			wantClaim(t, l.claim(p, movedDir), store.ClaimCurrent)
		}
		for p := range base { // the old site is removed, its events stay
			if strings.HasPrefix(p, store.OwnDir+"/") {
				continue // this index's own files: rewritten or removed with their records
			}
			if held := store.Open(l.state).Exists(p); strings.Contains(p, oldSite) == held {
				t.Errorf("crash at write %d: %s held %v", k, p, held)
			}
		}
	})
}
