package store

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordOf is the record type a state file holds, by its path relative to the state root; nil
// for raw publisher bytes (manifest.json, dreamweave.json), which are never re-encoded.
func recordOf(rel string) any {
	switch {
	case rel == NetworkFile:
		return &Network{}
	case strings.HasPrefix(rel, SourcesDir+"/"):
		return &Source{}
	case strings.HasSuffix(rel, "/"+OriginFile):
		return &Origin{}
	case strings.HasSuffix(rel, "/"+ClaimFile):
		return &Claim{}
	case strings.HasPrefix(rel, EventsDir+"/"):
		return &Event{}
	}
	return nil
}

// TestRoundTripState: every record a state holds (network, sources, origins, claims, events),
// the refreshed state's and the reference index's, read strictly and written back with
// MarshalRecord keeps its bytes exactly, events with their changes included. Lossless reading
// and the reference's JSON style are the same property here.
func TestRoundTripState(t *testing.T) {
	for _, sc := range wholeStates(t) {
		counts := roundTrip(t, sc.root)
		want := map[string]int{NetworkFile: 1, SourcesDir: sc.sources, OriginsDir: sc.origins, ClaimsDir: sc.claims, EventsDir: sc.events}
		for k, n := range want {
			if counts[k] != n {
				t.Errorf("%s: %d records under %s, want %d", sc.name, counts[k], k, n)
			}
		}
	}
}

// roundTrip reads and writes back every record below root, and counts them by top directory.
func roundTrip(t *testing.T, root string) map[string]int {
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		v := recordOf(rel)
		if v == nil {
			return nil
		}
		if err := Open(root).ReadJSON(rel, v); err != nil {
			t.Errorf("read: %v", err)
			return nil
		}
		got, err := MarshalRecord(v)
		if err != nil {
			t.Errorf("%s: encode: %v", rel, err)
			return nil
		}
		want, _ := os.ReadFile(p)
		if !bytes.Equal(got, want) {
			t.Errorf("%s changes when read and written back:\n%s", rel, firstDifference(want, got))
		}
		counts[strings.SplitN(rel, "/", 2)[0]]++
		return nil
	})
	must(t, err)
	return counts
}

// firstDifference shows the first line where two encodings differ.
func firstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, a, b)
		}
	}
	return "(identical lines; trailing bytes differ)"
}
