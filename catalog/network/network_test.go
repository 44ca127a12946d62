package network_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	nt "github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

var (
	idA = nt.ID(0xa)
	idB = nt.ID(0xb)
	idC = nt.ID(0xc)
	idD = nt.ID(0xd)
	idX = nt.ID(0xe0) // never published
)

const (
	urlOne = "https://one.example.org/mods/dreamweave.json"
	urlTwo = "https://two.example.org/dreamweave.json"
)

func build(t *testing.T, s *nt.State, cur *curation.Curation) *network.Network {
	t.Helper()
	n, err := network.Load(s.Dir, cur)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func keys(cs []*network.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Key.String())
	}
	return out
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("%s = %q, want %q", what, got, want)
	}
}

func stable(ver string, provides []string, rels ...protocol.Relationship) protocol.Release {
	return nt.Release(ver, "stable", provides, rels...)
}

// One id from two sites is an identity conflict: both claims listed and marked, neither
// preferred. Two ids with the same name are not (names are never matched).
func TestConflict(t *testing.T) {
	s := nt.New(t)
	one, two := s.Origin(urlOne), s.Origin(urlTwo)
	s.Claim(one, nt.Manifest(idA, "Lantern", "", stable("1.0.0", nil)))
	s.Claim(two, nt.Manifest(idA, "Not Lantern", "", stable("2.0.0", nil)))
	s.Claim(one, nt.Manifest(idB, "Same Name", "", stable("1.0.0", nil)))
	s.Claim(two, nt.Manifest(idC, "Same Name", "", stable("1.0.0", nil)))
	n := build(t, s, nil)
	if len(n.Conflicts) != 1 {
		t.Fatalf("conflicts = %d, want 1", len(n.Conflicts))
	}
	cf := n.Conflicts[0]
	same(t, "conflict claims", keys(cf.Claims), []string{idA + "/" + one, idA + "/" + two})
	for _, c := range cf.Claims {
		if c.Conflict != cf || !c.Listed {
			t.Fatalf("%s: conflict %p listed %v", c.Key, c.Conflict, c.Listed)
		}
	}
	if n.Project(idA).Conflict != cf || n.Claim(idB, one).Conflict != nil || n.Claim(idC, two).Conflict != nil {
		t.Fatal("conflict attached to the wrong project or claims")
	}
	// A requires on the conflicted id resolves to both claims.
	s.Claim(one, nt.Manifest(idD, "User", "", stable("1.0.0", nil, nt.Requires(idA, ">=1.5"))))
	n = build(t, s, nil)
	r := n.Claim(idD, one).Current.Relationships[0]
	if len(r.Targets) != 2 || r.Targets[0].Check != network.CheckUnsatisfied || r.Targets[1].Check != network.CheckSatisfied {
		t.Fatalf("targets = %+v", r.Targets)
	}
	// Neither claim is preferred: the targets disagree, so there is no single answer.
	if r.Satisfied != nil || r.Check != network.CheckMixed {
		t.Fatalf("targets that disagree: satisfied %v, check %s; want nil, %s", r.Satisfied, r.Check, network.CheckMixed)
	}
	// Targets that agree give their answer: both satisfy >=1.0.
	s.Claim(one, nt.Manifest(idD, "User", "", stable("1.0.0", nil, nt.Requires(idA, ">=1.0"))))
	n = build(t, s, nil)
	if r := n.Claim(idD, one).Current.Relationships[0]; r.Satisfied == nil || !*r.Satisfied || r.Check != network.CheckSatisfied {
		t.Fatalf("targets that agree: satisfied %v, check %s", r.Satisfied, r.Check)
	}
	s.Claim(one, nt.Manifest(idD, "User", "", stable("1.0.0", nil, nt.Requires(idA, ">=3"))))
	n = build(t, s, nil)
	if r := n.Claim(idD, one).Current.Relationships[0]; r.Satisfied == nil || *r.Satisfied || r.Check != network.CheckUnsatisfied {
		t.Fatalf("targets that agree on no: satisfied %v, check %s", r.Satisfied, r.Check)
	}
	s.Claim(one, nt.Manifest(idD, "User", "", stable("1.0.0", nil, nt.Requires(idA, ">=1.5"))))
	n = build(t, s, nil)
	same(t, "used by (site one)", keys(n.Claim(idA, one).UsedBy), []string{idD + "/" + one})
	same(t, "used by (site two)", keys(n.Claim(idA, two).UsedBy), []string{idD + "/" + one})
}

