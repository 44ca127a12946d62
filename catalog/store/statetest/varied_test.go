package statetest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestVariedIsValidAndDeterministic: the varied network's state checks clean, every held
// manifest passes the protocol's validation, and two runs write the same bytes.
func TestVariedIsValidAndDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	Varied(t, a, 400)
	Varied(t, b, 400)
	if probs := store.Open(a).Check(); len(probs) > 0 {
		t.Fatalf("%d problems, the first: %v", len(probs), probs[0])
	}
	manifests := 0
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		x, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		if y, err := os.ReadFile(filepath.Join(b, rel)); err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs (%v)", rel, err)
		}
		if strings.HasSuffix(p, "manifest.json") {
			manifests++
			if _, fs := protocol.ValidateManifest(x, ""); len(fs) > 0 {
				t.Errorf("%s: %v", rel, fs[0])
			}
		}
		return nil
	})
	if err != nil || manifests < 390 {
		t.Fatalf("%d manifests, %v", manifests, err)
	}
}
