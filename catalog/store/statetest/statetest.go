// Package statetest is test-only: the one writer of state directories for tests and
// benchmarks, records through store.RecordFiles as the crawler writes them.
package statetest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// The times every written record carries.
const (
	Time          = "2026-10-10T12:00:00Z"
	FirstObserved = "2026-09-01T00:00:00Z"
	LastChanged   = "2026-09-15T00:00:00Z"
)

// State is a state directory under construction.
type State struct {
	TB  testing.TB // failures writing the state fail this test or benchmark
	Dir *store.Dir // the state directory
}

// New starts an empty state in a fresh temporary directory, with network.json written.
func New(tb testing.TB) *State { return In(tb, tb.TempDir()) }

// In starts an empty state at root (created if absent), with network.json written.
func In(tb testing.TB, root string) *State {
	s := &State{TB: tb, Dir: store.Open(root)}
	s.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: Time})
	return s
}

// Write stores v at rel as the crawler's canonical record (store.RecordFiles), with plain
// writes: a test state is thrown away, and fsync per record makes a large state slow.
func (s *State) Write(rel string, v any) {
	s.TB.Helper()
	files, err := store.RecordFiles(rel, v)
	if err != nil {
		s.TB.Fatal(err)
	}
	for _, f := range files {
		if f.Bytes == nil {
			if err := os.Remove(s.Dir.Path(f.Rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.TB.Fatal(err)
			}
			continue
		}
		s.WriteBytes(f.Rel, f.Bytes)
	}
}

// WriteBytes stores b at rel as it is.
func (s *State) WriteBytes(rel string, b []byte) {
	s.TB.Helper()
	p := s.Dir.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.TB.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		s.TB.Fatal(err)
	}
}

// Origin writes a healthy site named "Site <id>" for the site index at indexURL, with a source
// record for each enrolled source (each the index's URL), and returns the site id.
func (s *State) Origin(indexURL string, sources ...string) string {
	s.TB.Helper()
	if sources == nil {
		sources = []string{}
	}
	return s.origin(indexURL, "", sources, nil)
}

// Site writes a healthy site named name for the site index at indexURL, enrolled by its
// directory URL, and returns the site id.
func (s *State) Site(indexURL, name string) string {
	s.TB.Helper()
	dirURL := indexURL[:len(indexURL)-len("dreamweave.json")]
	return s.origin(indexURL, name, []string{dirURL}, []store.TrailStep{
		{URL: dirURL, Outcome: "an HTML page with no DreamWeave <link>"}, {URL: indexURL, Outcome: "a DreamWeave site index"}})
}

// origin writes the site record, its held index bytes and a source record per source found by
// trail (nil: the source is the index).
func (s *State) origin(indexURL, name string, sources []string, trail []store.TrailStep) string {
	s.TB.Helper()
	id := store.SiteID(indexURL)
	name = cmp.Or(name, "Site "+id)
	siteURL := indexURL[:len(indexURL)-len("dreamweave.json")]
	held := []byte(indexURL)
	s.WriteBytes(store.OriginIndexPath(id), held)
	s.Write(store.OriginPath(id), store.Origin{
		ID: id, IndexURL: indexURL, SiteName: &name, SiteURL: &siteURL, Generator: new("test generator"), Sources: sources,
		Redirects: []string{}, IndexSHA256: new(store.Digest(held)), Health: store.OriginHealthy, Issues: []string{}, Previous: []store.Move{},
		FirstObserved: FirstObserved, LastAttempt: Time, LastSuccess: new(Time),
	})
	for _, src := range sources {
		method, steps := "the enrolled URL is the site index", trail
		if steps == nil {
			steps = []store.TrailStep{{URL: src, Outcome: "a DreamWeave site index"}}
		} else {
			method = "found by walking up the path"
		}
		s.Write(store.SourcePath(store.SourceID(src)), store.Source{
			URL: src, Origin: &id, Health: store.SourceResolved, Method: &method,
			Trail: steps, LastAttempt: Time, LastSuccess: new(Time),
		})
	}
	return id
}

// Claim writes m as the held manifest of (m.Project.ID, site) and a current claim record for
// it, changed by each edit, and returns the manifest's digest.
func (s *State) Claim(site string, m *protocol.Manifest, edit ...func(*store.Claim)) string {
	s.TB.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		s.TB.Fatal(err)
	}
	return s.ClaimBytes(site, m, b, edit...)
}

// ClaimBytes is Claim with the held manifest's bytes given as they are.
func (s *State) ClaimBytes(site string, m *protocol.Manifest, manifest []byte, edit ...func(*store.Claim)) string {
	s.TB.Helper()
	project, sum := m.Project.ID, store.Digest(manifest)
	s.WriteBytes(store.ManifestPath(project, site), manifest)
	channels := map[string]string{}
	for name, h := range m.Channels {
		channels[name] = h.Version
	}
	c := store.Claim{
		Project: project, Origin: site,
		Entry: protocol.IndexEntry{
			ID: project, Name: m.Project.Name, Summary: new(m.Project.Summary), Type: m.Project.Type, Status: m.Project.Status,
			Page:     m.Project.Links.Page,
			Manifest: "https://example.org/" + site + "/" + project + ".json", ManifestSHA256: sum, Updated: new("2026-10-01"),
			Channels: channels,
		},
		AdvertisedSHA256: sum, IngestedSHA256: &sum, Health: store.ClaimCurrent,
		FirstObserved: FirstObserved, LastChanged: new(LastChanged), LastAttempt: Time, LastSuccess: new(Time),
	}
	for _, e := range edit {
		if e != nil {
			e(&c)
		}
	}
	s.Write(store.ClaimPath(project, site), c)
	return sum
}

