package refresh

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// An outage is not a move (SPEC section 3, "Moves": only on evidence from the enrolled URL).
// GitHub Pages layout: the enrolled project site sits below a user site that publishes its own
// index. The project site's held index answers 503, or 404 mid-deploy: the source does not move
// to the user site, nothing is withdrawn, no claim appears for the user site's project, the
// site is stale (its claims origin-unavailable, last good kept), and the trail says what the
// walk found and why it was not adopted. Recovery restores everything without an event.
func TestDrillOutageIsNotAMove(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		status  int
		health  string
		source  string // the source's health (FORMATS section 1.2)
		problem func(x, root string) string
	}{
		{"503", 503, store.OriginUnreachable, store.SourceUnreachable, func(x, root string) string {
			return "walking up the path stopped at " + x + ", which answered HTTP 503 (service unavailable); only a 404 or 410 lets the walk pass a level"
		}},
		{"404", 404, store.OriginNoIndex, store.SourceNoIndex, func(x, root string) string {
			return "walking up the path reached the site index " + root + ", but the held site index " + x +
				" answered HTTP 404 (not found); a walk up alone is no evidence of a move, so none is recorded"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.set(host+"/dreamweave.json", l.raw(iniDir+"/dreamweave.json")) // the user site's own index
			src := l.source(tplDir)
			l.refresh(src)
			before := l.held()
			nEvents := len(l.events())
			x, root := l.url(tplDir+"/dreamweave.json"), l.url(host+"/dreamweave.json")
			site := l.site(tplDir)

			l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Status: tc.status})
			sum := l.refresh(src)
			problem := tc.problem(x, root)
			wantOriginExactly(t, l.origin(tplDir), tc.health, problem)
			for _, p := range []string{candle, tallow} {
				wantClaimExactly(t, l.claim(p, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+problem)
			}
			snap := load(t, l.state)
			if len(snap.Origins) != 1 || len(snap.Claims) != 2 || len(snap.Events) != nEvents {
				t.Errorf("an outage changed the network: %d origins, %d claims, %d events (was 1, 2, %d)", len(snap.Origins), len(snap.Claims), len(snap.Events), nEvents)
			}
			s := l.sourceRecord(src)
			if s.Health != tc.source || s.Origin == nil || *s.Origin != site || deref(s.Problem) != problem {
				t.Errorf("source: %s %v %q", s.Health, s.Origin, deref(s.Problem))
			}
			if tc.status == 404 {
				last := s.Trail[len(s.Trail)-1]
				if last.URL != x || last.Outcome != "not found (HTTP 404); walking up reached "+root+", but the held site index did not answer, so no move is recorded" {
					t.Errorf("the trail does not say why the walk's index was not adopted: %+v", s.Trail)
				}
			}
			// The site's line, covering its claims and naming its source, and the source's own
			// line pointing there (every count under "Problems by kind" is listed).
			label := map[string]string{store.OriginUnreachable: "unreachable", store.OriginNoIndex: "no site index"}[tc.health]
			want := []string{
				"site " + site + ": " + label + ": " + problem + " [2 claims kept as last seen, marked origin unavailable] [enrolled as " + src + "]",
				"source " + src + ": " + tc.source + ": its site " + site + " could not be read (the site's line says why)",
			}
			if strings.Join(sum.Failures, "\n") != strings.Join(want, "\n") {
				t.Errorf("failures %q\nwant %q", sum.Failures, want)
			}
			if sum.Problems[store.ClaimOriginUnavailable] != 2 || sum.Problems["site "+tc.health] != 1 || sum.Problems["source "+tc.source] != 1 {
				t.Errorf("problems %v", sum.Problems)
			}
			// network.json names what changed health, in (origin, project) order.
			var n store.Network
			if err := store.Open(l.state).ReadJSON(store.NetworkFile, &n); err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, h := range n.HealthChanges {
				got = append(got, h.Origin+"|"+h.Project+"|"+h.Before+">"+h.After+"|"+deref(h.Problem))
			}
			wantChanges := []string{
				site + "||healthy>" + tc.health + "|" + problem,
				site + "|" + candle + "|current>origin-unavailable|the site could not be read on the last crawl: " + problem,
				site + "|" + tallow + "|current>origin-unavailable|the site could not be read on the last crawl: " + problem,
			}
			if strings.Join(got, "\n") != strings.Join(wantChanges, "\n") {
				t.Errorf("health changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantChanges, "\n"))
			}
			if !strings.Contains(sum.String(), "\nHealth: 2 claims became origin unavailable, 1 site became "+label+"\n") {
				t.Errorf("summary:\n%s", sum)
			}
			l.sameHeld(before)

			l.rules()
			sum = l.refresh(src)
			wantOrigin(t, l.origin(tplDir), store.OriginHealthy)
			for _, p := range []string{candle, tallow} {
				wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
			}
			if len(l.events()) != nEvents || sum.Events != 0 || len(sum.Failures) != 0 {
				t.Errorf("recovery: %d events (was %d), failures %q", len(l.events()), nEvents, sum.Failures)
			}
			if !strings.Contains(sum.String(), "\nHealth: 2 claims recovered, 1 site recovered\n") {
				t.Errorf("summary:\n%s", sum)
			}
			l.sameHeld(before)
		})
	}
}

// Two outages in a row (503, then a 404 mid-deploy) are no more a move than one: the source
// failed last time, and its last known site still stands against a walk up. The 404 makes the
// held index gone, but the only index left is the user site's, in a parent directory beyond the
// enrolled URL's own level: no evidence (TestDrillMoveAndMoveBack and
// TestDrillLinkDroppedIndexBesideThePage show a gone index followed by one beside the enrolled
// URL, which is a move).
func TestDrillOutageThenNotFoundIsNotAMove(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.set(host+"/dreamweave.json", l.raw(iniDir+"/dreamweave.json"))
	src := l.source(tplDir)
	l.refresh(src)
	before := l.held()
	x, root := l.url(tplDir+"/dreamweave.json"), l.url(host+"/dreamweave.json")
	l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Status: 503})
	l.refresh(src)
	if s := l.sourceRecord(src); s.Health != store.SourceUnreachable {
		t.Fatalf("source after a 503: %s", s.Health)
	}
	l.rules(loopback.Rule{Path: "^/" + tplDir + "/dreamweave.json$", Status: 404})
	l.refresh(src)
	problem := "walking up the path reached the site index " + root + ", but the held site index " + x +
		" answered HTTP 404 (not found); a walk up alone is no evidence of a move, so none is recorded"
	wantOriginExactly(t, l.origin(tplDir), store.OriginNoIndex, problem)
	for _, p := range []string{candle, tallow} {
		wantClaimExactly(t, l.claim(p, tplDir), store.ClaimOriginUnavailable, "the site could not be read on the last crawl: "+problem)
	}
	if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 {
		t.Errorf("%d origins, %d claims: the walk's index was adopted", len(snap.Origins), len(snap.Claims))
	}
	l.sameHeld(before)
}
