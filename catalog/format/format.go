// Package format writes catalog.json and events.json in the DreamWeave Network Catalog v1
// format (SPEC section 5) from the network model, under network-data/ as the reference index
// does. Output is byte-deterministic, as the reference writes it: keys in the v1 schema's
// "required" order, arrays in a fixed order, two-space indent, HTML unescaped.
package format

import (
	"fmt"
	"maps"
	"net/url"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// Format names and the version this package writes.
const (
	CatalogFormat = "dreamweave-network-catalog"
	EventsFormat  = "dreamweave-network-events"
	FormatVersion = 1
)

// Paths, relative to the site's root, at which the site publishes the files: the reference
// index's.
const (
	// DataDir holds the machine-readable files.
	DataDir     = "network-data"
	CatalogFile = DataDir + "/catalog.json"
	EventsFile  = DataDir + "/events.json"
	// SchemaFile is the schema's file name in schemas.FS; SchemaPath is where it is published.
	SchemaFile = schemas.Catalog
	SchemaPath = "schemas/" + SchemaFile
)

// Notice is the notice both files carry. It keeps two kinds of time apart (SPEC section 4):
// this index's observations, and publisher values copied inside an event's changes.
const Notice = "What this index observed of the DreamWeave network, kept as a cache. This is not the DreamWeave protocol: each claim's manifest_url is the authority for that claim. " +
	"The times this index writes (observed_at, first_observed, last_attempt, last_success, last_changed) are when it looked; " +
	"values inside an event's changes, such as a release's date, are the publisher's, as published. " +
	"A site being read by this index says nothing about the quality of what it publishes."

// Index identifies the index that writes the files (catalog v1 "index").
type Index struct {
	Name string // the index's display name; not empty
	// URL is where its site is published, absolute http(s), written without a final "/".
	URL        string
	Repository string // where its code and state live: an absolute http(s) URL
}

// Options are what the files need beyond the model.
type Options struct {
	Index Index // written as both files' "index"; Catalog and Events refuse a bad one
	// BaseURL is the base of a claim's network_page (NetworkPage); empty means Index.URL.
	BaseURL string
}

func (o Options) check() error {
	for _, f := range []struct{ name, v string }{{"Index.URL", o.Index.URL}, {"Index.Repository", o.Index.Repository}} {
		u, err := url.Parse(f.v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("format: %s %q is not an absolute http(s) URL", f.name, f.v)
		}
	}
	if o.Index.Name == "" {
		return fmt.Errorf("format: Index.Name is empty")
	}
	return nil
}

// base is the base URL of the claims' network pages (NetworkPage adds a missing final "/").
func (o Options) base() string {
	if o.BaseURL == "" {
		return o.Index.URL
	}
	return o.BaseURL
}

// NetworkPage is a claim's page on the site: base + "projects/<project>/<site>/".
func NetworkPage(base string, k network.Key) string {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + "projects/" + k.Project + "/" + k.Site + "/"
}

type indexJSON struct {
	Name       string `json:"name"`
	URL        string `json:"url"`
	Repository string `json:"repository"`
}

func (i Index) json() indexJSON {
	return indexJSON{Name: i.Name, URL: strings.TrimRight(i.URL, "/"), Repository: i.Repository}
}

type claimRef struct {
	Project string `json:"project"`
	Origin  string `json:"origin"`
}

func ref(c *network.Claim) claimRef { return claimRef{Project: c.Project, Origin: c.Site} }

type originJSON struct {
	ID            string   `json:"id"`
	IndexURL      string   `json:"index_url"`
	SiteName      *string  `json:"site_name"`
	SiteURL       *string  `json:"site_url"`
	Sources       []string `json:"sources"`
	Health        string   `json:"health"`
	Problem       *string  `json:"problem"`
	FirstObserved string   `json:"first_observed"`
	LastAttempt   string   `json:"last_attempt"`
	LastSuccess   *string  `json:"last_success"`
	Projects      []string `json:"projects"`
}

type currentJSON struct {
	Channel string `json:"channel"`
	Version string `json:"version"`
}

type claimJSON struct {
	Project          string            `json:"project"`
	Origin           string            `json:"origin"`
	Name             string            `json:"name"`
	Summary          *string           `json:"summary"`
	Type             string            `json:"type"`
	Status           string            `json:"status"`
	Versioning       string            `json:"versioning"`
	Game             string            `json:"game"`
	License          *string           `json:"license"`
	Tags             []string          `json:"tags"`
	Page             string            `json:"page"`
	ManifestURL      string            `json:"manifest_url"`
	ManifestSHA256   string            `json:"manifest_sha256"`
	AdvertisedSHA256 string            `json:"advertised_sha256"`
	Health           string            `json:"health"`
	Cached           bool              `json:"cached"`
	Problem          *string           `json:"problem"`
	FirstObserved    string            `json:"first_observed"`
	LastChanged      *string           `json:"last_changed"`
	LastAttempt      string            `json:"last_attempt"`
	LastSuccess      *string           `json:"last_success"`
	Channels         map[string]string `json:"channels"`
	Current          *currentJSON      `json:"current"`
	Runtimes         map[string]string `json:"runtimes"`
	LuaAPI           *string           `json:"lua_api"`
	Provides         []string          `json:"provides"`
	Conflict         bool              `json:"conflict"`
	SupersededBy     *claimRef         `json:"superseded_by"`
	NetworkPage      string            `json:"network_page"`
}

type conflictJSON struct {
	Project string     `json:"project"`
	Claims  []claimRef `json:"claims"`
}

type relationshipJSON struct {
	From       claimRef   `json:"from"`
	Release    string     `json:"release"`
	Kind       string     `json:"kind"`
	Project    *string    `json:"project"`
	Capability *string    `json:"capability"`
	Name       *string    `json:"name"`
	URL        *string    `json:"url"`
	Version    *string    `json:"version"`
	Resolved   []claimRef `json:"resolved"`
	// Satisfied is network.Relationship.Satisfied; null is "no single answer".
	Satisfied *bool `json:"satisfied"`
}

type useJSON struct {
	From claimRef `json:"from"`
	Kind string   `json:"kind"`
}

type capabilityJSON struct {
	Capability   string     `json:"capability"`
	Providers    []claimRef `json:"providers"`
	ReferencedBy []useJSON  `json:"referenced_by"`
}

type catalogJSON struct {
	Format        string             `json:"format"`
	FormatVersion int                `json:"format_version"`
	Notice        string             `json:"notice"`
	Index         indexJSON          `json:"index"`
	ObservedAt    *string            `json:"observed_at"`
	Crawler       *string            `json:"crawler"`
	Origins       []originJSON       `json:"origins"`
	Claims        []claimJSON        `json:"claims"`
	Conflicts     []conflictJSON     `json:"conflicts"`
	Relationships []relationshipJSON `json:"relationships"`
	Capabilities  []capabilityJSON   `json:"capabilities"`
}

// nonEmpty is s, or nil for "" (the catalog's optional strings are null when absent).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func stateTimes(n *network.Network) (observed, crawler *string) {
	if n.State == nil {
		return nil, nil
	}
	return nonEmpty(n.State.ObservedAt), nonEmpty(n.State.Crawler)
}

