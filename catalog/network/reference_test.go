package network_test

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// The reference index's tests of its network model, ported black-box: the reference's
// fixture sites (Candlelight, Tallow) published on loopback, crawled by a real refresh, the
// model built from the state it wrote and checked in this package's terms. The mapping of
// every reference test to this index's is site/testdata/reference-tests.md.

// published is what one site publishes.
type published struct {
	site      *rt.Site
	manifests []map[string]any
}

// crawled publishes each site's manifests, refreshes them all once (enrolled in this order)
// and builds the model.
func crawled(t *testing.T, net *rt.Net, cur *curation.Curation, sites ...published) *network.Network {
	t.Helper()
	var urls []string
	for _, s := range sites {
		s.site.Publish(s.manifests...)
		urls = append(urls, s.site.URL(""))
	}
	net.Refresh(urls...)
	n, err := network.Load(store.Open(net.State), cur)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// claimOf is the only claim of project, failing the test when there is not exactly one.
func claimOf(t *testing.T, n *network.Network, project string) *network.Claim {
	t.Helper()
	p := n.Project(project)
	if p == nil || len(p.Claims) != 1 {
		t.Fatalf("project %s: %v; want one claim", project, p)
	}
	return p.Claims[0]
}

func TestReferencePortRequirementResolvesAndIsUsedBy(t *testing.T) {
	net := rt.New(t)
	site := net.Site("/mods/")
	n := crawled(t, net, nil, published{site, []map[string]any{rt.Candlelight(t), rt.Tallow(t)}})
	candle, tallow := claimOf(t, n, rt.CandlelightID), claimOf(t, n, rt.TallowID)

	var requires []*network.Relationship
	for _, r := range candle.Current.Relationships {
		if r.Kind == protocol.KindRequires {
			requires = append(requires, r)
		}
	}
	if len(requires) != 1 {
		t.Fatalf("%d requires relationships of Candlelight's current release; want 1", len(requires))
	}
	r := requires[0]
	if len(r.Targets) != 1 || r.Targets[0].Claim != tallow || r.Targets[0].By != "project" {
		t.Fatalf("the requirement resolves to %+v; want Tallow's claim, by project id", r.Targets)
	}
	// Tallow's current release is its stable head, 1.0.0, which >=1.0 admits.
	if v := r.Targets[0].Version; v != "1.0.0" {
		t.Errorf("Tallow's current version %q; want 1.0.0", v)
	}
	if r.Satisfied == nil || !*r.Satisfied || r.Check != network.CheckSatisfied {
		t.Errorf("satisfied %v (%s) against Tallow %s; want true", r.Satisfied, r.Check, r.Targets[0].Version)
	}
	if len(tallow.UsedBy) != 1 || tallow.UsedBy[0] != candle {
		t.Errorf("Tallow is used by %v; want Candlelight alone", tallow.UsedBy)
	}
	if len(n.Conflicts) != 0 {
		t.Errorf("%d conflicts; want none", len(n.Conflicts))
	}
	c := n.Capability("dreamweave:dynamic-lights")
	if c == nil || len(c.Providers) != 1 || c.Providers[0] != candle {
		t.Errorf("dreamweave:dynamic-lights: %+v; want Candlelight as its only provider", c)
	}
}

func TestReferencePortTargetsOutsideTheIndexAreGaps(t *testing.T) {
	net := rt.New(t)
	site := net.Site("/mods/")
	n := crawled(t, net, nil, published{site, []map[string]any{rt.Candlelight(t), rt.Tallow(t)}})
	var tamriel *network.Gap
	for _, g := range n.Gaps.ByURL {
		if strings.Contains(g.Key, "tamriel-rebuilt") {
			tamriel = g
		}
	}
	if tamriel == nil || !contains(tamriel.Names, "Tamriel Rebuilt") {
		t.Fatalf("gaps by URL %+v; want Tamriel Rebuilt's, under its name", n.Gaps.ByURL)
	}
	named := false
	for _, g := range n.Gaps.ByName {
		named = named || strings.HasPrefix(g.Key, "Other mods")
	}
	if !named {
		t.Errorf("gaps by name %+v; a target given only by name stays a name", n.Gaps.ByName)
	}
	candidate := false
	for _, c := range n.Gaps.Candidates {
		candidate = candidate || strings.Contains(c.URL, "tamriel-rebuilt.org")
	}
	if !candidate {
		t.Errorf("candidates %+v; want Tamriel Rebuilt's site among them", n.Gaps.Candidates)
	}
}

func TestReferencePortMissingDependencyIsAGap(t *testing.T) {
	net := rt.New(t)
	site := net.Site("/mods/")
	n := crawled(t, net, nil, published{site, []map[string]any{rt.Candlelight(t)}})
	found := false
	for _, g := range n.Gaps.ByProject {
		found = found || g.Key == rt.TallowID
	}
	if !found {
		t.Errorf("gaps by project %+v; want Tallow's id", n.Gaps.ByProject)
	}
	if c := claimOf(t, n, rt.CandlelightID); !c.Listed || c.Health != store.ClaimCurrent {
		t.Errorf("Candlelight listed %v, %s; a missing dependency is no fault of the claim", c.Listed, c.Health)
	}
}

func TestReferencePortOneIDAtTwoSitesIsAConflictShowingBoth(t *testing.T) {
	net := rt.New(t)
	alpha, beta := net.Site("/alpha/"), net.Site("/beta/")
	copied := rt.Tallow(t)
	rt.Obj(t, copied, "project")["name"] = "Tallow, as another site publishes it"
	n := crawled(t, net, nil, published{alpha, []map[string]any{rt.Candlelight(t), rt.Tallow(t)}}, published{beta, []map[string]any{copied}})
	if len(n.Conflicts) != 1 || n.Conflicts[0].Project != rt.TallowID || len(n.Conflicts[0].Claims) != 2 {
		t.Fatalf("conflicts %+v; want Tallow's, of two claims", n.Conflicts)
	}
	for _, c := range n.Project(rt.TallowID).Claims {
		if c.Conflict == nil || !c.Listed {
			t.Errorf("%s: conflict %v, listed %v; want both marked and both listed", c.Key, c.Conflict != nil, c.Listed)
		}
	}
	// Candlelight's requirement lands on both claims: neither is picked.
	for _, r := range claimOf(t, n, rt.CandlelightID).Current.Relationships {
		if r.Project == rt.TallowID && len(r.Targets) != 2 {
			t.Errorf("the requirement on Tallow resolves to %d claims; want both", len(r.Targets))
		}
	}
}

func TestReferencePortReviewedMigrationEndsTheConflict(t *testing.T) {
	net := rt.New(t)
	old, moved := net.Site("/old/"), net.Site("/new/")
	cur := &curation.Curation{Migrations: []curation.Migration{{
		Project: rt.TallowID, From: old.URL("dreamweave.json"), To: moved.URL("dreamweave.json"),
		Reason: "The author moved the site.", Reviewed: "2026-09-28", Entry: 1,
	}}}
	n := crawled(t, net, cur, published{old, []map[string]any{rt.Tallow(t)}}, published{moved, []map[string]any{rt.Tallow(t)}})
	if len(n.Conflicts) != 0 {
		t.Fatalf("%d conflicts after a reviewed migration; want none", len(n.Conflicts))
	}
	var superseded, continuing []*network.Claim
	for _, c := range n.Project(rt.TallowID).Claims {
		if c.SupersededBy != nil {
			superseded = append(superseded, c)
		} else {
			continuing = append(continuing, c)
		}
	}
	if len(superseded) != 1 || !superseded[0].Listed {
		t.Fatalf("superseded claims %v; want one, still shown", superseded)
	}
	if len(continuing) != 1 || continuing[0].Site != store.SiteID(moved.URL("dreamweave.json")) || superseded[0].SupersededBy != continuing[0] {
		t.Errorf("the project continues as %v; want the new site's claim alone", continuing)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
