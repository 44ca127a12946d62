package corpustest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Project ids of the corpus's fixtures, which the generated stand-ins keep.
const (
	CandlelightID  = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	TallowID       = "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14"
	LanternForgeID = "7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73"
)

// Project describes a generated manifest.
type Project struct {
	ID, Name, Summary, Type, Page string
	Versions                      []string // the development head, the stable head, then older stable releases
	Relationships                 []any    // every release's, as JSON values
	Provides                      []string
	Components                    []string // component ids, the first required, each with OpenMW install data; nil: "main"
	Group                         string   // when set, the other components form this at-most-one group
	Platforms                     []string // "os/arch", one artifact each; nil: one flat artifact
	Media                         []any
}

// Doc is a site index or a manifest with its keys in the order publishers write them.
type Doc struct {
	SchemaVersion string         `json:"schema_version"`
	Document      string         `json:"document"`
	Generator     string         `json:"generator"`
	Site          map[string]any `json:"site,omitempty"`
	Projects      []any          `json:"projects,omitempty"`
	Project       map[string]any `json:"project,omitempty"`
	Channels      map[string]any `json:"channels,omitempty"`
	Releases      []any          `json:"releases,omitempty"`
}

// Manifest is p as a valid DreamWeave project manifest.
func Manifest(p Project) Doc {
	repo := "https://code.example/" + strings.ReplaceAll(strings.ToLower(p.Name), " ", "-")
	comps := p.Components
	if comps == nil {
		comps = []string{"main"}
	}
	var components []any
	installs := map[string]any{}
	for i, c := range comps {
		comp := map[string]any{"id": c, "name": p.Name + " " + c, "path": c, "required": i == 0,
			"default": i == 0, "requires": []any{}, "conflicts": []any{}, "suggested_with": []any{}}
		if i > 0 && p.Group != "" {
			comp["group"] = p.Group
		}
		components = append(components, comp)
		installs[c] = map[string]any{"data_directories": []any{c}, "content_files": []any{p.Name + "-" + c + ".omwscripts"},
			"groundcover_files": []any{}, "fallback_archives": []any{}, "fallback_entries": map[string]any{}, "config": false, "requires_content": []any{}}
	}
	rels, provides := p.Relationships, p.Provides
	if rels == nil {
		rels = []any{}
	}
	if provides == nil {
		provides = []string{}
	}
	platforms := p.Platforms
	if platforms == nil {
		platforms = []string{""}
	}
	groups := []any{}
	if p.Group != "" {
		groups = append(groups, map[string]any{"id": p.Group, "name": p.Name + " " + p.Group, "select": "at-most-one"})
	}
	var releases []any
	for i, v := range p.Versions {
		ch := "stable"
		if i == 0 {
			ch = "development"
		}
		var artifacts []any
		for _, pl := range platforms {
			a := map[string]any{"id": "flat", "format": "flat", "filename": "p-" + v + ".zip", "media_type": "application/zip",
				"size": 1000 + i, "digests": map[string]any{"sha256": digest(p.ID + v + pl)},
				"sources":    []any{map[string]any{"url": repo + "/releases/" + v + "/p.zip", "kind": "publisher"}},
				"signatures": []any{}}
			if os, arch, ok := strings.Cut(pl, "/"); ok {
				a["id"], a["platform"] = os+"-"+strings.ReplaceAll(arch, "_", "-"), map[string]any{"os": os, "arch": arch}
				a["filename"] = "p-" + v + "-" + os + "-" + arch + ".zip"
			}
			artifacts = append(artifacts, a)
		}
		releases = append(releases, map[string]any{
			"version": v, "channel": ch, "date": fmt.Sprintf("2026-09-%02d", 30-i), "status": "available",
			"source":   map[string]any{"repository": repo, "tag": v, "revision": digest(v)[:40]},
			"runtimes": map[string]any{"openmw": ">=0.49"}, "platforms": []any{}, "provides": provides,
			"relationships": rels, "components": components, "groups": groups,
			"extensions":          map[string]any{"openmw": map[string]any{"components": installs, "requires_content": []any{}, "settings": []any{}}},
			"critical_extensions": []any{"openmw"}, "artifacts": artifacts,
		})
	}
	media := p.Media
	if media == nil {
		media = []any{}
	}
	return Doc{SchemaVersion: "2", Document: "project", Generator: "corpustest",
		Project: map[string]any{
			"id": p.ID, "name": p.Name, "summary": p.Summary, "type": p.Type, "status": "active", "versioning": "numeric",
			"game": "morrowind", "tags": []any{"OpenMW"}, "maintainers": []any{}, "integrations": map[string]any{},
			"links": map[string]any{"page": p.Page, "source": repo, "issues": repo + "/issues"}, "media": media, "credits": []any{},
		},
		Channels: map[string]any{"development": map[string]any{"version": p.Versions[0]}, "stable": map[string]any{"version": p.Versions[1]}},
		Releases: releases,
	}
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Fixtures stand in for the corpus's fixtures/<name>, keeping the facts tests rely on.
var Fixtures = map[string]Project{
	// A mod with three releases that requires Tallow (>=1.0), provides dreamweave:dynamic-lights,
	// recommends Tamriel Rebuilt by URL, conflicts with mods it names only, has a card image.
	"candlelight.json": {ID: CandlelightID, Name: "Candlelight", Type: "mod", Summary: "Lights that know what time it is.",
		Page: "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/home/", Versions: []string{"1.1.1-dev.0", "1.1.0", "1.0.0"},
		Relationships: []any{
			map[string]any{"kind": "requires", "project": TallowID, "name": "Tallow", "version": ">=1.0",
				"url": "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/simplified/"},
			map[string]any{"kind": "recommends", "name": "Tamriel Rebuilt", "url": "https://www.tamriel-rebuilt.org/"},
			map[string]any{"kind": "conflicts", "name": "Other mods that script vanilla light records"},
		},
		Provides: []string{"dreamweave:dynamic-lights"}, Components: []string{"core", "tamriel-rebuilt", "flames-2k", "flames-4k"}, Group: "flames",
		Media: []any{map[string]any{"kind": "image", "featured": true,
			"alt": "Warm lantern light scattered across dark hills under a violet dusk sky.",
			"url": "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/home/media/dusk-over-balmora.webp"}}},
	// A library with a stable and a development release.
	"tallow.json": {ID: TallowID, Name: "Tallow", Type: "library", Versions: []string{"1.0.1-dev.0", "1.0.0"},
		Summary: "A tiny OpenMW Lua library that wakes your script at dusk, at dawn, or on the hour.",
		Page:    "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/simplified/"},
	// A program built per platform that recommends Candlelight.
	"lantern-forge.json": {ID: LanternForgeID, Name: "Lantern Forge", Type: "tool", Summary: "Bakes light maps.",
		Page: "https://lanterns.example/forge/", Versions: []string{"0.4.1-dev.2", "0.4.0"},
		Relationships: []any{map[string]any{"kind": "recommends", "project": CandlelightID, "name": "Candlelight"}},
		Provides:      []string{"dreamweave:light-baking"}, Platforms: []string{"linux/x86_64", "windows/x86_64"}},
}

// Fixture is the corpus's fixtures/<name> as a JSON value, or its generated stand-in
// (Fixtures) without ../shared.
func Fixture(tb testing.TB, name string) map[string]any {
	tb.Helper()
	p, ok := Find("fixtures/" + name)
	if !ok {
		return Generated(tb, name)
	}
	b, err := os.ReadFile(p)
	return value(tb, name, b, err)
}

// Generated is the generated stand-in for fixtures/<name> (Fixtures) as a JSON value, whether
// or not ../shared is present.
func Generated(tb testing.TB, name string) map[string]any {
	tb.Helper()
	f, known := Fixtures[name]
	if !known {
		tb.Fatalf("no fixture %s", name)
	}
	b, err := json.Marshal(Manifest(f))
	return value(tb, name, b, err)
}

// value is the fixture name's bytes b as a JSON value, failing tb on err or bad JSON.
func value(tb testing.TB, name string, b []byte, err error) map[string]any {
	tb.Helper()
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		tb.Fatalf("fixture %s: %v", name, err)
	}
	return m
}

