package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// difference is one deliberate difference between our schemas and the published snapshot,
// as listed in schemas/README.md. patterns are JSON pointer globs ("*" one token, "**" the rest)
// of the values it concerns; kinds are the generated mutation kinds whose verdict it changes
// there (the snapshot comparison skips those and only those).
type difference struct {
	id       string
	patterns []string
	kinds    []string
}

var allKinds = []string{mutDrop, mutUnknown, mutEnum, mutType}

// differences must match schemas/README.md (TestDifferencesDocumented checks the ids).
var differences = []difference{
	// The snapshot has no project.versioning: any mutation of it is "unknown field" there.
	{"versioning", []string{"/project/versioning"}, allKinds},
	// The snapshot refuses decimal versions such as 1.01-dev.14; a mutation of a version still
	// gets a new finding from both, so no kind differs.
	{"decimal-versions", []string{"/releases/*/version", "/channels/*/version", "/releases/*/yanked/replacement",
		"/releases/*/deprecated/replacement", "/projects/*/channels/*", "/releases/*/runtimes/*",
		"/releases/*/relationships/*/version", "/releases/*/extensions/openmw/lua_api"}, nil},
	// binary and crate are outside the snapshot's enum already, so breaking it adds nothing there.
	{"artifact-formats", []string{"/releases/*/artifacts/*/format"}, []string{mutEnum, mutType}},
	{"artifact-platform", []string{"/releases/*/artifacts/*/platform", "/releases/*/artifacts/*/platform/**"}, allKinds},
	{"artifact-media-type", []string{"/releases/*/artifacts/*/media_type"}, nil},
	{"int64", []string{"/releases/*/artifacts/*/size", "/project/integrations/nexusmods/mod_id"}, nil},
	{"closed-links", []string{"/project/links/*"}, nil},
	// The snapshot takes any string for an index entry's type and status.
	{"index-entry-enums", []string{"/projects/*/type", "/projects/*/status"}, []string{mutEnum}},
	{"index-channel-names", []string{"/projects/*/channels/*"}, nil},
}

// globMatch matches a JSON pointer against a pattern of tokens, "*" and a final "**".
func globMatch(pattern, ptr string) bool {
	pt, vt := strings.Split(pattern, "/"), strings.Split(ptr, "/")
	for i, p := range pt {
		if p == "**" {
			return len(vt) > i
		}
		if i >= len(vt) || (p != "*" && p != vt[i]) {
			return false
		}
	}
	return len(pt) == len(vt)
}

// touches reports which difference, if any, changes the verdict of a mutation of kind at ptr.
func touches(kind, ptr string) string {
	for _, d := range differences {
		for _, k := range d.kinds {
			if k != kind {
				continue
			}
			for _, p := range d.patterns {
				if globMatch(p, ptr) {
					return d.id
				}
			}
		}
	}
	return ""
}

// explains reports which difference accounts for a snapshot finding at ptr.
func explains(ptr string) string {
	for _, d := range differences {
		for _, p := range d.patterns {
			if globMatch(p, ptr) {
				return d.id
			}
		}
	}
	return ""
}

func TestDifferencesDocumented(t *testing.T) {
	b, err := os.ReadFile("../../schemas/README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, d := range differences {
		if !strings.Contains(readme, "| `"+d.id+"` |") {
			t.Errorf("difference %q is not a row of schemas/README.md", d.id)
		}
	}
	if n := strings.Count(readme, "\n| `"); n != len(differences) {
		t.Errorf("schemas/README.md lists %d differences, the code %d", n, len(differences))
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, ptr string
		want     bool
	}{
		{"/releases/*/version", "/releases/3/version", true},
		{"/releases/*/version", "/releases/3/version/x", false},
		{"/releases/*/version", "/releases/version", false},
		{"/a/**", "/a/b/c", true},
		{"/a/**", "/a", false},
		{"/project/versioning", "/project/versioning", true},
	} {
		if got := globMatch(tc.pat, tc.ptr); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v", tc.pat, tc.ptr, got)
		}
	}
}

var (
	snapOnce               sync.Once
	snapIndex, snapProject *jsonschema.Schema
	snapErr                error
)

