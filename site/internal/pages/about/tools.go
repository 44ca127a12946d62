package about

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// planInput is what site/plan computes the setup and plan data from.
func PlanInput(b *render.Site) plan.Input {
	return plan.Input{Listed: b.N.Listed, Head: func(c *network.Claim) plan.Head {
		return plan.Head{Project: c.Project, Site: c.Site, SiteName: b.Names.ClaimSiteText(c), Name: c.Name,
			Page: paths.ClaimKey(c), Health: c.Health, Stale: health.StalenessOf(c) != health.StaleNone}
	}}
}

// SetupAndPlan writes the setup check and the install planner, from one plan.Setup.
func SetupAndPlan(b *render.Site) error {
	in := PlanInput(b)
	doc := plan.Setup(in)
	if err := setup(b, doc); err != nil {
		return err
	}
	return planPage(b, in, doc)
}

// setup is the setup check (plan.SetupPage): a player's openmw.cfg read in the browser
// against the setup check's data (doc), which the page loads in parts as the file names
// them (its CSP allows scripts of the site and no connection): the name indexes from
// plan.SetupDataDir, the claims from the plan page's parts.
func setup(b *render.Site, doc *plan.SetupDoc) error {
	data, parts := plan.SetupParts(doc, shards.ClaimPrefixLen(len(b.N.Listed)))
	if err := shards.Write(plan.SetupDataDir, parts, b.WriteRaw); err != nil {
		return err
	}
	return b.Page("setup", &render.Page{Path: plan.SetupPage, Title: "Check your setup", Section: "setup",
		Desc:    "Read your openmw.cfg in your browser and see what the projects in this index declare about the content files, folders and archives it loads.",
		Scripts: []string{"assets/version.js", "assets/openmwcfg.js", "assets/shards.js", "assets/setupcheck.js", "assets/setup.js"}, Offline: true, Data: data})
}

// planPage is the install planner (plan.PlanPage); its data is in parts under
// plan.PlanDataDir, which the setup page loads too.
func planPage(b *render.Site, in plan.Input, doc *plan.SetupDoc) error {
	claims := plan.Install(in, doc)
	prefix := shards.ClaimPrefixLen(len(b.N.Listed))
	parts, err := plan.InstallParts(claims, prefix)
	if err != nil {
		return err
	}
	if err := shards.Write(plan.PlanDataDir, parts, b.WriteRaw); err != nil {
		return err
	}
	data := plan.PlanPageData{Shards: shards.Plan{Claims: prefix}, Index: b.Base}
	for _, c := range claims {
		if c.Release != nil {
			data.Claims++
		}
	}
	return b.Page("plan", &render.Page{Path: plan.PlanPage, Title: "Plan an install", Section: "plan",
		Desc:    "Choose projects and get the openmw.cfg lines, settings and downloads their publishers declare, computed in your browser.",
		Scripts: []string{"assets/version.js", "assets/openmwcfg.js", "assets/shards.js", "assets/find.js", "assets/plan.js", "assets/planpage.js"}, Offline: true, Data: data})
}

// findInput is what site/find makes the project list's search index from: the listed claims
// in the list's order, each as its entry shows it.
func FindInput(b *render.Site) find.Input {
	return find.Input{Listed: view.ByName(b.N.Listed), RowTags: view.RowTags, Entry: func(c *network.Claim) find.Entry {
		s, r := b.Summarize(c), b.Ref(c)
		e := find.Entry{Version: s.Version, Site: r.SiteText, Type: s.Type, Status: s.Status, Game: s.Game,
			Summary: s.Summary, Updated: s.Updated, First: s.First, Runtime: s.Runtime, OpenMW: s.OpenMW,
			Tags: s.Tags, Stale: r.Stale != health.StaleNone}
		if s.Card != nil && len(s.Card.Files) > 0 {
			e.Thumb = s.Card.Files[0]
		}
		for _, bd := range r.Badges {
			e.Badges = append(e.Badges, [2]string{bd.Class, bd.Text})
		}
		return e
	}}
}
