package schemas

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// TestSchemaWordingIsOurs: README.md says our schemas were written for this project, not
// copied from the published ones (whose licence is not ours). No title or description of ours
// shares a run of five words with the published schema it stands beside: the protocol
// snapshot's site index and manifest schemas, and the published network catalog schema (whose
// rules ours match by design, in our own words).
func TestSchemaWordingIsOurs(t *testing.T) {
	dir := corpustest.Path(t, "schemas")
	for ours, published := range map[string]string{
		Index:   "dreamweave-index-2.schema.json",
		Project: "modManifest-2.schema.json",
		"dreamweave-network-catalog-1.schema.json": "dreamweave-network-catalog-1.schema.json",
	} {
		pub, err := os.ReadFile(filepath.Join(dir, published))
		if err != nil {
			t.Fatal(err)
		}
		b, err := FS.ReadFile(ours)
		if err != nil {
			t.Fatal(err)
		}
		theirs := map[string]bool{}
		for _, s := range annotations(t, pub) {
			for r := range wordRuns(s, 5) {
				theirs[r] = true
			}
		}
		if len(theirs) == 0 {
			t.Fatalf("%s has no annotations to compare with", published)
		}
		for _, s := range annotations(t, b) {
			for r := range wordRuns(s, 5) {
				if theirs[r] {
					t.Errorf("%s: %q shares the words %q with the published %s", ours, s, r, published)
				}
			}
		}
	}
}

// annotations returns every title and description in a JSON Schema document.
func annotations(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "title" || k == "description") {
					out = append(out, s)
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}'._-]+`)

// wordRuns returns every run of n consecutive words in s, lowercased.
func wordRuns(s string, n int) map[string]bool {
	w := wordRE.FindAllString(strings.ToLower(s), -1)
	out := map[string]bool{}
	for i := 0; i+n <= len(w); i++ {
		out[strings.Join(w[i:i+n], " ")] = true
	}
	return out
}
