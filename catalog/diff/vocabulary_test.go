package diff_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestVocabularyRoundTrip: testdata/vocabulary.json holds every token of the reference's
// change vocabulary with every key (release-level ones inside channel-head and
// release-amended), written as the state writes records. Reading it and writing it back gives
// the same bytes, and every token of the vocabulary appears in it.
func TestVocabularyRoundTrip(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "vocabulary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []diff.Change
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	out, err := store.MarshalRecord(cs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Errorf("vocabulary does not round-trip:\n%s", lineDiff(string(b), string(out)))
	}
	seen := map[string]bool{}
	for _, c := range flatten(cs) {
		seen[c.Change] = true
	}
	var missing []string
	for _, tok := range diff.Tokens() {
		if !seen[tok] {
			missing = append(missing, tok)
		}
	}
	if len(missing) > 0 {
		t.Errorf("tokens without a golden shape: %q", missing)
	}
	if n := len(diff.Tokens()); n != 43 {
		t.Errorf("%d tokens, want the reference's 43 (15 top-level, 28 release-level)", n)
	}
	// every line renders
	if lines := diff.Lines(cs); len(lines) < len(flatten(cs)) {
		t.Errorf("%d lines for %d changes", len(lines), len(flatten(cs)))
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range w {
		if i >= len(g) || w[i] != g[i] {
			gl := "(end)"
			if i < len(g) {
				gl = g[i]
			}
			return "line " + strconv.Itoa(i+1) + ": want " + w[i] + "\n         got  " + gl
		}
	}
	return "got has extra lines"
}

// TestEventsRoundTrip: every event a refresh of a generated site records, and with ../shared
// every event the reference index wrote (../shared/corpus/state/events), reads as a state
// event, and written back as the state writes records gives its bytes.
func TestEventsRoundTrip(t *testing.T) {
	g := generatedRefresh(t)
	roundTrip(t, g.files, []string{"artifact-digest", "artifact-size", "channel-head", "project-field",
		"relationship-constraint", "release-added", "release-amended", "release-date", "source-revision"})
	dir, ok := corpustest.Optional(t, "state/events")
	if !ok {
		return
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 15 {
		t.Fatalf("%d corpus events, want 15", len(paths))
	}
	files := map[string][]byte{}
	for _, p := range paths {
		if files[filepath.Base(p)], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	roundTrip(t, files, []string{"artifact-digest", "artifact-size", "channel-head", "project-field", "relationship-constraint",
		"release-added", "release-amended", "release-date", "release-removed", "source-revision"})
}

// roundTrip checks that each event file reads as a state event and writes back to its bytes,
// and that the change tokens the files use are want, sorted.
func roundTrip(t *testing.T, files map[string][]byte, want []string) {
	t.Helper()
	tokens := map[string]bool{}
	for name, b := range files {
		var e store.Event
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, c := range flatten(e.Changes) {
			tokens[c.Change] = true
		}
		out, err := store.MarshalRecord(e)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s does not round-trip:\n%s", name, lineDiff(string(b), string(out)))
		}
	}
	if seen := slices.Sorted(maps.Keys(tokens)); !reflect.DeepEqual(seen, want) {
		t.Errorf("tokens = %q, want %q", seen, want)
	}
}

// TestReadRejects: what the reference rejects is an error naming the token and key, and the
// change read into is left as it was.
func TestReadRejects(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"change":"release-yanked","version":"1","channel":"stable"}`, `change "release-yanked": unknown change token`},
		{`{"change":"release-notes","version":"1","unusual":true}`, `change "release-notes": unknown key "unusual"`},
		{`{"change":"release-status","version":"1","channel":"s","before":"available","after":"yanked","reason":null,"replacement":null,"notice":{}}`,
			`change "release-status": unknown key "notice"`},
		{`{"change":"runtime","runtime":"openmw","before":null,"after":null}`, `change "runtime" is a release-level change`},
		{`{"change":"release-amended","version":"1","channel":"s","changes":[{"change":"release-notes","version":"1"}]}`,
			`change "release-amended": key "changes": item 0: change "release-notes" is a top-level change`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"platform-added","after":{}}]}`,
			`item 0: change "platform-added": unknown change token`},
		{`{"change":"release-removed","version":"1"}`, `change "release-removed": key "channel": missing`},
		{`{"change":"release-removed","version":"1","channel":"s","channel":"t"}`, `duplicate key "channel"`},
		{`{"change":"release-removed","version":1,"channel":"s"}`, `change "release-removed": key "version": 1 is not a string`},
		{`{"change":"tags","added":null,"removed":[]}`, `change "tags": key "added": null is not an array of strings`},
		{`{"change":"tags","added":[1],"removed":[]}`, `key "added": [1] is not an array of strings`},
		{`{"change":"release-status","version":"1","channel":"s","before":"available","after":"gone","reason":null,"replacement":null}`,
			`key "after": "gone" is not a release status`},
		{`{"change":"release-added","version":"1","channel":"s","date":null,"status":"maybe","notes":null}`, `key "status": "maybe" is not a release status`},
		{`{"change":"release-added","version":"1","channel":"s","date":null,"status":"available","notes":{"summary":"s","extra":1}}`,
			`key "notes": notes: unknown key "extra"`},
		{`{"change":"release-added","version":"1","channel":"s","date":null,"status":"available","notes":{"breaking":"not a list"}}`,
			`notes: key "breaking": "not a list" is not an array of strings`},
		{`{"change":"release-added","version":"1","channel":"s","date":7,"status":"available","notes":null}`, `key "date": 7 is not a string or null`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"artifact-size","artifact":"a","before":-1,"after":2}]}`,
			`key "before": -1 is not a non-negative integer`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"artifact-size","artifact":"a","before":1.5,"after":2}]}`,
			`key "before": 1.5 is not a non-negative integer`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"relationship-kind","target":{"name":"x"},"before":"needs","after":"requires"}]}`,
			`key "before": "needs" is not a relationship kind`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"relationship-added","kind":"requires","target":{"project":"p"},"version":null}]}`,
			`target: missing key "name"`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":[{"change":"relationship-added","kind":"requires","target":{"name":"x","id":"p"},"version":null}]}`,
			`unknown target key "id"`},
		{`{"change":"channel-head","channel":"s","before":null,"after":"1","changes":null}`, `key "changes": null is not an array of changes`},
		{`{"version":"1"}`, `change: no "change" key`},
		{`[1]`, `is not an object`},
	}
	for _, c := range cases {
		keep := diff.Change{Change: "release-notes", Version: "kept"}
		got := keep
		err := json.Unmarshal([]byte(c.in), &got)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n error %v\n want  %q", c.in, err, c.want)
		}
		if !reflect.DeepEqual(got, keep) {
			t.Errorf("%s: the change was modified: %+v", c.in, got)
		}
	}
}

