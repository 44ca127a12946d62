package diff_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// TestDiffSelfIsEmpty: every real manifest compared with itself (the same value and a second
// decoding) has no differences, and the result encodes as [].
func TestDiffSelfIsEmpty(t *testing.T) {
	for _, f := range corpus.Manifests(t) {
		a, b := corpus.Decode(t, f.Bytes), corpus.Decode(t, f.Bytes)
		if got := diff.Diff(a, b); len(got) != 0 {
			t.Errorf("%s: Diff(a, a') = %s", f.Path, mustJSON(t, got))
		}
		if got := diff.Diff(a, a); got == nil || len(got) != 0 {
			t.Errorf("%s: Diff(a, a) = %#v, want an empty non-nil list", f.Path, got)
		}
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mention is what a change must say for a mutation to count as reported: its kind, and a key
// found in one of its naming fields (Field, Version, Channel, Artifact, Capability,
// Component, Group, Link, Runtime, Namespace); "" matches any.
type mention struct{ kind, key string }

func flatten(cs []diff.Change) []diff.Change {
	var out []diff.Change
	for _, c := range cs {
		out = append(out, c)
		out = append(out, flatten(c.Changes)...)
	}
	return out
}

func mentions(cs []diff.Change, m mention) bool {
	for _, c := range flatten(cs) {
		if c.Change != m.kind {
			continue
		}
		if m.key == "" {
			return true
		}
		for _, k := range []string{c.Field, c.Version, c.Channel, c.Artifact, c.Capability, c.Component, c.Group, c.Link, c.Runtime, c.Namespace} {
			if k == m.key {
				return true
			}
		}
	}
	return false
}

// mutator changes one field of m, chosen with rng, and says which change must report it; ok is
// false when m has nothing to mutate that way (no releases, no relationships, ...).
type mutator struct {
	name string
	f    func(rng *rand.Rand, m *protocol.Manifest) (mention, bool)
}

func pickRelease(rng *rand.Rand, m *protocol.Manifest) *protocol.Release {
	if len(m.Releases) == 0 {
		return nil
	}
	return &m.Releases[rng.Intn(len(m.Releases))]
}

func pickArtifact(rng *rand.Rand, m *protocol.Manifest) *protocol.Artifact {
	r := pickRelease(rng, m)
	if r == nil || len(r.Artifacts) == 0 {
		return nil
	}
	return &r.Artifacts[rng.Intn(len(r.Artifacts))]
}

func word(rng *rand.Rand) string { return fmt.Sprintf("mutated-%d", rng.Int63()) }

var mutators = []mutator{
	{"project scalar", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		p := &m.Project
		fields := []struct {
			name string
			v    *string
		}{{"name", &p.Name}, {"summary", &p.Summary}, {"type", &p.Type}, {"status", &p.Status}, {"game", &p.Game}, {"license", &p.License}}
		f := fields[rng.Intn(len(fields))]
		*f.v = word(rng)
		return mention{diff.ChangeProjectField, f.name}, true
	}},
	{"project link", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		l := &m.Project.Links
		fields := []struct {
			name string
			v    *string
		}{{"page", &l.Page}, {"source", &l.Source}, {"issues", &l.Issues}, {"documentation", &l.Documentation}, {"support", &l.Support},
			{"donate", &l.Donate}, {"homepage", &l.Homepage}, {"nexusmods", &l.Nexusmods}, {"crate", &l.Crate}}
		f := fields[rng.Intn(len(fields))]
		*f.v = "https://example.org/" + word(rng)
		return mention{diff.ChangeLink, f.name}, true
	}},
	{"project lists", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		p := &m.Project
		switch rng.Intn(4) {
		case 0:
			p.Tags = append(p.Tags, word(rng))
			return mention{diff.ChangeTags, ""}, true
		case 1:
			p.Maintainers = append(p.Maintainers, protocol.Person{Name: word(rng)})
			return mention{diff.ChangeMaintainers, ""}, true
		case 2:
			p.Media = append(p.Media, protocol.Media{Kind: "image", URL: "https://example.org/" + word(rng) + ".png", Alt: word(rng)})
			return mention{diff.ChangeMedia, ""}, true
		default:
			p.Credits = append(p.Credits, protocol.Credit{Name: word(rng)})
			return mention{diff.ChangeCredits, ""}, true
		}
	}},
	{"versioning", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		if m.Project.Versioning == "decimal" {
			m.Project.Versioning = "numeric"
		} else {
			m.Project.Versioning = "decimal"
		}
		return mention{diff.ChangeProjectField, "versioning"}, true
	}},
	{"integrations", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		m.Project.Integrations.Nexusmods = &protocol.Nexusmods{Game: "morrowind", ModID: rng.Int63n(1 << 40)}
		return mention{diff.ChangeNexusMods, ""}, true
	}},
	{"credit role", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		m.Project.Credits = append(m.Project.Credits, protocol.Credit{Name: "Ana", Role: word(rng)})
		return mention{diff.ChangeCredits, ""}, true
	}},
	{"new channel", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		ch := "beta-" + fmt.Sprint(rng.Intn(100))
		m.Channels[ch] = protocol.ChannelHead{Version: r.Version}
		return mention{diff.ChangeChannelHead, ch}, true
	}},
	{"release date", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.Date = fmt.Sprintf("2030-01-%02d", 1+rng.Intn(28))
		return mention{diff.ChangeReleaseDate, r.Version}, true
	}},
	{"release notes", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.Notes = &protocol.Notes{Summary: word(rng)}
		return mention{diff.ChangeReleaseNotes, r.Version}, true
	}},
	{"release deprecated", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil || r.Status == "deprecated" {
			return mention{}, false
		}
		r.Status, r.Yanked, r.Deprecated = "deprecated", nil, &protocol.Notice{Reason: word(rng)}
		return mention{diff.ChangeReleaseStatus, r.Version}, true
	}},
	{"release channel", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.Channel = word(rng)
		return mention{diff.ChangeReleaseChannel, r.Version}, true
	}},
	{"release removed", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		if len(m.Releases) == 0 {
			return mention{}, false
		}
		i := rng.Intn(len(m.Releases))
		v := m.Releases[i].Version
		m.Releases = append(m.Releases[:i:i], m.Releases[i+1:]...)
		return mention{diff.ChangeReleaseRemoved, v}, true
	}},
	{"release added", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		b, _ := json.Marshal(r)
		var c protocol.Release
		json.Unmarshal(b, &c)
		c.Version = fmt.Sprintf("%d.%d.%d", 100+rng.Intn(100), rng.Intn(100), rng.Intn(100))
		m.Releases = append(m.Releases, c)
		return mention{diff.ChangeReleaseAdded, c.Version}, true
	}},
	{"runtime", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		if r.Runtimes == nil {
			r.Runtimes = map[string]string{}
		}
		r.Runtimes["openmw"] = fmt.Sprintf(">=0.%d", 60+rng.Intn(30))
		return mention{diff.ChangeRuntime, "openmw"}, true
	}},
	{"platform", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.Platforms = append(r.Platforms, protocol.Platform{OS: word(rng), Arch: "x86_64"})
		return mention{diff.ChangePlatforms, ""}, true
	}},
	{"provides", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		c := "dreamweave:" + word(rng)
		r.Provides = append(r.Provides, c)
		return mention{diff.ChangeCapabilityAdded, c}, true
	}},
	{"critical extensions", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.CriticalExtensions = append(r.CriticalExtensions, "org."+word(rng))
		return mention{diff.ChangeCriticalExtensions, ""}, true
	}},
	{"relationship added", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		r.Relationships = append(r.Relationships, protocol.Relationship{Kind: "recommends", Name: word(rng)})
		return mention{diff.ChangeRelationshipAdded, ""}, true
	}},
	{"relationship constraint", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil || len(r.Relationships) == 0 {
			return mention{}, false
		}
		rel := &r.Relationships[rng.Intn(len(r.Relationships))]
		if rel.Project == "" {
			return mention{}, false
		}
		rel.Version = fmt.Sprintf(">=%d.0", 100+rng.Intn(100))
		return mention{diff.ChangeRelationshipConstraint, ""}, true
	}},
	{"component default", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil || len(r.Components) == 0 {
			return mention{}, false
		}
		c := &r.Components[rng.Intn(len(r.Components))]
		c.Default = !c.Default
		return mention{diff.ChangeComponentSelection, c.ID}, true
	}},
	{"group select", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil || len(r.Groups) == 0 {
			return mention{}, false
		}
		g := &r.Groups[rng.Intn(len(r.Groups))]
		g.Select = word(rng)
		return mention{diff.ChangeGroupSelection, g.ID}, true
	}},
	{"extension", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		if r.Extensions == nil {
			r.Extensions = map[string]json.RawMessage{}
		}
		r.Extensions["org.example"] = json.RawMessage(fmt.Sprintf(`{"n":%d}`, rng.Intn(1000)))
		return mention{diff.ChangeExtensionAdded, "org.example"}, true
	}},
	{"artifact field", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		a := pickArtifact(rng, m)
		if a == nil {
			return mention{}, false
		}
		switch rng.Intn(6) {
		case 0:
			a.Size += 1 + rng.Int63n(1000)
			return mention{diff.ChangeArtifactSize, a.ID}, true
		case 1:
			a.Digests.SHA256 = fmt.Sprintf("%064x", rng.Int63())
			return mention{diff.ChangeArtifactDigest, a.ID}, true
		case 2:
			a.Filename = word(rng) + ".zip"
			return mention{diff.ChangeArtifactFile, a.ID}, true
		case 3:
			a.Sources = append(a.Sources, protocol.ArtifactSource{URL: "https://example.org/" + word(rng), Kind: "mirror"})
			return mention{diff.ChangeArtifactSourceAdded, a.ID}, true
		case 4:
			a.Signatures = append(a.Signatures, protocol.Signature{Format: "sigstore-bundle", URL: "https://example.org/" + word(rng)})
			return mention{diff.ChangeSignatureAdded, a.ID}, true
		default:
			a.MediaType = "application/" + word(rng)
			return mention{diff.ChangeArtifactFile, a.ID}, true
		}
	}},
	{"source", func(rng *rand.Rand, m *protocol.Manifest) (mention, bool) {
		r := pickRelease(rng, m)
		if r == nil {
			return mention{}, false
		}
		switch rng.Intn(4) {
		case 0:
			r.Source.Repository = "https://example.org/" + word(rng)
			return mention{diff.ChangeSourceRevision, "repository"}, true
		case 1:
			r.Source.Tag = word(rng)
			return mention{diff.ChangeSourceRevision, "tag"}, true
		case 2:
			r.Source.Release = word(rng)
			return mention{diff.ChangeSourceRevision, "release"}, true
		default:
			r.Source.Revision = fmt.Sprintf("%040x", rng.Int63())
			return mention{diff.ChangeSourceRevision, "revision"}, true
		}
	}},
}