// A reviewed [[migration]] moves the claim: it is labelled as moved, superseded_by points at the
// new claim, and the pair is no longer a conflict.
func TestMoveByMigration(t *testing.T) {
	s := nt.New(t)
	one, two := s.Origin(urlOne), s.Origin(urlTwo)
	s.Claim(one, nt.Manifest(idA, "Lantern", "", stable("1.0.0", nil)))
	s.Claim(two, nt.Manifest(idA, "Lantern", "", stable("1.0.0", nil)))
	cur := &curation.Curation{Migrations: []curation.Migration{{Project: idA, From: urlOne, To: urlTwo, Reason: "author confirmed", Reviewed: "2026-10-01", Entry: 1}}}
	n := build(t, s, cur)
	if len(n.Conflicts) != 0 {
		t.Fatalf("conflicts = %d, want 0 after the migration", len(n.Conflicts))
	}
	old, nw := n.Claim(idA, one), n.Claim(idA, two)
	if old.MovedTo == nil || old.SupersededBy != nw || old.Conflict != nil || nw.Conflict != nil {
		t.Fatalf("old claim: moved %+v superseded %v", old.MovedTo, old.SupersededBy)
	}
	if !old.Listed || len(nw.MovedFrom) != 1 || nw.MovedTo != nil {
		t.Fatal("the moved claim stays listed; the new one records where it came from")
	}
	if len(n.Moves) != 1 || len(n.Moves[0].Evidence) != 1 || n.Moves[0].Evidence[0].Kind != "migration" || n.Moves[0].Evidence[0].Migration != &cur.Migrations[0] {
		t.Fatalf("moves = %+v", n.Moves)
	}
	if len(n.Unmatched) != 0 {
		t.Fatalf("unmatched = %q", n.Unmatched)
	}
	// Without the migration the same state is a conflict: only evidence moves a claim.
	if n := build(t, s, nil); len(n.Conflicts) != 1 || len(n.Moves) != 0 {
		t.Fatalf("no migration: conflicts %d moves %d", len(n.Conflicts), len(n.Moves))
	}
}

// The crawler's own records are evidence too: claim moved_to, an origin's previous sites, an
// event's moved_from.
func TestMoveByCrawlerEvidence(t *testing.T) {
	for _, how := range []string{"moved_to", "moved_from", "previous", "event"} {
		t.Run(how, func(t *testing.T) {
			s := nt.New(t)
			one, two := s.Origin(urlOne), s.Origin(urlTwo)
			edit := func(*store.Claim) {}
			if how == "moved_to" {
				edit = func(c *store.Claim) { c.MovedTo = &two }
			}
			s.Claim(one, nt.Manifest(idA, "Lantern", "", stable("1.0.0", nil)), edit)
			edit = func(*store.Claim) {}
			if how == "moved_from" {
				edit = func(c *store.Claim) { c.MovedFrom = &one }
			}
			s.Claim(two, nt.Manifest(idA, "Lantern", "", stable("1.0.0", nil)), edit)
			switch how {
			case "previous":
				var o store.Origin
				if err := s.Dir.ReadJSON(store.OriginPath(two), &o); err != nil {
					t.Fatal(err)
				}
				o.Previous = []store.Move{{Origin: one, IndexURL: urlOne, ObservedAt: nt.Time, Evidence: store.MoveEvidence("https://one.example.org/mods/", false)}}
				if err := s.Dir.WriteJSON(store.OriginPath(two), o); err != nil {
					t.Fatal(err)
				}
			case "event":
				after := strings.Repeat("a", 64)
				s.Event(store.Event{Kind: store.EventObserved, Project: idA, Origin: two, Name: "Lantern", ObservedAt: nt.Time, After: &after, MovedFrom: &one})
			}
			n := build(t, s, nil)
			if len(n.Conflicts) != 0 || len(n.Moves) != 1 || n.Moves[0].Evidence[0].Kind != "crawler" {
				t.Fatalf("conflicts %d moves %+v", len(n.Conflicts), n.Moves)
			}
			if n.Claim(idA, one).SupersededBy != n.Claim(idA, two) {
				t.Fatal("superseded_by does not point at the new claim")
			}
		})
	}
}

