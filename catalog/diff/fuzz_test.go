package diff_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// FuzzDiff feeds pairs of manifests (the real ones of the corpus and mutations of them, plus
// the committed seeds under testdata/fuzz/FuzzDiff) into Diff. Whatever decodes as a manifest
// must diff without a panic, deterministically, into changes that encode and decode again, and
// a manifest compared with itself has no differences.
func FuzzDiff(f *testing.F) {
	if corpus.Present() {
		files := corpus.Manifests(f)
		for i, file := range files {
			f.Add(file.Bytes, file.Bytes)
			f.Add(file.Bytes, files[(i+1)%len(files)].Bytes)
		}
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var ma, mb protocol.Manifest
		if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
			return
		}
		got := diff.Diff(&ma, &mb)
		enc, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("changes do not encode: %v", err)
		}
		again, _ := json.Marshal(diff.Diff(&ma, &mb))
		if !bytes.Equal(enc, again) {
			t.Fatalf("not deterministic:\n%s\n%s", enc, again)
		}
		var back []diff.Change
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("changes do not decode: %v", err)
		}
		if re, _ := json.Marshal(back); !bytes.Equal(re, enc) {
			t.Fatalf("changes do not round-trip:\n%s\n%s", enc, re)
		}
		_ = diff.Lines(got)
		if self := diff.Diff(&ma, &ma); len(self) != 0 {
			t.Fatalf("Diff(a, a) = %s", mustJSON(t, self))
		}
	})
}

// FuzzLines reads arbitrary recorded changes (events are read back from the state, which a
// person or another crawler may have written): whatever reads renders without a panic, one
// line at least per change, and writes back to bytes that read again unchanged.
func FuzzLines(f *testing.F) {
	f.Add([]byte(`[{"change":"channel-head","channel":"stable","before":"1.1.0","after":"1.2.0","changes":[{"change":"artifact-size","artifact":"crate","before":1,"after":2}]}]`))
	f.Add([]byte(`[{"change":"release-added","version":"1","channel":"s","date":null,"status":"yanked","notes":{"breaking":["x\ny"],"migration":"m"}}]`))
	f.Add([]byte(`[{"change":"release-amended","version":"1","channel":"s","changes":[{"change":"relationship-added","kind":"requires","target":{"name":""},"version":null},{"change":"artifact-file","artifact":"a","details":[]}]}]`))
	f.Add([]byte(`[{"change":"release-status","version":"1","channel":"s","before":"yanked","after":"yanked","reason":"r","replacement":null},{"change":"release-notes","version":"1"}]`))
	f.Add([]byte(`[{"change":"release-yanked","version":"1"},{"change":"release-notes","version":"1","unusual":true}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var cs []diff.Change
		if json.Unmarshal(data, &cs) != nil {
			return
		}
		if lines := diff.Lines(cs); len(lines) < len(cs) {
			t.Fatalf("%d changes, %d lines", len(cs), len(lines))
		}
		enc, err := json.Marshal(cs)
		if err != nil {
			t.Fatalf("changes that read do not write: %v", err)
		}
		var back []diff.Change
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("written changes do not read: %v\n%s", err, enc)
		}
		if again, _ := json.Marshal(back); !bytes.Equal(again, enc) {
			t.Fatalf("changes do not round-trip:\n%s\n%s", enc, again)
		}
	})
}