// Media writes b into the media cache with extension ext and returns its state-relative path.
func (s *State) Media(b []byte, ext string) string {
	s.TB.Helper()
	rel := store.MediaDir + "/" + store.Digest(b) + "." + ext
	s.WriteBytes(rel, b)
	return rel
}

// Event writes e (its id computed with store.EventID when empty).
func (s *State) Event(e store.Event) {
	s.TB.Helper()
	if e.ID == "" {
		e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	}
	if _, err := s.Dir.WriteEvent(e); err != nil {
		s.TB.Fatal(err)
	}
}

// Manifest is a minimal manifest for project id with the given versioning ("" = numeric);
// each channel's head is its last listed available release.
func Manifest(id, name, versioning string, rs ...protocol.Release) *protocol.Manifest {
	m := &protocol.Manifest{
		SchemaVersion: protocol.SchemaVersion, Document: protocol.DocProject,
		Project: protocol.Project{
			ID: id, Name: name, Summary: "Synthetic project " + name, Type: "mod", Status: "active",
			Versioning: versioning, Game: "morrowind", License: "MIT", Tags: []string{"test"},
			Maintainers: []protocol.Person{{Name: "Tester"}},
			Links:       protocol.Links{Page: "https://example.org/" + id + "/", Source: "https://example.org/src", Issues: "https://example.org/issues"},
			Media:       []protocol.Media{}, Credits: []protocol.Credit{},
		},
		Channels: map[string]protocol.ChannelHead{},
		Releases: rs,
	}
	for _, r := range rs {
		if r.Status == protocol.StatusAvailable {
			m.Channels[r.Channel] = protocol.ChannelHead{Version: r.Version}
		}
	}
	return m
}

// Release is an available release with one artifact, the given provides and relationships.
func Release(ver, channel string, provides []string, rels ...protocol.Relationship) protocol.Release {
	if provides == nil {
		provides = []string{}
	}
	if rels == nil {
		rels = []protocol.Relationship{}
	}
	return protocol.Release{
		Version: ver, Channel: channel, Date: "2026-10-01", Status: protocol.StatusAvailable,
		Source:   protocol.Source{Repository: "https://example.org/src", Tag: "v" + ver},
		Runtimes: map[string]string{"openmw": ">=0.49"}, Platforms: []protocol.Platform{},
		Provides: provides, Relationships: rels, Components: []protocol.Component{}, Groups: []protocol.Group{},
		Extensions:         map[string]json.RawMessage{"openmw": json.RawMessage(`{"lua_api":">=60"}`)},
		CriticalExtensions: []string{},
		Artifacts: []protocol.Artifact{{
			ID: "main", Format: "flat", Filename: "x-" + ver + ".zip", MediaType: "application/zip", Size: 1,
			Digests: protocol.Digests{SHA256: "0000000000000000000000000000000000000000000000000000000000000000"},
			Sources: []protocol.ArtifactSource{{URL: "https://example.org/x.zip", Kind: "publisher"}}, Signatures: []protocol.Signature{},
		}},
	}
}

// Requires is a requires relationship on a project id with a constraint ("" for none).
func Requires(project, constraint string) protocol.Relationship {
	return protocol.Relationship{Kind: protocol.KindRequires, Project: project, Version: constraint}
}

// ID is a deterministic project id for i: "00000000-0000-4000-8000-<i as 12 hex digits>".
func ID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012x", i) }

// Synthetic writes a state of n claims for benchmarks: 20 claims a site, three channels each,
// requirements by id and capability, URL gaps, and an identity conflict every 100th id.
func Synthetic(tb testing.TB, n int) *store.Dir {
	s := New(tb)
	const perSite = 20
	var sites []string
	site := func(i int) string {
		for len(sites) <= i/perSite {
			k := len(sites)
			u := fmt.Sprintf("https://site%d.example.org/mods/dreamweave.json", k)
			sites = append(sites, s.Origin(u, fmt.Sprintf("https://site%d.example.org/mods/", k)))
		}
		return sites[i/perSite]
	}
	claims := 0
	for i := 0; claims < n; i++ {
		id := ID(i)
		var rels []protocol.Relationship
		if i > 0 {
			rels = append(rels, Requires(ID(i/2), ">=1.0, <3"))
		}
		if i%3 == 0 {
			rels = append(rels, protocol.Relationship{Kind: protocol.KindRequires, Capability: fmt.Sprintf("test:cap-%d", (i/15)*5)})
		}
		if i%7 == 0 {
			rels = append(rels, protocol.Relationship{Kind: protocol.KindRecommends, Name: "Outside " + fmt.Sprint(i%50), URL: fmt.Sprintf("https://elsewhere.example.net/%d/", i%50)})
		}
		var provides []string
		if i%5 == 0 {
			provides = []string{fmt.Sprintf("test:cap-%d", i)}
		}
		m := Manifest(id, fmt.Sprintf("Project %d", i), "",
			Release("1.0.0", "stable", provides, rels...),
			Release("1.1.0-beta.1", "beta", provides, rels...),
			Release("1.1.0-dev.3", "development", provides, rels...))
		s.Claim(site(claims), m)
		claims++
		if i%100 == 99 && claims < n {
			s.Claim(site(claims+perSite), m)
			claims++
		}
	}
	return s.Dir
}
