package tags_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Projects of the corpus the golden pairs are built from, each with a generated stand-in.
const (
	tallow       = "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14" // stable 1.0.0, development 1.0.1-dev.0, one flat artifact
	candlelight  = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90" // components, a group, relationships, provides, lua_api
	openmwConfig = "3aaf4fe0-616f-41a3-b520-306eda9347b0" // 23 stable releases, 1.0.0 yanked
	l3i          = "2198fb51-71ba-4695-8e1f-26b55144c4fd" // relationships to projects with constraints
	greenmote    = "57ec3325-acb3-4307-9c0f-2031ab3354ef" // binary artifacts, platforms
	s3lightfixes = "55e873c9-1ddc-4b13-b59a-0eb790bb2565" // decimal scheme
)

type edit func(t *testing.T, m *protocol.Manifest)

// golden is one pair: a manifest, and the same manifest with one thing edited.
type golden struct {
	name    string
	project string
	before  edit // optional, applied to the before manifest
	after   edit // applied to the after manifest
	want    string
	tags    []string
}

// openmw edits a release's decoded openmw extension in place.
func openmw(t *testing.T, r *protocol.Release, f func(o map[string]any)) {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal(r.Extensions["openmw"], &o); err != nil {
		t.Fatal(err)
	}
	f(o)
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	r.Extensions["openmw"] = b
}

func rel(t *testing.T, m *protocol.Manifest, v string) *protocol.Release {
	return corpus.Release(t, m, v)
}

const tallowNotes = `{"summary":"First release: dusk, dawn and hourly callbacks."}`

