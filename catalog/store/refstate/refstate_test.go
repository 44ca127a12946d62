package refstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// A state reads under the reference's loader rules: every record and event, and every event id
// recomputes. The state of two refreshes of loopback sites (refreshtest's Network: observed and
// changed events, a cached image), without this index's own files as the reference reads it,
// and the reference index's own state (../shared/corpus/state) when present.
func TestTheReferenceStateReads(t *testing.T) {
	n := refreshtest.New(t)
	n.Network()
	if err := os.RemoveAll(filepath.Join(n.State, store.OwnDir)); err != nil {
		t.Fatal(err)
	}
	states := map[string]Stats{n.State: {Network: 1, Sources: 2, Origins: 2, Claims: 3, Events: 4, Media: 1}}
	if root, ok := corpustest.Optional(t, "state"); ok {
		states[root] = Stats{Network: 1, Sources: 14, Origins: 14, Claims: 45, Events: 15}
	}
	for root, want := range states {
		st, ps := Read(root)
		for _, p := range ps {
			t.Errorf("%s: %s", root, p)
		}
		if st != want {
			t.Errorf("%s: read %+v, want %+v", root, st, want)
		}
	}
}

// Each rule refuses what breaks it, naming the file and the field: an unknown key, a missing
// key, a null where none is allowed, a token outside its vocabulary, a change outside the
// change vocabulary, a misplaced record, a stray file the loader would parse. On a state
// written by statetest, and on the reference index's when present.
func TestRefuses(t *testing.T) {
	s := statetest.New(t)
	const index = "https://a.example/mods/dreamweave.json"
	site := s.Site(index, "A")
	s.Claim(site, statetest.Manifest(statetest.ID(1), "P", "", statetest.Release("1.0.0", "stable", nil)))
	t.Run("generated", func(t *testing.T) {
		refuses(t, s.Dir.Root, store.SourcePath(store.SourceID("https://a.example/mods/")), store.ClaimPath(statetest.ID(1), site))
	})
	if root, ok := corpustest.Optional(t, "state"); ok {
		t.Run("corpus", func(t *testing.T) {
			refuses(t, root, "sources/dreamweave-mp-github-io-dream-archive-266ac617.json",
				"claims/0e7eb278-83f7-48e6-b938-25d306e84c41/dreamweave-mp-github-io-starwind-r3mastered-03fe43a4/claim.json")
		})
	}
}

// refuses breaks one rule at a time in a copy of the sound state at root, in the source record
// src, the claim record claim and network.json.
func refuses(t *testing.T, root, src, claim string) {
	if err := Errors(root); err != nil {
		t.Fatalf("the sound state: %v", err)
	}
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"unknown key", src, `"last_attempt"`, `"validators": {}, "last_attempt"`, `unknown field "validators"`},
		{"missing key", src, `"method": "found by walking up the path",`, ``, `missing field "method"`},
		{"null", src, `"last_attempt": "`, `"last_attempt": null, "x": "`, `last_attempt is not a time`},
		{"source token", src, `"health": "resolved"`, `"health": "unresolved"`, `health is not a token of its vocabulary: "unresolved"`},
		{"nested unknown", claim, `"problem": null,
  "media"`, `"problem": null,
  "pending_sha256": null,
  "media"`, `unknown field "pending_sha256"`},
		{"network key", "network.json", `"observed_at"`, `"health_changes": [], "observed_at"`, `unknown field "health_changes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(root)); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.old) {
				t.Fatalf("%s lacks %q", tc.file, tc.old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			err = Errors(dir)
			if err == nil || !strings.Contains(err.Error(), tc.file+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %s: ... %s", err, tc.file, tc.want)
			}
		})
	}
}
