package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// fakeState writes a state directory for tests and benchmarks through catalog/store, the way
// the crawler would: records in their canonical encoding, manifests hashed into their claims.
type fakeState struct {
	tb   testing.TB
	root string
	dir  *store.Dir
	at   string
}

const fakeTime = "2026-10-10T12:00:00Z"

func newFakeState(tb testing.TB, root string) *fakeState {
	tb.Helper()
	f := &fakeState{tb: tb, root: root, dir: store.Open(root), at: fakeTime}
	f.write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: fakeTime})
	return f
}

func (f *fakeState) write(rel string, v any) {
	f.tb.Helper()
	if err := f.dir.WriteJSON(rel, v); err != nil {
		f.tb.Fatal(err)
	}
}

func ptr(s string) *string { return &s }

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// origin writes a healthy site index record (and its source) and returns the site id.
func (f *fakeState) origin(indexURL, siteName string) string {
	f.tb.Helper()
	id := store.SiteID(indexURL)
	dirURL := indexURL[:len(indexURL)-len("dreamweave.json")]
	if err := f.dir.WriteBytes(store.OriginIndexPath(id), []byte(indexURL)); err != nil { // its held bytes, hashed below
		f.tb.Fatal(err)
	}
	f.write(store.OriginPath(id), store.Origin{
		ID: id, IndexURL: indexURL, SiteName: ptr(siteName), SiteURL: ptr(dirURL), Generator: ptr("test generator"),
		Sources: []string{dirURL}, Redirects: []string{}, IndexSHA256: ptr(sha([]byte(indexURL))),
		Health: store.OriginHealthy, Issues: []string{}, Previous: []store.Move{},
		FirstObserved: "2026-09-01T00:00:00Z", LastAttempt: f.at, LastSuccess: ptr(f.at),
	})
	f.write(store.SourcePath(store.SourceID(dirURL)), store.Source{
		URL: dirURL, Origin: ptr(id), Health: store.SourceResolved, Method: ptr("found by walking up the path"),
		Trail:       []store.TrailStep{{URL: dirURL, Outcome: "an HTML page with no DreamWeave <link>"}, {URL: indexURL, Outcome: "a DreamWeave site index"}},
		LastAttempt: f.at, LastSuccess: ptr(f.at),
	})
	return id
}

// claim writes m as the held manifest of (m.Project.ID, site) and a current claim record;
// edit, when not nil, changes the record before it is written. It returns the manifest digest.
func (f *fakeState) claim(site string, m *protocol.Manifest, edit func(*store.Claim)) string {
	f.tb.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		f.tb.Fatal(err)
	}
	return f.claimBytes(site, m, b, edit)
}

func (f *fakeState) claimBytes(site string, m *protocol.Manifest, b []byte, edit func(*store.Claim)) string {
	f.tb.Helper()
	id := m.Project.ID
	if err := f.dir.WriteBytes(store.ManifestPath(id, site), b); err != nil {
		f.tb.Fatal(err)
	}
	d := sha(b)
	ch := map[string]string{}
	for name, h := range m.Channels {
		ch[name] = h.Version
	}
	c := store.Claim{
		Project: id, Origin: site,
		Entry: protocol.IndexEntry{ID: id, Name: m.Project.Name, Summary: ptr(m.Project.Summary), Type: m.Project.Type,
			Status: m.Project.Status, Page: m.Project.Links.Page, Manifest: "https://example.org/" + site + "/" + id + ".json",
			ManifestSHA256: d, Updated: ptr("2026-10-01"), Channels: ch},
		AdvertisedSHA256: d, IngestedSHA256: ptr(d), Health: store.ClaimCurrent,
		FirstObserved: "2026-09-01T00:00:00Z", LastChanged: ptr("2026-09-15T00:00:00Z"), LastAttempt: f.at, LastSuccess: ptr(f.at),
	}
	if edit != nil {
		edit(&c)
	}
	f.write(store.ClaimPath(id, site), c)
	return d
}

// media writes an image into the state's media cache and returns its state-relative path.
func (f *fakeState) media(b []byte, ext string) string {
	f.tb.Helper()
	rel := store.MediaDir + "/" + sha(b) + "." + ext
	if err := f.dir.WriteBytes(rel, b); err != nil {
		f.tb.Fatal(err)
	}
	return rel
}

func (f *fakeState) event(e store.Event) {
	f.tb.Helper()
	if e.ID == "" {
		e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
	}
	if _, err := f.dir.WriteEvent(e); err != nil {
		f.tb.Fatal(err)
	}
}

// uuid makes a deterministic lowercase UUID from n.
func uuid(n int) string {
	h := sha([]byte(fmt.Sprint("project", n)))
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}

// sampleManifest is a valid-looking manifest with releases stable 1.0.0 .. 1.0.(n-1), the
// last being the stable head, one relationship and one artifact each.
func sampleManifest(id, name string, n int) *protocol.Manifest {
	m := &protocol.Manifest{
		SchemaVersion: "2", Document: "project", Generator: "test",
		Project: protocol.Project{
			ID: id, Name: name, Summary: "A project called " + name + ".", Type: "mod", Status: "active",
			Versioning: "numeric", Game: "morrowind", License: "MIT", Tags: []string{"Lua", "Test"},
			Maintainers: []protocol.Person{{Name: "Someone", URL: "https://example.org/someone"}},
			Links:       protocol.Links{Page: "https://example.org/" + id + "/", Source: "https://example.org/src/" + id, Issues: "https://example.org/src/" + id + "/issues"},
			Media:       []protocol.Media{}, Credits: []protocol.Credit{},
		},
		Channels: map[string]protocol.ChannelHead{},
	}
	for i := 0; i < n; i++ {
		v := fmt.Sprintf("1.0.%d", i)
		m.Releases = append(m.Releases, protocol.Release{
			Version: v, Channel: "stable", Date: "2026-09-01", Status: "available",
			Source:   protocol.Source{Repository: "https://example.org/src/" + id, Tag: v},
			Notes:    &protocol.Notes{Summary: "Release " + v + " with **bold** notes and a [link](https://example.org/notes)."},
			Runtimes: map[string]string{"openmw": ">=0.49"}, Platforms: []protocol.Platform{}, Provides: []string{},
			Relationships: []protocol.Relationship{}, Groups: []protocol.Group{},
			Components: []protocol.Component{{ID: "main", Name: "Main", Path: ".", Required: true, Default: true,
				Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}}},
			Extensions: map[string]json.RawMessage{}, CriticalExtensions: []string{},
			Artifacts: []protocol.Artifact{{ID: "main", Format: "flat", Filename: name + "-" + v + ".zip", MediaType: "application/zip",
				Size: 12345, Digests: protocol.Digests{SHA256: sha([]byte(id + v))},
				Sources: []protocol.ArtifactSource{{URL: "https://example.org/dl/" + v + ".zip", Kind: "publisher"}}, Signatures: []protocol.Signature{}}},
		})
	}
	// Newest first, as publishers list them.
	for i, j := 0, len(m.Releases)-1; i < j; i, j = i+1, j-1 {
		m.Releases[i], m.Releases[j] = m.Releases[j], m.Releases[i]
	}
	if n > 0 {
		m.Channels["stable"] = protocol.ChannelHead{Version: fmt.Sprintf("1.0.%d", n-1)}
	}
	return m
}

// readOut reads a built file.
func readOut(tb testing.TB, out, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