// TestReadNullables: a nullable key left out reads as null, as the reference reads it, and is
// written as null.
func TestReadNullables(t *testing.T) {
	var c diff.Change
	if err := json.Unmarshal([]byte(`{"change":"release-added","version":"1","channel":"s","status":"available"}`), &c); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"change":"release-added","version":"1","channel":"s","date":null,"status":"available","notes":null}`; string(out) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
}

// TestWriteRejects: a change that the reference could not read, or that would lose a field
// set in code, is an encoding error naming the token and key.
func TestWriteRejects(t *testing.T) {
	s := "x"
	cases := []struct {
		c    diff.Change
		want string
	}{
		{diff.Change{Change: "release-yanked", Version: "1"}, `change "release-yanked": unknown change token`},
		{diff.Change{Change: "release-notes", Version: "1", Channel: "stable"}, `change "release-notes" has no key "channel", but its Channel is set`},
		{diff.Change{Change: "release-channel", Version: "1", Channel: "beta", Before: raw(`"a"`), After: raw(`"b"`)}, `has no key "channel"`},
		{diff.Change{Change: "runtime", Runtime: "openmw"}, `change "runtime" is a release-level change`},
		{diff.Change{Change: "release-amended", Version: "1", Channel: "s", Changes: []diff.Change{{Change: "release-notes", Version: "1"}}},
			`change "release-notes" is a top-level change`},
		{diff.Change{Change: "release-status", Version: "1", Channel: "s", Before: raw(`"available"`), After: raw(`"gone"`)}, `key "after": "gone" is not a release status`},
		{diff.Change{Change: "release-status", Version: "1", Channel: "s", After: raw(`"yanked"`)}, `key "before": no value`},
		{diff.Change{Change: "release-channel", Version: "1", Before: raw(`null`), After: raw(`"b"`)}, `key "before": null is not a string`},
		{diff.Change{Change: "release-removed", Version: "1", Channel: "s", Reason: &s}, `has no key "reason", but its Reason is set`},
		{diff.Change{Change: "channel-head", Channel: "s", Before: raw(`1`), After: raw(`"2"`)}, `key "before": 1 is not a string`},
		{diff.Change{Change: "release-amended", Version: "1", Channel: "s", Changes: []diff.Change{{Change: "relationship-added", Kind: "requires"}}},
			`change "relationship-added": key "target": no target`},
		{diff.Change{Change: "release-amended", Version: "1", Channel: "s", Changes: []diff.Change{{Change: "relationship-kind", Kind: "requires",
			Target: &diff.Target{Name: "x"}, Before: raw(`"recommends"`), After: raw(`"requires"`)}}}, `change "relationship-kind" has no key "kind"`},
		{diff.Change{Change: "release-added", Version: "1", Channel: "s", Status: "available", Notes: raw(`{"unknown":1}`)}, `notes: unknown key "unknown"`},
	}
	for _, c := range cases {
		_, err := json.Marshal(c.c)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v:\n error %v\n want  %q", c.c, err, c.want)
		}
	}
}
