package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// FuzzLoad replaces one record of a sound state with fuzzed bytes. Load and Check must never
// panic; a Load error names the record's path; Load fails exactly when Check finds a record it
// cannot read (a state that loads may still break other invariants, never the reverse).
func FuzzLoad(f *testing.F) {
	base := map[string][]byte{}
	d := tinyState(f)
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	must(filepath.WalkDir(d.Root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(d.Root, p)
		b, err := os.ReadFile(p)
		base[filepath.ToSlash(rel)] = b
		return err
	}))
	slots := make([]string, 0, len(base))
	for rel := range base {
		slots = append(slots, rel)
	}
	sort.Strings(slots)
	for i, rel := range slots {
		f.Add(uint8(i), base[rel])
	}
	// Records of the reference index's state, when ../shared is present (committed seeds under
	// testdata/fuzz/FuzzLoad carry some of them for runs without it).
	if root, ok := corpustest.Find("state"); ok {
		for i, rel := range slots {
			kind := filepath.Base(rel)
			if strings.HasPrefix(rel, SourcesDir+"/") || strings.HasPrefix(rel, EventsDir+"/") {
				kind = filepath.Dir(rel)
			}
			matches, _ := filepath.Glob(filepath.Join(root, corpusGlob(kind)))
			if len(matches) > 0 {
				if b, err := os.ReadFile(matches[0]); err == nil {
					f.Add(uint8(i), b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, slot uint8, b []byte) {
		rel := slots[int(slot)%len(slots)]
		root := t.TempDir()
		for r, content := range base {
			if r == rel {
				content = b
			}
			p := filepath.Join(root, filepath.FromSlash(r))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dir := Open(root)
		_, err := dir.Load()
		ps := dir.Check()
		if err != nil {
			if !strings.Contains(err.Error(), rel) && !strings.Contains(err.Error(), dir.Path(rel)) {
				t.Fatalf("Load error does not name %s: %v", rel, err)
			}
			unreadable := false
			for _, p := range ps {
				if p.Path == rel && strings.HasPrefix(p.Message, "does not parse as a record") {
					unreadable = true
				}
			}
			if !unreadable {
				t.Fatalf("Load failed (%v) but Check does not report %s as unreadable: %v", err, rel, ps)
			}
		}
		for _, p := range ps {
			if p.Path == rel && strings.HasPrefix(p.Message, "does not parse as a record") && err == nil {
				t.Fatalf("Check cannot read %s but Load succeeded", rel)
			}
		}
	})
}

// corpusGlob is where the corpus keeps a record of the slot's kind.
func corpusGlob(kind string) string {
	switch kind {
	case SourcesDir:
		return "sources/*.json"
	case EventsDir:
		return "events/*.json"
	case OriginFile, IndexFile:
		return "origins/*/" + kind
	case ClaimFile, ManifestFile:
		return "claims/*/*/" + kind
	}
	return kind // network.json
}
