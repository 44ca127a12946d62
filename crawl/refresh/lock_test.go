package refresh

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Two refreshes on one state directory: while one is writing, a second fails
// at once with a *LockedError naming the state and the lock, and writes nothing; the first
// finishes undisturbed, and once it has ended the lock is free again.
func TestSecondRefreshOnOneStateIsRefused(t *testing.T) {
	l := newLab(t)
	tpl, ini := l.source(tplDir), l.source(iniDir)
	inFlight, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/dreamweave/projects/") {
			once.Do(func() { close(inFlight) })
			<-release // the first refresh is mid-way: every manifest fetch waits, so it writes nothing meanwhile
		}
		return false
	})
	first := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), l.options(tpl))
		first <- err
	}()
	select {
	case <-inFlight:
	case err := <-first:
		t.Fatalf("the first refresh ended before the drill: %v", err)
	}
	during := snapshotFiles(t, l.state)
	_, err := Run(context.Background(), l.options(ini))
	var le *LockedError
	if !errors.As(err, &le) || le.State != l.state || !strings.Contains(err.Error(), "another refresh is writing the state "+l.state) || !strings.Contains(err.Error(), "flock") {
		t.Errorf("second refresh: %v, want a LockedError naming the state and the lock", err)
	}
	if after := snapshotFiles(t, l.state); len(after) != len(during) {
		t.Errorf("the refused refresh changed the state: %d files, then %d", len(during), len(after))
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first refresh: %v", err)
	}
	mustCheck(t, l.state)
	snap := load(t, l.state)
	if len(snap.Sources) != 1 || snap.Sources[0].URL != tpl {
		t.Errorf("sources %+v: only the first refresh's source", snap.Sources)
	}
	// The lock ended with the refresh: the next one runs.
	l.setIntercept(nil)
	l.runs++
	l.refresh(tpl, ini)
	if entries, _ := os.ReadDir(l.state); len(entries) == 0 {
		t.Fatal("empty state")
	} else {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("the lock left %s in the state", e.Name())
			}
		}
	}
}

// The first refresh creates the state directory in order to lock it; a path that is a file is
// refused, naming it, and left alone.
func TestLockStateCreatesOrRefuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	unlock, err := lockState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("state directory not created: %v", err)
	}
	if _, err := lockState(dir); err == nil {
		t.Error("the same directory was locked twice")
	}
	unlock()
	unlock2, err := lockState(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	unlock2()
	file := filepath.Join(t.TempDir(), "state")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := lockState(file); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file as state: %v", err)
	}
}

// The lock file used where the system has no flock: created with O_EXCL holding pid and start
// time; a second lock fails naming the file and how to clear a stale one; check and the loader
// ignore it (a "." name, like .git); released, it is gone.
func TestLockFile(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockFile(dir, "2026-11-30T01:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, LockFile)
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), "pid ") || !strings.Contains(string(b), "2026-11-30T01:00:00Z") {
		t.Errorf("lock file %q: %v", b, err)
	}
	_, err = lockFile(dir, "later")
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "remove that file") {
		t.Errorf("second lock: %v", err)
	}
	if ps := store.Open(dir).Check(); len(ps) != 0 {
		t.Errorf("check sees the lock file: %v", ps)
	}
	unlock()
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file outlived its release: %v", err)
	}
}

// The blend two unlocked refreshes left: a source recorded removed while its
// site's claims stay current and no enrolled source leads there. store.Check names it (so a
// refresh refuses such a state); the state a real removal leaves passes.
func TestCheckCatchesCurrentClaimsOfARemovedSource(t *testing.T) {
	l := newLab(t)
	tpl, ini := l.source(tplDir), l.source(iniDir)
	l.refresh(tpl, ini)
	d := store.Open(l.state)
	s := l.sourceRecord(tpl)
	s.Health, s.Problem = store.SourceRemoved, new("no longer listed in network/sources.toml; this index does not read it any more")
	if err := d.WriteJSON(store.SourcePath(store.SourceID(tpl)), s); err != nil {
		t.Fatal(err)
	}
	ps := d.Check()
	site := l.site(tplDir)
	want := "is current, but no enrolled source leads to its site " + site + ": the only sources that did were removed (" + tpl + "), so its claims should be withdrawn"
	if len(ps) != 2 || ps[0].Path != store.ClaimPath(candle, site) || ps[0].Message != want || ps[1].Path != store.ClaimPath(tallow, site) {
		t.Fatalf("check: %v; want both Mod Template claims: %s", ps, want)
	}
	if _, err := Run(context.Background(), l.options(ini)); err == nil {
		t.Error("a refresh accepted the contradictory state")
	}
}

// Removing a source, cut short at every write and removal: each state passes check (an origin
// stops listing the source before its record goes, a record stops vouching for held bytes
// before they go), and the next refresh removes the rest; the events stay.
func TestRemovalCutShortAtEveryWrite(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	tpl, ini := l.source(tplDir), l.source(iniDir)
	l.refresh(tpl, ini)
	base := snapshotFiles(t, l.state)
	site := l.site(tplDir)
	l.crashAtEveryWrite(t, base, 8, []string{ini}, nil, func(k int, _ string) {
		l.runs++
		l.refresh(ini)
		after := snapshotFiles(t, l.state)
		for p, b := range base {
			_, held := after[p]
			switch {
			case strings.HasPrefix(p, "events/") && !held:
				t.Errorf("crash at write %d: event %s is gone", k, p)
			case (strings.Contains(p, site) || p == store.SourcePath(store.SourceID(tpl))) && held:
				t.Errorf("crash at write %d: %s is still held", k, p)
			case strings.HasSuffix(p, "/manifest.json") && !strings.Contains(p, site) && !bytes.Equal(after[p], b):
				t.Errorf("crash at write %d: %s changed", k, p)
			}
		}
		wantClaim(t, l.claim(iniProj, iniDir), store.ClaimCurrent)
	})
}