// A capability resolves through each claim's CURRENT release only: a development release that
// provides it does not make a claim with a stable head a provider.
func TestCapabilityThroughCurrentReleaseOnly(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "Dev only", "", stable("1.0.0", nil), nt.Release("1.1.0-dev.1", "development", []string{"dw:lights"})))
	s.Claim(one, nt.Manifest(idB, "Provider", "", stable("1.0.0", []string{"dw:lights"})))
	s.Claim(one, nt.Manifest(idC, "Beta provider", "", nt.Release("2.0.0-beta.1", "beta", []string{"dw:lights", "dw:sky"}), nt.Release("2.0.0-dev.1", "development", nil)))
	s.Claim(one, nt.Manifest(idD, "User", "", stable("1.0.0", nil,
		protocol.Relationship{Kind: protocol.KindRequires, Capability: "dw:lights"},
		protocol.Relationship{Kind: protocol.KindRecommends, Capability: "dw:shadows"})))
	n := build(t, s, nil)
	if c := n.Claim(idC, one); c.CurrentChannel != "beta" || c.Current.Version != "2.0.0-beta.1" {
		t.Fatalf("current of a claim with beta and development heads = %s %v", c.CurrentChannel, c.Current)
	}
	lights := n.Capability("dw:lights")
	same(t, "providers of dw:lights", keys(lights.Providers), []string{idB + "/" + one, idC + "/" + one})
	r := n.Claim(idD, one).Current.Relationships[0]
	if r.Target != network.TargetCapability || len(r.Targets) != 2 || r.Targets[0].By != "capability" {
		t.Fatalf("requires dw:lights resolved to %+v", r.Targets)
	}
	if len(lights.Users) != 1 || lights.Users[0].From != n.Claim(idD, one) || lights.Users[0].Kind != "requires" {
		t.Fatalf("users = %+v", lights.Users)
	}
	same(t, "used by B", keys(n.Claim(idB, one).UsedBy), []string{idD + "/" + one})
	if len(n.Claim(idA, one).UsedBy) != 0 {
		t.Fatal("a development-only provider is used by nobody")
	}
	// dw:shadows is provided by nobody: a capability gap; dw:sky has a provider and no user.
	if len(n.Gaps.ByCapability) != 1 || n.Gaps.ByCapability[0].Key != "dw:shadows" {
		t.Fatalf("capability gaps = %+v", n.Gaps.ByCapability)
	}
	var names []string
	for _, c := range n.Capabilities {
		names = append(names, c.Name)
	}
	same(t, "capabilities", names, []string{"dw:lights", "dw:shadows", "dw:sky"})
	if sh := n.Capability("dw:shadows"); len(sh.Providers) != 0 || len(sh.Users) != 1 {
		t.Fatalf("dw:shadows = %+v", sh)
	}
}

// A constraint is checked against the target's current release under the TARGET's scheme:
// decimal 0.82 < 0.9 (so >=0.9 fails), numeric 0.82 > 0.9 (so it holds).
func TestConstraintUnderTargetScheme(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "Decimal", "decimal", stable("0.82", nil)))
	s.Claim(one, nt.Manifest(idB, "Numeric", "numeric", stable("0.82", nil)))
	s.Claim(one, nt.Manifest(idC, "No heads", "", protocol.Release{}))
	s.Claim(one, nt.Manifest(idD, "User", "decimal", stable("1.0", nil,
		nt.Requires(idA, ">=0.9"),
		nt.Requires(idB, ">=0.9"),
		nt.Requires(idB, ">=0.09"), // leading zero: not a numeric version
		nt.Requires(idA, "^0.8"),
		nt.Requires(idA, ""),
		nt.Requires(idX, ">=1"),
		nt.Requires(idC, ">=1"),
		nt.Requires(idA, ">=0.8, <0.83"),
	)))
	n := build(t, s, nil)
	rs := n.Claim(idD, one).Current.Relationships
	want := []struct {
		check network.Check
		sat   string
	}{
		{network.CheckUnsatisfied, "false"},
		{network.CheckSatisfied, "true"},
		{network.CheckBadConstraint, "null"},
		{network.CheckBadConstraint, "null"},
		{network.CheckNoConstraint, "null"},
		{network.CheckUnresolved, "null"},
		{network.CheckNoCurrent, "null"},
		{network.CheckSatisfied, "true"},
	}
	for i, w := range want {
		r := rs[i]
		got := "null"
		if r.Satisfied != nil {
			got = map[bool]string{true: "true", false: "false"}[*r.Satisfied]
		}
		if r.Check != w.check || got != w.sat {
			t.Errorf("relationship %d (%s %q): check %s satisfied %s, want %s %s", i, r.Project, r.Version, r.Check, got, w.check, w.sat)
		}
	}
	if !rs[1].Targets[0].SchemeDiffers || rs[0].Targets[0].SchemeDiffers {
		t.Error("SchemeDiffers: numeric target of a decimal project should differ, decimal should not")
	}
	if d := rs[2].Targets[0].Detail; !strings.Contains(d, "numeric") {
		t.Errorf("unparseable constraint detail %q does not name the target's scheme", d)
	}
	if rs[0].Targets[0].Version != "0.82" {
		t.Errorf("target version = %q", rs[0].Targets[0].Version)
	}
}

