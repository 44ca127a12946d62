package view

import (
	"html/template"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/names"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// ClaimRef is a claim as every page that links or lists it shows it, computed once per
// build (ClaimRefs) so templates print fields.
type ClaimRef struct {
	C *network.Claim
	// Path is the claim's page, relative to the output root; SitePath its site's page.
	Path, SitePath string
	// SiteEnrolled: some entry of the source list leads to the claim's site (enrolled).
	SiteEnrolled bool
	// MovedToPath is the page of the claim this one moved to ("" when it did not move).
	MovedToPath string
	// SiteLabel names the claim's site in running text; SiteText adds the site's id when
	// another label is the same (names.Names.ClaimSiteText).
	SiteLabel, SiteText string
	// SiteAddr is the site's address beside its name: its host, plus its path when another
	// site's name looks the same (names.Address).
	SiteAddr string
	// ShowID: a link to the claim shows its site's id too.
	ShowID bool
	// Badges are the claim's badges in every list (health.ClaimBadges).
	Badges []health.Badge
	// Stale is how current the claim's data is ("" when current).
	Stale health.Staleness
	// Anchor is the claim's id on the health page; HealthPath the link to it from the root.
	Anchor, HealthPath string
	// Health is the claim's health in words (health.ClaimText).
	Health string
	// Excluded says why the claim is out of the catalog ("" when listed).
	Excluded string
	// Why is the claim's health and problem as one sentence (health.ClaimWhy), for a cached
	// claim or one without a manifest; WithdrawnWhy is a withdrawal's reason.
	Why, WithdrawnWhy template.HTML
	// Findings are every finding of the last read when Why counts several (health.FindingViews).
	Findings []health.FindingView
	// Rejected is the crawler's remembered refusal of the advertised manifest (nil for none);
	// RejectedSame: Why says its problem already; RejectedWhy is its problem in words.
	Rejected     *store.Rejected
	RejectedSame bool
	RejectedWhy  template.HTML
}

// newClaimRef computes c's ClaimRef with the build's site names and health list.
func newClaimRef(sn *names.Names, hl *HealthList, c *network.Claim) *ClaimRef {
	r := &ClaimRef{C: c, Path: paths.ClaimKey(c), SiteLabel: names.SiteLabel(c), SiteText: sn.ClaimSiteText(c),
		SiteAddr: names.Address(c.Origin, sn.SharedName(c)),
		ShowID:   c.Conflict != nil || sn.SharedName(c), Badges: health.ClaimBadges(c), Stale: health.StalenessOf(c),
		Anchor: health.ClaimAnchor(c), Health: health.ClaimText(c), Excluded: health.ExcludedText(c)}
	r.HealthPath = hl.Link(r.Anchor)
	r.SitePath, r.SiteEnrolled = paths.Origin(c.Site), health.Enrolled(c.Origin)
	if m := c.MovedTo; m != nil {
		r.MovedToPath = paths.Claim(m.To.Project, m.To.Site)
	}
	switch r.Stale {
	case health.StaleCached, health.StaleNever:
		r.Why, r.Findings = health.ClaimWhy(c), health.FindingViews(c.Record.Findings)
	case health.StaleWithdrawn:
		r.WithdrawnWhy = health.WithdrawnWhy(c)
	}
	if rj := c.Record.Rejected; rj != nil {
		r.Rejected = rj
		r.RejectedSame = rj.Problem == wording.Deref(c.Record.Problem)
		if !r.RejectedSame {
			r.RejectedWhy = health.ProblemHTML(health.ClaimProblem(c, rj.Problem))
		}
	}
	return r
}

// ClaimRefs computes the ClaimRef of every claim of n.
func ClaimRefs(n *network.Network, sn *names.Names, hl *HealthList) map[*network.Claim]*ClaimRef {
	out := make(map[*network.Claim]*ClaimRef, len(n.Claims))
	for _, c := range n.Claims {
		out[c] = newClaimRef(sn, hl, c)
	}
	return out
}

// ref is the template function "ref": c's ClaimRef as ClaimRefs computed it.
func (m *Model) Ref(c *network.Claim) *ClaimRef {
	if r := m.Refs[c]; r != nil {
		return r
	}
	return newClaimRef(m.Names, m.Health, c)
}

// SiteRow is NewOriginRow with the site's page, names, health and health-page place.
func (m *Model) SiteRow(o *network.Origin) *OriginRow {
	r := NewOriginRow(o)
	r.Path, r.Name, r.Text = paths.Origin(o.ID), names.OriginName(o), m.Names.OriginText(o)
	r.Named, r.ShowID = r.Name != o.ID, r.Text != r.Name
	r.Addr = names.Address(o, true)
	r.Enrolled = health.Enrolled(o)
	r.HealthText, r.Healthy = SiteHealthText(r), SiteHealthy(r)
	r.Anchor = health.SiteAnchor(o.ID)
	r.HealthPath = m.Health.Link(r.Anchor)
	r.Out = len(o.Claims) - len(o.Listed)
	if o.Problem != nil || o.Health != store.OriginHealthy {
		r.Why, r.Findings = health.OriginWhy(o), health.FindingViews(o.Findings)
	}
	return r
}

// SourceRow is an enrolled source as the health and site pages show it.
type SourceRow struct {
	store.Source
	// Anchor is the source's id on the health page.
	Anchor string
	// SitePath, SiteName and SiteHealth are of the site the source leads to ("" for none).
	SitePath, SiteName, SiteHealth string
	// Why is why discovery failed (health.WhyHTML); "" for a resolved source.
	Why template.HTML
	// Steps are the discovery trail's URLs and outcomes (health.ProblemHTML).
	Steps []TrailStep
}

// TrailStep is one URL of a discovery trail and what came back.
type TrailStep struct {
	URL     string
	Outcome template.HTML
}

// SourceRow computes s's SourceRow.
func (m *Model) SourceRow(s store.Source) *SourceRow {
	r := &SourceRow{Source: s, Anchor: health.SourceAnchor(s.URL)}
	if s.Origin != nil {
		id := *s.Origin
		r.SitePath, r.SiteHealth, r.SiteName = paths.Origin(id), m.Health.Link(health.SiteAnchor(id)), id
		if o := m.N.OriginByID[id]; o != nil {
			r.SiteName = m.Names.OriginText(o)
		}
	}
	switch s.Health {
	case store.SourceResolved:
	case store.SourceRemoved:
		r.Why = health.WhyHTML("", s.Problem)
	default:
		r.Why = health.WhyHTML("not resolved", s.Problem)
	}
	for _, st := range s.Trail {
		r.Steps = append(r.Steps, TrailStep{URL: st.URL, Outcome: health.ProblemHTML(st.Outcome)})
	}
	return r
}

// RelView is a resolved relationship as the pages show it.
type RelView struct {
	*network.Relationship
	// CapPath is the capability's page ("" for none); Anchor the stating release's id on its
	// claim's page.
	CapPath, Anchor string
	// CheckText is the constraint check in words; YesNo is "yes" or "no" when the check came
	// out one way over the targets, else "".
	CheckText, YesNo string
	// Targets are the relationship's targets; ProjectTargets those found by project id,
	// each checked on its own (projectTargets).
	Targets, ProjectTargets []*TargetView
	// Shown are the first TargetsShown targets; MoreTargets counts the rest, which MorePath
	// lists ("" when Shown is all).
	Shown       []*TargetView
	MoreTargets int
	MorePath    string
	// Problems are the odd inputs (health.ProblemHTML).
	Problems []template.HTML
	// GapPath is the gap's place on the gaps list; "" when the relationship is no gap.
	GapPath string
	// The relationship's target kind as its line reads it: Cap names a capability (target
	// capability or both), Both a capability and a project id, ByProject a project id only,
	// Neither nothing to resolve; NamesProject: the line names the project id (target both, or
	// project with no target found). Fields: a template reads them without a call.
	Cap, Both, ByProject, Neither, NamesProject bool
}

// TargetView is one target of a relationship with its check in words.
type TargetView struct {
	*network.Resolution
	// CheckText and YesNo are as RelView's, for this target.
	CheckText, YesNo string
	// Detail is the parse error (health.ProblemHTML), "" when none.
	Detail template.HTML
}

// yesNo is a check's outcome as the pages word it: "yes", "no", or "" when not checked.
func yesNo(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "yes"
	}
	return "no"
}