// SchemaConstraints is the JSON Schema b without its annotations (title, description, $id),
// as JSON with sorted keys: what two schemas must share to accept the same documents.
func SchemaConstraints(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if k != "title" && k != "description" && k != "$id" {
					out[k] = strip(e)
				}
			}
			return out
		case []any:
			for i := range x {
				x[i] = strip(x[i])
			}
		}
		return v
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatal(err)
	}
	out, err := json.Marshal(strip(v))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// The corpus sites Sites holds, below www/.
const (
	SitesHost    = "dreamweave-mp.github.io"
	TemplateDir  = SitesHost + "/DreamWeave-Mod-Template"
	DreamIniDir  = SitesHost + "/dream-ini"
	DreamIniID   = "b3efde19-438b-4325-bf94-fae56bf1d458"
	projectsPath = "/dreamweave/projects/"
)

// Sites is the corpus's Mod Template and dream-ini sites as published, "<host>/<path>" ->
// bytes, or generated stand-ins at the same paths without ../shared.
func Sites(tb testing.TB) map[string][]byte {
	tb.Helper()
	files := map[string][]byte{}
	if www, ok := Find("www"); ok {
		for _, dir := range []string{TemplateDir, DreamIniDir} {
			root := filepath.Join(www, filepath.FromSlash(dir))
			err := filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(www, p)
				b, err := os.ReadFile(p)
				files[filepath.ToSlash(rel)] = b
				return err
			})
			if err != nil {
				tb.Fatal(err)
			}
		}
		return files
	}
	Site(tb, files, TemplateDir, "DreamWeave Mod Template", Manifest(Fixtures["candlelight.json"]), Manifest(Fixtures["tallow.json"]))
	Site(tb, files, DreamIniDir, "dream-ini", Manifest(Project{ID: DreamIniID, Name: "dream-ini", Type: "tool",
		Summary: "Import Morrowind.ini into openmw.cfg.", Page: "https://" + DreamIniDir + "/home/",
		Versions: []string{"1.0.2-dev.0", "1.0.1", "1.0.0"}}))
	return files
}

