package refresh

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

func TestDrillOutageThenRecovery(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	first := l.claim(candle, tplDir)
	before := l.held()

	l.rules(loopback.Rule{Path: "^/" + tplDir + "/", Status: 503})
	l.refresh(src)
	outage := "the enrolled URL " + src + " answered HTTP 503 (service unavailable)"
	wantOriginExactly(t, l.origin(tplDir), store.OriginUnreachable, outage)
	for _, p := range []string{candle, tallow} {
		c := l.claim(p, tplDir)
		wantClaimExactly(t, c, store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+outage)
		if *c.LastSuccess != *first.LastSuccess || c.LastAttempt == *first.LastSuccess {
			t.Errorf("%s: last success %s, last attempt %s: the outage must keep the last success and move the attempt", p, *c.LastSuccess, c.LastAttempt)
		}
		if c.Ingested() != first.Ingested() && p == candle {
			t.Errorf("ingested digest changed during an outage")
		}
	}
	if s := l.sourceRecord(src); s.Health != store.SourceUnreachable || s.Problem == nil || *s.Origin != l.site(tplDir) {
		t.Errorf("source during the outage: %+v", s)
	}
	l.sameHeld(before)
	nEvents := len(l.events())

	l.rules()
	l.refresh(src)
	wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
	for _, p := range []string{candle, tallow} {
		c := l.claim(p, tplDir)
		wantClaim(t, c, store.ClaimCurrent)
		if *c.LastSuccess != c.LastAttempt {
			t.Errorf("recovered claim: last success %s, last attempt %s", *c.LastSuccess, c.LastAttempt)
		}
	}
	if n := len(l.events()); n != nEvents {
		t.Errorf("an outage and recovery over unchanged manifests recorded %d events", n-nEvents)
	}
	l.sameHeld(before)
}

func TestDrillInvalidManifest(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	good := l.claim(candle, tplDir)

	// Candlelight now describes another project: invalid publication (SPEC 1, id rule).
	other := "11111111-2222-4333-8444-555555555555"
	bad := bytes.Replace(l.raw(manifestPath(tplDir, candle)), []byte(`"id": "`+candle+`"`), []byte(`"id": "`+other+`"`), 1)
	l.publish(tplDir, candle, bad, true)
	l.refresh(src)
	c := l.claim(candle, tplDir)
	wantClaimExactly(t, c, store.ClaimInvalid, `the manifest fails the protocol: /project/id [id-match] project.id "11111111-2222-4333-8444-555555555555" differs from the id "`+candle+`" of the index entry that points at this manifest`)
	if c.Ingested() != good.Ingested() || c.AdvertisedSHA256 == good.Ingested() {
		t.Errorf("ingested %s advertised %s: the held manifest must stay while the new one is advertised", c.Ingested(), c.AdvertisedSHA256)
	}
	if c.Rejected == nil || c.Rejected.SHA256 != c.AdvertisedSHA256 || c.Rejected.Crawler != product.Version || c.Rejected.Health != "" || c.Rejected.RejectedHealth() != store.ClaimInvalid {
		t.Fatalf("rejected: %+v", c.Rejected)
	}
	l.sameHeld(before)

	// The same broken bytes are not downloaded again.
	l.srv.ResetRequests()
	l.refresh(src)
	if n := l.requestsFor(candle + ".json"); n != 0 {
		t.Errorf("the refused manifest was downloaded %d times again", n)
	}
	wantClaim(t, l.claim(candle, tplDir), store.ClaimInvalid, "[id-match]")

	// A new crawler version reads it again (simulated: the record names an older crawler).
	c = l.claim(candle, tplDir)
	c.Rejected.Crawler = "0.0.9"
	if err := store.Open(l.state).WriteJSON(store.ClaimPath(candle, l.site(tplDir)), c); err != nil {
		t.Fatal(err)
	}
	l.srv.ResetRequests()
	l.refresh(src)
	if n := l.requestsFor(candle + ".json"); n != 1 {
		t.Errorf("a refusal by another crawler version: downloaded %d times, want 1", n)
	}
	c = l.claim(candle, tplDir)
	wantClaim(t, c, store.ClaimInvalid, "[id-match]")
	if c.Rejected.Crawler != product.Version {
		t.Errorf("rejected.crawler %s", c.Rejected.Crawler)
	}
	l.sameHeld(before)

	// Malformed JSON is invalid too, with the line and column.
	l.publish(tplDir, candle, []byte("{\"schema_version\": \"2\",\n  \"document\": \"project\",,}"), true)
	l.refresh(src)
	wantClaimExactly(t, l.claim(candle, tplDir), store.ClaimInvalid, "the manifest fails the protocol: (document) [json-syntax] malformed JSON at line 2, column 25: unexpected character ',', expected a string key")
	l.sameHeld(before)
}

func TestDrillHalfFinishedDeploymentSettles(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	oldServed, _ := l.srv.Bytes("/" + manifestPath(tplDir, tallow))

	// The index advertises the new manifest; the CDN serves the old one once more.
	l.publish(tplDir, tallow, l.changedTallow(" Now with moons."), true)
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Body: oldServed, Times: 1})
	l.sl.waits = nil
	l.refresh(src)
	if w := l.sl.Waits(); len(w) != 1 || w[0] != 5*time.Second {
		t.Errorf("waits %v, want one of 5s", w)
	}
	c := l.claim(tallow, tplDir)
	wantClaim(t, c, store.ClaimCurrent)
	held, _ := store.Open(l.state).ReadBytes(store.ManifestPath(tallow, l.site(tplDir)))
	newServed, _ := l.srv.Bytes("/" + manifestPath(tplDir, tallow))
	if !bytes.Equal(held, newServed) || store.Digest(held) != c.AdvertisedSHA256 {
		t.Error("the settled manifest is not the one the index advertises")
	}
	var changed *store.Event
	for _, e := range l.events() {
		if e.Project == tallow && e.Kind == store.EventChanged {
			e := e
			changed = &e
		}
	}
	if changed == nil || len(changed.Changes) != 1 || changed.Changes[0].Change != "project-field" || changed.Changes[0].Field != "summary" {
		t.Fatalf("changed event: %+v", changed)
	}
	if *changed.Before != store.Digest(oldServed) || *changed.After != store.Digest(newServed) {
		t.Errorf("event digests %s -> %s", *changed.Before, *changed.After)
	}
}