// TestDiffNamesEveryMutation: random fields of real manifests are mutated (seeded, so runs are
// repeatable); every mutation must show up as a change naming that field. Each trial applies
// one mutation to a fresh copy; a second pass applies three at once to different parts.
func TestDiffNamesEveryMutation(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of seeded mutations of real manifests; skipped with -short")
	}
	files := corpus.Manifests(t)
	rng := rand.New(rand.NewSource(20261010))
	applied := map[string]int{}
	for trial := 0; trial < 25*len(mutators); trial++ {
		mu := mutators[trial%len(mutators)]
		// a manifest this mutator applies to (some have no groups, relationships, releases)
		var f corpus.File
		var before, after *protocol.Manifest
		var want mention
		ok := false
		for try := 0; try < 200 && !ok; try++ {
			f = files[rng.Intn(len(files))]
			before, after = corpus.Decode(t, f.Bytes), corpus.Decode(t, f.Bytes)
			want, ok = mu.f(rng, after)
		}
		if !ok {
			continue
		}
		applied[mu.name]++
		got := diff.Diff(before, after)
		if !mentions(got, want) {
			t.Fatalf("trial %d, %s, mutation %q: no %s change naming %q in %s", trial, f.Path, mu.name, want.kind, want.key, mustJSON(t, got))
		}
	}
	for _, mu := range mutators {
		if applied[mu.name] == 0 {
			t.Errorf("mutator %q never applied: the property is not exercised for it", mu.name)
		}
	}
	// several at once: a project field, a credit and one release-level mutation
	for trial := 0; trial < 200; trial++ {
		f := files[rng.Intn(len(files))]
		before, after := corpus.Decode(t, f.Bytes), corpus.Decode(t, f.Bytes)
		var wants []mention
		for _, i := range []int{0, 5, 6 + rng.Intn(len(mutators)-6)} {
			if w, ok := mutators[i].f(rng, after); ok {
				wants = append(wants, w)
			}
		}
		got := diff.Diff(before, after)
		for _, w := range wants {
			// a removed release takes its other facts with it, so only check what can be named
			if !mentions(got, w) {
				t.Fatalf("combined trial %d, %s: no %s change naming %q in %s", trial, f.Path, w.kind, w.key, mustJSON(t, got))
			}
		}
	}
}

