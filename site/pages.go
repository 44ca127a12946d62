package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

const notFoundPage = sitedir.NotFoundPage

// PublishersPage is the page for publishers (about/publishers/), which the staleness banners
// link to.
const PublishersPage = "about/publishers/index.html"

// recentEvents is how many events the home page and the updates index show.
const (
	recentHome = 10
)

func (b *builder) renderPages() error {
	steps := []func() error{
		b.homePage, b.projectPages, b.originPages, b.releasesPage, b.updatePages,
		b.conflictsPage, b.capabilityPages, b.dependenciesPage, b.gapsPage, b.healthPage, b.networkPage,
		b.aboutPages, b.joinPage, b.setupPage, b.planPage, b.browsePages, b.projectFeeds, b.notFound,
	}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

type homeData struct {
	N        *network.Network
	Featured []*featuredView
	Recent   []*recentItem
	More     bool
	// ObservedPath is the updates page of first observations, which a grouped line links.
	ObservedPath string
	// Stale counts the claims in the catalog whose data is cached; Never the claims no
	// manifest of which passed every check yet.
	Stale, Never int
}

type featuredView struct {
	F      *network.Featured
	Claims []*view.ClaimSummary
}

func (b *builder) homePage() error {
	d := &homeData{N: b.N, ObservedPath: paths.Tag(tags.Observed)}
	for _, c := range b.N.Claims {
		switch health.StalenessOf(c) {
		case health.StaleCached:
			d.Stale++
		case health.StaleNever:
			d.Never++
		}
	}
	for _, f := range b.N.Featured {
		fv := &featuredView{F: f}
		for _, c := range f.Claims {
			fv.Claims = append(fv.Claims, b.Summarize(c))
		}
		d.Featured = append(d.Featured, fv)
	}
	d.Recent, d.More = recentItems(b.Derived.Events, recentHome)
	return b.Page("home", &render.Page{Path: "index.html", Title: "DreamWeave mods: projects, updates and sites", Section: "home",
		Desc: "An independent index of the DreamWeave mod network: what each site published, what changed, and how the projects relate.", Data: d})
}

type projectsData struct {
	// Entries are this page's claims of the list (all of them in name order: Total).
	Entries []*view.ClaimSummary
	Total   int
	// Projects counts the distinct project ids of the whole list.
	Projects               int
	Types, Statuses, Games []string
	// Tags are the tag filter's suggestions: the suggestedTags most used, by name (the filter
	// takes any tag; the browse page lists every one).
	Tags []string
	// Withdrawn are the first withdrawnShown claims out of the catalog, shown on the first
	// page only; WithdrawnMore counts the rest, which the health page lists with the others.
	Withdrawn     []*network.Claim
	WithdrawnMore int
	Pager         *render.Pager
}

// withdrawnShown is how many claims out of the catalog the project list names.
const withdrawnShown = 10

func (b *builder) projectPages() error {
	d := &projectsData{}
	types, statuses, tagUse, games := map[string]bool{}, map[string]bool{}, map[string]int{}, map[string]bool{}
	ids := map[string]bool{}
	var all []*view.ClaimSummary
	for _, c := range view.ByName(b.N.Listed) {
		s := b.Summarize(c)
		all = append(all, s)
		ids[c.Project] = true
		types[s.Type], statuses[s.Status], games[s.Game] = true, true, true
		for _, t := range s.Tags {
			tagUse[t]++
		}
	}
	for _, c := range b.N.Claims {
		if !c.Listed {
			d.Withdrawn = append(d.Withdrawn, c)
		}
	}
	if len(d.Withdrawn) > withdrawnShown { // bounded: the list's first page costs the same at any size
		d.Withdrawn, d.WithdrawnMore = d.Withdrawn[:withdrawnShown], len(d.Withdrawn)-withdrawnShown
	}
	d.Types, d.Statuses, d.Tags, d.Games = keys(types), keys(statuses), topTags(tagUse), keys(games)
	d.Projects, d.Total = len(ids), len(all)
	first := &render.Page{Path: "projects/index.html", Title: "Projects", Section: "projects", Script: true,
		Desc: "Every project claim in the catalog, with search and filters by type, status, tag and game."}
	if err := b.PagedList("projects", first, len(all), func(lo, hi int, pg *render.Pager) any {
		pd := *d
		pd.Entries, pd.Pager = all[lo:hi], pg
		if pg != nil && pg.N > 1 {
			pd.Withdrawn = nil
		}
		return &pd
	}); err != nil {
		return err
	}
	for _, p := range b.N.Projects {
		pg := &render.Page{Path: paths.Project(p.ID), Title: projectTitle(p), Section: "projects", Feed: projectFeedPath(p.ID), Data: b.projectView(p)}
		if len(p.Claims) == 1 {
			pg.Unmapped, pg.Data = true, p.Claims[0]
		}
		if err := b.Page(projectKind(p), pg); err != nil {
			return err
		}
		for _, c := range p.Claims {
			if err := b.Page("claim", &render.Page{Path: paths.ClaimKey(c), Title: pubtext.Plain(c.Name) + " from " + pubtext.Plain(b.Names.ClaimSiteText(c)), Section: "projects", Feed: projectFeedPath(c.Project), Leaf: true},
				func() any { return b.claimView(c) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// suggestedTags is how many tags the project list's tag filter suggests: a bound, as a
// catalog's tags grow with it.
const suggestedTags = 30

// topTags is the suggestedTags tags of use most used (ties by name), sorted by name.
func topTags(use map[string]int) []string {
	var all []string
	for t := range use {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool {
		if use[all[i]] != use[all[j]] {
			return use[all[i]] > use[all[j]]
		}
		return all[i] < all[j]
	})
	all = all[:min(len(all), suggestedTags)]
	sort.Strings(all)
	return all
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

type projectView struct {
	P      *network.Project
	Claims []*view.ClaimSummary
	// Names are the distinct names the claims publish for the id, in claim order.
	Names []string
}

// claimNames are the distinct names claims publish, in order. Names are display text, and
// two sites may name one project id differently: every name is shown, none is chosen.
func claimNames(cs []*network.Claim) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		n := strings.TrimSpace(c.Name)
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// projectKind is the template of p's project page: "project-one" for an id one site lists,
// a redirect to its claim's page (the page would list that one claim), else "project".
func projectKind(p *network.Project) string {
	if len(p.Claims) == 1 {
		return "project-one"
	}
	return "project"
}

// projectTitle is a project page's title: the names its claims publish, then the id.
func projectTitle(p *network.Project) string {
	names := claimNames(p.Claims)
	if len(names) == 0 {
		return "A project no site names"
	}
	plain := make([]string, len(names))
	for i, n := range names {
		plain[i] = pubtext.Plain(n)
	}
	return strings.Join(plain, " / ")
}

func (b *builder) projectView(p *network.Project) *projectView {
	v := &projectView{P: p, Names: claimNames(p.Claims)}
	for _, c := range p.Claims {
		v.Claims = append(v.Claims, b.Summarize(c))
	}
	return v
}

// claimView is the claim page.
type claimView struct {
	*view.ClaimSummary
	C       *network.Claim
	Project *network.Project
	// ProjectPath is the project's page, "" when this is the project's one claim (the project
	// page leads here, and the claim page has no breadcrumb: it would only repeat the
	// navigation's Projects); Names the names the project's claims publish.
	ProjectPath string
	Names       []string
	License     string
	Scheme      string
	Meta        *protocol.Project
	Links       []linkView
	Releases    []*releaseView
	// Events are the claim's updates, each said without the claim's name and site, which
	// the page's heading gives (tags.Summary: "first observed").
	Events []claimEvent
	// Others are the other claims for the same project id.
	Others []*network.Claim
	// LookAlikes are listed claims of other project ids whose name looks like this one's
	// (names.Projects.LookAlikes); LookAlikesMore counts those not named.
	LookAlikes     []*network.Claim
	LookAlikesMore int
	// Referenced are the current relationships that resolve to this claim and are not what
	// Used by counts (a requires of another claim): recommends, conflicts, compatible,
	// replaces, and any relationship naming its own project.
	Referenced []*referenceView
	// RefMoreCaps are the capabilities of the references past the first usedByShown, whose
	// pages list them, and RefMoreByID says that some of those name this claim's project
	// id; both empty when Referenced is all.
	RefMoreCaps []capLink
	RefMoreByID bool
	// NoSeen: no release has a recorded first-seen time. SameSeen is the event in which this
	// index first saw every release, when one event shows them all (a claim's first
	// observation): the releases list says it once instead of on every release.
	NoSeen   bool
	SameSeen *view.EventView
	// ReadOK: the last attempt to read the claim succeeded (last success is last attempt),
	// said in one line. SameDigest: the held manifest is the advertised one, one digest shown.
	ReadOK, SameDigest bool
	// Common is the first release other than the current one when there are two or more;
	// CommonRuntimes, CommonPlatforms and CommonRelationships say that every release other
	// than the current one has Common's runtimes, platforms (some) or relationships, which
	// differ from the current release's: the releases list says them once, not on each line.
	Common                                               *releaseView
	CommonRuntimes, CommonPlatforms, CommonRelationships bool
	// Now is the current release as the first screen shows it; nil when there is none.
	Now *releaseView
	// MovedTo is the move away from the claim (nil when none); MovedFrom the moves to it.
	MovedTo   *view.MoveView
	MovedFrom []*view.MoveView
	// Shown are the releases listed open: the current release, then the heads of the other
	// channels but development. Behind are the rest (development builds, older, yanked and
	// deprecated releases), in the manifest's order, behind a disclosure.
	Shown, Behind []*releaseView
	// UsedBy are the first usedByShown of the claims whose current release requires this
	// one; UsedByMore is the page of the used-by list naming every one of them, when there
	// are more ("" when UsedBy is all), so that a claim many require keeps a bounded page.
	UsedBy     []*network.Claim
	UsedByMore string
	// TagsAreVersions: every release other than the current one is in the current release's
	// repository with its version as its source tag and no other source fact; the releases
	// list says so once instead of on each line.
	TagsAreVersions bool
	// CommonChannel: every release other than the current one is on the current release's
	// channel, said once instead of on each line.
	CommonChannel bool
	// SourceIsLink: the current release's source repository is the project's Source link,
	// which the current release's facts then point to instead of printing it again.
	SourceIsLink bool
}

// claimEvent is an update in the claim page's list: the event and what it says of the claim.
type claimEvent struct {
	*view.EventView
	Summary string
}

// usedByShown is how many of the claims requiring it a claim page names; the used-by list
// names them all.
const usedByShown = 20

// runtimeView is one runtime a release names with its constraint (under the numeric scheme).
type runtimeView struct{ ID, Constraint string }

type linkView struct{ Label, URL string }

// referenceView is one relationship pointing at the claim page's claim: the relationship and
// how it reached this claim ("project" or "capability", network.Resolution.By).
type referenceView struct {
	R  *network.Relationship
	By string
	// Verb is the relationship's kind as a verb phrase (wording.RelationVerb); Anchor the id of the
	// referring release on its claim's page; CapPath the capability's page.
	Verb, Anchor, CapPath string
}

type releaseView struct {
	R         *network.Release
	Anchor    string
	FirstSeen *view.EventView
	OpenMW    *protocol.OpenMW
	OtherExt  []extView
	Open      bool
	// OpenMWConstraint is runtimes.openmw ("" when the release names none: it does not
	// depend on an OpenMW version); Runtimes are the other runtimes, by id.
	OpenMWConstraint string
	Runtimes         []runtimeView
	// Relationships are the release's relationships, in publisher order; Requires those of
	// kind requires, Others the rest.
	Relationships, Requires, Others []*view.RelView
	// Artifacts are the release's artifacts as its line shows them.
	Artifacts []artifactView
	// Provides are the capabilities the release provides, with their pages.
	Provides []capLink
	// SameRepository, SameComponents, SameOpenMW, SameRuntimes, SamePlatforms and
	// SameRelationships say that this release, not the current one, has the current
	// release's source repository, components and groups, OpenMW install data, runtimes,
	// platforms and relationships: its line leaves them out instead of printing them again,
	// and the releases list says so once.
	SameRepository, SameComponents, SameOpenMW, SameRuntimes, SamePlatforms, SameRelationships bool
}

// artifactView is one artifact of a release. ShowKind: its line gives its format and media
// type, which a release other than the current one leaves out when the current release's
// artifact of the same id has the same.
type artifactView struct {
	*protocol.Artifact
	ShowKind bool
}

// Short is the artifact's size in its largest unit ("12.1 KiB"; "900 bytes" below a KiB), for
// a line that is not the current release's: the SHA-256 beside it identifies the file.
func (a artifactView) Short() string {
	s := wording.Size(a.Size)
	if i := strings.Index(s, " ("); i >= 0 {
		return strings.TrimSuffix(s[i+2:], ")")
	}
	return s
}

// capLink is a capability and its page.
type capLink struct{ Name, Path string }

// development is the channel of rolling builds (SPEC section 1, "Channels").
const development = "development"

type extView struct {
	Name string
	JSON string
}

func (b *builder) claimView(c *network.Claim) *claimView {
	v := &claimView{ClaimSummary: b.Summarize(c), C: c, Project: b.N.ByProject[c.Project],
		ProjectPath: paths.Project(c.Project)}
	for _, e := range b.Derived.ByClaim[c.Key] {
		s := tags.Summary(*e.Event)
		if s == "" {
			s = e.Title
		}
		v.Events = append(v.Events, claimEvent{e, s})
	}
	v.Names = claimNames(v.Project.Claims)
	if len(v.Project.Claims) == 1 {
		v.ProjectPath = ""
	}
	if c.MovedTo != nil {
		v.MovedTo = b.MoveView(c.MovedTo)
	}
	for _, m := range c.MovedFrom {
		v.MovedFrom = append(v.MovedFrom, b.MoveView(m))
	}
	for _, o := range v.Project.Claims {
		if o != c {
			v.Others = append(v.Others, o)
		}
	}
	v.LookAlikes, v.LookAlikesMore = b.Looks.LookAlikes(c)
	for _, r := range c.ReferencedBy {
		if r.Kind == protocol.KindRequires && !r.Self {
			continue // counted in Used by
		}
		rv := &referenceView{R: r, Verb: wording.RelationVerb(r.Kind), Anchor: view.ReleaseAnchor(r.Release.Version)}
		if r.Capability != "" {
			rv.CapPath = paths.Capability(r.Capability)
		}
		for _, t := range r.Targets {
			if t.Claim == c {
				rv.By = t.By
				break
			}
		}
		v.Referenced = append(v.Referenced, rv)
	}
	if m := c.Manifest; m != nil {
		v.Meta = &m.Project
		v.License = m.Project.License
		v.Scheme = string(c.Scheme)
		l := m.Project.Links
		for _, lv := range []linkView{{"Project page", l.Page}, {"Source", l.Source}, {"Issues", l.Issues},
			{"Documentation", l.Documentation}, {"Support", l.Support}, {"Donate", l.Donate},
			{"Homepage", l.Homepage}, {"Nexus Mods", l.Nexusmods}, {"Crate", l.Crate}} {
			if lv.URL != "" {
				v.Links = append(v.Links, lv)
			}
		}
	}
	seen := b.Derived.FirstSeen[c.Key]
	v.NoSeen = len(seen) == 0
	v.ReadOK = c.Record.LastSuccess != nil && *c.Record.LastSuccess == c.Record.LastAttempt
	v.SameDigest = c.HeldSHA256 != "" && c.HeldSHA256 == c.Record.AdvertisedSHA256
	used := map[string]int{}
	for _, r := range c.Releases {
		rv := newReleaseView(r, seen[r.Version])
		if n := used[rv.Anchor]; n > 0 { // the same version twice: keep ids unique
			rv.Anchor = fmt.Sprintf("%s-%d", rv.Anchor, n+1)
		}
		used[rv.Anchor]++
		v.Releases = append(v.Releases, rv)
	}
	v.Now, v.Shown, v.Behind = splitReleases(v.Releases)
	if now := v.Now; now != nil {
		for _, rv := range v.Releases {
			if rv == now {
				continue
			}
			rv.SameRepository = rv.R.Source.Repository == now.R.Source.Repository
			rv.SameComponents = sameJSON(rv.R.Components, now.R.Components) && sameJSON(rv.R.Groups, now.R.Groups)
			rv.SameOpenMW = rv.OpenMW != nil && sameJSON(rv.OpenMW, now.OpenMW)
			rv.SameRuntimes = sameJSON(rv.R.Runtimes, now.R.Runtimes)
			rv.SamePlatforms = sameJSON(rv.R.Platforms, now.R.Platforms)
			rv.SameRelationships = sameJSON(rv.R.Release.Relationships, now.R.Release.Relationships)
			kinds := map[string][2]string{}
			for _, a := range now.R.Artifacts {
				kinds[a.ID] = [2]string{a.Format, a.MediaType}
			}
			for i := range rv.Artifacts {
				a := rv.Artifacts[i]
				k, ok := kinds[a.ID]
				rv.Artifacts[i].ShowKind = !ok || k != [2]string{a.Format, a.MediaType}
			}
		}
	}
	v.SameSeen = sameSeen(v.Releases)
	v.setCommon()
	v.SourceIsLink = v.Now != nil && v.Meta != nil && v.Meta.Links.Source != "" && v.Now.R.Source.Repository == v.Meta.Links.Source
	v.TagsAreVersions = v.Now != nil && len(v.Releases) > 1
	v.CommonChannel = v.TagsAreVersions
	for _, rv := range v.Releases {
		if rv != v.Now && v.Now != nil && rv.R.Channel != v.Now.R.Channel {
			v.CommonChannel = false
		}
		if s := rv.R.Source; rv != v.Now && (!rv.SameRepository || s.Tag != rv.R.Version || s.Release != "" || s.Revision != "") {
			v.TagsAreVersions = false
		}
	}
	v.UsedBy = c.UsedBy
	if len(v.Referenced) > usedByShown {
		caps := map[string]bool{}
		for _, rv := range v.Referenced[usedByShown:] {
			if rv.By == "capability" {
				caps[rv.R.Capability] = true
			} else {
				v.RefMoreByID = true
			}
		}
		for _, name := range keys(caps) {
			v.RefMoreCaps = append(v.RefMoreCaps, capLink{Name: name, Path: paths.Capability(name)})
		}
		v.Referenced = v.Referenced[:usedByShown]
	}
	if len(c.UsedBy) > usedByShown && c.Listed {
		v.UsedBy, v.UsedByMore = c.UsedBy[:usedByShown], b.usedByPage(c)
	}
	return v
}

// usedByPage is the page of the used-by list (dependenciesPage) that names c with every
// claim requiring it: that list holds the listed claims others require, by name, render.PageSize a
// page.
func (b *builder) usedByPage(c *network.Claim) string {
	k := 0
	for _, o := range view.ByName(b.N.Listed) {
		if o == c {
			break
		}
		if len(o.UsedBy) > 0 {
			k++
		}
	}
	return render.PagePath(usedByPath, k/render.PageSize+1)
}

// setCommon sets Common and the facts every release other than the current one shares.
func (v *claimView) setCommon() {
	var others []*releaseView
	for _, rv := range v.Releases {
		if rv != v.Now {
			others = append(others, rv)
		}
	}
	if v.Now == nil || len(others) < 2 {
		return
	}
	first := others[0]
	all := func(part func(*releaseView) any) bool {
		for _, o := range others[1:] {
			if !sameJSON(part(o), part(first)) {
				return false
			}
		}
		return true
	}
	v.Common = first
	v.CommonRuntimes = !first.SameRuntimes && all(func(r *releaseView) any { return r.R.Runtimes })
	v.CommonPlatforms = len(first.R.Platforms) > 0 && !first.SamePlatforms && all(func(r *releaseView) any { return r.R.Platforms })
	v.CommonRelationships = !first.SameRelationships && all(func(r *releaseView) any { return r.R.Release.Relationships })
}

// sameSeen is the event in which this index first saw every one of releases, or nil when
// some release was first seen in another event or has no recorded first-seen time.
func sameSeen(releases []*releaseView) *view.EventView {
	var e *view.EventView
	for _, rv := range releases {
		if rv.FirstSeen == nil || (e != nil && rv.FirstSeen.Event.ID != e.Event.ID) {
			return nil
		}
		e = rv.FirstSeen
	}
	return e
}

// sameJSON reports whether a and b encode to the same JSON: two parts of a manifest that say
// the same thing, whatever their Go values' nil slices.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// newReleaseView is release r as its claim page shows it; firstSeen is the event in which
// this index first saw it (nil when not recorded).
func newReleaseView(r *network.Release, firstSeen *view.EventView) *releaseView {
	rv := &releaseView{R: r, Anchor: view.ReleaseAnchor(r.Version), FirstSeen: firstSeen, OpenMW: r.OpenMWExtension(),
		Open: r.Current || len(r.Head) > 0}
	var names []string
	for name := range r.Extensions {
		if name != "openmw" || rv.OpenMW == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		rv.OtherExt = append(rv.OtherExt, extView{Name: name, JSON: wording.RawJSON(r.Extensions[name])})
	}
	rv.Relationships = view.RelViews(r.Relationships)
	for _, rel := range rv.Relationships {
		if rel.Kind == protocol.KindRequires {
			rv.Requires = append(rv.Requires, rel)
		} else {
			rv.Others = append(rv.Others, rel)
		}
	}
	for i := range r.Artifacts {
		rv.Artifacts = append(rv.Artifacts, artifactView{Artifact: &r.Artifacts[i], ShowKind: true})
	}
	for _, p := range r.Provides {
		rv.Provides = append(rv.Provides, capLink{Name: p, Path: paths.Capability(p)})
	}
	ids := make([]string, 0, len(r.Runtimes))
	for id := range r.Runtimes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if id == "openmw" {
			rv.OpenMWConstraint = r.Runtimes[id]
		} else {
			rv.Runtimes = append(rv.Runtimes, runtimeView{id, r.Runtimes[id]})
		}
	}
	return rv
}

// splitReleases orders a claim page's releases for a player: the current release first, then
// the heads of the other channels except development, each open only when current; the rest
// (development builds, older releases, yanked and deprecated ones) in the manifest's order,
// for the disclosure below them.
func splitReleases(all []*releaseView) (now *releaseView, shown, behind []*releaseView) {
	for _, rv := range all {
		if rv.R.Current {
			now = rv
			shown = append(shown, rv)
		}
	}
	for _, rv := range all {
		switch {
		case rv.R.Current:
		case len(rv.R.Head) > 0 && rv.R.Channel != development:
			shown = append(shown, rv)
		default:
			behind = append(behind, rv)
		}
	}
	for _, rv := range all {
		rv.Open = rv.R.Current
	}
	return now, shown, behind
}

type originsData struct {
	// Read are the sites some enrolled source leads to; Unenrolled the sites no source leads
	// to any more, kept as records but not read.
	Read, Unenrolled []*view.OriginRow
}

type originView struct {
	*view.OriginRow
	Claims  []*view.ClaimSummary
	Sources []*view.SourceRow
	// HealthWhy explains the site's health (view.OriginHealthText).
	HealthWhy string
	// Issues are the site's publication issues, each a sentence with quotations marked
	// (health.ProblemHTML: escaped text and <bdi> elements only).
	Issues []template.HTML
	// LastTry: the site's last successful read was its last attempt, so the page gives the
	// time once.
	LastTry bool
}

func (b *builder) originPages() error {
	od := &originsData{}
	for _, o := range b.N.Origins {
		if health.Enrolled(o) {
			od.Read = append(od.Read, b.SiteRow(o))
		} else {
			od.Unenrolled = append(od.Unenrolled, b.SiteRow(o))
		}
	}
	read := od.Read
	if err := b.PagedList("origins", &render.Page{Path: "origins/index.html", Title: "Sites", Section: "origins",
		Desc: "Every DreamWeave site index this index reads: its health and the projects it lists."}, len(read),
		func(lo, hi int, pg *render.Pager) any {
			pd := &originsData{Read: read[lo:hi]}
			if pg == nil || pg.N == 1 {
				pd.Unenrolled = od.Unenrolled
			}
			return pd
		}); err != nil {
		return err
	}
	for _, o := range b.N.Origins {
		v := &originView{OriginRow: b.SiteRow(o), HealthWhy: view.OriginHealthText(o.Health)}
		v.LastTry = o.LastSuccess != nil && *o.LastSuccess == o.LastAttempt
		for _, is := range o.Issues {
			v.Issues = append(v.Issues, health.QuoteFor(health.Sentence(health.Capitalize(is)), o))
		}
		for _, c := range o.Claims {
			v.Claims = append(v.Claims, b.Summarize(c))
		}
		for _, s := range b.N.Sources {
			if s.Origin != nil && *s.Origin == o.ID {
				v.Sources = append(v.Sources, b.SourceRow(s))
			}
		}
		if err := b.Page("origin", &render.Page{Path: paths.Origin(o.ID), Title: "Site " + pubtext.Plain(b.Names.OriginText(o)), Section: "origins",
			Desc: "One DreamWeave site index as this index observed it: health, problems and the projects it lists.", Data: v}); err != nil {
			return err
		}
	}
	return nil
}

// releaseRow is a claim in the releases list: its current release with the channel it heads
// and its publisher's date, and the heads of its other channels.
type releaseRow struct {
	C       *network.Claim
	Current *network.Release
	// Channel is the channel Current heads; Others are the heads that are not Current.
	Channel string
	Others  []network.Head
	Date    string
}

func (b *builder) releasesPage() error {
	var rows []*releaseRow
	for _, c := range b.N.Listed {
		r := &releaseRow{C: c, Current: c.Current, Channel: c.CurrentChannel}
		if c.Current != nil {
			r.Date = c.Current.Date
		}
		for _, h := range c.Heads {
			if h.Release != c.Current {
				r.Others = append(r.Others, h)
			}
		}
		rows = append(rows, r)
	}
	// Newest publisher date first; then by name and key, so equal dates keep a fixed order.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Date != rows[j].Date {
			return rows[i].Date > rows[j].Date
		}
		a, b := strings.ToLower(rows[i].C.Name), strings.ToLower(rows[j].C.Name)
		if a != b {
			return a < b
		}
		return rows[i].C.Key.Less(rows[j].C.Key)
	})
	return b.PagedList("releases", &render.Page{Path: "releases/index.html", Title: "Releases", Section: "releases",
		Desc: "The current release and channel heads of every claim in the catalog."}, len(rows),
		func(lo, hi int, _ *render.Pager) any { return rows[lo:hi] })
}

type updatesData struct {
	Tag string
	// Events are this page's updates, of Total.
	Events []*view.EventView
	Tags   []view.TagLink
	Total  int
	// Whole: every update carries Tag, more than a page of them, so its list is the updates
	// list itself, in the same order: its one page says so and links there.
	Whole bool
}

func (b *builder) updatePages() error {
	links := view.TagLinks(b.Derived.Tags)
	list := func(first *render.Page, tag string, evs []*view.EventView) error {
		if tag != "" && len(evs) == len(b.Derived.Events) && len(evs) > render.PageSize {
			first.Data = &updatesData{Tag: tag, Tags: links, Total: len(evs), Whole: true}
			return b.Page("updates", first)
		}
		return b.PagedList("updates", first, len(evs), func(lo, hi int, _ *render.Pager) any {
			return &updatesData{Tag: tag, Events: evs[lo:hi], Tags: links, Total: len(evs)}
		})
	}
	if err := list(&render.Page{Path: "updates/index.html", Title: "Updates", Section: "updates",
		Desc: "What changed in the projects this index reads, newest first."}, "", b.Derived.Events); err != nil {
		return err
	}
	for _, t := range b.Derived.Tags {
		if err := list(&render.Page{Path: paths.Tag(t), Title: "Updates tagged " + t, Section: "updates",
			Desc: "Updates with one tag, newest first."}, t, b.Derived.ByTag[t]); err != nil {
			return err
		}
	}
	for _, e := range b.Derived.Events {
		if err := b.Page("event", &render.Page{Path: paths.Event(e.ID), Title: e.Title, Section: "updates", Unmapped: true, Leaf: true, Data: e}); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) conflictsPage() error {
	d := &view.ConflictsData{Unmatched: b.N.Unmatched}
	for _, c := range b.N.Conflicts {
		d.Conflicts = append(d.Conflicts, view.ConflictRow{Conflict: c, ProjectPath: b.ProjectLink(c.Project)})
	}
	for _, m := range b.N.Moves {
		d.Moves = append(d.Moves, b.MoveView(m))
	}
	return b.Page("conflicts", &render.Page{Path: "conflicts/index.html", Title: "Identity conflicts and moves", Section: "conflicts",
		Desc: "Project ids that more than one site lists, and claims that moved between sites on evidence.", Data: d})
}

func (b *builder) capabilityPages() error {
	caps := view.CapViews(b.N)
	if err := b.Page("capabilities", &render.Page{Path: "capabilities/index.html", Title: "Capabilities", Section: "capabilities",
		Desc: "Capabilities that current releases provide or reference.", Data: struct{ Capabilities []*view.CapView }{caps}}); err != nil {
		return err
	}
	for _, c := range caps {
		if err := b.Page("capability", &render.Page{Path: c.Path, Title: "Capability " + pubtext.Plain(c.Name), Section: "capabilities",
			Desc: "One capability: which current releases provide it and which reference it.", Data: c}); err != nil {
			return err
		}
	}
	return nil
}

type dependenciesData struct {
	N *network.Network
	// First: this is the list's first page, which has the graph, the cycles and the link to
	// the claims others require; the relationships are paged beneath.
	First bool
	// UsedBy counts the claims others require (listed on usedByPath).
	UsedBy int
	Graph  *graphInfo
	// Groups are this page's relationships (network.Relationships), of Total, under the
	// release that states them.
	Groups []depGroup
	Total  int
}

// depGroup is the relationships of one claim's current release on one page of the list: the
// claim is named once, above them.
type depGroup struct {
	From    *network.Claim
	Version string
	Rels    []*view.RelView
}

// depGroups groups rels, in order, by the claim and release that state them: a claim's
// relationships are consecutive, so each claim heads one group a page (a second one when its
// relationships run on to the next page).
func depGroups(rels []*view.RelView) []depGroup {
	var out []depGroup
	for i := 0; i < len(rels); {
		j := i + 1
		for j < len(rels) && rels[j].From == rels[i].From && rels[j].Release == rels[i].Release {
			j++
		}
		out = append(out, depGroup{From: rels[i].From, Version: rels[i].Release.Release.Version, Rels: rels[i:j]})
		i = j
	}
	return out
}

// usedByPath is the list of claims other claims' current releases require, each with who
// requires it.
const usedByPath = "dependencies/used-by/index.html"

// usedByData is one page of the used-by list.
type usedByData struct {
	Claims []*network.Claim
	Total  int
}

func (b *builder) dependenciesPage() error {
	rels := view.RelViews(b.N.Relationships)
	var used []*network.Claim
	for _, c := range view.ByName(b.N.Listed) {
		if len(c.UsedBy) > 0 {
			used = append(used, c)
		}
	}
	g, err := b.graph()
	if err != nil {
		return err
	}
	if err := b.PagedList("dependencies", &render.Page{Path: "dependencies/index.html", Title: "Dependencies", Section: "dependencies",
		Desc: "Every relationship of every current release, resolved against the catalog, and which claims are required by others."}, len(rels),
		func(lo, hi int, pg *render.Pager) any {
			return &dependenciesData{N: b.N, First: pg == nil || pg.N == 1, UsedBy: len(used), Graph: g, Groups: depGroups(rels[lo:hi]), Total: len(rels)}
		}); err != nil {
		return err
	}
	return b.PagedList("used-by", &render.Page{Path: usedByPath, Title: "Projects others require", Section: "dependencies",
		Desc: "Each claim that another claim's current release requires, with the claims that require it."}, len(used),
		func(lo, hi int, _ *render.Pager) any { return &usedByData{Claims: used[lo:hi], Total: len(used)} })
}

func (b *builder) gapsPage() error {
	return b.Page("gaps", &render.Page{Path: "gaps/index.html", Title: "Gaps", Section: "gaps",
		Desc: "Relationship targets that no site in this index publishes, and addresses to look at.", Data: b.N})
}

type healthData struct {
	N *network.Network
	// Summary counts sources, sites and claims by health, failures first.
	Summary []*healthCount
	// Sources, Sites and Claims in the order shown: failures first, then the rest; sources
	// and sites no longer enrolled last. Claims are those that are not current.
	Sources []*view.SourceRow
	Sites   []*view.OriginRow
	Claims  []*network.Claim
	// Cards are the claims whose card image cannot be shown, with why.
	Cards []*cardProblem
}

// healthCount is one line of the health page's summary: what is counted ("sites") and the
// count of each health, failures first.
type healthCount struct {
	// What is the count in words ("14 sites"); Anchor, when set, is where its entries are.
	What   string
	Anchor string
	Parts  []healthPart
}

// healthPart is a count of one health: Text says it with its count ("3 healthy", "1 healthy
// with 2 claims cached"); Anchor is the first entry with it ("" for none), Bad marks a failure,
// Rank orders the parts (failures first).
type healthPart struct {
	Label  string
	N      int
	Extra  int // what the label counts besides the entries (cached claims of healthy sites)
	Text   string
	Anchor string
	Bad    bool
	Rank   int
}

type cardProblem struct {
	C    *network.Claim
	Card *cards.Image
}

// tally counts labels (of one rank) in first-seen order, remembering the first anchor of each.
type tally struct {
	parts []healthPart
	at    map[string]int
}

func (t *tally) add(label, anchor string, rank int, bad bool, extra int) {
	if t.at == nil {
		t.at = map[string]int{}
	}
	key := strconv.Itoa(rank) + " " + label // one label of two ranks is two groups
	i, ok := t.at[key]
	if !ok {
		i = len(t.parts)
		t.at[key] = i
		t.parts = append(t.parts, healthPart{Label: label, Anchor: anchor, Bad: bad, Rank: rank})
	}
	t.parts[i].N++
	t.parts[i].Extra += extra
}

// sorted orders the parts by rank (failures first), then as the labels were first seen, and
// words each: the count, then the label, with what the label counts besides (Extra) after
// "with" when cached says the noun.
func (t *tally) sorted(cached string) []healthPart {
	out := append([]healthPart(nil), t.parts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	for i := range out {
		p := &out[i]
		p.Text = strconv.Itoa(p.N) + " " + p.Label
		if p.Extra > 0 && cached != "" {
			p.Text += " with " + wording.Plural(p.Extra, cached, cached+"s") + " cached"
		}
	}
	return out
}

// sourceRank orders sources on the health page: not resolved first, then resolved, then no
// longer enrolled.
func sourceRank(s store.Source) int {
	switch s.Health {
	case store.SourceResolved:
		return 1
	case store.SourceRemoved:
		return 2
	}
	return 0
}

// claimRank orders claims: no manifest yet, then cached, then current, then withdrawn.
func claimRank(c *network.Claim) int {
	switch health.StalenessOf(c) {
	case health.StaleNever:
		return 0
	case health.StaleCached:
		return 1
	case health.StaleNone:
		return 2
	}
	return 3
}

// siteSummaryLabel is a site's health as the Health page's summary counts it: like
// view.SiteHealthText, but sites with cached claims are one group whatever their count ("healthy",
// then "with N claims cached" from the tally).
func siteSummaryLabel(r *view.OriginRow) string {
	if health.Enrolled(r.O) {
		return store.OriginHealthLabel(r.O.Health)
	}
	return "no longer enrolled"
}

func (b *builder) healthPage() error {
	d := &healthData{N: b.N}
	sources := append([]store.Source(nil), b.N.Sources...)
	sort.SliceStable(sources, func(i, j int) bool { return sourceRank(sources[i]) < sourceRank(sources[j]) })
	for _, s := range sources {
		d.Sources = append(d.Sources, b.SourceRow(s))
	}
	var src tally
	for _, s := range d.Sources {
		switch s.Health {
		case store.SourceResolved:
			src.add("resolved", health.SourceAnchor(s.URL), 1, false, 0)
		case store.SourceRemoved:
			src.add("no longer enrolled", health.SourceAnchor(s.URL), 2, false, 0)
		default:
			src.add("not resolved", health.SourceAnchor(s.URL), 0, true, 0)
		}
	}
	for _, o := range b.N.Origins {
		d.Sites = append(d.Sites, b.SiteRow(o))
	}
	sort.SliceStable(d.Sites, func(i, j int) bool { return view.SiteRank(d.Sites[i]) < view.SiteRank(d.Sites[j]) })
	var sites tally
	for _, r := range d.Sites {
		// Read sites with cached claims (rank 1) count apart from those without (rank 2).
		sites.add(siteSummaryLabel(r), health.SiteAnchor(r.O.ID), view.SiteRank(r), view.SiteRank(r) < 2, r.Stale)
	}
	var claims tally
	for _, c := range view.ByName(b.N.Claims) {
		st := health.StalenessOf(c)
		if st == health.StaleNone {
			claims.add("current", "", claimRank(c), false, 0)
			continue
		}
		claims.add(health.CountedText(c), health.ClaimAnchor(c), claimRank(c), st != health.StaleWithdrawn, 0)
		d.Claims = append(d.Claims, c)
	}
	sort.SliceStable(d.Claims, func(i, j int) bool { return claimRank(d.Claims[i]) < claimRank(d.Claims[j]) })
	for _, c := range view.ByName(b.N.Claims) {
		if ci := b.Cards[c.Key]; ci != nil && ci.Problem != "" {
			d.Cards = append(d.Cards, &cardProblem{C: c, Card: ci})
		}
	}
	d.Summary = []*healthCount{
		{What: wording.Plural(len(d.Sources), "source", "sources"), Parts: src.sorted("")},
		{What: wording.Plural(len(d.Sites), "site", "sites"), Parts: sites.sorted("claim")},
		{What: wording.Plural(len(b.N.Claims), "claim", "claims"), Parts: claims.sorted("")},
	}
	if len(d.Cards) > 0 {
		d.Summary = append(d.Summary, &healthCount{Anchor: "cards",
			What: wording.Plural(len(d.Cards), "card image cannot be shown", "card images cannot be shown")})
	}
	return b.Page("health", &render.Page{Path: "health/index.html", Title: "Network health", Section: "health",
		Desc: "Every source with its discovery trail, every site with its last problem, every claim that is not current and why.", Data: d})
}

// publishersData is the page for publishers: the user agent this build's crawler sends, what
// the state recorded, and where the index's repository is.
type publishersData struct {
	UserAgent  string
	Crawler    string
	ObservedAt string
	Repository string
}

// handWritten are the hand-written pages, each with its template,
// path, title and description.
var handWritten = []struct{ kind, path, title, desc string }{
	{"about", "about/index.html", "About this index", "How this index works."},
	{"about-trust", "about/trust/index.html", "What this index says, and what it never says", "The words this index uses about projects, and why."},
	{"about-digests", "about/digests/index.html", "What a digest proves", "What a SHA-256 digest in a DreamWeave document proves and what it does not."},
	{"about-listing", "about/listing/index.html", "What being listed means", "What it means for a site to be read by this index."},
	{"about-updates", "about/updates/index.html", "The updates vocabulary", "The tags and change kinds on the updates pages."},
	{"about-publishers", PublishersPage, "If you publish a DreamWeave site", "For publishers: when changes show, how to check files before deploying, how to be added or removed, and the crawler's user agent."},
	{"about-state", "about/state/index.html", "The state, and the reference index", "Where the state and the published files follow the reference index, and every deliberate difference, with why."},
}

func (b *builder) aboutPages() error {
	pub := &publishersData{UserAgent: product.UserAgent, Repository: b.Repo}
	if s := b.N.State; s != nil {
		pub.Crawler, pub.ObservedAt = s.Crawler, s.ObservedAt
	}
	for _, a := range handWritten {
		var data any = b.N
		switch a.kind {
		case "about-publishers":
			data = pub
		case "about-state":
			data = stateDifferences{Publish: PublishDifferences, Crawl: CrawlDifferences, Records: store.Differences}
		}
		if err := b.Page(a.kind, &render.Page{Path: a.path, Title: a.title, Section: "about", Desc: a.desc, Data: data}); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) notFound() error {
	return b.Page("notfound", &render.Page{Path: notFoundPage, Title: "Page not found", Rooted: true,
		Desc: "This page does not exist."})
}