// Versions at the limits of the grammar: six numbers, long pre-release lists, numbers longer
// than any machine integer; seven numbers do not parse and are reported, not a panic.
func TestVersionsAtTheLimits(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "Six", "", stable("1.2.3.4.5.6-a.b.c.d.e.f.1.2.3+build.7", nil)))
	s.Claim(one, nt.Manifest(idB, "Huge", "", stable("123456789012345678901234567890.0", nil)))
	s.Claim(one, nt.Manifest(idC, "User", "", stable("1.0.0", nil,
		nt.Requires(idA, ">=1.2.3.4.5.5"),
		nt.Requires(idA, "<1.2.3.4.5.6"), // a pre-release sorts below its release
		nt.Requires(idB, ">123456789012345678901234567889"),
		nt.Requires(idA, ">=1.2.3.4.5.6.7"),
	)))
	n := build(t, s, nil)
	rs := n.Claim(idC, one).Current.Relationships
	for i, w := range []network.Check{network.CheckSatisfied, network.CheckSatisfied, network.CheckSatisfied, network.CheckBadConstraint} {
		if rs[i].Check != w {
			t.Errorf("relationship %d (%q): %s, want %s", i, rs[i].Version, rs[i].Check, w)
		}
	}
}

// Gaps: targets nobody publishes, from every release of a listed claim (an older release's
// target too), grouped by id, capability, URL, and identical name text (labelled as such),
// each relationship pointing at its gap; URLs outside every enrolled site are candidates with
// the inspect command.
func TestGaps(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne, "https://one.example.org/mods/")
	two := s.Origin(urlTwo)
	rel := func(kind, project, capability, name, url string) protocol.Relationship {
		return protocol.Relationship{Kind: kind, Project: project, Capability: capability, Name: name, URL: url}
	}
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil,
		rel("requires", idX, "", "Missing", "https://missing.example.net/x/"),
		rel("recommends", "", "", "Tamriel Rebuilt", "https://www.tamriel-rebuilt.org/"),
		rel("conflicts", "", "", "Light mods", ""),
		rel("compatible", "", "", "", ""),
		rel("recommends", "", "", "Inside", "https://ONE.example.org/mods/other/"),
		rel("recommends", "", "", "Script", "javascript:alert(1)"),
		rel("recommends", "", "", "Quote", "https://q.example.net/it's?a=1&b=2"),
		rel("requires", "", "dw:none", "", ""),
	), nt.Release("0.9.0", "stable", nil, rel("requires", nt.ID(0xf0), "", "", ""))))
	s.Claim(two, nt.Manifest(idB, "B", "", stable("1.0.0", nil,
		rel("recommends", idX, "", "Missing under another name", ""),
		rel("recommends", "", "", "Tamriel Rebuilt", "https://www.tamriel-rebuilt.org/"),
		rel("conflicts", "", "", "Light mods", ""),
		rel("conflicts", "", "", "light mods", ""),
	)))
	n := build(t, s, nil)
	g := n.Gaps
	if len(g.ByProject) != 2 || g.ByProject[0].Key != idX || g.ByProject[1].Key != nt.ID(0xf0) || len(g.ByProject[0].References) != 2 {
		t.Fatalf("by project = %+v (an old release's target is a gap too)", g.ByProject)
	}
	if old := n.Claim(idA, one).Releases[1].Relationships[0]; old.Gap != g.ByProject[1] || g.ByProject[1].References[0] != old {
		t.Fatalf("the old release's relationship and its gap do not point at each other: %+v", old.Gap)
	}
	same(t, "names of the id gap", g.ByProject[0].Names, []string{"Missing", "Missing under another name"})
	if len(g.ByCapability) != 1 || g.ByCapability[0].Key != "dw:none" {
		t.Fatalf("by capability = %+v", g.ByCapability)
	}
	// Unresolved is said even without a constraint; informational references are not checked.
	for _, r := range append(g.ByProject[0].References, g.ByCapability[0].References...) {
		if r.Check != network.CheckUnresolved || r.Satisfied != nil {
			t.Fatalf("%s %s%s: check %s", r.Kind, r.Project, r.Capability, r.Check)
		}
	}
	if r := g.ByName[0].References[0]; r.Check != network.CheckNoConstraint {
		t.Fatalf("informational reference: check %s", r.Check)
	}
	var urls []string
	for _, x := range g.ByURL {
		urls = append(urls, x.Key)
	}
	same(t, "URL gaps", urls, []string{"https://ONE.example.org/mods/other/", "https://q.example.net/it's?a=1&b=2", "https://www.tamriel-rebuilt.org/", "javascript:alert(1)"})
	if len(g.ByURL[2].References) != 2 {
		t.Fatal("two references to one URL are one group")
	}
	var names []string
	for _, x := range g.ByName {
		names = append(names, x.Key)
		if !strings.Contains(x.Label, "name only") || !strings.Contains(x.Label, "not the same project") {
			t.Fatalf("name-only gap is not labelled as such: %q", x.Label)
		}
	}
	same(t, "name-only gaps (identical text only)", names, []string{"Light mods", "light mods"})
	if len(g.ByName[0].References) != 2 || len(g.Empty) != 1 {
		t.Fatalf("Light mods refs %d, empty %d", len(g.ByName[0].References), len(g.Empty))
	}
	var cmds []string
	for _, c := range g.Candidates {
		cmds = append(cmds, c.Command)
	}
	same(t, "candidates", cmds, []string{
		"ashyams inspect https://missing.example.net/x/",
		`ashyams inspect 'https://q.example.net/it'\''s?a=1&b=2'`,
		"ashyams inspect https://www.tamriel-rebuilt.org/",
	})
	if g.Count() != 2+1+4+2 {
		t.Fatalf("gap count = %d", g.Count())
	}
}