func TestDrillHalfFinishedDeploymentNeverSettles(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	prev := l.claim(tallow, tplDir)

	l.publish(tplDir, tallow, l.changedTallow(" Now with moons."), true)
	stale := []byte(`{"schema_version": "2", "document": "project", "stale": true}`)
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Body: stale})
	l.sl.waits = nil
	l.srv.ResetRequests()
	l.refresh(src)
	if w := l.sl.Waits(); len(w) != 2 || w[0] != 5*time.Second || w[1] != 20*time.Second {
		t.Errorf("waits %v, want 5s then 20s", w)
	}
	if n := l.requestsFor(tallow + ".json"); n != 3 {
		t.Errorf("manifest read %d times, want 3", n)
	}
	if n := l.requestsFor(tplDir + "/dreamweave.json"); n != 3 {
		t.Errorf("site index read %d times, want 3 (discovery and two re-reads)", n)
	}
	c := l.claim(tallow, tplDir)
	murl := l.url(manifestPath(tplDir, tallow))
	mismatch := "the manifest served at " + murl + " hashes to " + store.Digest(stale) + ", but the site index advertises " + c.AdvertisedSHA256 +
		" (read 3 times, the index re-read after waits of 5s and 20s); the last good manifest is kept"
	wantClaimExactly(t, c, store.ClaimInconsistent, mismatch)
	if c.Ingested() != prev.Ingested() || c.Rejected != nil {
		t.Errorf("ingested %s (was %s), rejected %+v", c.Ingested(), prev.Ingested(), c.Rejected)
	}
	// The site's issues join the health's words and the problem without saying either twice.
	if is := l.origin(tplDir).Issues; len(is) != 1 || is[0] != tallow+" (Tallow): inconsistent deployment: "+mismatch {
		t.Errorf("issues %q", is)
	}
	l.sameHeld(before)

	// The publisher rolls the index back while the crawler waits: the held manifest is current.
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Body: stale})
	l.sl.waits = nil
	l.sl.hook = func(n int) {
		if n == 1 {
			l.publish(tplDir, tallow, l.origRaw(t, tallow), true)
		}
	}
	l.refresh(src)
	l.sl.hook = nil
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	l.sameHeld(before)
}

// origRaw is a lab manifest as first published.
func (l *lab) origRaw(t *testing.T, project string) []byte {
	return l.orig[manifestPath(tplDir, project)]
}

func TestDrillWithdrawalAndRestore(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.held()
	idx := l.raw(tplDir + "/dreamweave.json")

	l.editIndex(tplDir, func(doc map[string]any) {
		var keep []any
		for _, p := range doc["projects"].([]any) {
			if p.(map[string]any)["id"] != tallow {
				keep = append(keep, p)
			}
		}
		doc["projects"] = keep
	})
	l.refresh(src)
	c := l.claim(tallow, tplDir)
	wantClaim(t, c, store.ClaimWithdrawn)
	if c.Problem != nil { // withdrawn is not a problem (FORMATS section 1.4)
		t.Errorf("withdrawn claim's problem %q, want null", *c.Problem)
	}
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
	var withdrawn []store.Event
	for _, e := range l.events() {
		if e.Kind == store.EventWithdrawn {
			withdrawn = append(withdrawn, e)
		}
	}
	if len(withdrawn) != 1 || withdrawn[0].Project != tallow || *withdrawn[0].Before != c.Ingested() || withdrawn[0].After != nil {
		t.Fatalf("withdrawn events: %+v", withdrawn)
	}
	for p, b := range before { // the manifest stays; only the site index changed
		if strings.HasSuffix(p, "manifest.json") {
			if got, _ := store.Open(l.state).ReadBytes(p); !bytes.Equal(got, b) {
				t.Errorf("%s changed on withdrawal", p)
			}
		}
	}
	n := len(l.events())
	l.refresh(src)
	if len(l.events()) != n {
		t.Error("a withdrawal was recorded twice")
	}

	l.set(tplDir+"/dreamweave.json", idx)
	l.refresh(src)
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	var restored int
	for _, e := range l.events() {
		if e.Kind == store.EventRestored && e.Project == tallow {
			restored++
		}
	}
	if restored != 1 {
		t.Errorf("%d restored events, want 1", restored)
	}
	// Listed again with the manifest it held: before null, after that digest (FORMATS 1.5).
	for _, e := range l.events() {
		if e.Kind == store.EventRestored && (e.Before != nil || e.After == nil || *e.After != c.Ingested()) {
			t.Errorf("restored event %s: before %v, after %v; want null and %s", e.ID, e.Before, e.After, c.Ingested())
		}
	}
	l.sameHeld(before)

	// Withdrawn and restored again over the same held manifest: the same facts give the same
	// event ids (SPEC section 3), so nothing new is written, and the summary says the events
	// were already recorded (never silently).
	n = len(l.events())
	for i, idx := range [][]byte{nil, idx} {
		if idx == nil {
			l.editIndex(tplDir, func(doc map[string]any) {
				var keep []any
				for _, p := range doc["projects"].([]any) {
					if p.(map[string]any)["id"] != tallow {
						keep = append(keep, p)
					}
				}
				doc["projects"] = keep
			})
		} else {
			l.set(tplDir+"/dreamweave.json", idx)
		}
		sum := l.refresh(src)
		if sum.Events != 0 || sum.EventsKnown != 1 || !strings.Contains(sum.String(), ", 0 events (1 event already recorded)\n") {
			t.Errorf("transition %d again: %d written, %d already recorded\n%s", i+1, sum.Events, sum.EventsKnown, sum)
		}
	}
	if len(l.events()) != n {
		t.Errorf("%d events after repeating the transitions, %d before", len(l.events()), n)
	}
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
}