// Catalog generates catalog.json from the model: origins by id, the listed claims by project
// then site, conflicts, each listed claim's current relationships (a kind outside the protocol
// is left out), capabilities by name. It does not validate; the error names a bad option or an
// encoding failure.
func Catalog(n *network.Network, o Options) ([]byte, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	base := o.base()
	observed, crawler := stateTimes(n)
	cat := catalogJSON{
		Format:        CatalogFormat,
		FormatVersion: FormatVersion,
		Notice:        Notice,
		Index:         o.Index.json(),
		ObservedAt:    observed,
		Crawler:       crawler,
		Origins:       []originJSON{},
		Claims:        make([]claimJSON, 0, len(n.Listed)),
		Conflicts:     []conflictJSON{},
		Relationships: make([]relationshipJSON, 0, len(n.Relationships)),
		Capabilities:  []capabilityJSON{},
	}
	for _, og := range n.Origins {
		srcs := append([]string{}, og.Sources...)
		sort.Strings(srcs)
		ids := []string{}
		for _, c := range og.Listed {
			ids = append(ids, c.Project)
		}
		cat.Origins = append(cat.Origins, originJSON{
			ID: og.ID, IndexURL: og.IndexURL, SiteName: og.SiteName, SiteURL: og.SiteURL, Sources: srcs,
			Health: og.Health, Problem: og.Problem, FirstObserved: og.FirstObserved,
			LastAttempt: og.LastAttempt, LastSuccess: og.LastSuccess, Projects: ids,
		})
	}
	for _, c := range n.Listed {
		cat.Claims = append(cat.Claims, claim(c, base))
	}
	for _, cf := range n.Conflicts {
		cj := conflictJSON{Project: cf.Project}
		for _, c := range cf.Claims {
			cj.Claims = append(cj.Claims, ref(c))
		}
		cat.Conflicts = append(cat.Conflicts, cj)
	}
	for _, r := range n.Relationships {
		if !network.KnownKind(r.Kind) {
			continue
		}
		rj := relationshipJSON{
			From: ref(r.From), Release: r.Release.Version, Kind: r.Kind,
			Project: nonEmpty(r.Project), Capability: nonEmpty(r.Capability), Name: nonEmpty(r.Name),
			URL: nonEmpty(r.URL), Version: nonEmpty(r.Version), Resolved: []claimRef{}, Satisfied: r.Satisfied,
		}
		for _, t := range r.Targets {
			rj.Resolved = append(rj.Resolved, ref(t.Claim))
		}
		cat.Relationships = append(cat.Relationships, rj)
	}
	for _, cp := range n.Capabilities {
		cj := capabilityJSON{Capability: cp.Name, Providers: []claimRef{}, ReferencedBy: []useJSON{}}
		for _, c := range cp.Providers {
			cj.Providers = append(cj.Providers, ref(c))
		}
		for _, u := range cp.Users {
			if network.KnownKind(u.Kind) {
				cj.ReferencedBy = append(cj.ReferencedBy, useJSON{From: ref(u.From), Kind: u.Kind})
			}
		}
		cat.Capabilities = append(cat.Capabilities, cj)
	}
	return store.MarshalLarge(cat)
}

