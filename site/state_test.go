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
)

func ptr(s string) *string { return &s }

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
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
