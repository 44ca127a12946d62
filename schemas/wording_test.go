package schemas

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// published names, for each schema of ours with a published counterpart, that counterpart.
var published = map[string]string{
	Index:   "dreamweave-index-2.schema.json",
	Project: "modManifest-2.schema.json",
	"dreamweave-network-catalog-1.schema.json": "dreamweave-network-catalog-1.schema.json",
}

// runsFile holds the published schemas' five-word runs as digests, "<published file> <digest>"
// a line, so the test runs without them (their text is not ours to hold).
const runsFile = "testdata/published-word-runs.txt"

var update = flag.Bool("update", false, "rewrite "+runsFile+" from ../shared/corpus/schemas")

// runDigest is the first 8 bytes of a run's SHA-256, in hex.
func runDigest(run string) string {
	sum := sha256.Sum256([]byte(run))
	return hex.EncodeToString(sum[:8])
}

// TestSchemaWordingIsOurs: README.md says our schemas were written for this project, not
// copied from the published ones (whose licence is not ours). No title or description of ours
// shares a run of five words with the published schema it stands beside: the protocol
// snapshot's site index and manifest schemas, and the published network catalog schema (whose
// rules ours match by design, in our own words). The published runs are known by their digests
// (runsFile); with ../shared, the digests are checked to be those of the published schemas.
func TestSchemaWordingIsOurs(t *testing.T) {
	if dir, ok := corpustest.Optional(t, "schemas"); ok {
		checkPinnedRuns(t, dir)
	}
	pinned := pinnedRuns(t)
	for ours, pub := range published {
		theirs := pinned[pub]
		if len(theirs) < 50 {
			t.Fatalf("%s holds %d runs of %s; want them all", runsFile, len(theirs), pub)
		}
		b, err := FS.ReadFile(ours)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range annotations(t, b) {
			for r := range wordRuns(s, 5) {
				if theirs[runDigest(r)] {
					t.Errorf("%s: %q shares the words %q with the published %s", ours, s, r, pub)
				}
			}
		}
	}
}

// pinnedRuns reads runsFile: published file -> digests of its runs.
func pinnedRuns(t *testing.T) map[string]map[string]bool {
	b, err := os.ReadFile(runsFile)
	if err != nil {
		t.Fatal(err)
	}
	pinned := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if file, d, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			if pinned[file] == nil {
				pinned[file] = map[string]bool{}
			}
			pinned[file][d] = true
		}
	}
	return pinned
}

// checkPinnedRuns wants runsFile to hold the digests of the five-word runs of the published
// schemas in dir, or with -update rewrites it to.
func checkPinnedRuns(t *testing.T, dir string) {
	var lines []string
	pinned := pinnedRuns(t)
	for _, pub := range published {
		b, err := os.ReadFile(filepath.Join(dir, pub))
		if err != nil {
			t.Fatal(err)
		}
		runs := map[string]bool{}
		for _, s := range annotations(t, b) {
			for r := range wordRuns(s, 5) {
				runs[runDigest(r)] = true
				lines = append(lines, pub+" "+runDigest(r))
			}
		}
		if len(runs) == 0 {
			t.Fatalf("%s has no annotations to compare with", pub)
		}
		if !*update && !reflect.DeepEqual(runs, pinned[pub]) {
			t.Errorf("%s does not hold the five-word runs of the published %s (go test -run TestSchemaWordingIsOurs -update rewrites it)", runsFile, pub)
		}
	}
	if *update {
		sort.Strings(lines)
		lines = slices.Compact(lines)
		head := "# The published schemas' five-word runs as digests (wording_test.go), written by -update.\n"
		if err := os.WriteFile(runsFile, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
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
