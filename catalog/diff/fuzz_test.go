package diff_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// FuzzDiff feeds pairs of manifests (the real ones of the corpus and mutations of them, plus
// the committed seeds under testdata/fuzz/FuzzDiff) into Diff. Whatever decodes as a manifest
// must diff without a panic, deterministically, and a manifest compared with itself has no
// differences. When the manifests use only the protocol's release statuses and relationship
// kinds (as every manifest that passed validation does), the changes also encode and decode
// again unchanged; other words are refused by the writer, because the reference cannot read
// them.
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
		if !reflect.DeepEqual(got, diff.Diff(&ma, &mb)) {
			t.Fatalf("not deterministic")
		}
		_ = diff.Lines(got)
		if self := diff.Diff(&ma, &ma); len(self) != 0 {
			t.Fatalf("Diff(a, a) = %#v", self)
		}
		enc, err := json.Marshal(got)
		if !protocolWords(&ma) || !protocolWords(&mb) {
			if err == nil {
				t.Fatalf("changes with words outside the protocol encode: %s", enc)
			}
			return
		}
		if err != nil {
			t.Fatalf("changes do not encode: %v", err)
		}
		var back []diff.Change
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("changes do not decode: %v", err)
		}
		if re, _ := json.Marshal(back); !bytes.Equal(re, enc) {
			t.Fatalf("changes do not round-trip:\n%s\n%s", enc, re)
		}
	})
}

// protocolWords reports whether every release status and relationship kind of m is one the
// protocol defines (validation guarantees it for every manifest the index holds).
func protocolWords(m *protocol.Manifest) bool {
	for _, r := range m.Releases {
		switch r.Status {
		case protocol.StatusAvailable, protocol.StatusYanked, protocol.StatusDeprecated:
		default:
			return false
		}
		for _, rel := range r.Relationships {
			switch rel.Kind {
			case protocol.KindRequires, protocol.KindRecommends, protocol.KindConflicts, protocol.KindCompatible, protocol.KindReplaces:
			default:
				return false
			}
		}
	}
	return true
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