// TestDiffDeterministic: the same inputs give byte-identical output, whatever the map order.
func TestDiffDeterministic(t *testing.T) {
	files := corpus.Manifests(t)
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 100; trial++ {
		f := files[rng.Intn(len(files))]
		before, after := corpus.Decode(t, f.Bytes), corpus.Decode(t, f.Bytes)
		for k := 0; k < 3; k++ {
			mutators[rng.Intn(len(mutators))].f(rng, after)
		}
		first := mustJSON(t, diff.Diff(before, after))
		for i := 0; i < 5; i++ {
			if again := mustJSON(t, diff.Diff(before, after)); again != first {
				t.Fatalf("%s: Diff not deterministic:\n%s\n%s", f.Path, first, again)
			}
		}
	}
}

// TestUnusualFirst: the unusual facts (a stable release vanished, a stable artifact's digest
// changed under its version) are recognised from the changes and rendered before the others,
// on a generated manifest (Candlelight's stand-in), where a license change is not unusual.
// With ../shared the same on openmw-config's real manifest, whose lines name its real files.
func TestUnusualFirst(t *testing.T) {
	unusualFirstGenerated(t)
	if _, ok := corpustest.Optional(t, "www"); !ok {
		return
	}
	before := corpus.Manifest(t, "3aaf4fe0-616f-41a3-b520-306eda9347b0")
	after := corpus.Manifest(t, "3aaf4fe0-616f-41a3-b520-306eda9347b0")
	after.Project.License = "MIT"
	corpus.RemoveRelease(t, after, "0.1.0")
	corpus.Release(t, after, "2.0.0").Artifacts[0].Digests.SHA256 = fmt.Sprintf("%064x", 1)
	got := diff.Diff(before, after)
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, fmt.Sprintf("%s:%v", c.Change, diff.Unusual(c, got)))
	}
	want := []string{"project-field:false", "release-amended:true", "release-removed:true"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("changes = %q, want %q", kinds, want)
	}
	lines := diff.Lines(got)
	wantLines := []string{"unusual: release 2.0.0 (stable) amended", "  unusual: artifact " + got[1].Changes[0].Artifact + " sha256 " +
		string(got[1].Changes[0].Before[1:65]) + " -> " + fmt.Sprintf("%064x", 1), "unusual: - release 0.1.0 (stable)", "license MIT OR Apache-2.0 -> MIT"}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("lines = %q\nwant %q", lines, wantLines)
	}
}