func TestDrillMoveByRedirect(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	oldSite := l.site(tplDir)
	before := l.held()
	oldCandle := l.claim(candle, tplDir)

	const movedDir = "moved.example/DreamWeave-Mod-Template"
	l.copySite(tplDir, movedDir)
	// A temporary redirect of the whole site is no evidence of a move (SPEC section 3, "Moves"):
	// the held index is asked again, answers through the redirect, and nothing moves.
	l.redirects(map[string]redirect{
		tplDir + "/":                {302, "{base}" + movedDir + "/"},
		tplDir + "/dreamweave.json": {302, "{base}" + movedDir + "/dreamweave.json"},
	})
	l.refresh(src)
	if s := l.sourceRecord(src); s.Origin == nil || *s.Origin != oldSite {
		t.Fatalf("a temporary redirect moved the source to %v", s.Origin)
	}
	x, m := l.url(tplDir+"/dreamweave.json"), l.url(movedDir+"/dreamweave.json")
	temp := "walking up the path reached the site index " + m + ", but the held site index " + x + " redirects temporarily to " + m +
		", which answers as a site index; a temporary redirect is no evidence of a move, so none is recorded"
	wantOriginExactly(t, l.origin(tplDir), store.OriginUnreachable, temp)
	for _, p := range []string{candle, tallow} {
		wantClaimExactly(t, l.claim(p, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+temp)
	}
	if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 {
		t.Fatalf("a temporary redirect changed the network: %d origins, %d claims", len(snap.Origins), len(snap.Claims))
	}
	l.sameHeld(before)
	// The site moved for good: its page and its index redirect permanently.
	l.redirects(map[string]redirect{
		tplDir + "/":                {301, "{base}" + movedDir + "/"},
		tplDir + "/dreamweave.json": {308, "{base}" + movedDir + "/dreamweave.json"},
	})
	l.refresh(src)
	newSite := l.site(movedDir)

	s := l.sourceRecord(src)
	if s.Health != store.SourceResolved || *s.Origin != newSite {
		t.Fatalf("source leads to %v, want %s", s.Origin, newSite)
	}
	if !strings.Contains(s.Trail[0].Outcome, "redirects (HTTP 301)") {
		t.Errorf("the trail does not show the redirect: %+v", s.Trail)
	}
	o := l.origin(movedDir)
	want := store.Move{Origin: oldSite, IndexURL: x, ObservedAt: o.LastAttempt, Evidence: "the enrolled source " + src + " now redirects to this site"}
	if len(o.Previous) != 1 || o.Previous[0] != want {
		t.Errorf("new site previous = %+v, want [%+v]", o.Previous, want)
	}
	// The old site is removed with its claims and their manifests (FORMATS section 1.11); the
	// new claims start afresh, and their events continue the old ones.
	st := store.Open(l.state)
	for _, rel := range []string{store.OriginPath(oldSite), store.OriginIndexPath(oldSite), store.ClaimPath(candle, oldSite), store.ManifestPath(candle, oldSite), store.ClaimPath(tallow, oldSite)} {
		if st.Exists(rel) {
			t.Errorf("%s is still held after the move", rel)
		}
	}
	for _, p := range []string{candle, tallow} {
		nc := l.claim(p, movedDir)
		wantClaim(t, nc, store.ClaimCurrent)
		if nc.MovedFrom != nil || nc.MovedTo != nil || nc.FirstObserved != o.LastAttempt {
			t.Errorf("%s at the new site: moved_from %v, moved_to %v, first observed %s (want now, %s)", p, nc.MovedFrom, nc.MovedTo, nc.FirstObserved, o.LastAttempt)
		}
	}
	moves := 0
	for _, e := range l.events() {
		if e.MovedFrom != nil {
			moves++
			oldDigest := before[store.ManifestPath(e.Project, oldSite)]
			if e.Kind != store.EventObserved || *e.MovedFrom != oldSite || e.Origin != newSite || e.Before == nil || *e.Before != store.Digest(oldDigest) {
				t.Errorf("move event %+v", e)
			}
		}
		if e.Kind == store.EventWithdrawn {
			t.Errorf("a moved claim was recorded as withdrawn: %+v", e)
		}
	}
	if moves != 2 {
		t.Errorf("%d move events, want 2", moves)
	}
	for p := range before { // every event of the old site stays
		if strings.HasPrefix(p, "events/") && !st.Exists(p) {
			t.Errorf("%s is gone", p)
		}
	}
	if oldCandle.FirstObserved == o.LastAttempt {
		t.Fatal("the drill's clock did not move between the refreshes")
	}
	n := len(l.events())
	l.refresh(src)
	if len(l.events()) != n {
		t.Error("the move was recorded again")
	}
}

func TestDrillIdentityConflict(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	const forkDir = "fork.example/DreamWeave-Mod-Template"
	l.copySite(tplDir, forkDir)
	l.refresh(l.source(tplDir), l.source(forkDir))
	a, b := l.claim(candle, tplDir), l.claim(candle, forkDir)
	wantClaim(t, a, store.ClaimCurrent)
	wantClaim(t, b, store.ClaimCurrent)
	if a.Origin == b.Origin || a.MovedFrom != nil || b.MovedFrom != nil || a.MovedTo != nil || b.MovedTo != nil {
		t.Errorf("two sites publishing one id must be two claims, neither moved: %s %s", a.Origin, b.Origin)
	}
	observed := 0
	for _, e := range l.events() {
		if e.Project == candle && e.Kind == store.EventObserved {
			observed++
		}
	}
	if observed != 2 {
		t.Errorf("%d observed events for the conflicting id, want 2", observed)
	}
}

func TestDrillRemovedSource(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	tpl, ini := l.source(tplDir), l.source(iniDir)
	l.refresh(tpl, ini)
	before := l.held()

	iniSite := l.site(iniDir)
	sum := l.refresh(tpl)
	// The source's record, its site and the site's claim and manifest go; its events stay
	// (FORMATS section 1.11).
	st := store.Open(l.state)
	for _, rel := range []string{store.SourcePath(store.SourceID(ini)), store.OriginPath(iniSite), store.OriginIndexPath(iniSite), store.ClaimPath(iniProj, iniSite), store.ManifestPath(iniProj, iniSite)} {
		if st.Exists(rel) {
			t.Errorf("%s is still held after the source's removal", rel)
		}
	}
	for p, b := range before {
		if strings.Contains(p, iniSite) {
			continue
		}
		if got, err := st.ReadBytes(p); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s changed", p)
		}
	}
	if len(sum.Removed) != 1 || sum.Removed[0] != "no longer enrolled: "+iniSite || !strings.Contains(sum.String(), "\nno longer enrolled: "+iniSite+"\n") {
		t.Errorf("summary: %q\n%s", sum.Removed, sum)
	}
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
	n := len(l.events())
	for _, e := range l.events() {
		if e.Origin == iniSite && e.Kind == store.EventWithdrawn {
			t.Errorf("the removal recorded an event: %+v", e)
		}
	}
	l.refresh(tpl)
	if len(l.events()) != n {
		t.Error("the removal recorded an event")
	}
	// Enrolled again: the claim comes back.
	l.refresh(tpl, ini)
	wantClaim(t, l.claim(iniProj, iniDir), store.ClaimCurrent)
	if s := l.sourceRecord(ini); s.Health != store.SourceResolved {
		t.Errorf("re-enrolled source: %s", s.Health)
	}
}

