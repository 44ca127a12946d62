package diff_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// small is a minimal manifest built in code: one stable release with one artifact.
func small() *protocol.Manifest {
	return &protocol.Manifest{
		SchemaVersion: "2", Document: "project",
		Project:  protocol.Project{ID: "00000000-0000-4000-8000-000000000001", Name: "Small", Type: "mod", Status: "active", Game: "morrowind"},
		Channels: map[string]protocol.ChannelHead{"stable": {Version: "1.0.0"}},
		Releases: []protocol.Release{{Version: "1.0.0", Channel: "stable", Status: "available",
			Source:     protocol.Source{Repository: "https://example.org/small"},
			Runtimes:   map[string]string{"openmw": ">=0.49"},
			Extensions: map[string]json.RawMessage{},
			Artifacts: []protocol.Artifact{{ID: "flat", Format: "flat", Filename: "small.zip", MediaType: "application/zip", Size: 10,
				Digests: protocol.Digests{SHA256: fmt.Sprintf("%064x", 1)}}}}},
	}
}

func kinds(cs []diff.Change) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Change)
		for _, n := range c.Changes {
			out = append(out, "  "+n.Change)
		}
	}
	return out
}

func TestNilManifests(t *testing.T) {
	for _, c := range []struct {
		name string
		b, a *protocol.Manifest
	}{{"first observation", nil, small()}, {"nothing after", small(), nil}, {"neither", nil, nil}} {
		got := diff.Diff(c.b, c.a)
		if got == nil || len(got) != 0 {
			t.Errorf("%s: Diff = %#v, want an empty non-nil list", c.name, got)
		}
	}
	if got := diff.Diff(&protocol.Manifest{}, &protocol.Manifest{}); len(got) != 0 {
		t.Errorf("two zero manifests: %s", mustJSON(t, got))
	}
}

// TestRelationshipTargets: a relationship naming both project and capability is identified by
// its project (a new capability beside a new constraint is one constraint change, not a
// removal and an addition); ones naming neither (nor URL nor name) match each other, and a
// new reason alone is not recorded.
func TestRelationshipTargets(t *testing.T) {
	b, a := small(), small()
	b.Releases[0].Relationships = []protocol.Relationship{
		{Kind: "requires", Project: "p1", Capability: "cap:x", Version: ">=1.0"},
		{Kind: "compatible"},
	}
	a.Releases[0].Relationships = []protocol.Relationship{
		{Kind: "compatible", Reason: "now with a reason"},
		{Kind: "requires", Project: "p1", Capability: "cap:y", Version: ">=2.0"},
	}
	got := diff.Diff(b, a)
	want := `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[
		{"change":"relationship-constraint","kind":"requires","target":{"project":"p1","capability":"cap:y","name":"cap:y"},"before":">=1.0","after":">=2.0"}]}]`
	if g, w := canon(t, got), canonJSON(t, want); string(g) != string(w) {
		t.Errorf("got %s\nwant %s", g, w)
	}
}

// TestSelfReferenceAndCycle: relationships pointing at the project itself, or at a project that
// points back, are plain data to a per-manifest diff.
func TestSelfReferenceAndCycle(t *testing.T) {
	b, a := small(), small()
	self := b.Project.ID
	b.Releases[0].Relationships = []protocol.Relationship{{Kind: "conflicts", Project: self, Version: "<1.0"}}
	a.Releases[0].Relationships = []protocol.Relationship{{Kind: "conflicts", Project: self, Version: "<2.0"}}
	got := kinds(diff.Diff(b, a))
	if want := []string{"release-amended", "  relationship-constraint"}; !reflect.DeepEqual(got, want) {
		t.Errorf("kinds = %q, want %q", got, want)
	}
}

// TestManyRelationships: 256 relationships, one constraint changed and the list reversed,
// gives exactly one change; 256 identical name-only ones with one gone gives one removal.
func TestManyRelationships(t *testing.T) {
	b, a := small(), small()
	for i := 0; i < 256; i++ {
		r := protocol.Relationship{Kind: "requires", Project: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Version: ">=1.0"}
		b.Releases[0].Relationships = append(b.Releases[0].Relationships, r)
		a.Releases[0].Relationships = append([]protocol.Relationship{r}, a.Releases[0].Relationships...)
	}
	a.Releases[0].Relationships[100].Version = ">=2.0"
	got := diff.Diff(b, a)
	if k := kinds(got); !reflect.DeepEqual(k, []string{"release-amended", "  relationship-constraint"}) {
		t.Fatalf("kinds = %q", k)
	}
	if c := got[0].Changes[0]; string(c.Before) != `">=1.0"` || string(c.After) != `">=2.0"` {
		t.Errorf("constraint change = %s", mustJSON(t, c))
	}

	b, a = small(), small()
	for i := 0; i < 256; i++ {
		r := protocol.Relationship{Kind: "recommends", Name: "Same text"}
		b.Releases[0].Relationships = append(b.Releases[0].Relationships, r)
		if i > 0 {
			a.Releases[0].Relationships = append(a.Releases[0].Relationships, r)
		}
	}
	if k := kinds(diff.Diff(b, a)); !reflect.DeepEqual(k, []string{"release-amended", "  relationship-removed"}) {
		t.Errorf("kinds = %q", k)
	}
}