// RelView computes r's RelView.
func (m *Model) RelView(r *network.Relationship) *RelView {
	v := &RelView{Relationship: r, Anchor: ReleaseAnchor(r.Release.Version), CheckText: CheckText(r.Check), YesNo: yesNo(r.Satisfied),
		Both: r.Target == network.TargetBoth, ByProject: r.Target == network.TargetProject, Neither: r.Target == network.TargetNeither}
	v.Cap, v.NamesProject = v.Both || r.Target == network.TargetCapability, v.Both || v.ByProject && len(r.Targets) == 0
	if r.Capability != "" {
		v.CapPath = paths.Capability(r.Capability)
	}
	if r.Gap != nil {
		v.GapPath = m.gaps[r.Gap]
	}
	for _, t := range r.Targets {
		tv := &TargetView{Resolution: t, CheckText: CheckText(t.Check), YesNo: yesNo(t.Satisfied)}
		if t.Detail != "" {
			tv.Detail = health.ProblemHTML(t.Detail)
		}
		v.Targets = append(v.Targets, tv)
		if t.By == "project" {
			v.ProjectTargets = append(v.ProjectTargets, tv)
		}
	}
	v.Shown = v.Targets
	if len(v.Targets) > TargetsShown {
		v.Shown, v.MoreTargets = v.Targets[:TargetsShown], len(v.Targets)-TargetsShown
		if r.Capability != "" {
			v.MorePath = v.CapPath + "#providers"
		} else {
			v.MorePath = paths.Project(r.Project)
		}
	}
	for _, p := range r.Problems {
		v.Problems = append(v.Problems, health.ProblemHTML(p))
	}
	return v
}

