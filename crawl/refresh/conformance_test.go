package refresh

import (
	"os"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// A page whose DreamWeave <link> names an index that cannot be read stops discovery (the
// protocol's discovery step 2: "Stop."): the index published beside the page is never adopted,
// the held site says its page links a broken index (no-index), its claims keep their last good
// manifests as origin unavailable, and nothing moves. Mending the link restores the site.
func TestDrillBrokenLinkIsNotWalkedAround(t *testing.T) {
	t.Parallel()
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

// A site index whose projects are not sorted by id is read as listed: the protocol describes
// the order, it does not make the index unusable. The origin is healthy, every listed claim is
// read, and the order is a publication issue on the origin. Sorted again, the issue goes.
func TestUnsortedIndexIsReadWithAnIssue(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.editIndex(tplDir, func(doc map[string]any) {
		p := doc["projects"].([]any)
		p[0], p[1] = p[1], p[0]
	})
	src := l.source(tplDir)
	sum := l.refresh(src)
	o := l.origin(tplDir)
	wantOrigin(t, o, store.OriginHealthy)
	issue := `the site index does not list its projects in id order, as the protocol describes (/projects/1/id: "` + candle + `" comes after "` + tallow + `"); they are read as listed`
	if len(o.Issues) != 1 || o.Issues[0] != issue {
		t.Errorf("issues %q\nwant [%q]", o.Issues, issue)
	}
	for _, p := range []string{candle, tallow} {
		wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
	}
	if sum.Accepted != 2 {
		t.Errorf("accepted %d", sum.Accepted)
	}
	if o.IndexSHA256 == nil {
		t.Error("the unsorted index is not held")
	}

	l.editIndex(tplDir, func(doc map[string]any) {
		p := doc["projects"].([]any)
		p[0], p[1] = p[1], p[0]
	})
	l.refresh(src)
	if o := l.origin(tplDir); o.Health != store.OriginHealthy || len(o.Issues) != 0 {
		t.Errorf("sorted again: %s, issues %q", o.Health, o.Issues)
	}
}

// A cached image the state names but media/ lacks is no reason to refuse a refresh. When the
// image cannot be fetched again (it answers 404) the claim records that it is not cached; when
// its site cannot be read, the claim keeps its last good manifest and says the image file is
// missing, and the next read fetches it again. Every state left passes check.
func TestDrillMissingCachedImage(t *testing.T) {
	t.Parallel()
	webp, err := os.ReadFile("testdata/gopher.webp")
	if err != nil {
		t.Fatal(err)
	}
	l := newLab(t)
	l.set(candleImage, webp)
	src := l.source(tplDir)
	l.refresh(src)
	file := *l.claim(candle, tplDir).Media.File
	gone := func() {
		t.Helper()
		if err := os.Remove(store.Open(l.state).Path(file)); err != nil {
			t.Fatal(err)
		}
	}

	// The site unreadable: nothing of the claim is read, yet the state it leaves passes check.
	gone()
	l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Status: 503})
	l.refresh(src)
	c := l.claim(candle, tplDir)
	wantClaim(t, c, store.ClaimOriginUnavailable)
	missing := "not cached: the image file " + file + " is missing from the state; it is fetched again when the claim is next read"
	if c.Media == nil || c.Media.File != nil || deref(c.Media.Problem) != missing || c.Media.Definitive || c.Media.URL != l.url(candleImage) {
		t.Errorf("media of a claim not read %+v", c.Media)
	}

	// Read again: the image is fetched and cached under the same name.
	l.rules()
	l.refresh(src)
	if c := l.claim(candle, tplDir); c.Media == nil || c.Media.File == nil || *c.Media.File != file || c.Media.Problem != nil {
		t.Errorf("media after the site recovered %+v", c.Media)
	}

	// Missing again, and the image gone from the site too: recorded as not cached.
	gone()
	l.rules(loopback.Rule{Path: "^/" + candleImage + "$", Status: 404})
	l.refresh(src)
	c = l.claim(candle, tplDir)
	wantClaim(t, c, store.ClaimCurrent)
	if c.Media == nil || c.Media.File != nil || c.Media.Problem == nil || !strings.Contains(*c.Media.Problem, "HTTP 404") {
		t.Errorf("media of an image that is gone %+v", c.Media)
	}
}

// A claim that never held a manifest leaves no event when its site stops listing it: there is
// no manifest to have withdrawn (FORMATS section 1.5). Its record says withdrawn, no problem.
func TestWithdrawnWithoutAManifestRecordsNoEvent(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	other := "11111111-2222-4333-8444-555555555555"
	bad := strings.Replace(string(l.raw(manifestPath(tplDir, candle))), `"id": "`+candle+`"`, `"id": "`+other+`"`, 1)
	l.publish(tplDir, candle, []byte(bad), true)
	src := l.source(tplDir)
	l.refresh(src)
	if c := l.claim(candle, tplDir); c.Health != store.ClaimInvalid || c.IngestedSHA256 != nil {
		t.Fatalf("first read: %s, ingested %v; want invalid, none held", c.Health, c.IngestedSHA256)
	}
	n := len(l.events())
	l.editIndex(tplDir, func(doc map[string]any) {
		var keep []any
		for _, p := range doc["projects"].([]any) {
			if p.(map[string]any)["id"] != candle {
				keep = append(keep, p)
			}
		}
		doc["projects"] = keep
	})
	l.refresh(src)
	c := l.claim(candle, tplDir)
	if c.Health != store.ClaimWithdrawn || c.Problem != nil {
		t.Errorf("claim %s, problem %v; want withdrawn, null", c.Health, c.Problem)
	}
	if len(l.events()) != n {
		t.Errorf("%d events recorded for a claim that never held a manifest", len(l.events())-n)
	}
}
