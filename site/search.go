package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// SearchFile is the project list's search index, beside the site.
const SearchFile = "search.json"

// searchSchema is search.json's schema: this index's own file, not part of catalog v1.
const searchSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "AsHyAmS project search index, format version 1",
  "type": "object",
  "required": ["format", "format_version", "projects"],
  "additionalProperties": false,
  "properties": {
    "format": {"const": "ashyams-search"},
    "format_version": {"const": 1},
    "projects": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["project", "origin", "name", "summary", "type", "status", "game", "tags", "version", "channel", "health", "badges", "page"],
        "additionalProperties": false,
        "properties": {
          "project": {"type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"},
          "origin": {"type": "string", "pattern": "^[a-z0-9-]+$"},
          "site_name": {"type": "string"},
          "name": {"type": "string"},
          "summary": {"type": "string"},
          "type": {"type": "string"},
          "status": {"type": "string"},
          "game": {"type": "string"},
          "tags": {"type": "array", "items": {"type": "string"}},
          "version": {"type": "string"},
          "channel": {"type": "string"},
          "health": {"type": "string"},
          "conflict": {"type": "boolean"},
          "badges": {"type": "array", "items": {"type": "string"}},
          "page": {"type": "string", "pattern": "^projects/[0-9a-f-]+/[a-z0-9-]+/index\\.html$"}
        }
      }
    }
  }
}`

// searchEntry is one claim in search.json. The project list's search matches the words of
// exactly what the list shows for the claim, plus its ids: Name, Version, Badges, Type,
// Status, Game, "from " and the site (SiteName, else Origin), Summary, Tags, Project and
// Origin; assets/site.js composes the same text from this entry as from the list's own
// entry, so a page served (reading search.json) and a page opened from a file (reading the
// list) answer alike.
type searchEntry struct {
	Project string `json:"project"`
	Origin  string `json:"origin"`
	// SiteName is how the list names the site (siteNames.claimSiteText), when that is not the site id.
	SiteName string   `json:"site_name,omitempty"`
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Type     string   `json:"type"`
	Status   string   `json:"status"`
	Game     string   `json:"game"`
	Tags     []string `json:"tags"`
	Version  string   `json:"version"`
	Channel  string   `json:"channel"`
	Health   string   `json:"health"`
	Conflict bool     `json:"conflict,omitempty"`
	// Badges are the texts of the badges the list shows (claimBadges): the health when the
	// claim is not current, and "identity conflict".
	Badges []string `json:"badges"`
	Page   string   `json:"page"`
}

// searchJSON is the project list's index: one entry per listed claim, in the list's order
// (by name). Page paths are relative to the output root.
func (b *builder) searchJSON() ([]byte, error) {
	doc := struct {
		Format        string        `json:"format"`
		FormatVersion int           `json:"format_version"`
		Projects      []searchEntry `json:"projects"`
	}{Format: "ashyams-search", FormatVersion: 1, Projects: []searchEntry{}}
	for _, c := range byName(b.n.Listed) {
		s := b.summarize(c)
		e := searchEntry{Project: c.Project, Origin: c.Site, Name: c.Name, Summary: s.Summary, Type: s.Type,
			Status: s.Status, Game: s.Game, Tags: s.Tags, Version: s.Version, Channel: s.Channel, Health: c.Health,
			Conflict: c.Conflict != nil, Badges: []string{}, Page: claimKeyPath(c)}
		if e.Tags == nil {
			e.Tags = []string{}
		}
		if l := b.names.claimSiteText(c); l != c.Site {
			e.SiteName = l
		}
		for _, bg := range claimBadges(c) {
			e.Badges = append(e.Badges, bg.Text)
		}
		doc.Projects = append(doc.Projects, e)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("%s: %w", SearchFile, err)
	}
	return buf.Bytes(), nil
}

var (
	searchOnce     sync.Once
	searchCompiled *jsonschema.Schema
	searchErr      error
)

// validateSearch checks search.json against its schema.
func validateSearch(doc []byte) error {
	searchOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		if searchErr = c.AddResource("search.schema.json", bytes.NewReader([]byte(searchSchema))); searchErr != nil {
			return
		}
		searchCompiled, searchErr = c.Compile("search.schema.json")
	})
	if searchErr != nil {
		return searchErr
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return searchCompiled.Validate(v)
}
