package refresh

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// The reference index's refresh tests, ported black-box onto the drill lab (the same Mod
// Template site with Candlelight and Tallow the reference's fixtures publish): the four
// below. The other twelve are ported on the reference's own fixture site in
// port_reference_test.go; site/testdata/reference-tests.md maps every one.

func TestReferenceUnchangedSiteCostsNoDownloads(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	first := l.refresh(src)
	l.srv.ResetRequests()
	sum := l.refresh(src)
	for _, r := range l.srv.Requests() {
		if strings.Contains(r.Path, "/projects/") && r.Status == 200 {
			t.Errorf("an unchanged manifest was downloaded: %s", r.Path)
		}
	}
	if sum.Events != 0 {
		t.Errorf("%d events over an unchanged site", sum.Events)
	}
	c := l.claim(candle, tplDir)
	if c.LastSuccess == nil || *c.LastSuccess != sum.StartedAt || c.FirstObserved != first.StartedAt {
		t.Errorf("last_success %v first_observed %s; want %s and %s", c.LastSuccess, c.FirstObserved, sum.StartedAt, first.StartedAt)
	}
}

func TestReferenceOneNameUnderTwoIDsIsTwoProjects(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	const twin = "0e8a52b1-5d7f-4c1e-9a2b-6f3c8d1e4a70"
	m := bytes.ReplaceAll(l.raw(manifestPath(tplDir, candle)), []byte(candle), []byte(twin))
	l.set(manifestPath(tplDir, twin), m)
	l.editIndex(tplDir, func(doc map[string]any) {
		ps := doc["projects"].([]any)
		var e map[string]any
		b, _ := json.Marshal(ps[0])
		json.Unmarshal(b, &e)
		if e["id"] != candle {
			t.Fatalf("the index's first entry is %v, not Candlelight", e["id"])
		}
		e["id"] = twin
		e["manifest"] = strings.ReplaceAll(e["manifest"].(string), candle, twin)
		e["manifest_sha256"] = store.Digest(m)
		doc["projects"] = []any{e, ps[0], ps[1]} // sorted by id: the twin's sorts first
	})
	l.refresh(l.source(tplDir))
	snap := load(t, l.state)
	if len(snap.Claims) != 3 {
		t.Fatalf("%d claims; want 3 (Candlelight under two ids, Tallow)", len(snap.Claims))
	}
	a, b := l.claim(candle, tplDir), l.claim(twin, tplDir)
	if a.Health != store.ClaimCurrent || b.Health != store.ClaimCurrent || a.Entry.Name != b.Entry.Name {
		t.Errorf("claims %s %q and %s %q; want both current under one name", a.Health, a.Entry.Name, b.Health, b.Entry.Name)
	}
}

// The claims and their manifests lost, the history kept (as after restoring events from an old
// backup): the next refresh records the claims again but no event twice.
func TestReferenceEventsNeverDuplicatedWhenClaimsAreLost(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tallowOnly(l))
	l.refresh(src)
	before := l.events()
	if len(before) != 1 {
		t.Fatalf("%d events after the first refresh; want 1", len(before))
	}
	if err := os.RemoveAll(filepath.Join(l.state, "claims")); err != nil {
		t.Fatal(err)
	}
	sum := l.refresh(src)
	if after := l.events(); len(after) != 1 || after[0].ID != before[0].ID || sum.Events != 0 {
		t.Errorf("%d events (new %d) after the claims were lost; want the one event, not written again", len(after), sum.Events)
	}
	if c := l.claim(tallow, tplDir); c.Health != store.ClaimCurrent {
		t.Errorf("tallow %s; want current again", c.Health)
	}
}

// tallowOnly makes the Mod Template site list Tallow alone and returns its directory.
func tallowOnly(l *lab) string {
	l.editIndex(tplDir, func(doc map[string]any) {
		var kept []any
		for _, p := range doc["projects"].([]any) {
			if p.(map[string]any)["id"] == tallow {
				kept = append(kept, p)
			}
		}
		doc["projects"] = kept
	})
	return tplDir
}

func TestReferenceUnreachableSiteNeverReadIsASourceProblemOnly(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := closedURL(t)
	sum := l.refresh(src)
	snap := load(t, l.state)
	if len(snap.Origins) != 0 || len(snap.Claims) != 0 {
		t.Errorf("%d origins, %d claims; want none", len(snap.Origins), len(snap.Claims))
	}
	if s := l.sourceRecord(src); s.Health != store.SourceUnreachable || sum.Problems["source "+store.SourceUnreachable] != 1 {
		t.Errorf("source %s, problems %v; want one unreachable source", s.Health, sum.Problems)
	}
}
