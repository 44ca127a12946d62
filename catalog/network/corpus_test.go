package network_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// corpus is the model of the corpus state under the corpus's curation, and whether ../shared
// holds them.
func corpus(t testing.TB) (*network.Network, bool) {
	t.Helper()
	curPath, ok := corpustest.Optional(t, "network/curation.toml")
	state, ok2 := corpustest.Optional(t, "state")
	if !ok || !ok2 {
		return nil, false
	}
	cur, err := curation.Load(curPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := network.Load(store.Open(state), cur)
	if err != nil {
		t.Fatal(err)
	}
	return n, true
}

// generatedNet crawls two loopback sites: Candlelight and Tallow on one, Lantern Forge on the
// other. Lantern Forge's releases also require Tallow >=2.0, which no release of Tallow is,
// so an unsatisfied requirement is among the network's relationships as in the corpus's.
func generatedNet(t *testing.T) (*rt.Net, []string) {
	t.Helper()
	net := rt.New(t)
	mods, tools := net.Site("/mods/"), net.Site("/tools/")
	program := corpustest.Generated(t, "lantern-forge.json")
	for _, r := range program["releases"].([]any) {
		rel := r.(map[string]any)
		rel["relationships"] = append(rel["relationships"].([]any),
			map[string]any{"kind": "requires", "project": rt.TallowID, "name": "Tallow", "version": ">=2.0"})
	}
	mods.Publish(corpustest.Generated(t, "candlelight.json"), corpustest.Generated(t, "tallow.json"))
	tools.Publish(program)
	return net, []string{mods.URL(""), tools.URL("")}
}

// modelWant is what a model's figures are, counted apart from the model.
type modelWant struct {
	claims, origins int
	perSite         []int          // listed claims per site, largest first
	channels        map[string]int // listed claims per current channel
	current, all    map[network.Check]int
	capabilities    []string // "name provider users"
	urlGaps, names  []string
	candidates      []string
	usedBy          map[string]string // claim name -> the names of its users, joined
}

// The corpus's numbers were established independently of this package by
// testdata/corpus_counts.py (plain JSON reading of the corpus state; its output is quoted in
// the comments) and by jq spot checks such as
//
//	jq -r .origin claims/*/*/claim.json | sort | uniq -c          (31 claims on one site)
//	jq -r .project claims/*/*/claim.json | sort | uniq -d         (no shared id)
//	jq -c '.releases[]|select(.provides!=[])|.provides' claims/*/*/manifest.json
//
// The generated network's follow from the fixtures: every fixture has a stable head; Candlelight's
// three relationships (Tallow >=1.0 satisfied, the rest without constraint) in each of its three
// releases, Lantern Forge's recommendation of Candlelight and unsatisfied Tallow >=2.0 in each
// of its two; one URL gap (Tamriel Rebuilt) and one name-only gap.
func TestModelFigures(t *testing.T) {
	net, urls := generatedNet(t)
	net.Refresh(urls...)
	generated, err := network.Load(store.Open(net.State), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkModel(t, generated, modelWant{
		claims: 3, origins: 2, perSite: []int{2, 1}, channels: map[string]int{"stable": 3},
		current:      map[network.Check]int{network.CheckSatisfied: 1, network.CheckUnsatisfied: 1, network.CheckNoConstraint: 3},
		all:          map[network.Check]int{network.CheckSatisfied: 3, network.CheckUnsatisfied: 2, network.CheckNoConstraint: 8},
		capabilities: []string{"dreamweave:dynamic-lights Candlelight 0", "dreamweave:light-baking Lantern Forge 0"},
		urlGaps:      []string{"https://www.tamriel-rebuilt.org/"}, names: []string{"Other mods that script vanilla light records"},
		candidates: []string{"https://www.tamriel-rebuilt.org/"},
		usedBy:     map[string]string{"Tallow": "Candlelight Lantern Forge"}, // a requirement makes a user; a recommendation does not
	})
	n, ok := corpus(t)
	if !ok {
		return
	}
	// "claims 45 listed 45 sites 14 ids 45 conflicts 0"; "claims per site [31, 2, 1 x 12]".
	// "current channels: development 31, stable 13, None 1 (Starwind: R3mastered has no release)".
	// "current relationships 7": Candlelight 1.1.0 (4), l3i 1.3.1 (2), openmw-config 3.0.2 (1).
	// "current relationship checks: no-constraint 4, satisfied 3".
	// "every release's relationships: satisfied 11, unsatisfied 2, no-constraint 32": l3i 1.0.0
	// and 1.1.0 require dream-net =1.0.0 while dream-net's current release is 1.1.0.
	// "capabilities {'dreamweave:dynamic-lights': (1 provider, 0 users)}": Candlelight.
	// "gaps: url [crates.io vfstool_lib, tamriel-rebuilt.org], name [2 texts]"; both URLs are
	// outside every enrolled site, so two candidates.
	// "used by {dream-net: [l3i], Tallow: [Candlelight]}"; every other claim is used by nobody.
	checkModel(t, n, modelWant{
		claims: 45, origins: 14, perSite: append([]int{31, 2}, slices.Repeat([]int{1}, 12)...),
		channels:     map[string]int{"development": 31, "stable": 13, "": 1},
		current:      map[network.Check]int{network.CheckNoConstraint: 4, network.CheckSatisfied: 3},
		all:          map[network.Check]int{network.CheckSatisfied: 11, network.CheckUnsatisfied: 2, network.CheckNoConstraint: 32},
		capabilities: []string{"dreamweave:dynamic-lights Candlelight 0"},
		urlGaps:      []string{"https://crates.io/crates/vfstool_lib", "https://www.tamriel-rebuilt.org/"},
		names:        []string{"OpenMW's own shadows and post-processing", "Other mods that script vanilla light records"},
		candidates:   []string{"https://crates.io/crates/vfstool_lib", "https://www.tamriel-rebuilt.org/"},
		usedBy:       map[string]string{"dream-net": "l3i", "Tallow": "Candlelight"},
	})
}

// checkModel compares n's figures with want: every claim listed and current, no identity
// conflict, move, cycle, featured project or unmatched curation, no id or capability gap.
func checkModel(t *testing.T, n *network.Network, want modelWant) {
	t.Helper()
	if len(n.Claims) != want.claims || len(n.Listed) != want.claims || len(n.Origins) != want.origins || len(n.Projects) != want.claims {
		t.Fatalf("claims %d listed %d origins %d projects %d", len(n.Claims), len(n.Listed), len(n.Origins), len(n.Projects))
	}
	var perSite []int
	for _, o := range n.Origins {
		perSite = append(perSite, len(o.Listed))
	}
	sort.Sort(sort.Reverse(sort.IntSlice(perSite)))
	if !slices.Equal(perSite, want.perSite) {
		t.Errorf("claims per site = %v, want %v", perSite, want.perSite)
	}
	if len(n.Conflicts) != 0 || len(n.Moves) != 0 || len(n.Cycles) != 0 || len(n.Featured) != 0 || len(n.Unmatched) != 0 {
		t.Errorf("conflicts %d moves %d cycles %d featured %d unmatched %q", len(n.Conflicts), len(n.Moves), len(n.Cycles), len(n.Featured), n.Unmatched)
	}
	chans, current, all := map[string]int{}, map[network.Check]int{}, map[network.Check]int{}
	usedBy := map[string]string{}
	for _, c := range n.Listed {
		chans[c.CurrentChannel]++
		if c.Cached || c.Health != store.ClaimCurrent {
			t.Errorf("%s: cached %v health %s; every claim is current", c.Key, c.Cached, c.Health)
		}
		var users []string
		for _, u := range c.UsedBy {
			users = append(users, u.Name)
		}
		if sort.Strings(users); len(users) > 0 {
			usedBy[c.Name] = strings.Join(users, " ")
		}
	}
	for _, r := range n.Relationships {
		current[r.Check]++
	}
	for _, c := range n.Claims {
		for _, r := range c.Releases {
			for _, rel := range r.Relationships {
				all[rel.Check]++
			}
		}
	}
	var caps, urls, names, cands []string
	for _, cp := range n.Capabilities {
		var providers []string
		for _, p := range cp.Providers {
			providers = append(providers, p.Name)
		}
		caps = append(caps, fmt.Sprintf("%s %s %d", cp.Name, strings.Join(providers, ","), len(cp.Users)))
	}
	g := n.Gaps
	if len(g.ByProject) != 0 || len(g.ByCapability) != 0 || len(g.Empty) != 0 {
		t.Errorf("gaps: id %d capability %d empty %d; want none", len(g.ByProject), len(g.ByCapability), len(g.Empty))
	}
	for _, x := range g.ByURL {
		urls = append(urls, x.Key)
	}
	for _, x := range g.ByName {
		names = append(names, x.Key)
	}
	for _, c := range g.Candidates {
		if c.Command != "ashyams inspect "+c.URL {
			t.Errorf("candidate %s: command %q", c.URL, c.Command)
		}
		cands = append(cands, c.URL)
	}
	for what, pair := range map[string][2]any{"current channels": {chans, want.channels}, "current relationship checks": {current, want.current},
		"checks over every release": {all, want.all}, "used by": {usedBy, want.usedBy}} {
		if fmt.Sprint(pair[0]) != fmt.Sprint(pair[1]) { // fmt prints maps sorted by key
			t.Errorf("%s = %v, want %v", what, pair[0], pair[1])
		}
	}
	same(t, "capabilities", caps, want.capabilities)
	same(t, "URL gaps", urls, want.urlGaps)
	same(t, "name-only gaps", names, want.names)
	same(t, "candidates", cands, want.candidates)
}

// A model gives a release a FirstSeen only from a history that connects: an observed event
// then changed events leading to the held manifest. The corpus state keeps only part of the
// reference index's history: 5 observed events whose digests are not the held manifests'
// (later changes were not kept) and 10 changed events with no observed event before them
// (checked with jq: `jq -r .kind events/*.json | sort | uniq -c` and each observed event's
// after against its claim's ingested_sha256). The generated state is refreshtest's Network (two
// refreshes, Tallow changed between them) with its observed events then removed: the same kind
// of cut history. Before the cut, its releases have a FirstSeen.
func TestFirstSeenNotGuessed(t *testing.T) {
	net := rt.New(t)
	net.Network()
	load := func() *network.Network {
		n, err := network.Load(store.Open(net.State), nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if seen := firstSeenCount(t, load()); seen == 0 {
		t.Fatal("the whole history gives no release a FirstSeen")
	}
	s, err := store.Open(net.State).Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Events {
		if e.Kind == store.EventObserved {
			if err := os.Remove(filepath.Join(net.State, "events", e.ID+".json")); err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen := firstSeenCount(t, load()); seen != 0 {
		t.Errorf("%d releases given a FirstSeen from a history that does not connect", seen)
	}
	if n, ok := corpus(t); ok {
		if seen := firstSeenCount(t, n); seen != 0 {
			t.Errorf("corpus: %d releases given a FirstSeen from a history that does not connect", seen)
		}
	}
}

// firstSeenCount is the number of n's releases with a FirstSeen; n without releases fails t.
func firstSeenCount(t *testing.T, n *network.Network) int {
	t.Helper()
	releases, seen := 0, 0
	for _, c := range n.Claims {
		for _, r := range c.Releases {
			releases++
			if r.FirstSeen != "" {
				seen++
				t.Logf("%s %s: first seen %s", c.Key, r.Version, r.FirstSeen)
			}
		}
	}
	if releases == 0 {
		t.Fatal("the claims hold no releases")
	}
	return seen
}
