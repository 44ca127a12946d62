package refresh

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// A half-finished deployment the other way round: the CDN already serves a newer manifest
// than the index read at the start advertises; after the 5 s wait the re-read index advertises
// it, and it is accepted. The re-read index becomes the held index (bytes, digest, validators):
// the held index is the one the held manifest was checked against, never one out of step.
func TestDrillReReadIndexBecomesHeld(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	base := snapshotFiles(t, l.state)
	origIndex, origManifest := l.raw(tplDir+"/dreamweave.json"), l.raw(manifestPath(tplDir, tallow))
	_ = stageReRead(l, origIndex, origManifest)
	v1 := l.served(tplDir + "/dreamweave.json")
	sum := l.refresh(src)
	v2 := l.served(tplDir + "/dreamweave.json")
	if bytes.Equal(v1, v2) {
		t.Fatal("the drill did not change the index")
	}
	c := l.claim(tallow, tplDir)
	wantClaim(t, c, store.ClaimCurrent)
	if c.Ingested() != store.Digest(l.served(manifestPath(tplDir, tallow))) || c.AdvertisedSHA256 != c.Ingested() {
		t.Errorf("claim holds %s, advertised %s", c.Ingested(), c.AdvertisedSHA256)
	}
	o := l.origin(tplDir)
	held, _ := store.Open(l.state).ReadBytes(store.OriginIndexPath(o.ID))
	if !bytes.Equal(held, v2) || o.IndexSHA256 == nil || *o.IndexSHA256 != store.Digest(v2) || o.PendingSHA256 != nil {
		t.Errorf("held index: v2 %v, v1 %v; index_sha256 %v", bytes.Equal(held, v2), bytes.Equal(held, v1), deref(o.IndexSHA256))
	}
	resp, err := http.Get(l.url(tplDir + "/dreamweave.json"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if o.Validators.ETag == "" || o.Validators.ETag != resp.Header.Get("ETag") || o.Validators.LastModified != resp.Header.Get("Last-Modified") {
		t.Errorf("validators %+v, the served index's ETag %q", o.Validators, resp.Header.Get("ETag"))
	}
	if sum.Accepted != 1 || len(l.sl.Waits()) != 1 {
		t.Errorf("accepted %d after waits %v", sum.Accepted, l.sl.Waits())
	}
	// The next refresh asks with those validators: a 304, nothing fetched.
	l.sl.hook = nil
	l.srv.ResetRequests()
	sum = l.refresh(src)
	for _, q := range l.srv.Requests() {
		if q.Path == "/"+tplDir+"/dreamweave.json" && q.Status != 304 {
			t.Errorf("the held index's validators did not give a 304: %d", q.Status)
		}
	}
	if sum.Fetched != 0 {
		t.Errorf("%d fetched after the re-read became held", sum.Fetched)
	}

	// Killed at every write of that refresh: each state passes check, and the next refresh ends
	// with the served index held and the claim current.
	var deploy func()
	l.crashAtEveryWrite(t, base, 3, []string{src}, func() { deploy = stageReRead(l, origIndex, origManifest) }, func(k int, last string) {
		l.sl.hook = nil
		deploy() // the deployment finishes (if it had not by the crash)
		l.runs++
		l.refresh(src)
		o := l.origin(tplDir)
		held, _ := store.Open(l.state).ReadBytes(store.OriginIndexPath(o.ID))
		if !bytes.Equal(held, l.served(tplDir+"/dreamweave.json")) {
			t.Errorf("crash at write %d (%s): the next refresh does not hold the served index", k, last)
		}
		wantClaim(t, l.claim(tallow, tplDir), store.ClaimCurrent)
	})
}

// stageReRead serves the original index advertising a first new Tallow while the CDN already
// serves a second; the sleeper publishes the index advertising the second during the 5 s wait
// (deploy, which is idempotent).
func stageReRead(l *lab, index, manifest []byte) (deploy func()) {
	l.set(manifestPath(tplDir, tallow), manifest)
	l.set(tplDir+"/dreamweave.json", index)
	m1, m2 := l.changedTallow(" First."), l.changedTallow(" Second.")
	l.publish(tplDir, tallow, m1, true)     // index v1 advertises m1
	l.set(manifestPath(tplDir, tallow), m2) // the CDN is already at m2
	deploy = func() {
		idx := tplDir + "/dreamweave.json"
		l.set(idx, bytes.Replace(l.raw(idx), []byte(store.Digest(m1)), []byte(store.Digest(m2)), 1))
	}
	l.sl.mu.Lock()
	l.sl.waits = nil
	l.sl.hook = func(n int) {
		if n == 1 { // index v2 arrives while the crawler waits
			deploy()
		}
	}
	l.sl.mu.Unlock()
	return deploy
}

// served is what the lab's server sends for a path (URLs rewritten), as the crawler hashes it.
func (l *lab) served(p string) []byte {
	l.t.Helper()
	b, ok := l.srv.Bytes("/" + p)
	if !ok {
		l.t.Fatalf("%s is not served", p)
	}
	return b
}