// snapshotSchemas compiles the published snapshot from ../shared/corpus/schemas (not embedded:
// its licence is not ours), with the same validator settings as ours.
func snapshotSchemas(t *testing.T) (index, project *jsonschema.Schema) {
	t.Helper()
	dir := corpustest.Path(t, "schemas")
	snapOnce.Do(func() {
		snapIndex, snapErr = schemas.Compile(os.DirFS(dir), "dreamweave-index-2.schema.json")
		if snapErr == nil {
			snapProject, snapErr = schemas.Compile(os.DirFS(dir), "modManifest-2.schema.json")
		}
	})
	if snapErr != nil {
		t.Fatal(snapErr)
	}
	return snapIndex, snapProject
}

// comparedConstraints is the SHA-256 of the constraints of our site index schema
// then our manifest schema: those TestSnapshotSameVerdict last compared with the snapshot.
const comparedConstraints = "7b97ea493ce493db9e27f455e19fa971e4275b7fbba7067514bb7a0a5518ff0c"

func findingKeys(fs []Finding) map[string]bool {
	m := make(map[string]bool, len(fs))
	for _, f := range fs {
		m[f.Pointer+" "+f.Rule] = true
	}
	return m
}

// TestSnapshotSameVerdict runs the published snapshot over the generated mutations. Every
// manifest, real or generated, is already rejected by the snapshot (the protocol moved on), so
// the snapshot's verdict on a mutation is whether it finds something new compared with the
// unmutated document. First, every snapshot finding on an unmutated document must be explained
// by a documented difference.
// Then each mutation that touches no documented difference must be rejected by the snapshot as
// it is by us (TestMutationsRejectedNamingTheField asserts our side for the same mutations).
//
// Without ../shared the snapshot is absent, and our schemas' constraints are checked to be those
// the comparison last passed on (comparedConstraints).
func TestSnapshotSameVerdict(t *testing.T) {
	var all []byte
	for _, name := range []string{schemas.Index, schemas.Project} {
		b, err := schemas.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, corpustest.SchemaConstraints(t, b)...)
	}
	if sum := sha256.Sum256(all); hex.EncodeToString(sum[:]) != comparedConstraints {
		t.Errorf("our index and manifest schemas' constraints hash to %x, not to those the snapshot comparison passed on: run it with ../shared, then renew comparedConstraints", sum)
	}
	if testing.Short() {
		t.Skip("the snapshot schema over thousands of generated mutations; skipped with -short")
	}
	if _, ok := corpustest.Optional(t, "schemas"); !ok {
		return
	}
	docs := generatedMutations(t)
	sIndex, sProject := snapshotSchemas(t)
	var mu sync.Mutex
	compared, skipped := 0, map[string]int{}
	t.Run("docs", func(t *testing.T) {
		for _, c := range mutationChunks(docs) {
			d := c.doc
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				s := sProject
				if d.kind == DocIndex {
					s = sIndex
				}
				tree := deepCopy(d.tree)
				base := SchemaFindings(s, tree)
				// schemas/README.md: the snapshot rejects every real manifest (each uses
				// versioning, which it does not know).
				if c.first && d.kind == DocProject && len(base) == 0 {
					t.Errorf("the snapshot accepts this manifest; schemas/README.md says it rejects all of them")
				}
				for _, f := range base {
					if c.first && explains(f.Pointer) == "" {
						t.Errorf("snapshot finding on the unmutated document not explained by a documented difference: %s", f)
					}
				}
				baseKeys := findingKeys(base)
				n, sk := 0, map[string]int{}
				for _, m := range c.muts {
					if id := touches(m.kind, m.ptr); id != "" {
						sk[id]++
						continue
					}
					undo := m.apply(tree)
					fs := SchemaFindings(s, tree)
					undo()
					n++
					rejected := false
					for k := range findingKeys(fs) {
						if !baseKeys[k] {
							rejected = true
							break
						}
					}
					if !rejected {
						t.Errorf("%s at %s: we reject, the snapshot accepts (and no documented difference covers it)", m.kind, m.ptr)
					}
				}
				mu.Lock()
				compared += n
				for k, v := range sk {
					skipped[k] += v
				}
				mu.Unlock()
			})
		}
	})
	total := compared
	for _, v := range skipped {
		total += v
	}
	summary := fmt.Sprintf("snapshot comparison: %d of %d mutations compared, same verdict; skipped as touching a documented difference: %s", compared, total, countList(skipped))
	t.Log(summary)
	if compared < total*9/10 {
		t.Errorf("only %d of %d mutations compared", compared, total)
	}
}
