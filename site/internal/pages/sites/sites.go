// Package sites renders the pages about sites and how the network holds together: the sites,
// conflicts and moves, capabilities, dependencies (with the graph), gaps and health.
package sites

import (
	"html/template"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/graph"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

type originsData struct {
	// Read are the sites some enrolled source leads to; Unenrolled those kept as records.
	Read, Unenrolled []*view.OriginRow
}

type originView struct {
	*view.OriginRow
	Claims  []*view.ClaimSummary
	Sources []*view.SourceRow
	// HealthWhy explains the site's health (view.OriginHealthText).
	HealthWhy string
	// Issues are the site's publication issues, each a sentence (health.ClauseHTML).
	Issues []template.HTML
	// LastTry: the last successful read was the last attempt, so the time is given once.
	LastTry bool
	// First: this is the site's first page, with its record, issues and discovery; Claims
	// are this page's projects.
	First bool
}

func Origins(b *render.Site) error {
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
			v.Issues = append(v.Issues, health.ClauseHTML("", is))
		}
		for _, c := range o.Claims {
			v.Claims = append(v.Claims, b.Summarize(c))
		}
		for _, s := range b.N.Sources {
			if s.Origin != nil && *s.Origin == o.ID {
				v.Sources = append(v.Sources, b.SourceRow(s))
			}
		}
		if err := b.PagedList("origin", &render.Page{Path: paths.Origin(o.ID), Title: "Site " + pubtext.Plain(b.Names.OriginText(o)), Section: "origins",
			Desc: "One DreamWeave site index as this index observed it: health, problems and the projects it lists."}, len(v.Claims),
			func(lo, hi int, pg *render.Pager) any {
				pv := *v
				pv.Claims, pv.First = v.Claims[lo:hi], pg == nil || pg.N == 1
				return &pv
			}); err != nil {
			return err
		}
	}
	return nil
}

// Conflicts writes the conflicts list: the identity conflicts, the moves and the curation
// entries that match nothing, paged one section after the other.
func Conflicts(b *render.Site) error {
	d := &view.ConflictsData{Unmatched: b.N.Unmatched}
	for _, c := range b.N.Conflicts {
		d.Conflicts = append(d.Conflicts, view.ConflictRow{Conflict: c, ProjectPath: b.ProjectLink(c.Project)})
	}
	for _, m := range b.N.Moves {
		d.Moves = append(d.Moves, b.MoveView(m))
	}
	return b.PagedList("conflicts", &render.Page{Path: "conflicts/index.html", Title: "Identity conflicts and moves", Section: "conflicts",
		Desc: "Project ids that more than one site lists, and claims that moved between sites on evidence."}, len(d.Conflicts)+len(d.Moves)+len(d.Unmatched),
		func(lo, hi int, _ *render.Pager) any {
			parts := render.Cut(lo, hi, len(d.Conflicts), len(d.Moves), len(d.Unmatched))
			return &view.ConflictsData{Conflicts: d.Conflicts[parts[0].A:parts[0].B], Moves: d.Moves[parts[1].A:parts[1].B],
				Unmatched: d.Unmatched[parts[2].A:parts[2].B], Show: [2]bool{parts[0].Show, parts[1].Show}}
		})
}

// capsData is one page of the capabilities list, each with the first ProvidersListed
// providers and how many more its page lists.
type capsData struct {
	Caps []capRow
}

// capRow is one capability on the capabilities list.
type capRow struct {
	*view.CapView
	Providers []*network.Claim
	More      int
}

// ProvidersListed is how many providers the capabilities list names on a line.
const ProvidersListed = 5

// capData is one page of a capability's page: providers, then referring releases, paged
// (render.Cut).
type capData struct {
	*view.CapView
	Providers  []*network.Claim
	References []*view.RelView
	// Show says whether the page prints the providers and the references sections.
	Show [2]bool
}

// Capabilities writes the capabilities list, paged by capability, and each capability's
// page, paged by provider and reference.
func Capabilities(b *render.Site) error {
	caps := b.CapViews()
	if err := b.PagedList("capabilities", &render.Page{Path: "capabilities/index.html", Title: "Capabilities", Section: "capabilities",
		Desc: "Capabilities that current releases provide or reference."}, len(caps),
		func(lo, hi int, _ *render.Pager) any {
			d := &capsData{}
			for _, c := range caps[lo:hi] {
				r := capRow{CapView: c, Providers: c.Capability.Providers}
				if len(r.Providers) > ProvidersListed {
					r.Providers, r.More = r.Providers[:ProvidersListed], len(r.Providers)-ProvidersListed
				}
				d.Caps = append(d.Caps, r)
			}
			return d
		}); err != nil {
		return err
	}
	for _, c := range caps {
		provs, refs := c.Capability.Providers, c.References
		if err := b.PagedList("capability", &render.Page{Path: c.Path, Title: "Capability " + pubtext.Plain(c.Name), Section: "capabilities",
			Desc: "One capability: which current releases provide it and which reference it."}, len(provs)+len(refs),
			func(lo, hi int, _ *render.Pager) any {
				parts := render.Cut(lo, hi, len(provs), len(refs))
				return &capData{CapView: c, Providers: provs[parts[0].A:parts[0].B], References: refs[parts[1].A:parts[1].B],
					Show: [2]bool{parts[0].Show, parts[1].Show}}
			}); err != nil {
			return err
		}
	}
	return nil
}

