// Package corpus loads the real DreamWeave documents of ../shared/corpus for the diff tests;
// tests skip, saying so, when ../shared is absent.
package corpus

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Root returns the corpus directory, skipping the test when it is absent.
func Root(tb testing.TB) string { return corpustest.Path(tb, "") }

// Present reports whether the corpus is there, without skipping.
func Present() bool {
	_, ok := corpustest.Find("www")
	return ok
}

// File is one real manifest: its path under www/ and its bytes as published.
type File struct {
	Path  string
	Bytes []byte
}

var (
	mu     sync.Mutex
	cached []File
)

// Manifests returns every project manifest under www/, sorted by path, read once (callers must
// not modify the bytes); without ../shared, corpustest's generated stand-ins.
func Manifests(tb testing.TB) []File {
	tb.Helper()
	if !Present() {
		var out []File
		for _, name := range slices.Sorted(maps.Keys(corpustest.Fixtures)) {
			b, err := json.MarshalIndent(corpustest.Manifest(corpustest.Fixtures[name]), "", "  ")
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, File{Path: "generated/" + name, Bytes: b})
		}
		return out
	}
	root := filepath.Join(Root(tb), "www")
	mu.Lock()
	defer mu.Unlock()
	if cached != nil {
		return cached
	}
	var out []File
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || filepath.Base(filepath.Dir(p)) != "projects" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, File{Path: filepath.ToSlash(rel), Bytes: b})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if len(out) == 0 {
		tb.Fatalf("no manifests under %s", root)
	}
	cached = out
	return out
}

// Decode decodes manifest bytes (plain encoding/json: the corpus is known valid).
func Decode(tb testing.TB, b []byte) *protocol.Manifest {
	tb.Helper()
	var m protocol.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	return &m
}

// Manifest returns a fresh decoded copy of the manifest of project id (the first by path when
// several sites publish it).
func Manifest(tb testing.TB, id string) *protocol.Manifest {
	tb.Helper()
	Root(tb)
	for _, f := range Manifests(tb) {
		if strings.HasSuffix(f.Path, "/"+id+".json") {
			return Decode(tb, f.Bytes)
		}
	}
	tb.Fatalf("corpus has no manifest for project %s", id)
	return nil
}

// EventFile returns the bytes of the reference event state/events/<id>.json.
func EventFile(tb testing.TB, id string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Root(tb), "state", "events", id+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Edits of a decoded manifest, for building test pairs one change at a time.

// Release returns the release of m with version v; it fails the test when there is none.
func Release(tb testing.TB, m *protocol.Manifest, v string) *protocol.Release {
	tb.Helper()
	for i := range m.Releases {
		if m.Releases[i].Version == v {
			return &m.Releases[i]
		}
	}
	tb.Fatalf("manifest %s has no release %s", m.Project.Name, v)
	return nil
}

// RemoveRelease removes the release with version v.
func RemoveRelease(tb testing.TB, m *protocol.Manifest, v string) {
	tb.Helper()
	for i := range m.Releases {
		if m.Releases[i].Version == v {
			m.Releases = append(m.Releases[:i:i], m.Releases[i+1:]...)
			return
		}
	}
	tb.Fatalf("manifest %s has no release %s", m.Project.Name, v)
}

// SetHead sets channel's head version.
func SetHead(m *protocol.Manifest, channel, v string) {
	if m.Channels == nil {
		m.Channels = map[string]protocol.ChannelHead{}
	}
	m.Channels[channel] = protocol.ChannelHead{Version: v}
}

// CloneRelease deep-copies a release through JSON.
func CloneRelease(tb testing.TB, r *protocol.Release) protocol.Release {
	tb.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		tb.Fatal(err)
	}
	var c protocol.Release
	if err := json.Unmarshal(b, &c); err != nil {
		tb.Fatal(err)
	}
	return c
}

// Bump publishes a copy of channel's head as version v, first in the release list, and makes
// it the head.
func Bump(tb testing.TB, m *protocol.Manifest, channel, v string) *protocol.Release {
	tb.Helper()
	head, ok := m.Channels[channel]
	if !ok {
		tb.Fatalf("manifest %s has no channel %s", m.Project.Name, channel)
	}
	r := CloneRelease(tb, Release(tb, m, head.Version))
	r.Version = v
	m.Releases = append([]protocol.Release{r}, m.Releases...)
	SetHead(m, channel, v)
	return &m.Releases[0]
}

// Artifact returns r's artifact with id.
func Artifact(tb testing.TB, r *protocol.Release, id string) *protocol.Artifact {
	tb.Helper()
	for i := range r.Artifacts {
		if r.Artifacts[i].ID == id {
			return &r.Artifacts[i]
		}
	}
	tb.Fatalf("release %s has no artifact %s", r.Version, id)
	return nil
}