// Cycles in requires are found and marked, self-references shown and kept out of used-by and
// cycles; nothing loops.
func TestCyclesAndSelfReference(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil, nt.Requires(idB, ""), nt.Requires(idA, ">=1"))))
	s.Claim(one, nt.Manifest(idB, "B", "", stable("1.0.0", nil, nt.Requires(idC, ""))))
	s.Claim(one, nt.Manifest(idC, "C", "", stable("1.0.0", []string{"dw:c"}, nt.Requires(idA, ""),
		protocol.Relationship{Kind: "requires", Capability: "dw:c"})))
	s.Claim(one, nt.Manifest(idD, "D", "", stable("1.0.0", nil, nt.Requires(idA, ""))))
	n := build(t, s, nil)
	if len(n.Cycles) != 1 {
		t.Fatalf("cycles = %d", len(n.Cycles))
	}
	same(t, "cycle", keys(n.Cycles[0].Claims), []string{idA + "/" + one, idB + "/" + one, idC + "/" + one})
	a := n.Claim(idA, one)
	if !a.Current.Relationships[0].InCycle || a.Current.Relationships[1].InCycle {
		t.Fatal("A->B is in the cycle; A->A is a self-reference, not a cycle edge")
	}
	self := a.Current.Relationships[1]
	if !self.Self || len(self.Problems) != 1 || self.Check != network.CheckSatisfied {
		t.Fatalf("self-reference: %+v", self)
	}
	if n.Claim(idD, one).Current.Relationships[0].InCycle {
		t.Fatal("D->A leads into the cycle but is not part of it")
	}
	capSelf := n.Claim(idC, one).Current.Relationships[1]
	if !capSelf.Self {
		t.Fatal("requiring a capability one provides oneself is a self-reference")
	}
	same(t, "used by A", keys(a.UsedBy), []string{idC + "/" + one, idD + "/" + one})
	same(t, "used by C", keys(n.Claim(idC, one).UsedBy), []string{idB + "/" + one})
	if len(a.ReferencedBy) != 3 {
		t.Fatalf("A referenced by %d current relationships, want 3 (C, D and itself)", len(a.ReferencedBy))
	}
}

