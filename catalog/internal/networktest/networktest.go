// Package networktest writes small and large synthetic state directories for tests and
// benchmarks of the network model and everything built on it (catalog files, the site).
// Records are written with store.Dir like the crawler writes them; manifests are encoded from
// protocol types and their digests recorded as ingested and advertised.
package networktest

import (
	"crypto/sha256"
	"encoding/hex"
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

// Time is the observation time every synthetic record carries.
const Time = "2026-10-10T12:00:00Z"

// State is a synthetic state directory under construction.
type State struct {
	TB  testing.TB // failures writing the state fail this test or benchmark
	Dir *store.Dir // the state directory, a fresh temporary directory
}

// New starts an empty state in a fresh temporary directory, with network.json written.
func New(tb testing.TB) *State {
	s := &State{TB: tb, Dir: store.Open(tb.TempDir())}
	s.write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: Time})
	return s
}

// write stores v at rel as the crawler's canonical record, with its own file (store.RecordFiles).
// Plain writes, not store's atomic ones: a test state is thrown away, and fsync per record
// makes a 10,000-claim state slow.
func (s *State) write(rel string, v any) {
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
		s.writeBytes(f.Rel, f.Bytes)
	}
}

func (s *State) writeBytes(rel string, b []byte) {
	s.TB.Helper()
	p := s.Dir.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.TB.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		s.TB.Fatal(err)
	}
}

// Origin writes a healthy origin record for the site index at indexURL, reached from the
// enrolled sources (a source record is written for each), and returns the site id.
func (s *State) Origin(indexURL string, sources ...string) string {
	s.TB.Helper()
	id := store.SiteID(indexURL)
	name := "Site " + id
	siteURL := indexURL[:len(indexURL)-len("dreamweave.json")]
	t := Time
	if sources == nil {
		sources = []string{}
	}
	s.write(store.OriginPath(id), store.Origin{
		ID: id, IndexURL: indexURL, SiteName: &name, SiteURL: &siteURL, Sources: sources,
		Redirects: []string{}, Health: store.OriginHealthy, Issues: []string{}, Previous: []store.Move{},
		FirstObserved: Time, LastAttempt: Time, LastSuccess: &t,
	})
	for _, src := range sources {
		method := "the enrolled URL is the site index"
		s.write(store.SourcePath(store.SourceID(src)), store.Source{
			URL: src, Origin: &id, Health: store.SourceResolved, Method: &method,
			Trail: []store.TrailStep{{URL: src, Outcome: "a DreamWeave site index"}}, LastAttempt: Time, LastSuccess: &t,
		})
	}
	return id
}

// Claim writes m as the held manifest of (m.Project.ID, site) and a current claim record
// vouching for it; edit, when given, changes the record before it is written. It returns the
// manifest's digest.
func (s *State) Claim(site string, m *protocol.Manifest, edit ...func(*store.Claim)) string {
	s.TB.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		s.TB.Fatal(err)
	}
	return s.ClaimBytes(site, m.Project.ID, m.Project.Name, b, edit...)
}

// ClaimBytes is Claim with the manifest's bytes given as they are (for manifests that do not
// parse, or do not describe the project).
func (s *State) ClaimBytes(site, project, name string, manifest []byte, edit ...func(*store.Claim)) string {
	s.TB.Helper()
	sum := sha256.Sum256(manifest)
	digest := hex.EncodeToString(sum[:])
	s.writeBytes(store.ManifestPath(project, site), manifest)
	t, updated := Time, "2026-10-01"
	c := store.Claim{
		Project: project, Origin: site,
		Entry: protocol.IndexEntry{
			ID: project, Name: name, Type: "mod", Status: "active",
			Page:     "https://example.org/" + project + "/",
			Manifest: "https://example.org/" + project + ".json", ManifestSHA256: digest, Updated: &updated,
			Channels: map[string]string{},
		},
		AdvertisedSHA256: digest, IngestedSHA256: &digest, Health: store.ClaimCurrent,
		FirstObserved: Time, LastChanged: &t, LastAttempt: Time, LastSuccess: &t,
	}
	for _, e := range edit {
		e(&c)
	}
	s.write(store.ClaimPath(project, site), c)
	return digest
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

// Manifest is a minimal manifest for project id with the given versioning ("" = numeric) and
// releases; channels are the available releases' channels, each naming its last listed
// release (tests list releases in precedence order).
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

// Synthetic writes a state of n claims for benchmarks: sites of 20 claims each; every claim
// has a stable, a beta and a development release; every claim after the first requires an
// earlier one by id with a constraint, every third requires the capability of every fifth,
// every seventh recommends something outside the index by URL, and every 100th id is claimed
// again by a second site (an identity conflict). It returns the state directory.
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