type dependenciesData struct {
	N *network.Network
	// First: the list's first page, with the graph, the cycles and the used-by link.
	First bool
	// UsedBy counts the claims others require (listed on paths.UsedBy).
	UsedBy int
	Graph  *graph.Info
	// Groups are this page's relationships, of Total, under their stating release.
	Groups []depGroup
	Total  int
}

// depGroup is the relationships of one claim's current release on one page.
type depGroup struct {
	From    *network.Claim
	Version string
	Rels    []*view.RelView
}

// depGroups groups rels, in order, by stating claim and release; a claim's relationships
// are consecutive, so it heads one group a page.
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

// usedByData is one page of the used-by list.
type usedByData struct {
	Rows  []usedByRow
	Total int
}

// usedByRow is one claim of the used-by list: the first UsedByListed claims requiring it,
// and how many more and their page (paths.UsedByOf).
type usedByRow struct {
	C        *network.Claim
	Users    []*network.Claim
	More     int
	MorePath string
}

// UsedByListed is how many of the claims requiring it the used-by list names on a line,
// keeping lines and pages bounded; the rest are one link away (paths.UsedByOf).
const UsedByListed = 5

// usedByOneData is one page of the list of every claim requiring Of.
type usedByOneData struct {
	Of     *network.Claim
	Claims []*network.Claim
	Total  int
}

func Dependencies(b *render.Site) error {
	rels := b.RelViews(b.N.Relationships)
	var used []*network.Claim
	for _, c := range view.ByName(b.N.Listed) {
		if len(c.UsedBy) > 0 {
			used = append(used, c)
		}
	}
	g, err := graph.Graph(b)
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
	if err := b.PagedList("used-by", &render.Page{Path: paths.UsedBy, Title: "Projects others require", Section: "dependencies",
		Desc: "Each claim that another claim's current release requires, with the claims that require it."}, len(used),
		func(lo, hi int, _ *render.Pager) any {
			d := &usedByData{Total: len(used)}
			for _, c := range used[lo:hi] {
				r := usedByRow{C: c, Users: c.UsedBy}
				if len(c.UsedBy) > UsedByListed {
					r.Users, r.More, r.MorePath = c.UsedBy[:UsedByListed], len(c.UsedBy)-UsedByListed, paths.UsedByOf(c.Project, c.Site)
				}
				d.Rows = append(d.Rows, r)
			}
			return d
		}); err != nil {
		return err
	}
	for _, c := range used {
		if len(c.UsedBy) <= UsedByListed {
			continue
		}
		users := c.UsedBy
		if err := b.PagedList("used-by-one", &render.Page{Path: paths.UsedByOf(c.Project, c.Site), Title: "Projects that require " + pubtext.Plain(c.Name) + " from " + pubtext.Plain(b.Names.ClaimSiteText(c)),
			Section: "dependencies", Desc: "Every claim whose current release requires one claim."}, len(users),
			func(lo, hi int, _ *render.Pager) any {
				return &usedByOneData{Of: c, Claims: users[lo:hi], Total: len(users)}
			}); err != nil {
			return err
		}
	}
	return nil
}

// gapsData is one page of the gaps list: the rows of each section it shows, by gap.
type gapsData struct {
	// Groups are the four sections' gaps on this page (view.GapRows' order), Empty the
	// references with nothing to group by, Candidates the addresses to look at.
	Groups     [4][]gapGroup
	Empty      []*network.Relationship
	Candidates []*network.Candidate
	// Show says which of the six sections the page prints (render.Cut).
	Show [6]bool
}

// gapGroup is one gap's references on one page; First: its first one is here, with the
// gap named in full and its anchor.
type gapGroup struct {
	Gap    *network.Gap
	Anchor string
	Refs   []*network.Relationship
	First  bool
}

// Gaps writes the gaps list, paged by reference, a gap named again on each page.
func Gaps(b *render.Site) error {
	g := b.N.Gaps
	rows := view.GapRows(g)
	n := len(g.Empty) + len(g.Candidates)
	for _, r := range rows {
		n += len(r)
	}
	return b.PagedList("gaps", &render.Page{Path: view.GapsPage, Title: "Gaps", Section: "gaps",
		Desc: "Relationship targets that no site in this index publishes, and addresses to look at."}, n,
		func(lo, hi int, _ *render.Pager) any {
			d := &gapsData{}
			parts := render.Cut(lo, hi, len(rows[0]), len(rows[1]), len(rows[2]), len(rows[3]), len(g.Empty), len(g.Candidates))
			for i, p := range parts {
				d.Show[i] = p.Show
				if i < 4 {
					d.Groups[i] = gapGroups(rows[i], p.A, p.B)
				}
			}
			d.Empty, d.Candidates = g.Empty[parts[4].A:parts[4].B], g.Candidates[parts[5].A:parts[5].B]
			return d
		})
}

// gapGroups groups rows[a:b] by gap.
func gapGroups(rows []view.GapRow, a, b int) []gapGroup {
	var out []gapGroup
	for i := a; i < b; i++ {
		r := rows[i]
		if len(out) == 0 || out[len(out)-1].Gap != r.Gap {
			out = append(out, gapGroup{Gap: r.Gap, Anchor: view.GapAnchor(r.Gap), First: i == 0 || rows[i-1].Gap != r.Gap})
		}
		if r.Ref != nil {
			out[len(out)-1].Refs = append(out[len(out)-1].Refs, r.Ref)
		}
	}
	return out
}