func TestDrillNewerSchemaVersion(t *testing.T) {
	t.Parallel()
	t.Run("site index", func(t *testing.T) {
		l := newLab(t)
		src := l.source(tplDir)
		l.refresh(src)
		before := l.held()
		l.set(tplDir+"/dreamweave.json", bytes.Replace(l.raw(tplDir+"/dreamweave.json"), []byte(`"schema_version": "2"`), []byte(`"schema_version": "3"`), 1))
		l.refresh(src)
		wantOrigin(t, l.origin(tplDir), store.OriginUnsupportedVersion, "speaks a newer protocol", "last good data kept")
		wantClaim(t, l.claim(candle, tplDir), store.ClaimOriginUnavailable, "speaks a newer protocol")
		l.sameHeld(before)
	})
	t.Run("manifest", func(t *testing.T) {
		l := newLab(t)
		src := l.source(tplDir)
		l.refresh(src)
		before := l.heldManifests()
		l.publish(tplDir, tallow, bytes.Replace(l.raw(manifestPath(tplDir, tallow)), []byte(`"schema_version": "2"`), []byte(`"schema_version": "3"`), 1), true)
		sum := l.refresh(src)
		// The manifest was read (its digest matched): not "manifest unreachable" (state.txt:
		// "the manifest was not read"). SPEC section 1 lists a newer schema_version among the
		// rules that make a document invalid, recorded as "speaks a newer protocol".
		c := l.claim(tallow, tplDir)
		wantClaimExactly(t, c, store.ClaimInvalid, `the manifest speaks a newer protocol (/schema_version [newer-protocol] schema_version "3": the document speaks a newer protocol (this index reads schema_version "2")); last good data kept`)
		if c.Rejected == nil || c.Rejected.RejectedHealth() != store.ClaimInvalid || c.Rejected.SHA256 != c.AdvertisedSHA256 {
			t.Errorf("rejected %+v", c.Rejected)
		}
		found := false
		for _, f := range sum.Failures {
			found = found || (strings.Contains(f, tallow) && strings.Contains(f, "invalid publication: the manifest speaks a newer protocol"))
		}
		if !found || strings.Contains(strings.Join(sum.Failures, "\n"), "unreachable") {
			t.Errorf("summary failures %q: want Tallow as an invalid publication speaking a newer protocol", sum.Failures)
		}
		l.sameHeld(before)
		// Remembered by digest: the same bytes are not downloaded again by this crawler.
		l.srv.ResetRequests()
		l.refresh(src)
		if n := l.requestsFor(tallow + ".json"); n != 0 {
			t.Errorf("the newer-protocol manifest was downloaded again %d times", n)
		}
		wantClaim(t, l.claim(tallow, tplDir), store.ClaimInvalid, "speaks a newer protocol")
	})
	t.Run("recorded as manifest unreachable by an earlier build", func(t *testing.T) {
		l := newLab(t)
		src := l.source(tplDir)
		l.refresh(src)
		l.publish(tplDir, tallow, bytes.Replace(l.raw(manifestPath(tplDir, tallow)), []byte(`"schema_version": "2"`), []byte(`"schema_version": "3"`), 1), true)
		l.refresh(src)
		d := store.Open(l.state)
		c := l.claim(tallow, tplDir)
		c.Health, c.Rejected.Health = store.ClaimManifestUnreachable, store.ClaimManifestUnreachable
		if err := d.WriteJSON(store.ClaimPath(tallow, c.Origin), c); err != nil {
			t.Fatal(err)
		}
		l.refresh(src)
		wantClaim(t, l.claim(tallow, tplDir), store.ClaimInvalid, "speaks a newer protocol")
	})
}

