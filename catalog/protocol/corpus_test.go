package protocol

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sharedDir is ../shared from the repository root; this package is two levels down.
const sharedDir = "../../../shared"

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
	root := filepath.Join(sharedDir, "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("../shared/corpus is absent (%v): the corpus tests need the shared real documents", err)
	}
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

// uniqueDocs drops byte-identical copies (state/ repeats www/).
func uniqueDocs(docs []corpusDoc) []corpusDoc {
	seen := map[[32]byte]bool{}
	var out []corpusDoc
	for _, d := range docs {
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