// unusualFirstGenerated is TestUnusualFirst on Candlelight's generated stand-in.
func unusualFirstGenerated(t *testing.T) {
	t.Helper()
	m := func() *protocol.Manifest {
		b, err := json.Marshal(corpustest.Manifest(corpustest.Fixtures["candlelight.json"]))
		if err != nil {
			t.Fatal(err)
		}
		return corpus.Decode(t, b)
	}
	before, after := m(), m()
	after.Project.License = "MIT"
	corpus.RemoveRelease(t, after, "1.0.0")
	corpus.Release(t, after, "1.1.0").Artifacts[0].Digests.SHA256 = fmt.Sprintf("%064x", 1)
	got := diff.Diff(before, after)
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, fmt.Sprintf("%s:%v", c.Change, diff.Unusual(c, got)))
	}
	if want := []string{"project-field:false", "release-amended:true", "release-removed:true"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("changes = %q, want %q", kinds, want)
	}
	want := []string{"unusual: release 1.1.0 (stable) amended",
		"  unusual: artifact flat sha256 " + before.Releases[1].Artifacts[0].Digests.SHA256 + " -> " + fmt.Sprintf("%064x", 1),
		"unusual: - release 1.0.0 (stable)", "license (none) -> MIT"}
	if lines := diff.Lines(got); !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %q\nwant %q", lines, want)
	}
}