// TargetsShown is how many of a relationship's targets a page names; the rest are one link
// away (RelView.MorePath).
const TargetsShown = 5

// RelViews are the RelViews of rs, in order.
func (m *Model) RelViews(rs []*network.Relationship) []*RelView {
	out := make([]*RelView, len(rs))
	for i, r := range rs {
		out[i] = m.RelView(r)
	}
	return out
}

// MoveView is a move as the pages show it: its project's page and its evidence.
type MoveView struct {
	*network.Move
	// ProjectPath is where a link to the project leads (Model.ProjectLink).
	ProjectPath string
	// Evidence is the move's evidence.
	Evidence []EvidenceView
}

// EvidenceView is one reason to believe a move: its kind and where it is (health.ProblemHTML).
type EvidenceView struct {
	Kind   string
	Detail template.HTML
}

// MoveView computes m's MoveView.
func (vm *Model) MoveView(m *network.Move) *MoveView {
	v := &MoveView{Move: m, ProjectPath: vm.ProjectLink(m.Project)}
	for _, e := range m.Evidence {
		v.Evidence = append(v.Evidence, EvidenceView{Kind: e.Kind, Detail: health.ProblemHTML(e.Detail)})
	}
	return v
}

// ConflictsData is one page of the conflicts list: identity conflicts, moves and curation
// entries, paged one section after the other.
type ConflictsData struct {
	Conflicts []ConflictRow
	Moves     []*MoveView
	// Unmatched are the curation entries that match nothing (network.Network.Unmatched).
	Unmatched []string
	// Show says whether the page prints the conflicts and the moves sections (render.Cut).
	Show [2]bool
}

// ConflictRow is an identity conflict and its project link (Model.ProjectLink).
type ConflictRow struct {
	*network.Conflict
	ProjectPath string
}

// CapView is a capability and its page, with its references as RelViews.
type CapView struct {
	*network.Capability
	Path       string
	References []*RelView
	// Referrers counts the distinct claims whose current release references it.
	Referrers int
	// RefsPath is its references' heading on the page of its list (CapRefs).
	RefsPath string
}

// CapRefs is where c's references begin on its paged list; that page holds the heading
// with the id "references".
func CapRefs(c *network.Capability) string {
	return paths.PageOf(paths.Capability(c.Name), len(c.Providers)) + "#references"
}

// CapViews are the capabilities of n as their pages show them.
func (m *Model) CapViews() []*CapView {
	out := make([]*CapView, len(m.N.Capabilities))
	for i, c := range m.N.Capabilities {
		out[i] = &CapView{Capability: c, Path: paths.Capability(c.Name), References: m.RelViews(c.References), RefsPath: CapRefs(c)}
		seen := map[*network.Claim]bool{}
		for _, u := range c.Users {
			if !seen[u.From] {
				seen[u.From] = true
				out[i].Referrers++
			}
		}
	}
	return out
}