// A relationship naming both a project and a capability, or neither with a version, or an
// unknown kind, is resolved as far as it can be and its problems are shown.
func TestBothNeitherAndOddKinds(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", []string{"dw:a"})))
	s.Claim(one, nt.Manifest(idB, "B", "", stable("2.0.0", []string{"dw:a"})))
	s.Claim(one, nt.Manifest(idC, "C", "", stable("1.0.0", nil,
		protocol.Relationship{Kind: "requires", Project: idA, Capability: "dw:a", Version: ">=1"},
		protocol.Relationship{Kind: "recommends", Name: "Something", Version: ">=1"},
		protocol.Relationship{Kind: "depends", Project: idA},
		protocol.Relationship{Kind: "compatible", Capability: "dw:a", Version: "=1"},
	)))
	n := build(t, s, nil)
	rs := n.Claim(idC, one).Current.Relationships
	both := rs[0]
	if both.Target != network.TargetBoth || len(both.Problems) != 1 || len(both.Targets) != 2 {
		t.Fatalf("both: %+v", both)
	}
	if both.Targets[0].By != "project" || both.Targets[1].By != "capability" || both.Targets[1].Check != network.CheckNotApplicable {
		t.Fatalf("both targets: %+v %+v", both.Targets[0], both.Targets[1])
	}
	if both.Check != network.CheckSatisfied {
		t.Fatalf("both: the constraint is checked against the project target: %s", both.Check)
	}
	if rs[1].Target != network.TargetNeither || rs[1].Check != network.CheckNotApplicable || len(rs[1].Problems) != 1 {
		t.Fatalf("neither with a version: %+v", rs[1])
	}
	if len(rs[2].Problems) != 1 || !strings.Contains(rs[2].Problems[0], `"depends"`) || len(rs[2].Targets) != 1 {
		t.Fatalf("unknown kind: %+v", rs[2])
	}
	if len(rs[3].Problems) != 2 || rs[3].Satisfied != nil {
		t.Fatalf("compatible with a capability and a version: %q", rs[3].Problems)
	}
}

// 256 relationships in one release are all resolved, in publisher order.
func TestManyRelationships(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	var rels []protocol.Relationship
	for i := 0; i < 256; i++ {
		rels = append(rels, nt.Requires(nt.ID(1000+i%8), ">=1"))
	}
	for i := 0; i < 4; i++ { // half the targets exist
		s.Claim(one, nt.Manifest(nt.ID(1000+i), "T", "", stable("1.0.0", nil)))
	}
	s.Claim(one, nt.Manifest(idA, "Many", "", stable("1.0.0", nil, rels...)))
	n := build(t, s, nil)
	rs := n.Claim(idA, one).Current.Relationships
	if len(rs) != 256 {
		t.Fatalf("%d relationships", len(rs))
	}
	resolved := 0
	for i, r := range rs {
		if r.Index != i {
			t.Fatalf("relationship %d has index %d", i, r.Index)
		}
		if len(r.Targets) == 1 {
			resolved++
		}
	}
	if resolved != 128 || len(n.Gaps.ByProject) != 4 || len(n.Gaps.ByProject[0].References) != 1 {
		t.Fatalf("resolved %d, id gaps %d (32 requires of one id from one claim are one reference)", resolved, len(n.Gaps.ByProject))
	}
	for _, r := range rs {
		if (len(r.Targets) == 0) != (r.Gap != nil) {
			t.Fatalf("relationship %d: %d targets, gap %v", r.Index, len(r.Targets), r.Gap)
		}
	}
	if len(n.Claim(nt.ID(1000), one).UsedBy) != 1 {
		t.Fatal("32 requires from one claim are one user")
	}
}

