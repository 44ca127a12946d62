package diff_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// refEvent is the part of a reference event these tests read.
type refEvent struct {
	Project string            `json:"project"`
	Changes []json.RawMessage `json:"changes"`
}

// unapply reverts an amendment recorded by a reference event: release-date and the
// artifact-digest, artifact-size and source-revision inside release-amended.
func unapply(t testing.TB, m *protocol.Manifest, changes []diff.Change) {
	t.Helper()
	var s string
	var n int64
	for _, c := range changes {
		switch c.Change {
		case diff.ChangeReleaseDate:
			if err := json.Unmarshal(c.Before, &s); err != nil {
				t.Fatal(err)
			}
			corpus.Release(t, m, c.Version).Date = s
		case diff.ChangeReleaseAmended:
			r := corpus.Release(t, m, c.Version)
			for _, n2 := range c.Changes {
				switch n2.Change {
				case diff.ChangeArtifactDigest:
					json.Unmarshal(n2.Before, &s)
					corpus.Artifact(t, r, n2.Artifact).Digests.SHA256 = s
				case diff.ChangeArtifactSize:
					json.Unmarshal(n2.Before, &n)
					corpus.Artifact(t, r, n2.Artifact).Size = n
				case diff.ChangeSourceRevision:
					json.Unmarshal(n2.Before, &s)
					r.Source.Revision = s
				default:
					t.Fatalf("unapply: nested %s", n2.Change)
				}
			}
		default:
			t.Fatalf("unapply: %s", c.Change)
		}
	}
}

// devPredecessor returns a copy of the development release `from` renamed to version v, with
// the artifact sizes the reference event gives as "before" in its development channel-head.
func devPredecessor(t testing.TB, from *protocol.Release, v string, ev []diff.Change) protocol.Release {
	t.Helper()
	r := corpus.CloneRelease(t, from)
	r.Version = v
	for _, c := range ev {
		if c.Change == diff.ChangeChannelHead && c.Channel == "development" {
			for _, n := range c.Changes {
				var size int64
				if err := json.Unmarshal(n.Before, &size); err != nil {
					t.Fatal(err)
				}
				corpus.Artifact(t, &r, n.Artifact).Size = size
			}
		}
	}
	return r
}

// rebuild turns an event's after manifest into its before one; for the l3i history, pre trims
// the after manifest first.
type rebuild struct {
	pre, edit func(t *testing.T, m *protocol.Manifest, ev []diff.Change)
}

// TestReproducesReferenceEvents rebuilds the "before" manifest of each event whose "after"
// manifest is at hand, by undoing what the event says happened, and checks that Diff finds
// exactly the event's typed differences, in its order and shape: the events a refresh of a
// generated site records, each also against a golden written for it, and with ../shared each
// reference event whose manifest is in the corpus (its digest matches).
func TestReproducesReferenceEvents(t *testing.T) {
	reproduceGenerated(t)
	if _, ok := corpustest.Optional(t, "state/events"); !ok {
		return
	}
	cases := []struct {
		event     string
		pre, edit func(t *testing.T, m *protocol.Manifest, ev []diff.Change)
	}{
		{event: "11d3e334e1865ca9a24f", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) { unapply(t, m, ev) }},
		{event: "096dd134a10ca1b30c69", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) { unapply(t, m, ev) }},
		{event: "7f4afd9313ae6fb2330a", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) { unapply(t, m, ev) }},
		{event: "30519cfae1de38a39b39", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			corpus.RemoveRelease(t, m, "3.0.2")
			corpus.SetHead(m, "stable", "3.0.1")
		}},
		{event: "4c906cd0ac06060bebd9", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			corpus.RemoveRelease(t, m, "1.1.0")
			corpus.SetHead(m, "stable", "1.0.0")
			m.Project.License = "GPL-3.0-only"
		}},
		{event: "5e4db1bcc78eaf6b2a3f", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			corpus.RemoveRelease(t, m, "1.3.1")
			corpus.SetHead(m, "stable", "1.3.0")
		}},
		{event: "767d10a092ad848b703c",
			pre: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
				corpus.RemoveRelease(t, m, "1.3.1")
				corpus.SetHead(m, "stable", "1.3.0")
			},
			edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
				corpus.RemoveRelease(t, m, "1.3.0")
				corpus.SetHead(m, "stable", "1.2.0")
			}},
		{event: "24dde8c981a08d975d79",
			pre: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
				corpus.RemoveRelease(t, m, "1.3.1")
				corpus.RemoveRelease(t, m, "1.3.0")
				corpus.SetHead(m, "stable", "1.2.0")
			},
			edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
				corpus.RemoveRelease(t, m, "1.2.0")
				corpus.SetHead(m, "stable", "1.1.0")
			}},
		{event: "22bed3a15b6baddaf67c", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			dev := devPredecessor(t, corpus.Release(t, m, "0.4.1-dev.0"), "0.3.1-dev.1", ev)
			corpus.RemoveRelease(t, m, "0.4.1-dev.0")
			corpus.RemoveRelease(t, m, "0.4.0")
			m.Releases = append([]protocol.Release{dev}, m.Releases...)
			corpus.SetHead(m, "development", "0.3.1-dev.1")
			corpus.SetHead(m, "stable", "0.3.0")
			m.Project.License = "GPL-3.0-only"
		}},
		{event: "73175697740b94ad91c4", edit: func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			dev := devPredecessor(t, corpus.Release(t, m, "1.1.1-dev.0"), "1.0.1-dev.0", ev)
			corpus.RemoveRelease(t, m, "1.1.1-dev.0")
			corpus.RemoveRelease(t, m, "1.1.0")
			m.Releases = append([]protocol.Release{dev}, m.Releases...)
			corpus.SetHead(m, "development", "1.0.1-dev.0")
			corpus.SetHead(m, "stable", "1.0.0")
			m.Project.License = "GPL-3.0-or-later"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.event, func(t *testing.T) {
			var ev refEvent
			b := corpus.EventFile(t, tc.event)
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatal(err)
			}
			reproduce(t, b, func() *protocol.Manifest { return corpus.Manifest(t, ev.Project) }, rebuild{tc.pre, tc.edit})
		})
	}
}

