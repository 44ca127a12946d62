package tags_test

import (
	"encoding/json"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// standIns are generated manifests standing in for the corpus projects the golden pairs edit:
// a corpustest manifest with the facts each pair changes and reports (dates, digests, source
// tags, relationship targets, artifact ids and platforms) set to the corpus's, so each pair's
// golden holds for the stand-in and for the real manifest alike.
var standIns = map[string]struct {
	p     corpustest.Project
	patch func(t *testing.T, m *protocol.Manifest)
}{
	tallow: {corpustest.Fixtures["tallow.json"], func(t *testing.T, m *protocol.Manifest) {
		for i := range m.Releases {
			r := &m.Releases[i]
			r.Source.Repository, r.Source.Tag = "https://github.com/DreamWeave-MP/DreamWeave-Mod-Template", "tallow-"+r.Version
		}
		r := rel(t, m, "1.0.0")
		r.Date, r.Notes = "2026-09-20", &protocol.Notes{Summary: "First release: dusk, dawn and hourly callbacks."}
		r.Artifacts[0].Digests.SHA256 = "f69b6343092ca16ff689adec17e9d754d21e05c97fa840fd07e52c852feddfd9"
		dev := &rel(t, m, "1.0.1-dev.0").Artifacts[0]
		dev.Digests.SHA256, dev.Size = "99e6fd9307a43da0734c20f50e52bc21e4661beb34dcf731248d53546a2ef51e", 107457
	}},
	candlelight: {corpustest.Fixtures["candlelight.json"], func(t *testing.T, m *protocol.Manifest) {
		m.Project.Links.Documentation = "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/home/docs/"
		m.Project.Integrations.Nexusmods = &protocol.Nexusmods{Game: "morrowind", ModID: 57511}
		for i := range m.Releases {
			r := &m.Releases[i]
			r.Groups[0].Select = "exactly-one"
			r.Relationships = append(r.Relationships, protocol.Relationship{Kind: "recommends", Name: "Shadows", Reason: "Tested without."})
			openmw(t, r, func(o map[string]any) {
				o["lua_api"], o["requires_content"] = ">=60", []string{"Morrowind.esm"}
				o["settings"] = []any{map[string]any{"category": "Shaders", "key": "light bounds multiplier", "value": "true"}}
				comps := o["components"].(map[string]any)
				comps["core"].(map[string]any)["content_files"] = []string{"Candlelight.omwscripts"}
				comps["tamriel-rebuilt"].(map[string]any)["requires_content"] = []string{"TR_Mainland.esm"}
			})
		}
	}},
	openmwConfig: {corpustest.Project{ID: openmwConfig, Name: "openmw-config", Page: "https://dreamweave-mp.github.io/openmw-config/", Type: "library",
		Versions: []string{"3.0.3-dev.0", "3.0.2", "3.0.1", "2.0.0", "1.0.1", "1.0.0", "0.1.0"}}, func(t *testing.T, m *protocol.Manifest) {
		r := rel(t, m, "1.0.0")
		r.Status, r.Yanked = protocol.StatusYanked, &protocol.Notice{Reason: "Yanked on crates.io.", Replacement: "1.0.1"}
	}},
	l3i: {corpustest.Project{ID: l3i, Name: "l3i", Page: "https://dreamweave-mp.github.io/l3i/", Type: "library", Versions: []string{"1.3.2-dev.0", "1.3.1", "1.3.0"},
		Relationships: []any{
			map[string]any{"kind": "requires", "project": "f82752ac-e7f6-43c0-8c2f-d91b7f6b3dda", "name": "dream-net", "version": "=1.1.0", "url": "https://DreamWeave-MP.github.io/dream-net/"},
			map[string]any{"kind": "recommends", "project": "f7b9633b-b7cb-4db9-a19f-63556586a81d", "name": "dream-soft-render", "version": "=1.0.0", "url": "https://DreamWeave-MP.github.io/dream-soft-render/"},
		}}, func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.3.1").Date = "2026-10-02" }},
	greenmote: {corpustest.Project{ID: greenmote, Name: "Greenmote", Page: "https://dreamweave-mp.github.io/Greenmote/", Type: "tool", Versions: []string{"0.4.1-dev.0", "0.4.0", "0.3.0"}},
		func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "0.4.0")
			r.Platforms = nil
			a := r.Artifacts[0]
			r.Artifacts = nil
			for _, b := range [][4]string{{"windows-x64", "Windows-X64", "windows", "x86_64"}, {"macos-arm64", "macOS-ARM64", "macos", "aarch64"},
				{"macos-x64", "macOS-X64", "macos", "x86_64"}, {"linux-x64", "Linux-X64", "linux", "x86_64"},
				{"android-arm64", "Android-ARM64", "android", "aarch64"}, {"linux-arm64-portmaster", "Portmaster-ARM64", "linux", "aarch64"}} {
				a.ID, a.Format, a.Filename = b[0], "binary", "greenmote-"+b[1]+".zip"
				a.Platform = &protocol.ArtifactPlatform{OS: b[2], Arch: b[3]}
				if a.ID == "linux-arm64-portmaster" {
					a.Platform.Variant = "portmaster"
				} else if b[2] != "android" {
					r.Platforms = append(r.Platforms, protocol.Platform{OS: b[2], Arch: b[3]})
				}
				r.Artifacts = append(r.Artifacts, a)
			}
		}},
	s3lightfixes: {corpustest.Project{ID: s3lightfixes, Name: "S3LightFixes", Page: "https://dreamweave-mp.github.io/S3LightFixes/", Type: "tool", Versions: []string{"0.4.61-dev.3", "0.4.6", "0.4.58", "0.4.57"}},
		func(t *testing.T, m *protocol.Manifest) { m.Project.Versioning = "decimal" }},
}

// standIn is a fresh copy of the generated stand-in for project id.
func standIn(t *testing.T, id string) *protocol.Manifest {
	t.Helper()
	s, ok := standIns[id]
	if !ok {
		t.Fatalf("no stand-in for project %s", id)
	}
	b, err := json.Marshal(corpustest.Manifest(s.p))
	if err != nil {
		t.Fatal(err)
	}
	m := corpus.Decode(t, b)
	s.patch(t, m)
	return m
}

// Every stand-in is a manifest the protocol accepts, so a pair on it diffs a publishable manifest.
func TestStandInsAreValid(t *testing.T) {
	for id := range standIns {
		b, err := json.Marshal(standIn(t, id))
		if err != nil {
			t.Fatal(err)
		}
		if m, fs := protocol.ValidateManifest(b, id); m == nil || len(fs) > 0 {
			t.Errorf("%s: %s", id, protocol.Summary(fs))
		}
	}
}