func TestDrillOversize(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	big := append([]byte(`{"schema_version": "2", "document": "project", "x": "`), bytes.Repeat([]byte("a"), limit)...)
	big = append(big, `"}`...)
	cases := []struct {
		name   string
		rule   loopback.Rule
		wrap   bool
		health string
		words  []string
	}{
		{"honest Content-Length", loopback.Rule{Body: big}, false, store.ClaimRefused,
			[]string{"refused by crawler policy", "over the 64 KiB limit", fmt.Sprintf("Content-Length announced %d bytes", len(big))}},
		{"no Content-Length", loopback.Rule{Huge: 1 << 20}, false, store.ClaimRefused,
			[]string{"refused by crawler policy", "over the 64 KiB limit", "reading stopped at the limit"}},
		{"lying Content-Length", loopback.Rule{}, true, store.ClaimRefused,
			[]string{"refused by crawler policy", "over the 64 KiB limit"}},
		{"understated Content-Length", loopback.Rule{Body: big, LieLength: 100}, false, store.ClaimInconsistent,
			[]string{"hashes to " + store.Digest(big[:100]), "the last good manifest is kept"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.opt = func(o *Options) { o.MaxBytes = limit }
			src := l.source(tplDir)
			l.refresh(src)
			before := l.heldManifests()
			l.publish(tplDir, tallow, l.changedTallow(" Bigger."), true)
			tc.rule.Path = "/" + tallow + `\.json$`
			if tc.wrap {
				l.setIntercept(lyingChunks("/"+tallow+".json", 1<<20))
			} else {
				l.rules(tc.rule)
			}
			l.refresh(src)
			c := l.claim(tallow, tplDir)
			wantClaim(t, c, tc.health, tc.words...)
			if tc.health == store.ClaimRefused && (c.Rejected == nil || c.Rejected.SHA256 != c.AdvertisedSHA256 || c.Rejected.Health != store.ClaimRefused) {
				t.Errorf("an over-limit manifest must be remembered by its advertised digest: %+v", c.Rejected)
			}
			l.sameHeld(before)
		})
	}
}

// lyingChunks answers path with a Content-Length of 10 and a chunked body of n bytes (chunked
// wins, RFC 9112 6.3): a body that lies about its size.
func lyingChunks(path string, n int) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasSuffix(r.URL.Path, path) {
			return false
		}
		conn, bw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return false
		}
		defer conn.Close()
		writeLyingChunks(bw, n)
		return true
	}
}

func writeLyingChunks(bw *bufio.ReadWriter, n int) {
	fmt.Fprint(bw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n")
	chunk := bytes.Repeat([]byte(" "), 32<<10)
	for sent := 0; sent < n; sent += len(chunk) {
		fmt.Fprintf(bw, "%x\r\n%s\r\n", len(chunk), chunk)
		if bw.Flush() != nil {
			return
		}
	}
	fmt.Fprint(bw, "0\r\n\r\n")
	bw.Flush()
}

// Redirects into forbidden addresses (SSRF): the address guard's refusal is recorded as what it
// is, the manifest unreachable or the source refused with the refusal as the problem, never
// "refused by crawler policy" (that is for resource limits). Nothing held changes.
func TestDrillRedirectIntoForbiddenAddresses(t *testing.T) {
	t.Parallel()
	targets := []struct {
		name, to string
		refusal  string // the guard's words after "<target> "
	}{
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/", "refused by the address guard: 169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services live)"},
		{"RFC 1918", "http://10.0.0.1/dreamweave.json", "refused by the address guard: 10.0.0.1 is private (RFC 1918, 10.0.0.0/8)"},
		{"IPv4-mapped loopback", "http://[::ffff:127.0.0.1]:{port}/" + manifestPath(tplDir, tallow), "refused by the address guard: ::ffff:127.0.0.1 is an IPv4-mapped IPv6 address (::ffff:0:0/96; refused outright)"},
		{"file scheme", "file:///etc/passwd", `refused: scheme "file" is not http or https`},
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			l := newLab(t)
			src := l.source(tplDir)
			l.refresh(src)
			before := l.heldManifests()

			// A manifest that redirects there: the claim's manifest is unreachable, nothing held changes.
			l.publish(tplDir, tallow, l.changedTallow(" Elsewhere."), true)
			trap := l.url("trap/")
			l.rules(
				loopback.Rule{Path: "/" + tallow + `\.json$`, Redirect: tg.to},
				loopback.Rule{Path: "^/trap/$", Redirect: tg.to},
			)
			sum := l.refresh(src, trap)
			to := strings.ReplaceAll(tg.to, "{port}", l.port())
			murl := l.url(manifestPath(tplDir, tallow))
			c := l.claim(tallow, tplDir)
			wantClaimExactly(t, c, store.ClaimManifestUnreachable, "redirect 1 (HTTP 302 from "+murl+") to "+to+" "+tg.refusal)
			if c.Rejected != nil || sum.Problems[store.ClaimRefused] != 0 {
				t.Errorf("an address guard refusal was taken for a resource limit: rejected %+v, problems %v", c.Rejected, sum.Problems)
			}
			l.sameHeld(before)

			// An enrolled URL that redirects there: the source records the refusal, no site.
			s := l.sourceRecord(trap)
			want := "the enrolled URL " + trap + ", which redirected to " + to + ", which was " + tg.refusal
			if s.Health != store.SourceRefused || s.Origin != nil || deref(s.Problem) != want {
				t.Fatalf("trap source: %s %v %q\nwant problem %q", s.Health, s.Origin, deref(s.Problem), want)
			}
			if len(load(t, l.state).Origins) != 1 {
				t.Error("a refused redirect created a site")
			}
		})
	}
	// The held site index redirecting there: the site is unreachable (not refused by crawler
	// policy), the refusal is its problem, and its claims keep their last good data.
	t.Run("site index", func(t *testing.T) {
		l := newLab(t)
		src := l.source(tplDir)
		l.refresh(src)
		before := l.held()
		l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Redirect: "http://169.254.169.254/latest/meta-data/"})
		sum := l.refresh(src)
		idx := l.url(tplDir + "/dreamweave.json")
		want := "walking up the path stopped at " + idx + ", which redirected to http://169.254.169.254/latest/meta-data/, which was refused by the address guard: " +
			"169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services live); only a 404 or 410 lets the walk pass a level"
		wantOriginExactly(t, l.origin(tplDir), store.OriginUnreachable, want)
		wantClaimExactly(t, l.claim(candle, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+want)
		if sum.Problems["site "+store.OriginRefused] != 0 || sum.Problems["site "+store.OriginUnreachable] != 1 {
			t.Errorf("problems %v", sum.Problems)
		}
		l.sameHeld(before)
	})
}