// Site adds a site as published to files ("<host>/<path>" -> bytes): at dir (host and path),
// named name, its index listing projects in the order given with their manifests below it.
func Site(tb testing.TB, files map[string][]byte, dir, name string, projects ...Doc) {
	url := "https://" + dir + "/"
	files[dir+"/index.html"] = fmt.Appendf(nil, "<!doctype html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  <title>%s</title>\n</head>\n<body>\n  <a href=\"%sdreamweave.json\">body links are never read</a>\n</body>\n</html>\n", name, url)
	var entries []any
	for _, m := range projects {
		p := m.Project
		id := p["id"].(string)
		b := indent(tb, m)
		files[dir+projectsPath+id+".json"] = b
		heads := map[string]string{}
		for ch, h := range m.Channels {
			heads[ch] = h.(map[string]any)["version"].(string)
		}
		entries = append(entries, map[string]any{
			"id": id, "name": p["name"], "summary": p["summary"], "type": p["type"], "status": "active",
			"page": p["links"].(map[string]any)["page"], "manifest": url + projectsPath[1:] + id + ".json",
			"manifest_sha256": digest(string(b)), "updated": "2026-09-30", "channels": heads,
		})
	}
	files[dir+"/dreamweave.json"] = indent(tb, Doc{SchemaVersion: "2", Document: "index", Generator: "corpustest",
		Site: map[string]any{"name": name, "url": url}, Projects: entries})
}

// indent is v as a publisher writes it: indented, "key": value, a final newline.
func indent(tb testing.TB, v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return append(b, '\n')
}
