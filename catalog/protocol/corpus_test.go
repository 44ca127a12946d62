package protocol

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
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

// corpusDoc is one real document from ../shared/corpus.
type corpusDoc struct {
	path string // relative to the corpus
	b    []byte
	kind string // DocIndex or DocProject, from where it lives
}

// loadCorpus returns every real JSON document of the corpus that is a site index or manifest:
// www/**, state/origins/*/dreamweave.json, state/claims/*/*/manifest.json and fixtures/*.
// It skips the test when ../shared/corpus is absent.
func loadCorpus(t testing.TB) []corpusDoc {
	t.Helper()
	root := corpustest.Path(t, "")
	var docs []corpusDoc
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || !strings.HasSuffix(rel, ".json") {
			return nil
		}
		var kind string
		switch {
		case strings.HasPrefix(rel, "www/") && strings.HasSuffix(rel, "/dreamweave.json"):
			kind = DocIndex
		case strings.HasPrefix(rel, "www/") && strings.Contains(rel, "/dreamweave/projects/"):
			kind = DocProject
		case strings.HasPrefix(rel, "state/origins/") && strings.HasSuffix(rel, "/dreamweave.json"):
			kind = DocIndex
		case strings.HasPrefix(rel, "state/claims/") && strings.HasSuffix(rel, "/manifest.json"):
			kind = DocProject
		case rel == "fixtures/dreamweave.json":
			kind = DocIndex
		case strings.HasPrefix(rel, "fixtures/"):
			kind = DocProject
		default:
			return nil // schemas, records (origin.json, claim.json, events): not protocol documents
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		docs = append(docs, corpusDoc{path: rel, b: b, kind: kind})
		return nil
	})
	if err != nil {
		t.Fatal(err)
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

func TestCorpusValidWithZeroFindings(t *testing.T) {
	docs := loadCorpus(t)
	counts := map[string]int{}
	for _, d := range docs {
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
	t.Logf("validated %d real documents: %v", len(docs), counts)
	// The corpus README: 14 site indexes and 45 manifests under www/, the same under state/,
	// and the fixtures (an older template index, its two manifests, a made-up program).
	for k, want := range map[string]int{"www index": 14, "www project": 45, "state index": 14, "state project": 45, "fixtures index": 1, "fixtures project": 3} {
		if counts[k] != want {
			t.Errorf("found %d %s documents, want %d", counts[k], k, want)
		}
	}
}

// TestCorpusIndexEntriesMatchManifests validates every real manifest the way the crawler does,
// with the id of the index entry that points at it, and checks that each entry's channels are
// the manifest's channel heads.
func TestCorpusIndexEntriesMatchManifests(t *testing.T) {
	docs := loadCorpus(t)
	byPath := map[string][]byte{}
	for _, d := range docs {
		byPath[d.path] = d.b
	}
	entries := 0
	for _, d := range docs {
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
	if entries != 45 {
		t.Errorf("checked %d index entries against their manifests, want the corpus's 45", entries)
	}
	// state/claims/<project id>/<site>/manifest.json: the directory names the expected id.
	claims := 0
	for _, d := range docs {
		if d.kind == DocProject && strings.HasPrefix(d.path, "state/claims/") {
			id := strings.Split(d.path, "/")[2]
			if _, fs := ValidateManifest(d.b, id); len(fs) != 0 {
				t.Errorf("%s with expected id %s: %v", d.path, id, fs)
			}
			claims++
		}
	}
	if claims != 45 {
		t.Errorf("checked %d claimed manifests, want 45", claims)
	}
}