// reproduceGenerated is TestReproducesReferenceEvents on the events of generatedRefresh, each
// also checked against a golden written for it.
func reproduceGenerated(t *testing.T) {
	g := generatedRefresh(t)
	for _, tc := range []struct {
		name   string
		edit   func(t *testing.T, m *protocol.Manifest, ev []diff.Change)
		golden string
	}{
		{"Tallow", func(t *testing.T, m *protocol.Manifest, ev []diff.Change) { unapply(t, m, ev) },
			`[{"change":"release-date","version":"1.0.1-dev.0","before":"2026-09-30","after":"2026-10-01"},
			{"change":"release-amended","version":"1.0.1-dev.0","channel":"development","changes":[
				{"change":"artifact-digest","artifact":"flat","before":"257befbc3e2a8b6d862fd596d1a12e2866fc0e82909b0752146162077a1a4339","after":"abababababababababababababababababababababababababababababababab"},
				{"change":"artifact-size","artifact":"flat","before":1000,"after":2000},
				{"change":"source-revision","field":"revision","before":"6e959099abf3c2471c4c8d461658b211e686284b","after":"cccccccccccccccccccccccccccccccccccccccc"}]}]`},
		{"Candlelight", func(t *testing.T, m *protocol.Manifest, ev []diff.Change) {
			corpus.RemoveRelease(t, m, "1.2.0")
			corpus.SetHead(m, "stable", "1.1.0")
		}, `[{"change":"channel-head","channel":"stable","before":"1.1.0","after":"1.2.0","changes":[
				{"change":"relationship-constraint","kind":"requires","before":">=1.0","after":">=1.1",
				"target":{"name":"Tallow","project":"9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14","url":"https://dreamweave-mp.github.io/DreamWeave-Mod-Template/simplified/"}}]},
			{"change":"release-added","version":"1.2.0","channel":"stable","date":"2026-10-01","status":"available","notes":null}]`},
		{"Lantern Forge", func(t *testing.T, m *protocol.Manifest, ev []diff.Change) { m.Project.License = "" },
			`[{"change":"project-field","field":"license","before":null,"after":"MIT"}]`},
	} {
		t.Run("generated/"+tc.name, func(t *testing.T) {
			after := g.after[tc.name]
			got := reproduce(t, g.events[tc.name], func() *protocol.Manifest { return corpus.Decode(t, canon(t, after)) }, rebuild{edit: tc.edit})
			if want := canon(t, json.RawMessage(tc.golden)); !bytes.Equal(got, want) {
				t.Errorf("Diff differs from the golden\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

// reproduce rebuilds the before manifest of the event in file from fresh copies of its after
// manifest, checks that Diff finds exactly the event's changes and that they round-trip
// through diff.Change, and returns what Diff found, canonical.
func reproduce(t *testing.T, file []byte, manifest func() *protocol.Manifest, rb rebuild) []byte {
	t.Helper()
	var ev refEvent
	if err := json.Unmarshal(file, &ev); err != nil {
		t.Fatal(err)
	}
	var changes []diff.Change
	for _, raw := range ev.Changes {
		var c diff.Change
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		changes = append(changes, c)
	}
	after, before := manifest(), manifest()
	if rb.pre != nil {
		rb.pre(t, after, changes)
		rb.pre(t, before, changes)
	}
	rb.edit(t, before, changes)
	got := canon(t, diff.Diff(before, after))
	want := canon(t, ev.Changes)
	if !bytes.Equal(got, want) {
		t.Errorf("Diff differs from the event\n got: %s\nwant: %s", got, want)
	}
	// and the event's JSON round-trips through Change unchanged
	if g := canon(t, changes); !bytes.Equal(g, want) {
		t.Errorf("the event's changes do not round-trip through diff.Change\n got: %s\nwant: %s", g, want)
	}
	return got
}

// canon re-encodes v as indented JSON with keys in a fixed order, for comparison.
func canon(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}
