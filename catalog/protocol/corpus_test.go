package protocol

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// TestMain raises the GC target: the mutation suite re-validates tens of thousands of small
// documents and spends a third of its time collecting garbage otherwise. Memory stays small.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}

// corpusDoc is one document of a corpus, real or generated.
type corpusDoc struct {
	path string // relative to the corpus
	b    []byte
	kind string // DocIndex or DocProject, from where it lives
}

// docSet is one corpus: the generated one (generatedCorpus), and the real one in
// ../shared/corpus when present. want counts its documents by top directory and kind.
type docSet struct {
	name    string
	docs    []corpusDoc
	want    map[string]int
	entries int // index entries under www/, each pointing at a manifest there
	claims  int // manifests under state/claims/<project id>/
}

// docSets returns the generated corpus and, when ../shared is present, the real one: every
// JSON document that is a site index or manifest (www/**, state/origins/*/dreamweave.json,
// state/claims/*/*/manifest.json and fixtures/*).
func docSets(t testing.TB) []docSet {
	t.Helper()
	sets := []docSet{{name: "generated", docs: classify(generatedCorpus(t)), entries: 10, claims: 10,
		want: map[string]int{"www index": 5, "www project": 10, "state project": 10}}}
	root, ok := corpustest.Optional(t, "")
	if !ok {
		return sets
	}
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || kindOf(rel) == "" {
			return nil
		}
		files[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The corpus README: 14 site indexes and 45 manifests under www/, the same under state/,
	// and the fixtures (an older template index, its two manifests, a made-up program).
	return append(sets, docSet{name: "corpus", docs: classify(files), entries: 45, claims: 45,
		want: map[string]int{"www index": 14, "www project": 45, "state index": 14, "state project": 45, "fixtures index": 1, "fixtures project": 3}})
}

// kindOf is the kind of the document at rel in a corpus, or "" for schemas and records
// (origin.json, claim.json, events), which are not protocol documents.
func kindOf(rel string) string {
	if !strings.HasSuffix(rel, ".json") {
		return ""
	}
	switch {
	case strings.HasPrefix(rel, "www/") && strings.HasSuffix(rel, "/dreamweave.json"):
		return DocIndex
	case strings.HasPrefix(rel, "www/") && strings.Contains(rel, "/dreamweave/projects/"):
		return DocProject
	case strings.HasPrefix(rel, "state/origins/") && strings.HasSuffix(rel, "/dreamweave.json"):
		return DocIndex
	case strings.HasPrefix(rel, "state/claims/") && strings.HasSuffix(rel, "/manifest.json"):
		return DocProject
	case rel == "fixtures/dreamweave.json":
		return DocIndex
	case strings.HasPrefix(rel, "fixtures/"):
		return DocProject
	}
	return ""
}

// classify is the protocol documents of files (corpus path -> bytes), sorted by path.
func classify(files map[string][]byte) []corpusDoc {
	var docs []corpusDoc
	for rel, b := range files {
		if k := kindOf(rel); k != "" {
			docs = append(docs, corpusDoc{path: rel, b: b, kind: k})
		}
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].path < docs[j].path })
	return docs
}

// uniqueDocs drops byte-identical copies (state/ repeats www/), keeping the www/ one.
func uniqueDocs(docs []corpusDoc) []corpusDoc {
	seen := map[[32]byte]bool{}
	var out []corpusDoc
	ordered := make([]corpusDoc, 0, len(docs))
	for _, d := range docs {
		if strings.HasPrefix(d.path, "www/") {
			ordered = append(ordered, d)
		}
	}
	for _, d := range docs {
		if !strings.HasPrefix(d.path, "www/") {
			ordered = append(ordered, d)
		}
	}
	for _, d := range ordered {
		h := sha256.Sum256(d.b)
		if !seen[h] {
			seen[h] = true
			out = append(out, d)
		}
	}
	return out
}

