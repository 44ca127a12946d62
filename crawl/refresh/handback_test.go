package refresh

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// The hand-back and back again: this index refreshes, the reference index refreshes the same
// state after it (simulated: every record rewritten in the reference's shape with its later
// times, which is what its save does; it leaves ashyams-go/ alone), and this index continues.
// Whether this index's own files are still there (now stale: bound to record bytes that are
// gone) or deleted, the state reads and checks as it is, nothing stale applies (the enrolled
// page is asked for unconditionally, not with the validators of the stale own file), and the
// next refresh continues it cleanly and writes its own files again, bound to the new records.
func TestContinueAfterTheReferenceRefreshed(t *testing.T) {
	t.Parallel()
	for _, own := range []string{"stale", "gone"} {
		t.Run("own files "+own, func(t *testing.T) {
			l := newLab(t)
			tpl := l.source(tplDir)
			l.refresh(tpl)
			l.refresh(tpl) // validators held for the enrolled page, in its own file
			if v := l.sourceRecord(tpl).Validators; v == (store.Validators{}) {
				t.Fatal("the enrolled page's validators are not held: nothing to go stale")
			}
			ownSource, _ := store.OwnPath(store.SourcePath(store.SourceID(tpl)))
			if !store.Open(l.state).Exists(ownSource) {
				t.Fatalf("%s was not written", ownSource)
			}

			later := clock.Add(time.Duration(l.runs)*6*time.Hour - time.Hour).UTC().Format(store.TimeFormat)
			referenceRefresh(t, l.state, later)
			if own == "gone" {
				if err := os.RemoveAll(filepath.Join(l.state, store.OwnDir)); err != nil {
					t.Fatal(err)
				}
			}
			mustCheck(t, l.state)
			snap := load(t, l.state)
			if snap.Network.ObservedAt != later || snap.Network.HealthChanges != nil || snap.Network.Interrupted != nil {
				t.Errorf("network.json after the reference's refresh: %+v", snap.Network)
			}
			for _, s := range snap.Sources {
				if s.Validators != (store.Validators{}) {
					t.Errorf("source %s: validators %+v applied from a stale own file", s.URL, s.Validators)
				}
			}

			l.srv.ResetRequests()
			l.refresh(tpl)
			for _, q := range l.srv.Requests() {
				if q.Path == "/"+tplDir+"/" && (q.IfNoneMatch != "" || q.IfModifiedSince != "") {
					t.Errorf("the enrolled page was asked with validators (%q, %q) the reference's refresh made stale", q.IfNoneMatch, q.IfModifiedSince)
				}
			}
			for _, p := range []string{candle, tallow} {
				wantClaim(t, l.claim(p, tplDir), store.ClaimCurrent)
			}
			if v := l.sourceRecord(tpl).Validators; v == (store.Validators{}) {
				t.Errorf("the next refresh did not hold the enrolled page's validators again")
			}
			if n := load(t, l.state).Network; n.ObservedAt == later {
				t.Errorf("network.json was not rewritten by the next refresh")
			}
		})
	}
}

// referenceRefresh rewrites every record of the state at root as the reference index's save
// would after a refresh at the time at: the reference's keys only (store.MarshalRecord of the
// record without its own file) with network.json's observed_at and every last_attempt set to
// at. Nothing under ashyams-go/ is touched.
func referenceRefresh(t *testing.T, root, at string) {
	t.Helper()
	d := store.Open(root)
	for rel := range snapshotFiles(t, root) {
		if _, isRecord := store.OwnPath(rel); !isRecord || strings.HasPrefix(rel, store.OwnDir+"/") {
			continue
		}
		b, err := d.ReadBytes(rel)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		switch {
		case rel == store.NetworkFile:
			var n store.Network
			decode(t, rel, b, &n)
			n.ObservedAt = at
			v = n
		case strings.HasPrefix(rel, store.SourcesDir+"/"):
			var s store.Source
			decode(t, rel, b, &s)
			s.LastAttempt = at
			v = s
		case path.Base(rel) == store.OriginFile:
			var o store.Origin
			decode(t, rel, b, &o)
			o.LastAttempt = at
			v = o
		default:
			var c store.Claim
			decode(t, rel, b, &c)
			c.LastAttempt = at
			v = c
		}
		nb, err := store.MarshalRecord(v)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(nb, b) {
			t.Fatalf("%s: the simulated refresh left it byte for byte", rel)
		}
		if err := os.WriteFile(d.Path(rel), nb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func decode(t *testing.T, rel string, b []byte, v any) {
	t.Helper()
	if err := store.DecodeRecord(rel, b, nil, v); err != nil {
		t.Fatal(err)
	}
}
