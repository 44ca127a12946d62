package refresh

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// A refresh never launders a damaged state: a state store.Check rejects is
// refused before any request, every problem named, nothing written. A tampered held manifest is
// never taken for a 304's body and blamed on the publisher.
func TestRunRefusesAStateCheckRejects(t *testing.T) {
	t.Parallel()
	// Each damage gives the problem's path and the facts its message must state (the wording is
	// store.Check's).
	cases := []struct {
		name   string
		damage func(l *lab) (path string, facts []string)
	}{
		{"tampered manifest", func(l *lab) (string, []string) {
			c := l.claim(candle, tplDir)
			rel := store.ManifestPath(candle, c.Origin)
			b, _ := store.Open(l.state).ReadBytes(rel)
			b = bytes.Replace(b, []byte(`"name"`), []byte(`"nAme"`), 1)
			if err := os.WriteFile(store.Open(l.state).Path(rel), b, 0o644); err != nil {
				t.Fatal(err)
			}
			return rel, []string{store.Digest(b), c.Ingested()}
		}},
		{"forged event", func(l *lab) (string, []string) {
			e := l.events()[0]
			e.Kind = store.EventChanged // the facts change, the id does not
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			rel := store.EventPath(e.ID)
			if err := os.WriteFile(store.Open(l.state).Path(rel), b, 0o644); err != nil {
				t.Fatal(err)
			}
			return rel, []string{e.ID, store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)}
		}},
		{"current claim holding another digest", func(l *lab) (string, []string) {
			c := l.claim(tallow, tplDir)
			c.AdvertisedSHA256 = strings.Repeat("0", 64)
			rel := store.ClaimPath(tallow, c.Origin)
			if err := store.Open(l.state).WriteJSON(rel, c); err != nil {
				t.Fatal(err)
			}
			return rel, []string{"current", c.Ingested(), c.AdvertisedSHA256}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			src := l.source(tplDir)
			l.refresh(src)
			path, facts := tc.damage(l)
			damaged := snapshotFiles(t, l.state)
			l.srv.ResetRequests()
			sum, err := Run(context.Background(), l.options(src))
			var se *StateError
			if sum != nil || !errors.As(err, &se) {
				t.Fatalf("refresh over a damaged state: %v, summary %v", err, sum)
			}
			if len(se.Problems) != 1 || se.Problems[0].Path != path {
				t.Fatalf("problems %v, want one for %s", se.Problems, path)
			}
			for _, f := range facts {
				if !strings.Contains(se.Problems[0].Message, f) {
					t.Errorf("problem %q does not state %q", se.Problems[0].Message, f)
				}
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "the state "+l.state+" fails check with 1 problem;") || !strings.HasSuffix(msg, "\n  "+se.Problems[0].String()) || strings.HasPrefix(msg, "refresh:") {
				t.Errorf("error %q", msg)
			}
			if n := len(l.srv.Requests()); n != 0 {
				t.Errorf("a refused state still made %d requests", n)
			}
			after := snapshotFiles(t, l.state)
			for _, p := range sortedPaths(damaged) {
				if !bytes.Equal(after[p], damaged[p]) {
					t.Errorf("a refused refresh changed %s", p)
				}
			}
			if len(after) != len(damaged) {
				t.Errorf("a refused refresh wrote files: %d, then %d", len(damaged), len(after))
			}
		})
	}
}

// While the site index advertises a digest other than the held manifest's, the held bytes
// cannot be what is advertised, so a 304 could only contradict the index: every read is
// unconditional (no If-None-Match, no If-Modified-Since). Here the index is ahead of the
// manifest: three plain reads of the old bytes, inconsistent, the held manifest kept.
func TestMismatchedDigestReadsUnconditionally(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	before := l.heldManifests()
	held := l.claim(tallow, tplDir).Ingested()
	if v := l.claim(tallow, tplDir).Validators; v.ETag == "" {
		t.Fatal("the drill needs a claim holding an ETag")
	}
	old := l.raw(manifestPath(tplDir, tallow))
	l.publish(tplDir, tallow, l.changedTallow(" Not yet deployed."), true)
	l.set(manifestPath(tplDir, tallow), old) // the index is ahead of the manifest
	l.srv.ResetRequests()
	sum := l.refresh(src)
	var statuses []int
	for _, q := range l.srv.Requests() {
		if strings.HasSuffix(q.Path, tallow+".json") {
			statuses = append(statuses, q.Status)
			if q.IfNoneMatch != "" || q.IfModifiedSince != "" {
				t.Errorf("a manifest whose advertised digest is not the held one was read conditionally: %+v", q)
			}
		}
	}
	if len(statuses) != 3 || statuses[0] != 200 || statuses[1] != 200 || statuses[2] != 200 {
		t.Errorf("manifest answers %v, want three 200s", statuses)
	}
	if sum.Fetched != 3 {
		t.Errorf("%d manifests counted as fetched, want 3", sum.Fetched)
	}
	c := l.claim(tallow, tplDir)
	wantClaimExactly(t, c, store.ClaimInconsistent, "the manifest served at "+l.url(manifestPath(tplDir, tallow))+" hashes to "+held+
		", but the site index advertises "+c.AdvertisedSHA256+" (read 3 times, the index re-read after waits of 5s and 20s); the last good manifest is kept")
	l.sameHeld(before)
}

// A server whose ETag does not follow content (mtime/size or CDN ETags) answers any
// conditional GET with 304. manifest_sha256 is the change signal (seeds/crawler.txt): the
// index advertises new bytes, so the manifest is read without validators and accepted; a 304
// is never taken as the held bytes against a different advertised digest.
func TestStaleETagDoesNotHideNewManifest(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	nb := l.changedTallow(" Deployed behind a stale ETag.")
	l.publish(tplDir, tallow, nb, true)
	conditional := 0
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, tallow+".json") && (r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "") {
			conditional++
			w.Header().Set("ETag", `"same-etag"`)
			w.WriteHeader(http.StatusNotModified)
			return true
		}
		return false
	})
	l.refresh(src)
	c := l.claim(tallow, tplDir)
	wantClaim(t, c, store.ClaimCurrent)
	if want := store.Digest(l.served(manifestPath(tplDir, tallow))); c.Ingested() != want {
		t.Errorf("claim holds %s, want the new manifest %s", c.Ingested(), want)
	}
	if conditional != 0 || len(l.sl.Waits()) != 0 {
		t.Errorf("%d conditional manifest reads, waits %v; want a single plain read", conditional, l.sl.Waits())
	}
}