// Withdrawn claims leave the catalog (not listed, not resolvable, not a conflict partner) but
// keep their record, manifest and resolved relationships for their record page.
func TestWithdrawn(t *testing.T) {
	s := nt.New(t)
	one, two := s.Origin(urlOne), s.Origin(urlTwo)
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil, nt.Requires(idB, ""))), func(c *store.Claim) { c.Health = "withdrawn" })
	s.Claim(two, nt.Manifest(idA, "A", "", stable("1.0.0", nil)))
	s.Claim(two, nt.Manifest(idB, "B", "", stable("1.0.0", nil)))
	n := build(t, s, nil)
	w := n.Claim(idA, one)
	if w.Listed || !w.Withdrawn || w.Excluded == "" || len(n.Conflicts) != 0 {
		t.Fatalf("withdrawn: listed %v excluded %q conflicts %d", w.Listed, w.Excluded, len(n.Conflicts))
	}
	if len(w.Current.Relationships[0].Targets) != 1 || len(n.Claim(idB, two).UsedBy) != 0 {
		t.Fatal("a withdrawn claim's relationships resolve for its page but count for nobody")
	}
	same(t, "project listed", keys(n.Project(idA).Listed), []string{idA + "/" + two})
	same(t, "project claims", keys(n.Project(idA).Claims), []string{idA + "/" + one, idA + "/" + two})
	if len(n.Listed) != 2 || len(n.Claims) != 3 {
		t.Fatalf("listed %d claims %d", len(n.Listed), len(n.Claims))
	}
}

func TestFeaturedAndUnmatchedCuration(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil)))
	cur := &curation.Curation{
		Featured: []curation.Featured{{Project: idA, Note: "n", Entry: 1}, {Project: idX, Note: "gone", Entry: 2}},
		Migrations: []curation.Migration{
			{Project: idB, From: urlOne, To: urlTwo, Reason: "r", Reviewed: "2026-10-01", Entry: 1},
			{Project: idA, From: urlOne, To: urlTwo, Reason: "r", Reviewed: "2026-10-01", Entry: 2},
		},
	}
	n := build(t, s, cur)
	if len(n.Featured) != 2 || len(n.Featured[0].Claims) != 1 || n.Project(idA).Featured != n.Featured[0] || len(n.Featured[1].Claims) != 0 {
		t.Fatalf("featured = %+v", n.Featured)
	}
	if len(n.Unmatched) != 3 {
		t.Fatalf("unmatched = %q", n.Unmatched)
	}
	a := n.Claim(idA, one)
	if a.MovedTo == nil || a.SupersededBy != nil {
		t.Fatal("a move to a site with no claim yet labels the claim as moved, with no successor")
	}
}

// A state that contradicts itself fails the build with the path and the problem.
func TestStateContradictions(t *testing.T) {
	m := nt.Manifest(idA, "A", "", stable("1.0.0", nil))
	cases := []struct {
		name string
		mk   func(s *nt.State, site string)
		want string
	}{
		{"manifest does not parse", func(s *nt.State, site string) {
			s.ClaimBytes(site, nt.Manifest(idA, "A", ""), []byte(`{"schema_version":"2","document":"project","releases":[`))
		}, "manifest.json: is not JSON: unexpected end of JSON input"},
		{"manifest is not a project", func(s *nt.State, site string) {
			s.ClaimBytes(site, nt.Manifest(idA, "A", ""), []byte(`{"schema_version":"2","document":"index"}`))
		}, `has document "index"`},
		{"manifest describes another project", func(s *nt.State, site string) {
			s.Claim(site, m)
			b, _ := os.ReadFile(s.Dir.Path(store.ManifestPath(idA, site)))
			s.ClaimBytes(site, nt.Manifest(idB, "B", ""), b)
		}, "describes project \"" + idA + "\", not the claim's project " + idB},
		{"digest mismatch", func(s *nt.State, site string) {
			s.Claim(site, m, func(c *store.Claim) { z := strings.Repeat("0", 64); c.IngestedSHA256 = &z })
		}, "claim.json records ingested_sha256 " + strings.Repeat("0", 64)},
		{"manifest missing", func(s *nt.State, site string) {
			s.Claim(site, m)
			os.Remove(s.Dir.Path(store.ManifestPath(idA, site)))
		}, "is missing, but claim.json records ingested_sha256"},
		{"record in the wrong directory", func(s *nt.State, site string) {
			s.Claim(site, m, func(c *store.Claim) { c.Project = idB })
			os.Rename(s.Dir.Path(store.ClaimPath(idB, site)), s.Dir.Path(store.ClaimPath(idA, site)))
		}, "project " + idB + " does not match its directory " + idA},
		{"no origin", func(s *nt.State, site string) {
			s.Claim(site, m)
			os.RemoveAll(filepath.Dir(s.Dir.Path(store.OriginPath(site))))
		}, "does not exist (no origins/"},
		{"unknown claim health", func(s *nt.State, site string) {
			s.Claim(site, m, func(c *store.Claim) { c.Health = "fine" })
		}, `health "fine" is not a claim health value`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := nt.New(t)
			site := s.Origin(urlOne)
			tc.mk(s, site)
			_, err := network.Load(s.Dir, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "claims/") {
				t.Fatalf("err = %v, want one naming the path and %q", err, tc.want)
			}
		})
	}
}

