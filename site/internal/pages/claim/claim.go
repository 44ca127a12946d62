// Package claim renders the pages of one project and one claim: the project page when
// several sites claim it, and each claim's page by section.
package claim

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// claimPages are every project's page and every claim's page.
func Claims(b *render.Site) error {
	for _, p := range b.N.Projects {
		pg := &render.Page{Path: paths.Project(p.ID), Title: view.ProjectTitle(p), Section: "projects", Feed: paths.ProjectFeed(p.ID), Data: newProjectView(b, p)}
		if len(p.Claims) == 1 {
			pg.Unmapped, pg.Data = true, p.Claims[0]
		}
		if err := b.Page(view.ProjectKind(p), pg); err != nil {
			return err
		}
		for _, c := range p.Claims {
			pg := &render.Page{Path: paths.ClaimKey(c), Title: pubtext.Plain(c.Name) + " from " + pubtext.Plain(b.Names.ClaimSiteText(c)), Section: "projects", Feed: paths.ProjectFeed(c.Project), Leaf: true}
			if err := b.Page("claim", pg, func() any { return newClaimView(b, c, pg) }); err != nil {
				return err
			}
		}
	}
	return nil
}

type projectView struct {
	P      *network.Project
	Claims []*view.ClaimSummary
	// Names are the distinct names the claims publish for the id, in claim order.
	Names []string
}

// claimView is the claim page: the claim's list entry (S), then its sections' fields. No
// field is embedded: a template's lookup of a promoted field allocates on every page.
type claimView struct {
	S *view.ClaimSummary
	C *network.Claim
	// The head: the project, its metadata and links, and related claims (setHead).
	Project *network.Project
	// ProjectPath is the project's page, "" when this is the project's one claim (no
	// breadcrumb then); Names the names the project's claims publish.
	ProjectPath string
	Names       []string
	License     string
	Scheme      string
	Meta        *protocol.Project
	Links       []linkView
	// Others are the other claims for the same project id.
	Others []*network.Claim
	// LookAlikes are listed claims of other ids whose name looks like this one's;
	// LookAlikesMore counts those not named.
	LookAlikes     []*network.Claim
	LookAlikesMore int
	// MovedTo is the move away from the claim (nil when none); MovedFrom the moves to it.
	MovedTo   *view.MoveView
	MovedFrom []*view.MoveView
	// The releases section (setReleases).
	Releases []*releaseView
	// NoSeen: no release has a recorded first-seen time. SameSeen is the one event in which
	// every release was first seen, said once in the list.
	NoSeen   bool
	SameSeen *view.EventView
	// Common is the first release other than the current one when there are two or more;
	// CommonRuntimes, CommonPlatforms and CommonRelationships say every non-current release
	// shares Common's, which differ from the current one's: said once in the list.
	Common                                               *releaseView
	CommonRuntimes, CommonPlatforms, CommonRelationships bool
	// Now is the current release as the first screen shows it; nil when there is none.
	Now *releaseView
	// Shown are the releases listed open: the current one, then the heads of the other
	// channels but development. Behind are the rest, in manifest order, behind a disclosure.
	Shown, Behind []*releaseView
	// TagsAreVersions: every non-current release is in the current one's repository with its
	// version as source tag and no other source fact; said once.
	TagsAreVersions bool
	// CommonChannel: every non-current release is on the current one's channel; said once.
	CommonChannel bool
	// SourceIsLink: the current release's source repository is the project's Source link.
	SourceIsLink bool
	// What refers to the claim (setUses). Referenced are the current relationships resolving
	// to it that Used by does not count: all but another claim's requires.
	Referenced []*referenceView
	// RefMoreCaps are the capabilities of the references past the first UsedByShown, whose
	// pages list them (view.CapRefs); RefMoreByID: some of those name this project id. Both
	// empty when Referenced is all.
	RefMoreCaps []capLink
	RefMoreByID bool
	// UsedBy are the first UsedByShown claims whose current release requires this one;
	// UsedByMore is the page listing them all (paths.UsedByOf), "" when UsedBy is all.
	UsedBy     []*network.Claim
	UsedByMore string
	// Events are the claim's updates, worded without the claim's name and site.
	Events []claimEvent
	// ReadOK: the last read attempt succeeded. SameDigest: the held manifest is the advertised
	// one.
	ReadOK, SameDigest bool
}

// claimEvent is an update in the claim page's list: the event and what it says of the claim.
type claimEvent struct {
	E       *view.EventView
	Summary string
}

// UsedByShown is how many of the claims requiring it a claim page names.
const UsedByShown = 20

// runtimeView is one runtime a release names with its constraint (under the numeric scheme).
type runtimeView struct{ ID, Constraint string }

type linkView struct{ Label, URL string }

// referenceView is one relationship pointing at the page's claim and how it resolved
// ("project" or "capability", network.Resolution.By).
type referenceView struct {
	R  *network.Relationship
	By string
	// Verb is the kind as a verb phrase (wording.RelationVerb); Anchor the referring
	// release's id on its page; CapPath the capability's page.
	Verb, Anchor, CapPath string
}

// capLink is a capability and its page.
type capLink struct{ Name, Path string }

// development is the channel of rolling builds (SPEC section 1, "Channels").
const development = "development"

type extView struct {
	Name string
	JSON string
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

// sameSeen is the event in which every one of releases was first seen, else nil.
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

// sameJSON reports whether a and b encode to the same JSON, whatever their nil slices.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func newProjectView(b *render.Site, p *network.Project) *projectView {
	v := &projectView{P: p, Names: view.ClaimNames(p.Claims)}
	for _, c := range p.Claims {
		v.Claims = append(v.Claims, b.Summarize(c))
	}
	return v
}

