package refresh

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// A page whose DreamWeave <link> names an index that cannot be read stops discovery (the
// protocol's discovery step 2: "Stop."): the index published beside the page is never adopted,
// the held site says its page links a broken index (no-index), its claims keep their last good
// manifests as origin unavailable, and nothing moves. Mending the link restores the site.
func TestDrillBrokenLinkIsNotWalkedAround(t *testing.T) {
	l := newLab(t)
	front := tplDir + "/index.html"
	page := l.raw(front)
	index := l.raw(tplDir + "/dreamweave.json")
	l.set(front, []byte(strings.Replace(string(page), "</head>", `<link rel="alternate" type="application/vnd.dreamweave.index+json" href="data/dreamweave.json"></head>`, 1)))
	l.set(tplDir+"/data/dreamweave.json", index)
	src := l.source(tplDir)
	l.refresh(src)
	dataSite := l.site(tplDir + "/data")
	before := l.held()
	nEvents := len(l.events())

	// The linked index is gone; the one beside the page still answers.
	l.redirects(map[string]redirect{tplDir + "/data/dreamweave.json": {404, ""}})
	l.srv.ResetRequests()
	l.refresh(src)
	linked := l.url(tplDir + "/data/dreamweave.json")
	problem := "the page's DreamWeave <link> is broken: the linked site index " + linked +
		" answered HTTP 404 (not found); discovery stops at a link it cannot use and does not look elsewhere"
	wantOriginExactly(t, l.origin(tplDir+"/data"), store.OriginNoIndex, problem)
	for _, p := range []string{candle, tallow} {
		wantClaimExactly(t, l.claim(p, tplDir+"/data"), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+problem)
	}
	s := l.sourceRecord(src)
	if s.Origin == nil || *s.Origin != dataSite || deref(s.Problem) != problem {
		t.Errorf("source: %s %v %q", s.Health, s.Origin, deref(s.Problem))
	}
	if last := s.Trail[len(s.Trail)-1]; last.URL != linked || !strings.HasSuffix(last.Outcome, "; a broken link: discovery stops here") {
		t.Errorf("the trail does not end at the broken link: %+v", s.Trail)
	}
	if n := l.requestsFor("/" + tplDir + "/dreamweave.json"); n != 0 {
		t.Errorf("the index beside the page was asked %d times: discovery walked around the broken link", n)
	}
	if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 || len(snap.Events) != nEvents {
		t.Errorf("a broken link changed the network: %d origins, %d claims, %d events", len(snap.Origins), len(snap.Claims), len(snap.Events))
	}
	l.sameHeld(before)

	// The link mended: the site is read again, nothing recorded as a change.
	l.redirects(nil)
	l.refresh(src)
	wantOrigin(t, l.origin(tplDir+"/data"), store.OriginHealthy)
	for _, p := range []string{candle, tallow} {
		wantClaim(t, l.claim(p, tplDir+"/data"), store.ClaimCurrent)
	}
	if len(l.events()) != nEvents {
		t.Errorf("the mended link recorded %d events", len(l.events())-nEvents)
	}
	l.sameHeld(before)
}