// TestRelationshipKindAndSameTarget: "requires X" and "conflicts X" side by side stay apart;
// only a relationship whose kind has no counterpart is a kind change.
func TestRelationshipKindAndSameTarget(t *testing.T) {
	b, a := small(), small()
	b.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: "x"}, {Kind: "conflicts", Project: "x"}}
	a.Releases[0].Relationships = []protocol.Relationship{{Kind: "conflicts", Project: "x"}, {Kind: "recommends", Project: "x"}}
	got := diff.Diff(b, a)
	if k := kinds(got); !reflect.DeepEqual(k, []string{"release-amended", "  relationship-kind"}) {
		t.Fatalf("kinds = %q", k)
	}
	if c := got[0].Changes[0]; string(c.Before) != `"requires"` || string(c.After) != `"recommends"` {
		t.Errorf("kind change = %s", mustJSON(t, c))
	}
}

// TestVersionsAtTheLimits: six release numbers with long pre-release and build identifiers
// match by string; seven numbers (not a version) still match by string; 1.0 and 1.0.0.0.0.0
// match by precedence and report the new string.
func TestVersionsAtTheLimits(t *testing.T) {
	long := "999999999999999999999.0.0.0.0.1-alpha.0.x-y-z.99999999999999999999+build.001.sha-abc"
	b, a := small(), small()
	for _, m := range []*protocol.Manifest{b, a} {
		m.Releases[0].Version = long
		m.Channels["stable"] = protocol.ChannelHead{Version: long}
		r := m.Releases[0]
		r.Version, r.Channel = "1.2.3.4.5.6.7", "odd"
		m.Releases = append(m.Releases, r)
	}
	if got := diff.Diff(b, a); len(got) != 0 {
		t.Errorf("identical manifests with limit versions: %s", mustJSON(t, got))
	}
	a.Releases[1].Date = "2030-01-01"
	if k := kinds(diff.Diff(b, a)); !reflect.DeepEqual(k, []string{"release-date"}) {
		t.Errorf("unparseable version re-dated: kinds = %q", k)
	}

	b, a = small(), small()
	b.Releases[0].Version, b.Channels["stable"] = "1.0", protocol.ChannelHead{Version: "1.0"}
	a.Releases[0].Version, a.Channels["stable"] = "1.0.0.0.0.0", protocol.ChannelHead{Version: "1.0.0.0.0.0"}
	if k := kinds(diff.Diff(b, a)); !reflect.DeepEqual(k, []string{}) {
		t.Fatalf("kinds = %q", k)
	}
	a.Releases[0].Date = "2030-01-01"
	if k := kinds(diff.Diff(b, a)); !reflect.DeepEqual(k, []string{"release-date"}) {
		t.Fatalf("precedence-matched release re-dated: kinds = %q", k)
	}
}

// TestPrecedenceMatchNeedsOneScheme: when the scheme changes, 0.5 and 0.50 (equal under
// decimal, different under numeric) are not matched by precedence.
func TestPrecedenceMatchNeedsOneScheme(t *testing.T) {
	b, a := small(), small()
	b.Project.Versioning = "decimal"
	b.Releases[0].Version, b.Channels["stable"] = "0.5", protocol.ChannelHead{Version: "0.5"}
	a.Project.Versioning = "numeric"
	a.Releases[0].Version, a.Channels["stable"] = "0.50", protocol.ChannelHead{Version: "0.50"}
	got := diff.Diff(b, a)
	want := []string{"project-field", "channel-head", "release-added", "release-removed"}
	if k := kinds(got); !reflect.DeepEqual(k, want) {
		t.Fatalf("kinds = %q, want %q", k, want)
	}
	if !diff.Unusual(got[0], got) || !diff.Unusual(got[3], got) || diff.Unusual(got[1], got) || diff.Unusual(got[2], got) {
		t.Errorf("scheme change and vanished release must be unusual: %s", mustJSON(t, got))
	}
}

// TestInconsistentManifests: heads naming no release, duplicate versions and artifact ids,
// extensions that are not JSON or not the expected shape: reported as what they are, no panic.
func TestInconsistentManifests(t *testing.T) {
	b, a := small(), small()
	a.Channels["stable"] = protocol.ChannelHead{Version: "9.9.9"} // names no release
	a.Releases = append(a.Releases, a.Releases[0])                // duplicate version
	a.Releases[0].Artifacts = append(a.Releases[0].Artifacts, a.Releases[0].Artifacts[0])
	a.Releases[0].Extensions = map[string]json.RawMessage{
		"openmw":      json.RawMessage(`{"lua_api": 60, "requires_content": "Morrowind.esm", "components": []}`),
		"org.broken":  json.RawMessage(`{not json`),
		"org.example": json.RawMessage(`[1, 2.50, "x"]`),
	}
	got := diff.Diff(b, a)
	if _, err := json.Marshal(got); err != nil {
		t.Fatalf("changes do not encode: %v", err)
	}
	want := []string{"channel-head", "release-amended", "  lua-api", "  required-content",
		"  extension-added", "  extension-added", "  extension-added", "  artifact-added", "release-added"}
	if k := kinds(got); !reflect.DeepEqual(k, want) {
		t.Errorf("kinds = %q, want %q", k, want)
	}
	if len(got[0].Changes) != 0 {
		t.Errorf("a head naming no release cannot be compared: %s", mustJSON(t, got[0]))
	}
	if lua := got[1].Changes[0]; string(lua.After) != `"60"` {
		t.Errorf("a lua_api that is not a string is kept as its text: %s", mustJSON(t, lua))
	}
	if rc := got[1].Changes[1]; !reflect.DeepEqual(rc.Added, []string{"Morrowind.esm"}) {
		t.Errorf("a requires_content that is not a list is kept as one item: %s", mustJSON(t, rc))
	}
	for _, l := range diff.Lines(got) {
		if l == "" {
			t.Errorf("empty line in %q", diff.Lines(got))
		}
	}
}

func canonJSON(t testing.TB, s string) []byte {
	t.Helper()
	var x any
	if err := json.Unmarshal([]byte(s), &x); err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return canon(t, x)
}