// The request timeout is set only for the refresh whose index never answers (the delay lasts
// until the client gives up), so no request that must succeed races it, however loaded the
// machine; the timeout is still generous for the requests before the index.
func TestDrillSlowSiteHitsDeadline(t *testing.T) {
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.held()
	l.opt = func(o *Options) { o.Timeout = 2 * time.Second }
	l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Delay: time.Hour})
	l.refresh(src)
	wantOrigin(t, l.origin(tplDir), store.OriginUnreachable, "timed out after 2s")
	wantClaim(t, l.claim(candle, tplDir), store.ClaimOriginUnavailable, "timed out")
	l.sameHeld(before)
}

func TestDrillRerunSameObservations(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	l.publish(tplDir, tallow, l.changedTallow(" Again."), true)
	pre := snapshotFiles(t, l.state)
	l.refresh(src)
	evs := l.events()
	// The same refresh again, over the same observations at the same time: the claims and
	// manifests as they were before it, the events kept.
	for p, b := range pre {
		if !strings.HasPrefix(p, "events/") {
			if err := store.Open(l.state).WriteBytes(p, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	l.runs--
	l.refresh(src)
	again := l.events()
	if len(again) != len(evs) {
		t.Fatalf("%d events after re-running, %d before: an observation was recorded twice", len(again), len(evs))
	}
	for i := range evs {
		if evs[i].ID != again[i].ID {
			t.Errorf("event %d: %s then %s", i, evs[i].ID, again[i].ID)
		}
	}
}

func TestDrillKilledMidway(t *testing.T) {
	t.Parallel()
	t.Run("context cancelled partway", func(t *testing.T) {
		t.Parallel()
		l := newLab(t)
		tpl, ini := l.source(tplDir), l.source(iniDir)
		l.refresh(tpl, ini)
		before := l.heldManifests()
		l.publish(tplDir, tallow, l.changedTallow(" Cut short."), true)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
			if strings.HasSuffix(r.URL.Path, tallow+".json") {
				cancel() // killed while the manifest download is in flight
			}
			return false
		})
		tallowRecord := l.raw0(store.ClaimPath(tallow, l.site(tplDir)))
		sum, err := Run(ctx, l.options(tpl, ini))
		var ie *InterruptedError
		if !errors.As(err, &ie) || ie.Deadline || ie.Reason != context.Canceled.Error() {
			t.Fatalf("err = %v, want the interrupt (context canceled)", err)
		}
		mustCheck(t, l.state)
		l.sameHeld(before)
		// Recorded: the template site partly read with Tallow's claim not read and untouched.
		// The other site may be mid-read too when the cancel lands, so it is not asked about.
		x := load(t, l.state).Network.Interrupted
		if x == nil {
			t.Fatal("network.json records no interrupt")
		}
		tplPartly := false
		for _, p := range x.SitesPartlyRead {
			if p.Site == l.site(tplDir) && contains(p.Projects, tallow) {
				tplPartly = true
			}
		}
		if x.Reason != ie.Reason || !tplPartly || !reflect.DeepEqual(sum.Interrupted, x) {
			t.Errorf("network.json interrupted %+v; summary %+v", x, sum.Interrupted)
		}
		if got := l.raw0(store.ClaimPath(tallow, l.site(tplDir))); !bytes.Equal(got, tallowRecord) {
			t.Errorf("the claim not read was rewritten")
		}
		l.setIntercept(nil)
		l.runs++
		l.refresh(tpl, ini) // the next refresh finishes the job
		wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	})
	t.Run("crash at every write", func(t *testing.T) {
		t.Parallel()
		l := newLab(t)
		tpl, ini := l.source(tplDir), l.source(iniDir)
		l.refresh(tpl, ini)
		// Changes that make the next refresh write a bit of everything: a replaced manifest, an
		// invalid one, a withdrawal.
		l.publish(tplDir, tallow, l.changedTallow(" Crash."), true)
		l.publish(iniDir, iniProj, []byte("{"), true)
		l.editIndex(tplDir, func(doc map[string]any) {
			var keep []any
			for _, p := range doc["projects"].([]any) {
				if p.(map[string]any)["id"] != candle {
					keep = append(keep, p)
				}
			}
			doc["projects"] = keep
		})
		const forkDir = "fork.example/DreamWeave-Mod-Template"
		l.copySite(tplDir, forkDir)
		fork := l.source(forkDir)
		base := snapshotFiles(t, l.state)
		l.crashAtEveryWrite(t, base, 4, []string{tpl, ini, fork}, nil, func(k int, _ string) {
			if _, err := Run(context.Background(), l.options(tpl, ini, fork)); err != nil {
				t.Fatalf("refresh after a crash at write %d: %v", k, err)
			}
			mustCheck(t, l.state)
			wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
			wantClaim(t, l.claim(candle, tplDir), store.ClaimWithdrawn)
			wantClaim(t, l.claim(tallow, forkDir), store.ClaimCurrent)
			wantClaim(t, l.claim(iniProj, iniDir), store.ClaimInvalid)
		})
	})
}

var errCrash = errors.New("simulated crash")

// crashing is a state whose k-th write, and every write after it, fails: the process died there.
type crashing struct {
	*store.Dir
	mu   sync.Mutex
	n    int
	at   int
	last string
}

func (c *crashing) tick(rel string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.n >= c.at {
		if c.n == c.at {
			c.last = rel
		}
		return errCrash
	}
	return nil
}

func (c *crashing) crashed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n >= c.at
}

func (c *crashing) WriteJSON(rel string, v any) error {
	if err := c.tick(rel); err != nil {
		return err
	}
	return c.Dir.WriteJSON(rel, v)
}

func (c *crashing) Remove(rel string) error {
	if err := c.tick(rel); err != nil {
		return err
	}
	return c.Dir.Remove(rel)
}

func (c *crashing) WriteBytes(rel string, b []byte) error {
	if err := c.tick(rel); err != nil {
		return err
	}
	return c.Dir.WriteBytes(rel, b)
}

