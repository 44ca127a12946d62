package site

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
)

// FindFile is the project list's own search index: what site.js needs to match, filter, sort
// and show every listed claim, and nothing else. The page fetches it only when a player first
// uses the search or a filter, so the list's first page costs what it shows. search.json, in
// the reference index's format, stays for other readers; it is three times the size, as it
// carries every record kind and field list.
const FindFile = format.DataDir + "/find.json"

// findFormat names find.json's layout; site.js refuses any other.
const findFormat = "ashyams-find-1"

// findRow is one listed claim in find.json, an array in findColumns' order: arrays rather
// than objects, as the column names would be a third of the file.
var findColumns = []string{"key", "name", "version", "site", "type", "status", "game", "tags", "health",
	"conflict", "updated", "first", "runtime", "openmw", "summary", "thumb", "badges", "more"}

// findJSON is find.json: {"format", "columns", "rows"}, a row per listed claim in the
// project list's order (by name). A row's "more" is the lowercase words of what the entry
// does not show but a search should find: maintainers, license, channels, what its current
// release provides and names in its relationships, its Lua API. Minified: nobody reads it
// but the script.
func (b *builder) findJSON() ([]byte, error) {
	rows := make([][]any, 0, len(b.n.Listed))
	for _, c := range byName(b.n.Listed) {
		rows = append(rows, b.findRow(c))
	}
	doc := map[string]any{"format": findFormat, "columns": findColumns, "rows": rows}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", FindFile, err)
	}
	return out, nil
}

// findRow is c's row of find.json (findColumns).
func (b *builder) findRow(c *network.Claim) []any {
	s := b.summarize(c)
	r := b.ref(c)
	health, conflict := "current", 0
	if r.Stale != staleNone {
		health = "not-current"
	}
	if c.Conflict != nil {
		conflict = 1
	}
	thumb := ""
	if s.Card != nil && len(s.Card.Files) > 0 {
		thumb = s.Card.Files[0]
	}
	badges := make([][2]string, 0, len(r.Badges))
	for _, bd := range r.Badges {
		badges = append(badges, [2]string{bd.Class, bd.Text})
	}
	tags := s.Tags
	if tags == nil {
		tags = []string{}
	}
	return []any{c.Key.Project + "/" + c.Key.Site, c.Name, s.Version, r.SiteText, s.Type, s.Status, s.Game, tags, health,
		conflict, s.Updated, s.First, s.Runtime, s.OpenMW, s.Summary, thumb, badges, findMore(c)}
}

// findMore is the words a search of c should find that its entry does not show.
func findMore(c *network.Claim) string {
	var parts []string
	if m := c.Manifest; m != nil {
		for _, mt := range m.Project.Maintainers {
			parts = append(parts, mt.Name)
		}
		parts = append(parts, m.Project.License)
	}
	for _, h := range c.Heads {
		parts = append(parts, h.Channel)
	}
	if r := c.Current; r != nil {
		parts = append(parts, r.Provides...)
		for _, rel := range r.Relationships {
			parts = append(parts, rel.Project, rel.Capability, rel.Name)
		}
		if ext := r.OpenMWExtension(); ext != nil {
			parts = append(parts, ext.LuaAPI)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range parts {
		p = strings.ToLower(strings.TrimSpace(p))
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