// Health words from seeds/state.txt are read as the catalog tokens: a claim's "invalid
// publication" is "invalid", an origin's "invalid index" is "invalid-index".
func TestHealthWords(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	bad := "bad"
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil)), func(c *store.Claim) {
		c.Health, c.Problem = "invalid publication", &bad
	})
	var o store.Origin
	if err := s.Dir.ReadJSON(store.OriginPath(one), &o); err != nil {
		t.Fatal(err)
	}
	o.Health, o.Problem = "invalid index", &bad
	if err := s.Dir.WriteJSON(store.OriginPath(one), o); err != nil {
		t.Fatal(err)
	}
	n := build(t, s, nil)
	if got := n.Claim(idA, one).Health; got != store.ClaimInvalid {
		t.Errorf("claim health %q, want %q", got, store.ClaimInvalid)
	}
	if got := n.OriginByID[one].Health; got != store.OriginInvalidIndex {
		t.Errorf("origin health %q, want %q", got, store.OriginInvalidIndex)
	}
}

// A refresh cut short after writing a new manifest (claim.pending_sha256 set, manifest.json
// already replaced) still builds: the held manifest is the new one, and its digest is published.
func TestPendingManifest(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	oldDigest := s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil)))
	newDigest := s.Claim(one, nt.Manifest(idA, "A", "", stable("1.1.0", nil)), func(c *store.Claim) {
		c.PendingSHA256 = c.IngestedSHA256
		c.AdvertisedSHA256 = *c.IngestedSHA256
	})
	// Put the old ingested digest back: the record was written with pending first.
	var rec store.Claim
	if err := s.Dir.ReadJSON(store.ClaimPath(idA, one), &rec); err != nil {
		t.Fatal(err)
	}
	rec.IngestedSHA256 = &oldDigest
	if err := s.Dir.WriteJSON(store.ClaimPath(idA, one), rec); err != nil {
		t.Fatal(err)
	}
	n := build(t, s, nil)
	a := n.Claim(idA, one)
	if a.HeldSHA256 != newDigest || a.Cached || a.Current.Version != "1.1.0" {
		t.Fatalf("held %s cached %v current %s", a.HeldSHA256, a.Cached, a.Current.Version)
	}
	// Only a pending digest and no file yet: no manifest, not an error.
	s.ClaimBytes(one, nt.Manifest(idB, "B", ""), []byte("x"), func(c *store.Claim) { c.PendingSHA256 = c.IngestedSHA256; c.IngestedSHA256 = nil })
	if err := os.Remove(s.Dir.Path(store.ManifestPath(idB, one))); err != nil {
		t.Fatal(err)
	}
	if b := build(t, s, nil).Claim(idB, one); b.Manifest != nil || b.Listed {
		t.Fatal("a claim whose first manifest was never written has no manifest")
	}
}

// A claim whose held manifest differs from the advertised one is cached, and stays listed.
func TestCachedAndNoManifest(t *testing.T) {
	s := nt.New(t)
	one := s.Origin(urlOne)
	s.Claim(one, nt.Manifest(idA, "A", "", stable("1.0.0", nil)), func(c *store.Claim) {
		c.AdvertisedSHA256 = strings.Repeat("1", 64)
		c.Health = store.ClaimInvalid
	})
	s.ClaimBytes(one, nt.Manifest(idB, "B", ""), []byte("never accepted"), func(c *store.Claim) { c.IngestedSHA256 = nil; c.Health = store.ClaimInvalid })
	n := build(t, s, nil)
	if a := n.Claim(idA, one); !a.Cached || !a.Listed || a.Health != "invalid" {
		t.Fatalf("cached claim: %+v", a)
	}
	if b := n.Claim(idB, one); b.Listed || b.Manifest != nil || b.Name != "B" || !strings.Contains(b.Excluded, "no manifest") {
		t.Fatalf("claim without an accepted manifest: listed %v excluded %q", b.Listed, b.Excluded)
	}
}