// TestCorpusValidWithZeroFindings: every document of each corpus, real and generated, is valid
// with no finding, and each corpus has the documents it is known to have.
func TestCorpusValidWithZeroFindings(t *testing.T) {
	for _, set := range docSets(t) {
		t.Run(set.name, func(t *testing.T) {
			counts := map[string]int{}
			for _, d := range set.docs {
				var fs []Finding
				if d.kind == DocIndex {
					var ix *Index
					ix, fs = ValidateIndex(d.b)
					if ix == nil && len(fs) == 0 {
						t.Errorf("%s: no index and no findings", d.path)
					}
				} else {
					var m *Manifest
					m, fs = ValidateManifest(d.b, "")
					if m == nil && len(fs) == 0 {
						t.Errorf("%s: no manifest and no findings", d.path)
					}
				}
				for _, f := range fs {
					t.Errorf("%s: %s", d.path, f)
				}
				counts[strings.SplitN(d.path, "/", 2)[0]+" "+d.kind]++
			}
			t.Logf("validated %d documents: %v", len(set.docs), counts)
			if !reflect.DeepEqual(counts, set.want) {
				t.Errorf("found documents %v, want %v", counts, set.want)
			}
		})
	}
}

// TestCorpusIndexEntriesMatchManifests validates every manifest of each corpus the way the
// crawler does, with the id of the index entry that points at it, and checks that each entry's
// channels are the manifest's channel heads.
func TestCorpusIndexEntriesMatchManifests(t *testing.T) {
	for _, set := range docSets(t) {
		t.Run(set.name, func(t *testing.T) { checkEntriesMatchManifests(t, set) })
	}
}

func checkEntriesMatchManifests(t *testing.T, set docSet) {
	byPath := map[string][]byte{}
	for _, d := range set.docs {
		byPath[d.path] = d.b
	}
	entries := 0
	for _, d := range set.docs {
		if d.kind != DocIndex || !strings.HasPrefix(d.path, "www/") {
			continue
		}
		ix, fs := ValidateIndex(d.b)
		if len(fs) != 0 || ix == nil {
			t.Fatalf("%s: %v", d.path, fs)
		}
		for i, e := range ix.Projects {
			p := "www/" + strings.TrimPrefix(e.Manifest, "https://")
			b, ok := byPath[p]
			if !ok {
				t.Errorf("%s /projects/%d: manifest %s is not in the corpus", d.path, i, e.Manifest)
				continue
			}
			if got := sha256.Sum256(b); fmt.Sprintf("%x", got) != e.ManifestSHA256 {
				t.Errorf("%s: %s does not hash to manifest_sha256", d.path, p)
			}
			m, fs := ValidateManifest(b, e.ID)
			if len(fs) != 0 || m == nil {
				t.Errorf("%s with expected id %s: %v", p, e.ID, fs)
				continue
			}
			heads := Heads(m)
			if len(heads) != len(e.Channels) {
				t.Errorf("%s: index entry channels %v, recomputed heads %d", p, e.Channels, len(heads))
			}
			for ch, v := range e.Channels {
				if h, ok := heads[ch]; !ok || h.Version != v {
					t.Errorf("%s: index entry says %s head is %s, recomputed %v", p, ch, v, h)
				}
			}
			entries++
		}
	}
	if entries != set.entries {
		t.Errorf("checked %d index entries against their manifests, want %d", entries, set.entries)
	}
	// state/claims/<project id>/<site>/manifest.json: the directory names the expected id.
	claims := 0
	for _, d := range set.docs {
		if d.kind == DocProject && strings.HasPrefix(d.path, "state/claims/") {
			id := strings.Split(d.path, "/")[2]
			if _, fs := ValidateManifest(d.b, id); len(fs) != 0 {
				t.Errorf("%s with expected id %s: %v", d.path, id, fs)
			}
			claims++
		}
	}
	if claims != set.claims {
		t.Errorf("checked %d claimed manifests, want %d", claims, set.claims)
	}
}
