package about

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// SearchFile is the reference index's search file, at its path: every project, capability,
// site and hand-written page in the dreamweave-network-search format, version 1. No page of
// this site reads it (the project list searches find.Dir); it is for the reference's readers.
const SearchFile = format.DataDir + "/search.json"

// The kinds of search record: a claim's page, a capability's, a site's, a hand-written page.
const (
	SearchProject    = "project"
	SearchCapability = "capability"
	SearchSite       = "site"
	SearchPage       = "page"
)

// SearchDoc is search.json's document.
type SearchDoc struct {
	Format        string         `json:"format"`
	FormatVersion int            `json:"format_version"`
	Records       []SearchRecord `json:"records"`
}

// SearchRecord is one record of search.json: a page of the site, by its URL relative to the
// site's root with no leading slash ("projects/<project>/<site>/"). Text is what a search
// matches: the lowercase join of the title, the summary and every field value. Fields are
// lists of lowercase values by field name; only project records have any.
type SearchRecord struct {
	Title   string              `json:"title"`
	URL     string              `json:"url"`
	Kind    string              `json:"kind"`
	Summary string              `json:"summary"`
	Badge   string              `json:"badge"`
	Text    string              `json:"text"`
	Fields  map[string][]string `json:"fields"`
}

// projectFields are a project record's fields, in the order their values join its text;
// releaseFields follow when the claim has a current release.
var (
	projectFields = []string{"type", "status", "game", "tag", "maintainer", "license", "channel", "health", "id", "site"}
	releaseFields = []string{"runtime", "lua", "provides", "requires", "recommends", "conflicts", "compatible", "replaces"}
)

// SearchJSON is search.json: a project record per listed claim (the project list's order, by
// name), then a capability record per capability (by name), a site record per site (by id)
// and a page record per hand-written page (handWritten's order). Unindented, as catalog.json.
func SearchJSON(b *render.Site) ([]byte, error) {
	doc := SearchDoc{Format: "dreamweave-network-search", FormatVersion: 1,
		Records: make([]SearchRecord, 0, len(b.N.Listed)+len(b.N.Capabilities)+len(b.N.Origins)+len(handWritten))}
	for _, c := range view.ByName(b.N.Listed) {
		doc.Records = append(doc.Records, projectRecord(b, c))
	}
	for _, cp := range b.N.Capabilities {
		doc.Records = append(doc.Records, textRecord(SearchRecord{
			Title: cp.Name, URL: paths.Dir(paths.Capability(cp.Name)), Kind: SearchCapability, Badge: "capability",
			Summary: wording.Plural(len(cp.Providers), "provider", "providers") + " · " + wording.Plural(len(cp.References), "reference", "references"),
		}))
	}
	for _, o := range b.N.Origins {
		addr := o.IndexURL
		if o.SiteURL != nil && strings.TrimSpace(*o.SiteURL) != "" {
			addr = *o.SiteURL
		}
		doc.Records = append(doc.Records, textRecord(SearchRecord{
			Title: b.Names.OriginText(o), URL: paths.Dir(paths.Origin(o.ID)), Kind: SearchSite, Summary: addr,
			Badge: "site · " + view.SiteHealthText(b.SiteRow(o)),
		}))
	}
	for _, p := range handWritten {
		doc.Records = append(doc.Records, textRecord(SearchRecord{
			Title: p.title, URL: paths.Dir(p.path), Kind: SearchPage, Summary: p.desc, Badge: "documentation",
		}))
	}
	out, err := store.MarshalLarge(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SearchFile, err)
	}
	return out, nil
}

// projectRecord is a listed claim's record, with the publisher's whole summary. Its site
// field holds the site's name as the list gives it (with the id when sites share a name) and
// the site id.
func projectRecord(b *render.Site, c *network.Claim) SearchRecord {
	s := b.Summarize(c)
	p := c.Manifest.Project
	f := map[string][]string{
		"type": {s.Type}, "status": {s.Status}, "game": {s.Game}, "tag": s.Tags, "health": {c.Health},
		"id": {c.Project}, "site": {b.Names.ClaimSiteText(c), c.Site},
	}
	for _, m := range p.Maintainers {
		f["maintainer"] = append(f["maintainer"], m.Name)
	}
	if p.License != "" {
		f["license"] = []string{p.License}
	}
	for _, h := range c.Heads {
		f["channel"] = append(f["channel"], h.Channel)
	}
	fields := projectFields
	if r := c.Current; r != nil {
		fields = append(append([]string(nil), projectFields...), releaseFields...)
		rts := make([]string, 0, len(r.Runtimes))
		for rt, con := range r.Runtimes {
			rts = append(rts, rt+" "+con)
		}
		sort.Strings(rts)
		f["runtime"] = rts
		if ext := r.OpenMWExtension(); ext != nil && ext.LuaAPI != "" {
			f["lua"] = []string{ext.LuaAPI}
		}
		f["provides"] = r.Provides
		for _, rel := range r.Relationships {
			for _, v := range []string{rel.Project, rel.Capability, rel.Name} {
				if v != "" && slices.Contains(fields, rel.Kind) { // f holds only fields
					f[rel.Kind] = append(f[rel.Kind], v)
				}
			}
		}
	}
	summary := s.Summary
	if s.WholeSummary != "" {
		summary = s.WholeSummary
	}
	rec := SearchRecord{Title: c.Name, URL: paths.Dir(paths.ClaimKey(c)), Kind: SearchProject, Summary: summary,
		Badge: s.Type + " · " + s.Status, Fields: f}
	parts := append(make([]string, 0, 32), c.Name, summary)
	for _, k := range fields {
		vs := make([]string, 0, len(f[k]))
		for _, v := range f[k] {
			if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
				vs = append(vs, v)
			}
		}
		f[k] = vs
		parts = append(parts, vs...)
	}
	rec.Text = searchText(parts)
	return rec
}

// textRecord gives a record without fields its text: its title and summary.
func textRecord(r SearchRecord) SearchRecord {
	r.Fields = map[string][]string{}
	r.Text = searchText([]string{r.Title, r.Summary})
	return r
}

// searchText is the lowercase join of the non-empty parts, one space between them.
func searchText(parts []string) string {
	out := parts[:0] // parts are not read again
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, strings.ToLower(p))
		}
	}
	return strings.Join(out, " ")
}

// searchSchema is search.json's schema (schemas.Search), compiled once.
var searchSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return schemas.Compile(schemas.FS, schemas.Search) })

// ValidateSearch checks a search.json document against its schema with the library's
// validator, as format.Validate checks catalog.json; the error names the JSON pointer of the
// value that does not match.
func ValidateSearch(doc []byte) error {
	s, err := searchSchema()
	if err != nil {
		return err
	}
	return schemas.Validate(s, doc)
}
