package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// RefreshedState writes in a new directory a state that a real refresh of loopback sites wrote
// (refreshtest's Network: two sites, three claims, observed and changed events, a cached image)
// and returns it with the URL the /mods/ site is enrolled by. refreshed_test.go sets it: it is
// package store_test, as refreshtest imports this package.
var RefreshedState func(tb testing.TB) (root, modsURL string)

// refreshed is a copy of the refreshed state, made once per test binary, and the URL the site
// holding Candlelight and Tallow is enrolled by.
func refreshed(t *testing.T) (*Dir, string) {
	t.Helper()
	refreshedOnce.Do(func() {
		root, mods := RefreshedState(t)
		refreshedFiles, refreshedErr = readTree(root)
		refreshedMods = mods
	})
	if refreshedErr != nil {
		t.Fatal(refreshedErr)
	}
	return writeTree(t, refreshedFiles), refreshedMods
}

var (
	refreshedOnce  sync.Once
	refreshedFiles map[string][]byte
	refreshedMods  string
	refreshedErr   error
)

// readTree is every file below root, by slash-separated relative path.
func readTree(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	return files, err
}

// writeTree writes files in a new directory.
func writeTree(t *testing.T, files map[string][]byte) *Dir {
	t.Helper()
	d := Open(t.TempDir())
	for rel, b := range files {
		p := d.Path(rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, b, 0o644))
	}
	return d
}

// stateCase is a whole state a test reads, with its counts of records.
type stateCase struct {
	name                             string
	root                             string
	sources, origins, claims, events int
	observedAt                       string
}

// wholeStates are the refreshed state (two refreshes six hours apart of two sites: three claims,
// three observed events and one changed) and, when ../shared is present, the reference index's
// state as held (14 sites, 45 claims, 15 events).
func wholeStates(t *testing.T) []stateCase {
	t.Helper()
	d, _ := refreshed(t)
	states := []stateCase{{"refreshed", d.Root, 2, 2, 3, 4, "2026-09-28T06:00:00Z"}}
	if root, ok := corpustest.Optional(t, "state"); ok {
		states = append(states, stateCase{"corpus", root, 14, 14, 45, 15, "2026-10-10T12:36:05Z"})
	}
	return states
}

func TestLoadState(t *testing.T) {
	for _, sc := range wholeStates(t) {
		s, err := Open(sc.root).Load()
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if len(s.Sources) != sc.sources || len(s.Origins) != sc.origins || len(s.Claims) != sc.claims || len(s.Events) != sc.events {
			t.Errorf("%s: got %d sources, %d origins, %d claims, %d events; want %d, %d, %d, %d", sc.name,
				len(s.Sources), len(s.Origins), len(s.Claims), len(s.Events), sc.sources, sc.origins, sc.claims, sc.events)
		}
		if s.Network == nil || s.Network.ObservedAt != sc.observedAt {
			t.Errorf("%s: network.json: %+v", sc.name, s.Network)
		}
		for _, c := range s.Claims {
			if SiteID(originIndexURL(s, c.Origin)) != c.Origin {
				t.Errorf("%s: claim %s: origin %s is not named from its index URL", sc.name, c.Project, c.Origin)
			}
		}
	}
}

func originIndexURL(s *Snapshot, id string) string {
	for _, o := range s.Origins {
		if o.ID == id {
			return o.IndexURL
		}
	}
	return ""
}