func (c *crashing) WriteEvent(e store.Event) (bool, error) {
	if err := c.tick(store.EventPath(e.ID)); err != nil {
		return false, err
	}
	return c.Dir.WriteEvent(e)
}

// Every origin health a read of the site index can end in, each with its exact problem, and the
// claims' "origin unavailable" with the held index and manifests untouched. A held index that
// is truncated, starts with a byte order mark or repeats a key is the site's invalid index, with
// the finding's line and column: never "no index", never a reason to walk past it.
func TestDrillSiteIndexFailures(t *testing.T) {
	t.Parallel()
	finding := func(b []byte) string {
		_, fs := protocol.ValidateIndex(b)
		if len(fs) != 1 {
			t.Fatalf("want one finding for the broken index, got %v", fs)
		}
		return fs[0].String()
	}
	cases := []struct {
		name    string
		break_  func(l *lab) []byte // the bytes now served, when they matter
		health  string
		problem func(l *lab, served []byte) string // with X the held index URL
	}{
		{"invalid index", func(l *lab) []byte {
			b := []byte(`{"schema_version": "2", "document": "index", "projects": []}`)
			l.set(tplDir+"/dreamweave.json", b)
			return b
		}, store.OriginInvalidIndex, func(l *lab, b []byte) string {
			_, fs := protocol.ValidateIndex(b)
			return "the site index fails the protocol: " + protocol.Summary(fs)
		}},
		{"no index any more", func(l *lab) []byte {
			l.mu.Lock()
			delete(l.files, tplDir+"/dreamweave.json")
			l.mu.Unlock()
			l.sync()
			return nil
		}, store.OriginNoIndex, func(l *lab, _ []byte) string {
			return "no DreamWeave <link> and no dreamweave.json in any parent directory; the held site index " + l.url(tplDir+"/dreamweave.json") + " answers HTTP 404"
		}},
		{"index over the size limit", func(l *lab) []byte {
			l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Huge: 1 << 20})
			return nil
		}, store.OriginRefused, func(l *lab, _ []byte) string {
			return "walking up the path stopped at " + l.url(tplDir+"/dreamweave.json") + ", which is over the 64 KiB limit (refused by crawler policy); only a 404 or 410 lets the walk pass a level"
		}},
		{"not a DreamWeave document", func(l *lab) []byte {
			b := []byte(`{"hello": "world"}`)
			l.set(tplDir+"/dreamweave.json", b)
			return b
		}, store.OriginNoIndex, func(l *lab, b []byte) string {
			_, fs := protocol.ValidateIndex(b)
			return "no DreamWeave <link> and no dreamweave.json in any parent directory; the site index at " + l.url(tplDir+"/dreamweave.json") + " is not a DreamWeave site index: " + protocol.Summary(fs)
		}},
		{"truncated", func(l *lab) []byte {
			b := l.raw(tplDir + "/dreamweave.json")
			b = b[:len(b)-7]
			l.set(tplDir+"/dreamweave.json", b)
			return b
		}, store.OriginInvalidIndex, func(l *lab, b []byte) string {
			return "the site index at " + l.url(tplDir+"/dreamweave.json") + " fails the protocol: " + finding(b)
		}},
		{"byte order mark", func(l *lab) []byte {
			b := append([]byte("\ufeff"), l.raw(tplDir+"/dreamweave.json")...)
			l.set(tplDir+"/dreamweave.json", b)
			return b
		}, store.OriginInvalidIndex, func(l *lab, b []byte) string {
			return "the site index at " + l.url(tplDir+"/dreamweave.json") + " fails the protocol: " + finding(b)
		}},
		{"duplicate key", func(l *lab) []byte {
			b := bytes.Replace(l.raw(tplDir+"/dreamweave.json"), []byte(`"document": "index",`), []byte(`"document": "project", "document": "index",`), 1)
			l.set(tplDir+"/dreamweave.json", b)
			return b
		}, store.OriginInvalidIndex, func(l *lab, b []byte) string {
			return "the site index at " + l.url(tplDir+"/dreamweave.json") + " fails the protocol: " + finding(b)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.opt = func(o *Options) { o.MaxBytes = 64 << 10 }
			src := l.source(tplDir)
			l.refresh(src)
			before := l.held()
			served := tc.break_(l)
			l.srv.ResetRequests()
			l.refresh(src)
			problem := tc.problem(l, served)
			if strings.Contains(tc.name, "truncated") || strings.Contains(tc.name, "order mark") || strings.Contains(tc.name, "duplicate") {
				if !regexp.MustCompile(`line \d+, column \d+`).MatchString(problem) {
					t.Fatalf("the finding names no position: %s", problem)
				}
			}
			wantOriginExactly(t, l.origin(tplDir), tc.health, problem)
			for _, p := range []string{candle, tallow} {
				wantClaimExactly(t, l.claim(p, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+problem)
			}
			if tc.health == store.OriginInvalidIndex && tc.name != "invalid index" {
				if n := l.requestsFor(host + "/dreamweave.json"); n != 0 {
					t.Errorf("the walk went past the broken held index to the level above (%d requests)", n)
				}
			}
			l.sameHeld(before)
		})
	}
}

func TestDrillManifestUnreachable(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	l.publish(tplDir, tallow, l.changedTallow(" Gone."), true)
	l.rules(loopback.Rule{Path: "/" + tallow + `\.json$`, Status: 404})
	l.refresh(src)
	c := l.claim(tallow, tplDir)
	wantClaim(t, c, store.ClaimManifestUnreachable, "HTTP 404 from "+l.url(manifestPath(tplDir, tallow)))
	if c.Rejected != nil {
		t.Errorf("an unreachable manifest is not refused bytes: %+v", c.Rejected)
	}
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
	wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
	if is := l.origin(tplDir).Issues; len(is) != 1 || !strings.Contains(is[0], "Tallow): manifest unreachable: HTTP 404") {
		t.Errorf("origin issues %v", is)
	}
	l.sameHeld(before)
	l.rules()
	l.refresh(src)
	wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	if is := l.origin(tplDir).Issues; len(is) != 0 {
		t.Errorf("issues after recovery: %v", is)
	}
}