// claim is one listed claim as catalog v1 states it, from its held manifest and record.
func claim(c *network.Claim, base string) claimJSON {
	m, rec := c.Manifest, c.Record
	p := m.Project
	cj := claimJSON{
		Project: c.Project, Origin: c.Site, Name: p.Name, Summary: nonEmpty(p.Summary),
		Type: p.Type, Status: p.Status, Versioning: string(c.Scheme), Game: p.Game,
		License: nonEmpty(p.License), Tags: append([]string{}, p.Tags...),
		Page: rec.Entry.Page, ManifestURL: rec.Entry.Manifest,
		ManifestSHA256: c.HeldSHA256, AdvertisedSHA256: rec.AdvertisedSHA256,
		Health: c.Health, Cached: c.Cached, Problem: rec.Problem,
		FirstObserved: rec.FirstObserved, LastChanged: rec.LastChanged,
		LastAttempt: rec.LastAttempt, LastSuccess: rec.LastSuccess,
		Channels: map[string]string{}, Runtimes: map[string]string{}, Provides: []string{},
		Conflict: c.Conflict != nil, NetworkPage: NetworkPage(base, c.Key),
	}
	if cj.Page == "" {
		cj.Page = p.Links.Page
	}
	for _, h := range c.Heads {
		cj.Channels[h.Channel] = h.Release.Version
	}
	if r := c.Current; r != nil {
		cj.Current = &currentJSON{Channel: c.CurrentChannel, Version: r.Version}
		maps.Copy(cj.Runtimes, r.Runtimes)
		if ext := r.OpenMWExtension(); ext != nil {
			cj.LuaAPI = nonEmpty(ext.LuaAPI)
		}
		cj.Provides = append(cj.Provides, r.Provides...)
	}
	if s := c.SupersededBy; s != nil {
		r := ref(s)
		cj.SupersededBy = &r
	}
	return cj
}

type eventJSON struct {
	ID         string        `json:"id"`
	Kind       string        `json:"kind"`
	Project    string        `json:"project"`
	Origin     string        `json:"origin"`
	Name       string        `json:"name"`
	ObservedAt string        `json:"observed_at"`
	Before     *string       `json:"before"`
	After      *string       `json:"after"`
	Changes    []diff.Change `json:"changes"`
	MovedFrom  *string       `json:"moved_from,omitempty"`
	Tags       []string      `json:"tags"`
	Headline   string        `json:"headline"`
}

type eventsJSON struct {
	Format        string      `json:"format"`
	FormatVersion int         `json:"format_version"`
	Notice        string      `json:"notice"`
	Index         indexJSON   `json:"index"`
	ObservedAt    *string     `json:"observed_at"`
	Events        []eventJSON `json:"events"`
}

// SortEvents returns a copy of es newest first: observed_at descending, then id ascending.
func SortEvents(es []store.Event) []store.Event {
	out := append([]store.Event(nil), es...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ObservedAt != out[j].ObservedAt {
			return out[i].ObservedAt > out[j].ObservedAt
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Events generates events.json: every recorded event, newest first, with its changes as
// recorded and the tags and headline (tags.Summary) computed now.
func Events(n *network.Network, o Options) ([]byte, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	observed, _ := stateTimes(n)
	doc := eventsJSON{
		Format: EventsFormat, FormatVersion: FormatVersion, Notice: Notice,
		Index:      o.Index.json(),
		ObservedAt: observed, Events: []eventJSON{},
	}
	for _, e := range SortEvents(n.Events) {
		ej := eventJSON{
			ID: e.ID, Kind: e.Kind, Project: e.Project, Origin: e.Origin, Name: e.Name,
			ObservedAt: e.ObservedAt, Before: e.Before, After: e.After, MovedFrom: e.MovedFrom,
			Changes: e.Changes, Tags: tags.Tags(e), Headline: tags.Summary(e),
		}
		if ej.Changes == nil {
			ej.Changes = []diff.Change{}
		}
		if ej.Tags == nil {
			ej.Tags = []string{}
		}
		doc.Events = append(doc.Events, ej)
	}
	return store.MarshalLarge(doc)
}
