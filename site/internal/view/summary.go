package view

import (
	"html/template"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// Summary is how lists show one claim.
type ClaimSummary struct {
	C *network.Claim
	// Summary is the publisher's summary cut to SummaryShown characters, keeping list and
	// search rows bounded; WholeSummary is the whole text when cut, else "".
	Summary, WholeSummary string
	Type                  string
	Status                string
	Game                  string
	Tags                  []string
	Version               string
	Channel               string
	Card                  *cards.Image
	// Released is the current release's publisher date ("" for none); Updated when this
	// index last saw the manifest change, else first saw the claim; First when it first saw
	// it (observation times).
	Released, Updated, First string
	// OpenMW is the current release's runtimes.openmw constraint; Runtime is the list
	// filter's reading: "constraint", "any" or "none" (no current release).
	OpenMW, Runtime string
	// RowTags are the first RowTags of Tags, which a list row shows, and MoreTags how many
	// more; TagList is RowTags one a line, for the tag filter. A row is printed on each of its
	// tags' list pages, so all tags in every row would cost n².
	RowTags  []string
	MoreTags int
	TagList  string
}

// RowTags is how many tags a list's row shows.
const RowTags = 12

// SummaryShown is how many characters of a summary a list's row shows.
const SummaryShown = 300

func (m *Model) Summarize(c *network.Claim) *ClaimSummary {
	s := &ClaimSummary{C: c, Card: m.Cards[c.Key]}
	if m := c.Manifest; m != nil {
		p := m.Project
		s.Summary, s.Type, s.Status, s.Game, s.Tags = p.Summary, p.Type, p.Status, p.Game, p.Tags
		s.RowTags = p.Tags[:min(len(p.Tags), RowTags)]
		s.MoreTags = len(p.Tags) - len(s.RowTags)
		s.TagList = strings.Join(s.RowTags, "\n")
	} else {
		e := c.Record.Entry
		s.Summary, s.Type, s.Status = e.SummaryText(), e.Type, e.Status
	}
	if cut := wording.Clip(s.Summary, SummaryShown); cut != s.Summary {
		s.Summary, s.WholeSummary = cut, s.Summary
	}
	s.First, s.Updated, s.Runtime = c.Record.FirstObserved, c.Record.FirstObserved, "none"
	if c.Record.LastChanged != nil && *c.Record.LastChanged != "" {
		s.Updated = *c.Record.LastChanged
	}
	if c.Current != nil {
		s.Version, s.Channel, s.Released = c.Current.Version, c.CurrentChannel, c.Current.Date
		s.OpenMW, s.Runtime = c.Current.Runtimes["openmw"], "any"
		if s.OpenMW != "" {
			s.Runtime = "constraint"
		}
	}
	return s
}

// byName orders claims for people: by name (case-folded), then project id and site. Each
// name is folded once, not at every comparison.
func ByName(cs []*network.Claim) []*network.Claim {
	type named struct {
		name string
		c    *network.Claim
	}
	if len(cs) == 0 {
		return nil
	}
	ns := make([]named, len(cs))
	for i, c := range cs {
		ns[i] = named{strings.ToLower(c.Name), c}
	}
	sort.SliceStable(ns, func(i, j int) bool {
		if a, b := ns[i].name, ns[j].name; a != b {
			return a < b
		}
		return ns[i].c.Key.Less(ns[j].c.Key)
	})
	out := make([]*network.Claim, len(ns))
	for i, n := range ns {
		out[i] = n.c
	}
	return out
}

// OriginRow is a site in a list: the site, its count of stale claims, and (SiteRow) what
// the pages show of it.
type OriginRow struct {
	O *network.Origin
	// Stale counts the site's claims in the catalog whose data is cached (not current).
	Stale int
	// Path is the site's page; Name how headings name it, Text how running text does
	// (names.Names.OriginText). Named: the site names itself; ShowID: Text adds its id.
	Path, Name, Text string
	Named, ShowID    bool
	// Addr is the site's address with its path (names.Address).
	Addr string
	// Enrolled: some entry of the source list leads to the site (enrolled).
	Enrolled bool
	// HealthText is the site's health in words (SiteHealthText); Healthy: it needs no badge.
	HealthText string
	Healthy    bool
	// Anchor is the site's id on the health page, HealthPath the link to it from the root.
	Anchor, HealthPath string
	// Out counts the site's claims out of the catalog.
	Out int
	// Why is the site's health and problem as one sentence (health.OriginWhy); "" for none.
	Why template.HTML
	// Findings are every finding of the last read when Why counts several (health.FindingViews).
	Findings []health.FindingView
}

func NewOriginRow(o *network.Origin) *OriginRow {
	r := &OriginRow{O: o}
	for _, c := range o.Listed {
		if health.StalenessOf(c) == health.StaleCached {
			r.Stale++
		}
	}
	return r
}

// SiteHealthText is a site's health on every page: store.OriginHealthLabel's words, with
// the count of cached claims ("healthy, 1 claim cached"), and "no longer enrolled" when no
// source leads to the site.
func SiteHealthText(r *OriginRow) string {
	switch {
	case !health.Enrolled(r.O):
		return "no longer enrolled"
	case r.O.Health == store.OriginHealthy && r.Stale > 0:
		return store.OriginHealthLabel(r.O.Health) + ", " + wording.Plural(r.Stale, "claim", "claims") + " cached"
	}
	return store.OriginHealthLabel(r.O.Health)
}

// SiteHealthy reports whether a site needs no badge: enrolled, healthy, no claim cached.
func SiteHealthy(r *OriginRow) bool { return SiteRank(r) == 2 }

// SiteRank orders sites: a site index that could not be read first, then read with cached
// claims, then read; sites no longer enrolled last.
func SiteRank(r *OriginRow) int {
	switch {
	case !health.Enrolled(r.O):
		return 3
	case r.O.Health != store.OriginHealthy:
		return 0
	case r.Stale > 0:
		return 1
	}
	return 2
}

// ProjectLink is the page a link to the project id leads to: its project page, or its one
// claim's page (projectKind).
func (m *Model) ProjectLink(id string) string {
	if p := m.N.ByProject[id]; p != nil && len(p.Claims) == 1 {
		return paths.ClaimKey(p.Claims[0])
	}
	return paths.Project(id)
}

// ReleaseAnchor is the fragment id of a release on its claim page. Versions hold only
// [0-9A-Za-z.+-] when valid; anything else is replaced so the id stays one token.
func ReleaseAnchor(version string) string {
	var b strings.Builder
	b.WriteString("release-")
	for _, r := range version {
		if r <= ' ' || r == '"' || r == '#' || r == '%' || r == '?' || r == '/' || r == '\\' || r > 0x7e {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CheckText explains a constraint check in words.
func CheckText(c network.Check) string {
	switch c {
	case network.CheckSatisfied:
		return "satisfied"
	case network.CheckUnsatisfied:
		return "not satisfied"
	case network.CheckNoConstraint:
		return "no version constraint"
	case network.CheckNotApplicable:
		return "a version without a project target: not checked"
	case network.CheckUnresolved:
		return "nobody in this index publishes the target"
	case network.CheckNoCurrent:
		return "the target has no current release"
	case network.CheckBadConstraint:
		return "the constraint does not parse under the target's versioning"
	case network.CheckBadVersion:
		return "the target's current version does not parse under its versioning"
	case network.CheckMixed:
		return "not the same for every claim of this id"
	}
	return string(c)
}

// OriginHealthText explains a site's health (store.OriginHealthLabel gives its name).
func OriginHealthText(h string) string {
	switch h {
	case store.OriginHealthy:
		return "the site index was read on the last crawl"
	case store.OriginUnreachable:
		return "the site index could not be read on the last crawl"
	case store.OriginRefused:
		return "the crawler stopped reading it at one of its limits"
	case store.OriginNoIndex:
		return "the response was not a DreamWeave site index"
	case store.OriginInvalidIndex:
		return "the site index fails the protocol"
	case store.OriginUnsupportedVersion:
		return "the site index uses a protocol version newer than this index reads"
	}
	return h
}

// PlayerRest is the part of a headline after the event's name in a player's words: an
// observation's "first observed" fact becomes ListedPhrase; every other fact stays.
func PlayerRest(kind, rest string) string {
	if kind != store.EventObserved {
		return rest
	}
	return strings.Replace(rest, ": "+ObservedPhrase, ": "+ListedPhrase, 1)
}

// ListedPhrase is a player's words for a claim's first observation (tags.Headline's "first
// observed", kept in events.json and the feeds) on every page.
const ListedPhrase = "listed for the first time"

// ObservedPhrase is the headline's words for a first observation.
const ObservedPhrase = "first observed"