// Two enrolled URLs lead to one site; one of them fails: the site is read through the other,
// and the failed source is recorded with its problem and its last known site.
func TestDrillOneOfTwoSourcesFails(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	front, sub := l.source(tplDir), l.url(tplDir+"/sub/")
	l.refresh(front, sub)
	if o := l.origin(tplDir); len(o.Sources) != 2 {
		t.Fatalf("site sources %v", o.Sources)
	}
	l.rules(loopback.Rule{Path: "^/" + tplDir + "/sub/$", Redirect: "http://10.0.0.1/"})
	l.refresh(front, sub)
	s := l.sourceRecord(sub)
	if s.Health != store.SourceRefused || s.Origin == nil || *s.Origin != l.site(tplDir) || !strings.Contains(deref(s.Problem), "10.0.0.1") {
		t.Errorf("failed source: %+v", s)
	}
	o := l.origin(tplDir)
	wantOrigin(t, o, store.OriginHealthy)
	if len(o.Sources) != 1 || o.Sources[0] != front {
		t.Errorf("site sources %v, want only %s", o.Sources, front)
	}
	wantClaim(t, l.claim(candle, tplDir), store.ClaimCurrent)
}

// A move into a site whose index cannot be read yet is pending: the old claims keep their last
// good data, stale (origin unavailable, saying where the source leads now), nothing is
// withdrawn, and no claim appears at the new site. While the new site stays unreadable, or its
// enrolled page is down, the move waits. Once its index reads, the claims move: moved_to at the
// old site, moved_from and a "changed" event at the new one, no withdrawal.
func TestDrillMoveIntoUnreadableSite(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	oldSite := l.site(tplDir)
	before := l.held()
	const movedDir = "moved.example/DreamWeave-Mod-Template"
	l.copySite(tplDir, movedDir)
	good := l.raw(movedDir + "/dreamweave.json")
	bad := []byte(`{"schema_version": "2", "document": "index", "projects": []}`)
	_, fs := protocol.ValidateIndex(bad)
	l.set(movedDir+"/dreamweave.json", bad)
	permanent := map[string]redirect{
		tplDir + "/":                {301, "{base}" + movedDir + "/"},
		tplDir + "/dreamweave.json": {301, "{base}" + movedDir + "/dreamweave.json"},
	}
	l.redirects(permanent)
	newIndex := l.url(movedDir + "/dreamweave.json")
	pending := func(problem string) string {
		return "the enrolled source now leads to the site index " + newIndex + ", which could not be read (" + problem +
			"); the move is recorded once it reads, and until then this site's last good data stays"
	}
	checkPending := func(problem string) {
		t.Helper()
		wantOriginExactly(t, l.origin(tplDir), store.OriginUnreachable, pending(problem))
		for _, p := range []string{candle, tallow} {
			c := l.claim(p, tplDir)
			wantClaimExactly(t, c, store.ClaimOriginUnavailable, pending(problem))
			if c.MovedTo != nil {
				t.Errorf("%s: moved_to %s before the new index read", p, *c.MovedTo)
			}
		}
		snap := load(t, l.state)
		for _, c := range snap.Claims {
			if c.Origin != oldSite {
				t.Errorf("a claim appeared at %s before its index read", c.Origin)
			}
		}
		for _, e := range snap.Events {
			if e.Kind == store.EventWithdrawn {
				t.Errorf("a pending move withdrew %s", e.Project)
			}
		}
		if o := l.origin(tplDir); len(o.Sources) != 0 {
			t.Errorf("the old site still lists %v: the source leads to the new one", o.Sources)
		}
		if p := l.origin(movedDir).Previous; len(p) != 1 || p[0].Origin != oldSite {
			t.Errorf("previous %v", p)
		}
		l.sameHeld(before)
	}

	l.refresh(src)
	invalid := "the site index fails the protocol: " + protocol.Summary(fs)
	wantOriginExactly(t, l.origin(movedDir), store.OriginInvalidIndex, invalid)
	checkPending(invalid)

	// Still unreadable on the next refresh: still pending.
	l.refresh(src)
	checkPending(invalid)

	// The new site's page is down: the source fails at the new site; the move still waits.
	l.rules(loopback.Rule{Path: "^/" + movedDir + "/$", Status: 503})
	l.refresh(src)
	down := "the enrolled URL " + src + ", which redirected to " + l.url(movedDir+"/") + ", which answered HTTP 503 (service unavailable)"
	wantOriginExactly(t, l.origin(movedDir), store.OriginUnreachable, down)
	checkPending(down)

	// The new index reads: the move happens.
	l.rules()
	l.set(movedDir+"/dreamweave.json", good)
	sum := l.refresh(src)
	newSite := l.site(movedDir)
	for _, p := range []string{candle, tallow} {
		wantClaim(t, l.claim(p, movedDir), store.ClaimCurrent)
	}
	moves := 0
	for _, e := range l.events() {
		if e.Kind == store.EventWithdrawn {
			t.Errorf("a moved claim was recorded as withdrawn: %+v", e)
		}
		if e.MovedFrom != nil && *e.MovedFrom == oldSite && e.Origin == newSite && e.Kind == store.EventObserved && e.Before != nil {
			moves++
		}
	}
	if moves != 2 || len(sum.Removed) != 1 || sum.Removed[0] != "moved: "+oldSite+" now continues as "+newSite {
		t.Errorf("%d move events, summary %q; want 2 and the old site removed", moves, sum.Removed)
	}
	// The move finished: the old site is removed, its events stay.
	st := store.Open(l.state)
	for p, b := range before {
		switch got, err := st.ReadBytes(p); {
		case strings.Contains(p, oldSite) && err == nil:
			t.Errorf("%s is still held after the move", p)
		case !strings.Contains(p, oldSite) && !bytes.Equal(got, b):
			t.Errorf("%s changed", p)
		}
	}
}