func newClaimView(b *render.Site, c *network.Claim, pg *render.Page) *claimView {
	v := &claimView{S: b.Summarize(c), C: c}
	v.setHead(b, c)
	v.setReleases(b, c, pg)
	v.setUses(b, c)
	for _, e := range b.Derived.ByClaim[c.Key] {
		s := tags.Summary(*e.Event)
		if s == "" {
			s = e.Title
		}
		v.Events = append(v.Events, claimEvent{e, s})
	}
	v.ReadOK = c.Record.LastSuccess != nil && *c.Record.LastSuccess == c.Record.LastAttempt
	v.SameDigest = c.HeldSHA256 != "" && c.HeldSHA256 == c.Record.AdvertisedSHA256
	return v
}

// setHead fills the page head of c.
func (h *claimView) setHead(b *render.Site, c *network.Claim) {
	h.Project, h.ProjectPath = b.N.ByProject[c.Project], paths.Project(c.Project)
	h.Names = view.ClaimNames(h.Project.Claims)
	if len(h.Project.Claims) == 1 {
		h.ProjectPath = ""
	}
	if c.MovedTo != nil {
		h.MovedTo = b.MoveView(c.MovedTo)
	}
	for _, m := range c.MovedFrom {
		h.MovedFrom = append(h.MovedFrom, b.MoveView(m))
	}
	for _, o := range h.Project.Claims {
		if o != c {
			h.Others = append(h.Others, o)
		}
	}
	h.LookAlikes, h.LookAlikesMore = b.Looks.LookAlikes(c)
	if m := c.Manifest; m != nil {
		h.Meta = &m.Project
		h.License = m.Project.License
		h.Scheme = string(c.Scheme)
		l := m.Project.Links
		for _, lv := range []linkView{{"Project page", l.Page}, {"Source", l.Source}, {"Issues", l.Issues},
			{"Documentation", l.Documentation}, {"Support", l.Support}, {"Donate", l.Donate},
			{"Homepage", l.Homepage}, {"Nexus Mods", l.Nexusmods}, {"Crate", l.Crate}} {
			if lv.URL != "" {
				h.Links = append(h.Links, lv)
			}
		}
	}
}

// setReleases fills the releases section of c, after setHead (it reads Meta).
func (v *claimView) setReleases(b *render.Site, c *network.Claim, pg *render.Page) {
	meta := v.Meta
	seen := b.Derived.FirstSeen[c.Key]
	v.NoSeen = len(seen) == 0
	used := map[string]int{}
	for _, r := range c.Releases {
		rv := newReleaseView(b, r, seen[r.Version])
		if n := used[rv.Anchor]; n > 0 { // the same version twice: keep ids unique
			rv.Anchor = fmt.Sprintf("%s-%d", rv.Anchor, n+1)
		}
		used[rv.Anchor]++
		v.Releases = append(v.Releases, rv)
	}
	v.Now, v.Shown, v.Behind = splitReleases(v.Releases)
	if v.Now != nil {
		compareToNow(v.Releases, v.Now)
	}
	v.SameSeen = sameSeen(v.Releases)
	v.setCommon()
	v.SourceIsLink = v.Now != nil && meta != nil && meta.Links.Source != "" && v.Now.R.Source.Repository == meta.Links.Source
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
	for _, rv := range v.Releases {
		rv.setLine(v, pg)
	}
}

// compareToNow marks what each release other than now shares with now, encoding now's parts
// once.
func compareToNow(releases []*releaseView, now *releaseView) {
	parts := func(rv *releaseView) []any {
		return []any{rv.R.Components, rv.R.Groups, rv.OpenMW, rv.R.Runtimes, rv.R.Platforms, rv.R.Release.Relationships}
	}
	var nowJSON [6][]byte
	for i, p := range parts(now) {
		nowJSON[i], _ = json.Marshal(p)
	}
	kinds := map[string][2]string{}
	for _, a := range now.R.Artifacts {
		kinds[a.ID] = [2]string{a.Format, a.MediaType}
	}
	for _, rv := range releases {
		if rv == now {
			continue
		}
		var same [6]bool
		for i, p := range parts(rv) {
			b, err := json.Marshal(p)
			same[i] = err == nil && nowJSON[i] != nil && bytes.Equal(b, nowJSON[i])
		}
		rv.SameRepository = rv.R.Source.Repository == now.R.Source.Repository
		rv.SameComponents, rv.SameOpenMW = same[0] && same[1], rv.OpenMW != nil && same[2]
		rv.SameRuntimes, rv.SamePlatforms, rv.SameRelationships = same[3], same[4], same[5]
		for i := range rv.Artifacts {
			a := rv.Artifacts[i].A
			k, ok := kinds[a.ID]
			rv.Artifacts[i].ShowKind = !ok || k != [2]string{a.Format, a.MediaType}
		}
	}
}

// setUses fills what refers to c: its references, bounded, and the claims requiring it.
func (v *claimView) setUses(b *render.Site, c *network.Claim) {
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
	v.UsedBy = c.UsedBy
	if len(v.Referenced) > UsedByShown {
		caps := map[string]bool{}
		for _, rv := range v.Referenced[UsedByShown:] {
			if rv.By == "capability" {
				caps[rv.R.Capability] = true
			} else {
				v.RefMoreByID = true
			}
		}
		for _, name := range view.Keys(caps) {
			v.RefMoreCaps = append(v.RefMoreCaps, capLink{Name: name, Path: view.CapRefs(b.N.Capability(name))})
		}
		v.Referenced = v.Referenced[:UsedByShown]
	}
	if len(c.UsedBy) > UsedByShown && c.Listed {
		v.UsedBy, v.UsedByMore = c.UsedBy[:UsedByShown], paths.UsedByOf(c.Project, c.Site)
	}
}
