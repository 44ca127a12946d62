package site

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// SearchFile is the site's search index, at the reference index's path for it.
const SearchFile = format.DataDir + "/search.json"

// Search record kinds: a claim's page, a capability's page, a site's page, a hand-written page.
const (
	SearchProject    = "project"
	SearchCapability = "capability"
	SearchSite       = "site"
	SearchPage       = "page"
)

// searchRecord is one record of search.json: a page of the site, by its URL relative to the
// site's root with no leading slash ("projects/<project>/<site>/"). Text is what a search
// matches: the lowercase join of the title, the summary and every field value. Fields are
// lists of lowercase values by field name; only project records have any.
type searchRecord struct {
	Title   string              `json:"title"`
	URL     string              `json:"url"`
	Kind    string              `json:"kind"`
	Summary string              `json:"summary"`
	Badge   string              `json:"badge"`
	Text    string              `json:"text"`
	Fields  map[string][]string `json:"fields"`
}

// projectFields are the fields of a project record, in the order their values join into its
// text; releaseFields are added when the claim has a current release.
var (
	projectFields = []string{"type", "status", "game", "tag", "maintainer", "license", "channel", "health", "id", "site"}
	releaseFields = []string{"runtime", "lua", "provides", "requires", "recommends", "conflicts", "compatible", "replaces"}
)

// searchJSON is the site's search index in the reference index's dreamweave-network-search
// format: a project record per listed claim (in the project list's order, by name), then a
// capability record per capability (by name), a site record per site (by id) and a page
// record per hand-written page (handWritten's order).
func (b *builder) searchJSON() ([]byte, error) {
	doc := struct {
		Format        string         `json:"format"`
		FormatVersion int            `json:"format_version"`
		Records       []searchRecord `json:"records"`
	}{Format: "dreamweave-network-search", FormatVersion: 1, Records: []searchRecord{}}
	for _, c := range byName(b.n.Listed) {
		doc.Records = append(doc.Records, b.projectRecord(c))
	}
	for _, cp := range b.n.Capabilities {
		doc.Records = append(doc.Records, textRecord(searchRecord{
			Title: cp.Name, URL: dirURL(capabilityPath(cp.Name)), Kind: SearchCapability, Badge: "capability",
			Summary: plural(len(cp.Providers), "provider", "providers") + " · " + plural(len(cp.References), "reference", "references"),
		}))
	}
	for _, o := range b.n.Origins {
		addr := o.IndexURL
		if o.SiteURL != nil && strings.TrimSpace(*o.SiteURL) != "" {
			addr = *o.SiteURL
		}
		doc.Records = append(doc.Records, textRecord(searchRecord{
			Title: b.names.originText(o), URL: dirURL(originPath(o.ID)), Kind: SearchSite, Summary: addr,
			Badge: "site · " + siteHealthText(newOriginRow(o)),
		}))
	}
	for _, p := range handWritten {
		doc.Records = append(doc.Records, textRecord(searchRecord{
			Title: p.title, URL: dirURL(p.path), Kind: SearchPage, Summary: p.desc, Badge: "documentation",
		}))
	}
	b2, err := store.MarshalLarge(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SearchFile, err)
	}
	return b2, nil
}

// projectRecord is a listed claim's search record. Its site field holds the site's name as the
// list gives it (with the id when sites share a name) and the site id.
func (b *builder) projectRecord(c *network.Claim) searchRecord {
	s := b.summarize(c)
	p := c.Manifest.Project
	f := map[string][]string{
		"type": {s.Type}, "status": {s.Status}, "game": {s.Game}, "tag": s.Tags, "health": {c.Health},
		"id": {c.Project}, "site": {b.names.claimSiteText(c), c.Site},
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
				if v != "" {
					f[rel.Kind] = append(f[rel.Kind], v)
				}
			}
		}
	}
	rec := searchRecord{Title: c.Name, URL: dirURL(claimKeyPath(c)), Kind: SearchProject, Summary: s.Summary,
		Badge: s.Type + " · " + s.Status, Fields: map[string][]string{}}
	parts := []string{c.Name, s.Summary}
	for _, k := range fields {
		vs := []string{}
		for _, v := range f[k] {
			if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
				vs = append(vs, v)
			}
		}
		rec.Fields[k] = vs
		parts = append(parts, vs...)
	}
	rec.Text = searchText(parts)
	return rec
}

// textRecord gives a record without fields its text: its title and summary.
func textRecord(r searchRecord) searchRecord {
	r.Fields = map[string][]string{}
	r.Text = searchText([]string{r.Title, r.Summary})
	return r
}

// searchText is the lowercase join of the non-empty parts, one space between them.
func searchText(parts []string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, strings.ToLower(p))
		}
	}
	return strings.Join(out, " ")
}

// searchSchema is search.json's schema (schemas.Search), compiled once.
var searchSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return schemas.Compile(schemas.FS, schemas.Search) })

// validateSearch checks search.json against its schema with the library's validator; the
// error names the JSON pointer of the value that does not match.
func validateSearch(doc []byte) error {
	s, err := searchSchema()
	if err != nil {
		return err
	}
	return schemas.Validate(s, doc)
}
