package network_test

import (
	"sort"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

func corpus(t testing.TB) *network.Network {
	t.Helper()
	cur, err := curation.Load(corpustest.Path(t, "network/curation.toml"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := network.Load(store.Open(corpustest.Path(t, "state")), cur)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The numbers below were established independently of this package by
// testdata/corpus_counts.py (plain JSON reading of the corpus state; its output is quoted in
// the comments) and by jq spot checks such as
//
//	jq -r .origin claims/*/*/claim.json | sort | uniq -c          (31 claims on one site)
//	jq -r .project claims/*/*/claim.json | sort | uniq -d         (no shared id)
//	jq -c '.releases[]|select(.provides!=[])|.provides' claims/*/*/manifest.json
func TestCorpusModel(t *testing.T) {
	n := corpus(t)
	// "claims 45 listed 45 sites 14 ids 45 conflicts 0"; "claims per site [31, 2, 1 x 12]":
	// several claims per site, but no id is claimed by two sites.
	if len(n.Claims) != 45 || len(n.Listed) != 45 || len(n.Origins) != 14 || len(n.Projects) != 45 {
		t.Fatalf("claims %d listed %d origins %d projects %d", len(n.Claims), len(n.Listed), len(n.Origins), len(n.Projects))
	}
	var perSite []int
	for _, o := range n.Origins {
		perSite = append(perSite, len(o.Listed))
	}
	sort.Sort(sort.Reverse(sort.IntSlice(perSite)))
	if perSite[0] != 31 || perSite[1] != 2 || perSite[2] != 1 || perSite[13] != 1 {
		t.Fatalf("claims per site = %v", perSite)
	}
	if len(n.Conflicts) != 0 || len(n.Moves) != 0 || len(n.Cycles) != 0 || len(n.Featured) != 0 || len(n.Unmatched) != 0 {
		t.Fatalf("conflicts %d moves %d cycles %d featured %d unmatched %q", len(n.Conflicts), len(n.Moves), len(n.Cycles), len(n.Featured), n.Unmatched)
	}
	// "current channels: development 31, stable 13, None 1 (Starwind: R3mastered has no release)".
	chans := map[string]int{}
	for _, c := range n.Listed {
		chans[c.CurrentChannel]++
		if c.Cached || c.Health != "current" {
			t.Errorf("%s: cached %v health %s; every corpus claim is current", c.Key, c.Cached, c.Health)
		}
	}
	if chans["development"] != 31 || chans["stable"] != 13 || chans[""] != 1 {
		t.Fatalf("current channels = %v", chans)
	}
	// "current relationships 7": Candlelight 1.1.0 (4), l3i 1.3.1 (2), openmw-config 3.0.2 (1).
	// "current relationship checks: no-constraint 4, satisfied 3".
	checks := map[network.Check]int{}
	for _, r := range n.Relationships {
		checks[r.Check]++
	}
	if len(n.Relationships) != 7 || checks[network.CheckNoConstraint] != 4 || checks[network.CheckSatisfied] != 3 {
		t.Fatalf("current relationships %d, checks %v", len(n.Relationships), checks)
	}
	// "every release's relationships: satisfied 11, unsatisfied 2, no-constraint 32": l3i 1.0.0
	// and 1.1.0 require dream-net =1.0.0 while dream-net's current release is 1.1.0.
	checks = map[network.Check]int{}
	for _, c := range n.Claims {
		for _, r := range c.Releases {
			for _, rel := range r.Relationships {
				checks[rel.Check]++
			}
		}
	}
	if checks[network.CheckSatisfied] != 11 || checks[network.CheckUnsatisfied] != 2 || checks[network.CheckNoConstraint] != 32 || len(checks) != 3 {
		t.Fatalf("checks over every release = %v", checks)
	}
	// "capabilities {'dreamweave:dynamic-lights': (1 provider, 0 users)}": Candlelight.
	if len(n.Capabilities) != 1 {
		t.Fatalf("capabilities = %d", len(n.Capabilities))
	}
	if cp := n.Capabilities[0]; cp.Name != "dreamweave:dynamic-lights" || len(cp.Providers) != 1 || cp.Providers[0].Name != "Candlelight" || len(cp.Users) != 0 {
		t.Fatalf("capability = %+v", cp)
	}
	// "gaps: url [crates.io vfstool_lib, tamriel-rebuilt.org], name [2 texts]"; no id or
	// capability gap; both URLs are outside every enrolled site, so two candidates.
	g := n.Gaps
	if len(g.ByProject) != 0 || len(g.ByCapability) != 0 || len(g.ByURL) != 2 || len(g.ByName) != 2 || len(g.Empty) != 0 {
		t.Fatalf("gaps: id %d capability %d url %d name %d empty %d", len(g.ByProject), len(g.ByCapability), len(g.ByURL), len(g.ByName), len(g.Empty))
	}
	same(t, "URL gaps", []string{g.ByURL[0].Key, g.ByURL[1].Key}, []string{"https://crates.io/crates/vfstool_lib", "https://www.tamriel-rebuilt.org/"})
	same(t, "name-only gaps", []string{g.ByName[0].Key, g.ByName[1].Key}, []string{"OpenMW's own shadows and post-processing", "Other mods that script vanilla light records"})
	if len(g.Candidates) != 2 || g.Candidates[0].Command != "ashyams inspect https://crates.io/crates/vfstool_lib" || g.Candidates[1].Command != "ashyams inspect https://www.tamriel-rebuilt.org/" {
		t.Fatalf("candidates = %+v", g.Candidates)
	}
	// "used by {dream-net: [l3i], Tallow: [Candlelight]}"; every other claim is used by nobody.
	usedBy := map[string]string{}
	for _, c := range n.Listed {
		for _, u := range c.UsedBy {
			usedBy[c.Name] += u.Name
		}
	}
	if len(usedBy) != 2 || usedBy["dream-net"] != "l3i" || usedBy["Tallow"] != "Candlelight" {
		t.Fatalf("used by = %v", usedBy)
	}
}

// The corpus state keeps only part of the reference index's history: 5 observed events whose
// digests are not the held manifests' (later changes were not kept) and 10 changed events with
// no observed event before them (checked with jq: `jq -r .kind events/*.json | sort | uniq -c`
// and each observed event's after against its claim's ingested_sha256). No claim's history
// connects, so no release gets a FirstSeen: the model says "not recorded" rather than guess.
func TestCorpusFirstSeenNotGuessed(t *testing.T) {
	n := corpus(t)
	releases := 0
	for _, c := range n.Claims {
		for _, r := range c.Releases {
			releases++
			if r.FirstSeen != "" {
				t.Errorf("%s %s: first seen %q from a history that does not connect", c.Key, r.Version, r.FirstSeen)
			}
		}
	}
	if releases == 0 {
		t.Fatal("the corpus claims hold no releases")
	}
}