var goldens = []golden{
	// --- project metadata ---
	{name: "project name", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Name = "Tallow Lib" },
		want:  `[{"change":"project-field","field":"name","before":"Tallow","after":"Tallow Lib"}]`,
		tags:  []string{"metadata"}},
	{name: "license added", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.License = "MIT" },
		want:  `[{"change":"project-field","field":"license","before":null,"after":"MIT"}]`,
		tags:  []string{"metadata"}},
	{name: "project tags", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Tags = append(m.Project.Tags, "Time") },
		want:  `[{"change":"tags","added":["Time"],"removed":[]}]`,
		tags:  []string{"metadata"}},
	{name: "documentation link removed", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Links.Documentation = "" },
		want:  `[{"change":"link","link":"documentation","before":"https://dreamweave-mp.github.io/DreamWeave-Mod-Template/home/docs/","after":null}]`,
		tags:  []string{"metadata"}},
	{name: "project status", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Status = "archived" },
		want:  `[{"change":"project-field","field":"status","before":"active","after":"archived"}]`,
		tags:  []string{"status", "metadata"}},
	{name: "integration mod id", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Integrations.Nexusmods.ModID = 57512 },
		want:  `[{"change":"nexus-mods","before":"morrowind/57511","after":"morrowind/57512"}]`,
		tags:  []string{"metadata"}},
	{name: "versioning scheme changed (unusual)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Project.Versioning = "decimal" },
		want:  `[{"change":"project-field","field":"versioning","before":"numeric","after":"decimal"}]`,
		tags:  []string{"anomaly", "metadata"}},
	{name: "versioning written out, same scheme (no change)", project: tallow,
		before: func(t *testing.T, m *protocol.Manifest) { m.Project.Versioning = "" },
		after:  func(t *testing.T, m *protocol.Manifest) {},
		want:   `[]`,
		tags:   []string{}},
	{name: "generator (not recorded)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { m.Generator = "DreamWeave Mod Template 5.1.0" },
		want:  `[]`,
		tags:  []string{}},

	// --- channels ---
	{name: "channel added", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := corpus.CloneRelease(t, rel(t, m, "1.0.0"))
			r.Version, r.Channel = "1.1.0-beta.1", "beta"
			m.Releases = append(m.Releases, r)
			corpus.SetHead(m, "beta", "1.1.0-beta.1")
		},
		want: `[{"change":"channel-head","channel":"beta","before":null,"after":"1.1.0-beta.1","changes":[]},
			{"change":"release-added","version":"1.1.0-beta.1","channel":"beta","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release"}},
	{name: "channel removed with its release", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.RemoveRelease(t, m, "1.0.1-dev.0")
			delete(m.Channels, "development")
		},
		want: `[{"change":"channel-head","channel":"development","before":"1.0.1-dev.0","after":null,"changes":[]},
			{"change":"release-removed","version":"1.0.1-dev.0","channel":"development"}]`,
		tags: []string{"anomaly", "development"}},
	// Development is rolling: its build vanishing as the next one arrives is not unusual; a
	// development release vanishing with nothing in its place is (above).
	{name: "development build replaced by the next (not unusual)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.Bump(t, m, "development", "1.0.1-dev.1")
			corpus.RemoveRelease(t, m, "1.0.1-dev.0")
		},
		want: `[{"change":"channel-head","channel":"development","before":"1.0.1-dev.0","after":"1.0.1-dev.1","changes":[]},
			{"change":"release-added","version":"1.0.1-dev.1","channel":"development","date":"2026-09-30","status":"available","notes":null},
			{"change":"release-removed","version":"1.0.1-dev.0","channel":"development"}]`,
		tags: []string{"release", "development"}},
	{name: "head moved, identical contents", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { corpus.Bump(t, m, "stable", "1.0.1") },
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.0.1","changes":[]},
			{"change":"release-added","version":"1.0.1","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release"}},
	{name: "head moved, download URLs, file name and digest differ (not reported)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := corpus.Bump(t, m, "stable", "1.0.1")
			a := &r.Artifacts[0]
			a.Filename = "tallow-1.0.1.zip"
			a.Digests.SHA256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
			a.Sources[0].URL = "https://github.com/DreamWeave-MP/DreamWeave-Mod-Template/releases/download/tallow-1.0.1/tallow-1.0.1.zip"
			r.Source.Tag, r.Source.Revision = "tallow-1.0.1", "b25333b803bf6ff5fdb87b413215794356af32df"
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.0.1","changes":[]},
			{"change":"release-added","version":"1.0.1","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release"}},

	// --- releases ---
	{name: "release added with breaking and migration notes", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := corpus.Bump(t, m, "stable", "2.0.0")
			r.Notes = &protocol.Notes{Summary: "Hourly callbacks renamed.", Breaking: []string{"onHour is now onTheHour."},
				Migration: "Rename onHour to onTheHour.", KnownIssues: []string{"Dusk fires twice on the first day."}}
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"2.0.0","changes":[]},
			{"change":"release-added","version":"2.0.0","channel":"stable","date":"2026-09-20","status":"available","notes":{"summary":"Hourly callbacks renamed.","breaking":["onHour is now onTheHour."],"migration":"Rename onHour to onTheHour.","known_issues":["Dusk fires twice on the first day."]}}]`,
		tags: []string{"release", "breaking", "migration"}},
	{name: "stable release vanished (unusual)", project: openmwConfig,
		after: func(t *testing.T, m *protocol.Manifest) { corpus.RemoveRelease(t, m, "0.1.0") },
		want:  `[{"change":"release-removed","version":"0.1.0","channel":"stable"}]`,
		tags:  []string{"anomaly"}},
	{name: "release yanked", project: openmwConfig,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "3.0.1")
			r.Status, r.Yanked = "yanked", &protocol.Notice{Reason: "Built against the wrong l3i.", Replacement: "3.0.2"}
		},
		want: `[{"change":"release-status","version":"3.0.1","channel":"stable","before":"available","after":"yanked","reason":"Built against the wrong l3i.","replacement":"3.0.2"}]`,
		tags: []string{"status"}},
	{name: "release deprecated", project: openmwConfig,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "2.0.0")
			r.Status, r.Deprecated = "deprecated", &protocol.Notice{Reason: "Use 3.x."}
		},
		want: `[{"change":"release-status","version":"2.0.0","channel":"stable","before":"available","after":"deprecated","reason":"Use 3.x.","replacement":null}]`,
		tags: []string{"status"}},
	{name: "release restored", project: openmwConfig,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.0.0")
			r.Status, r.Yanked = "available", nil
		},
		want: `[{"change":"release-status","version":"1.0.0","channel":"stable","before":"yanked","after":"available","reason":null,"replacement":null}]`,
		tags: []string{"status"}},
	{name: "yank notice edited", project: openmwConfig,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Yanked.Reason = "Yanked on crates.io: a broken build."
		},
		want: `[{"change":"release-status","version":"1.0.0","channel":"stable","before":"yanked","after":"yanked","reason":"Yanked on crates.io: a broken build.","replacement":"1.0.1"}]`,
		tags: []string{"status"}},
	{name: "release moved between channels", project: s3lightfixes,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "0.4.58").Channel = "beta"
			corpus.SetHead(m, "beta", "0.4.58")
		},
		want: `[{"change":"channel-head","channel":"beta","before":null,"after":"0.4.58","changes":[]},
			{"change":"release-channel","version":"0.4.58","before":"stable","after":"beta"}]`,
		tags: []string{"release"}},
	{name: "release re-dated", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.0.0").Date = "2026-09-21" },
		want:  `[{"change":"release-date","version":"1.0.0","before":"2026-09-20","after":"2026-09-21"}]`,
		tags:  []string{}},
	{name: "release notes edited", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Notes.Summary = "First release: dusk, dawn and hourly callbacks, with tests."
		},
		want: `[{"change":"release-notes","version":"1.0.0"}]`,
		tags: []string{}},
	{name: "version string changed, same precedence (build metadata): the same release, nothing recorded", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Version = "1.0.0+rebuild.1"
			corpus.SetHead(m, "stable", "1.0.0+rebuild.1")
		},
		want: `[]`,
		tags: []string{}},
	{name: "version string changed, same precedence (decimal trailing zero): the same release, nothing recorded", project: s3lightfixes,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "0.4.6").Version = "0.4.60"
			corpus.SetHead(m, "stable", "0.4.60")
		},
		want: `[]`,
		tags: []string{}},

	// --- amendments and artifacts ---
	{name: "artifact digest changed without a version change (unusual)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Artifacts[0].Digests.SHA256 = "1111111111111111111111111111111111111111111111111111111111111111"
		},
		want: `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"artifact-digest","artifact":"flat","before":"f69b6343092ca16ff689adec17e9d754d21e05c97fa840fd07e52c852feddfd9","after":"1111111111111111111111111111111111111111111111111111111111111111"}]}]`,
		tags: []string{"artifacts", "anomaly"}},
	{name: "development rebuild (digest and size, not unusual)", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			a := &rel(t, m, "1.0.1-dev.0").Artifacts[0]
			a.Digests.SHA256 = "2222222222222222222222222222222222222222222222222222222222222222"
			a.Size = 107460
		},
		want: `[{"change":"release-amended","version":"1.0.1-dev.0","channel":"development","changes":[{"change":"artifact-digest","artifact":"flat","before":"99e6fd9307a43da0734c20f50e52bc21e4661beb34dcf731248d53546a2ef51e","after":"2222222222222222222222222222222222222222222222222222222222222222"},{"change":"artifact-size","artifact":"flat","before":107457,"after":107460}]}]`,
		tags: []string{"artifacts", "development"}},
	{name: "artifact format", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.0.0").Artifacts[0].Format = "bain" },
		want:  `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"artifact-file","artifact":"flat","details":["format: flat → bain"]}]}]`,
		tags:  []string{"artifacts"}},
	{name: "artifact added", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.0.0")
			r.Artifacts = append(r.Artifacts, protocol.Artifact{ID: "bain", Format: "bain", Filename: "tallow-bain.zip",
				MediaType: "application/zip", Size: 1000, Digests: protocol.Digests{SHA256: "abababababababababababababababababababababababababababababababab"},
				Sources: []protocol.ArtifactSource{{URL: "https://example.org/tallow-bain.zip", Kind: "publisher"}}, Signatures: []protocol.Signature{}})
		},
		want: `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"artifact-added","artifact":"bain","filename":"tallow-bain.zip","size":1000,"sha256":"abababababababababababababababababababababababababababababababab"}]}]`,
		tags: []string{"artifacts"}},
	{name: "artifact removed", project: greenmote,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "0.4.0")
			r.Artifacts = append(r.Artifacts[:4:4], r.Artifacts[5:]...)
		},
		want: `[{"change":"release-amended","version":"0.4.0","channel":"stable","changes":[{"change":"artifact-removed","artifact":"android-arm64","filename":"greenmote-Android-ARM64.zip"}]}]`,
		tags: []string{"artifacts"}},
	{name: "artifact platform variant", project: greenmote,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.Artifact(t, rel(t, m, "0.4.0"), "linux-arm64-portmaster").Platform.Variant = "muos"
		},
		want: `[{"change":"release-amended","version":"0.4.0","channel":"stable","changes":[{"change":"artifact-file","artifact":"linux-arm64-portmaster","details":["platform: linux/aarch64+portmaster → linux/aarch64+muos"]}]}]`,
		tags: []string{"artifacts"}},
	{name: "mirror added in a moved head", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			a := &corpus.Bump(t, m, "stable", "1.0.1").Artifacts[0]
			a.Sources = append(a.Sources, protocol.ArtifactSource{URL: "https://mirror.example.org/tallow.zip", Kind: "mirror", Name: "Example mirror"})
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.0.1","changes":[{"change":"artifact-source-added","artifact":"flat","url":"https://mirror.example.org/tallow.zip","kind":"mirror"}]},
			{"change":"release-added","version":"1.0.1","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release", "artifacts"}},
	{name: "signature added", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Artifacts[0].Signatures = []protocol.Signature{{Format: "sigstore-bundle", URL: "https://example.org/tallow.zip.sigstore.json"}}
		},
		want: `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"signature-added","artifact":"flat","format":"sigstore-bundle","url":"https://example.org/tallow.zip.sigstore.json"}]}]`,
		tags: []string{"artifacts"}},
	{name: "platform added", project: greenmote,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "0.4.0")
			r.Platforms = append(r.Platforms, protocol.Platform{OS: "linux", Arch: "aarch64"})
		},
		want: `[{"change":"release-amended","version":"0.4.0","channel":"stable","changes":[{"change":"platforms","added":["linux/aarch64"],"removed":[]}]}]`,
		tags: []string{"artifacts"}},
	{name: "source tag amended", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.0.0").Source.Tag = "tallow-v1.0.0" },
		want:  `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"source-revision","field":"tag","before":"tallow-1.0.0","after":"tallow-v1.0.0"}]}]`,
		tags:  []string{}},
	{name: "source repository in a moved head", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.Bump(t, m, "stable", "1.0.1").Source.Repository = "https://github.com/DreamWeave-MP/Tallow"
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.0.1","changes":[{"change":"source-revision","field":"repository","before":"https://github.com/DreamWeave-MP/DreamWeave-Mod-Template","after":"https://github.com/DreamWeave-MP/Tallow"}]},
			{"change":"release-added","version":"1.0.1","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release"}},

	// --- what a moved head compares ---
	{name: "runtime constraint in a moved head", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.Bump(t, m, "stable", "1.1.0").Runtimes["openmw"] = ">=0.50"
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.1.0","changes":[{"change":"runtime","runtime":"openmw","before":">=0.49","after":">=0.50"}]},
			{"change":"release-added","version":"1.1.0","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release", "runtime"}},
	{name: "runtime constraint rewritten, same meaning", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.0.0").Runtimes["openmw"] = ">= 0.49.0" },
		want:  `[]`,
		tags:  []string{}},
	{name: "critical extensions in a moved head", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			corpus.Bump(t, m, "stable", "1.0.1").CriticalExtensions = []string{}
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.0.0","after":"1.0.1","changes":[{"change":"critical-extensions","added":[],"removed":["openmw"]}]},
			{"change":"release-added","version":"1.0.1","channel":"stable","date":"2026-09-20","status":"available","notes":` + tallowNotes + `}]`,
		tags: []string{"release", "runtime"}},
	{name: "Lua API", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			openmw(t, rel(t, m, "1.1.0"), func(o map[string]any) { o["lua_api"] = ">=70" })
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"lua-api","before":">=60","after":">=70"}]}]`,
		tags: []string{"runtime"}},
	{name: "required content, release-wide", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			openmw(t, rel(t, m, "1.1.0"), func(o map[string]any) { o["requires_content"] = []string{"Morrowind.esm", "Tribunal.esm"} })
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"required-content","added":["Tribunal.esm"],"removed":[]}]}]`,
		tags: []string{"dependencies"}},
	{name: "required content of one component", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			openmw(t, rel(t, m, "1.1.0"), func(o map[string]any) {
				o["components"].(map[string]any)["tamriel-rebuilt"].(map[string]any)["requires_content"] = []string{"TR_Mainland.esm", "TR_Preview.esm"}
			})
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"component-selection","component":"tamriel-rebuilt","details":["OpenMW requires_content: TR_Mainland.esm → TR_Mainland.esm, TR_Preview.esm"]}]}]`,
		tags: []string{"components"}},
	{name: "OpenMW settings (other extension value)", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			openmw(t, rel(t, m, "1.1.0"), func(o map[string]any) {
				o["settings"].([]any)[0].(map[string]any)["value"] = "false"
			})
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"extension-changed","namespace":"openmw"}]}]`,
		tags: []string{}},
	{name: "OpenMW content files of one component", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			openmw(t, rel(t, m, "1.1.0"), func(o map[string]any) {
				o["components"].(map[string]any)["core"].(map[string]any)["content_files"] = []string{"Candlelight.omwscripts", "Candlelight.omwaddon"}
			})
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"component-selection","component":"core","details":["OpenMW content_files: Candlelight.omwscripts → Candlelight.omwscripts, Candlelight.omwaddon"]}]}]`,
		tags: []string{"components"}},
	{name: "foreign extension namespace added", project: tallow,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.0.0").Extensions["org.tes3mp"] = json.RawMessage(`{"server":true}`)
		},
		want: `[{"change":"release-amended","version":"1.0.0","channel":"stable","changes":[{"change":"extension-added","namespace":"org.tes3mp"}]}]`,
		tags: []string{}},
	{name: "provides added", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.1.0")
			r.Provides = append(r.Provides, "dreamweave:weather-lights")
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"capability-added","capability":"dreamweave:weather-lights"}]}]`,
		tags: []string{"capabilities"}},
	{name: "provides removed", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.1.0").Provides = nil },
		want:  `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"capability-removed","capability":"dreamweave:dynamic-lights"}]}]`,
		tags:  []string{"capabilities"}},
	{name: "relationship added (capability)", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.1.0")
			r.Relationships = append(r.Relationships, protocol.Relationship{Kind: "requires", Capability: "dreamweave:time-of-day"})
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"relationship-added","kind":"requires","target":{"capability":"dreamweave:time-of-day","name":"dreamweave:time-of-day"},"version":null}]}]`,
		tags: []string{"dependencies", "capabilities"}},
	{name: "relationship removed (name only)", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.1.0")
			r.Relationships = append(r.Relationships[:2:2], r.Relationships[3:]...)
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"relationship-removed","kind":"conflicts","target":{"name":"Other mods that script vanilla light records"},"version":null}]}]`,
		tags: []string{"dependencies"}},
	{name: "relationship constraint in a moved head", project: l3i,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := corpus.Bump(t, m, "stable", "1.4.0")
			r.Notes = nil
			r.Relationships[0].Version = "=1.2.0"
		},
		want: `[{"change":"channel-head","channel":"stable","before":"1.3.1","after":"1.4.0","changes":[{"change":"relationship-constraint","kind":"requires","target":{"project":"f82752ac-e7f6-43c0-8c2f-d91b7f6b3dda","name":"dream-net","url":"https://DreamWeave-MP.github.io/dream-net/"},"before":"=1.1.0","after":"=1.2.0"}]},
			{"change":"release-added","version":"1.4.0","channel":"stable","date":"2026-10-02","status":"available","notes":null}]`,
		tags: []string{"release", "dependencies"}},
	{name: "relationship kind", project: l3i,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.3.1").Relationships[1].Kind = "requires" },
		want:  `[{"change":"release-amended","version":"1.3.1","channel":"stable","changes":[{"change":"relationship-kind","target":{"project":"f7b9633b-b7cb-4db9-a19f-63556586a81d","name":"dream-soft-render","url":"https://DreamWeave-MP.github.io/dream-soft-render/"},"before":"recommends","after":"requires"}]}]`,
		tags:  []string{"dependencies"}},
	{name: "relationship reason (not recorded)", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			rel(t, m, "1.1.0").Relationships[3].Reason = "Tested with shadows."
		},
		want: `[]`,
		tags: []string{}},
	{name: "component added", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) {
			r := rel(t, m, "1.1.0")
			r.Components = append(r.Components, protocol.Component{ID: "flames-8k", Name: "Flames, 8K", Path: "22 Flames 8K", Group: "flames",
				Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
		},
		want: `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"component-added","component":"flames-8k","name":"Flames, 8K"}]}]`,
		tags: []string{"components"}},
	{name: "component default", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.1.0").Components[3].Default = true },
		want:  `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"component-selection","component":"flames-4k","details":["default: false → true"]}]}]`,
		tags:  []string{"components"}},
	{name: "group selection rule", project: candlelight,
		after: func(t *testing.T, m *protocol.Manifest) { rel(t, m, "1.1.0").Groups[0].Select = "at-least-one" },
		want:  `[{"change":"release-amended","version":"1.1.0","channel":"stable","changes":[{"change":"group-selection","group":"flames","before":"exactly-one","after":"at-least-one"}]}]`,
		tags:  []string{"components"}},
}

// TestGoldenPairs: each pair is a manifest and the same manifest with one thing edited, on the
// project's generated stand-in and, with ../shared, on the real manifest; Diff must give
// exactly the typed differences written here, and Tags exactly these tags.
func TestGoldenPairs(t *testing.T) {
	if len(goldens) < 25 {
		t.Fatalf("%d golden pairs, want at least 25", len(goldens))
	}
	_, real := corpustest.Optional(t, "www")
	seen := map[string]bool{}
	for _, g := range goldens {
		if seen[g.name] {
			t.Fatalf("duplicate golden name %q", g.name)
		}
		seen[g.name] = true
		t.Run(g.name, func(t *testing.T) {
			g.check(t, "generated", standIn(t, g.project), standIn(t, g.project))
			if real {
				g.check(t, "corpus", corpus.Manifest(t, g.project), corpus.Manifest(t, g.project))
			}
		})
	}
}

// check applies g's edits to before and after, two copies of one manifest (base names which),
// and checks the differences and tags against g's golden.
func (g golden) check(t *testing.T, base string, before, after *protocol.Manifest) {
	t.Helper()
	if g.before != nil {
		g.before(t, before)
	}
	g.after(t, after)
	got := diff.Diff(before, after)
	if g, w := canon(t, got), canonText(t, g.want); !bytes.Equal(g, w) {
		t.Errorf("%s: Diff:\n got: %s\nwant: %s", base, g, w)
	}
	ev := store.Event{Kind: store.EventChanged, Name: after.Project.Name, Changes: got}
	if tg := tags.Tags(ev); !reflect.DeepEqual(tg, g.tags) {
		t.Errorf("%s: Tags = %q, want %q", base, tg, g.tags)
	}
	// the reverse edit is reported too (nothing is one-directional)
	if len(got) > 0 && len(diff.Diff(after, before)) == 0 {
		t.Errorf("%s: Diff(after, before) is empty", before.Generator)
	}
}

func canon(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return canonText(t, string(b))
}

// canonText re-encodes JSON text indented with sorted keys, so expectations can be written
// compactly and in any key order.
func canonText(t testing.TB, s string) []byte {
	t.Helper()
	var x any
	if err := json.Unmarshal([]byte(s), &x); err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	out, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}
