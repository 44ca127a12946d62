package refresh

import (
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// A state an earlier build of this index wrote, its own keys inside the records, does not
// read; a refresh migrates it once and leaves exactly the state it leaves after the same
// refresh of the state in the current format.
func TestRefreshMigratesTheEarlierFormat(t *testing.T) {
	t.Parallel()
	const tide = "http://tidewater.example/"
	g := newGoldenWeb(t)
	current := filepath.Join(t.TempDir(), "state")
	g.refresh(current, 0, []string{tide})
	g.redirect("tidewater.example/dw/dreamweave.json", http.StatusServiceUnavailable, "")
	g.refresh(current, 1, []string{tide})
	g.redirect("tidewater.example/dw/dreamweave.json", http.StatusOK, "")
	g.mu.Lock()
	delete(g.moved, "tidewater.example/dw/dreamweave.json")
	g.mu.Unlock()

	earlier := filepath.Join(t.TempDir(), "state")
	restoreFiles(t, earlier, snapshotFiles(t, current))
	inlined := toEarlierFormat(t, earlier)
	for _, k := range []string{"network.json health_changes", "sources validators", "claims validators"} {
		if !inlined[k] {
			t.Fatalf("the earlier-format state holds no %s (it holds %v): the test shows nothing", k, inlined)
		}
	}
	if ps := store.Open(earlier).Check(); len(ps) == 0 || ps[0].Kind != store.Unreadable {
		t.Fatalf("a state in the earlier format passes check: %v", ps)
	}

	g.refresh(current, 2, []string{tide})
	g.refresh(earlier, 2, []string{tide})
	mustCheck(t, earlier)
	if want, got := dumpState(t, current), dumpState(t, earlier); got != want {
		t.Errorf("the migrated state differs from the current one:\n%s", firstDifference(want, got))
	}
}

// toEarlierFormat moves what each own file holds into its record, as an earlier build of this
// index wrote it (a claim's rejected_health and media_definitive inside rejected and media;
// findings dropped), and removes ashyams-go/. It returns "<record dir> <key>" for each key moved.
func toEarlierFormat(t *testing.T, root string) map[string]bool {
	t.Helper()
	moved := map[string]bool{}
	for ownRel, ownB := range snapshotFiles(t, filepath.Join(root, store.OwnDir)) {
		if ownRel == "README.md" {
			continue
		}
		var own, rec map[string]json.RawMessage
		recPath := filepath.Join(root, filepath.FromSlash(ownRel))
		recB, err := os.ReadFile(recPath)
		if err != nil || json.Unmarshal(ownB, &own) != nil || json.Unmarshal(recB, &rec) != nil {
			t.Fatalf("%s: %v", ownRel, err)
		}
		delete(own, "record_sha256")
		delete(own, "findings") // no earlier build kept findings
		for _, nested := range []string{"rejected_health", "media_definitive"} {
			obj, key, _ := strings.Cut(nested, "_")
			if raw, ok := own[nested]; ok {
				var inner map[string]json.RawMessage
				if err := json.Unmarshal(rec[obj], &inner); err != nil {
					t.Fatal(err)
				}
				inner[key] = raw
				rec[obj], _ = json.Marshal(inner)
				delete(own, nested)
			}
		}
		maps.Copy(rec, own)
		for k := range own {
			moved[strings.SplitN(ownRel, "/", 2)[0]+" "+k] = true
		}
		b, _ := json.MarshalIndent(rec, "", "  ")
		if err := os.WriteFile(recPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(filepath.Join(root, store.OwnDir)); err != nil {
		t.Fatal(err)
	}
	return moved
}
