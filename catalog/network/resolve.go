package network

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// resolver caches what resolution parses more than once.
type resolver struct {
	n           *Network
	providers   map[string][]*Claim
	constraints map[constraintKey]parsedConstraint
	versions    map[*Claim]parsedVersion
}

type constraintKey struct {
	s   string
	sch version.Scheme
}

type parsedConstraint struct {
	c   version.Constraint
	err error
}

type parsedVersion struct {
	v   version.Version
	err error
}

// resolveAll resolves the relationships of every release of every claim, withdrawn ones
// included, against the listed claims (SPEC section 4, Resolution).
func (n *Network) resolveAll() {
	rs := &resolver{n: n, providers: map[string][]*Claim{}, constraints: map[constraintKey]parsedConstraint{}, versions: map[*Claim]parsedVersion{}}
	for _, c := range n.Listed {
		if c.Current == nil {
			continue
		}
		seen := map[string]bool{}
		for _, capName := range c.Current.Provides {
			if !seen[capName] {
				seen[capName] = true
				rs.providers[capName] = append(rs.providers[capName], c)
			}
		}
	}
	for _, c := range n.Claims {
		for _, r := range c.Releases {
			r.Relationships = make([]*Relationship, len(r.Release.Relationships))
			for i, pr := range r.Release.Relationships {
				r.Relationships[i] = rs.resolve(c, r, i, pr)
			}
		}
	}
	for _, c := range n.Listed {
		if c.Current != nil {
			n.Relationships = append(n.Relationships, c.Current.Relationships...)
		}
	}
	for capName, ps := range rs.providers {
		n.capability(capName).Providers = ps
	}
}

func (n *Network) capability(name string) *Capability {
	cp := n.CapabilityByName[name]
	if cp == nil {
		cp = &Capability{Name: name}
		n.CapabilityByName[name] = cp
	}
	return cp
}

// KnownKind reports whether k is a relationship kind of the protocol; a release may carry
// others, which the model keeps and nothing resolves.
func KnownKind(k string) bool {
	switch k {
	case protocol.KindRequires, protocol.KindRecommends, protocol.KindConflicts, protocol.KindCompatible, protocol.KindReplaces:
		return true
	}
	return false
}

func (rs *resolver) resolve(c *Claim, rel *Release, i int, pr protocol.Relationship) *Relationship {
	r := &Relationship{Relationship: pr, From: c, Release: rel, Index: i}
	hasP, hasC := pr.Project != "", pr.Capability != ""
	switch {
	case hasP && hasC:
		r.Target = TargetBoth
		r.Problems = append(r.Problems, "names both a project and a capability; the protocol allows one; resolved by each")
	case hasP:
		r.Target = TargetProject
	case hasC:
		r.Target = TargetCapability
	default:
		r.Target = TargetNeither
	}
	if !KnownKind(pr.Kind) {
		r.Problems = append(r.Problems, fmt.Sprintf("kind %q is not a relationship kind (requires, recommends, conflicts, compatible, replaces)", pr.Kind))
	}
	if hasC && (pr.Kind == protocol.KindCompatible || pr.Kind == protocol.KindReplaces) {
		r.Problems = append(r.Problems, fmt.Sprintf("a capability target is only for requires, recommends and conflicts, not %s", pr.Kind))
	}
	if pr.Version != "" && !hasP {
		r.Problems = append(r.Problems, fmt.Sprintf("version %q without a project target: a constraint is only checked against a project", pr.Version))
	}
	seen := map[*Claim]bool{}
	if hasP {
		if p := rs.n.ByProject[pr.Project]; p != nil {
			for _, t := range p.Listed {
				seen[t] = true
				r.Targets = append(r.Targets, rs.check(c, t, "project", pr.Version))
			}
		}
	}
	if hasC {
		for _, t := range rs.providers[pr.Capability] {
			if !seen[t] {
				seen[t] = true
				res := newResolution(c, t, "capability")
				res.Check = CheckNoConstraint
				if pr.Version != "" {
					res.Check = CheckNotApplicable
				}
				r.Targets = append(r.Targets, res)
			}
		}
	}
	sort.SliceStable(r.Targets, func(a, b int) bool { return r.Targets[a].Claim.Key.Less(r.Targets[b].Claim.Key) })
	switch {
	case hasP && pr.Project == c.Project:
		r.Self = true
		r.Problems = append(r.Problems, "names its own project id")
	case seen[c]:
		r.Self = true
		r.Problems = append(r.Problems, "resolves to its own claim through the capability it names")
	}
	r.aggregate(hasP)
	return r
}

// aggregate sets Satisfied and Check over the targets. A target resolving to nothing is
// "unresolved" even with no constraint: the fact a reader needs first. Project targets that
// disagree give CheckMixed.
func (r *Relationship) aggregate(hasP bool) {
	switch {
	case r.Target != TargetNeither && len(r.Targets) == 0:
		r.Check = CheckUnresolved
		return
	case r.Version == "":
		r.Check = CheckNoConstraint
		return
	case !hasP:
		r.Check = CheckNotApplicable
		return
	}
	var first Check
	for _, t := range r.Targets {
		if t.By != "project" {
			continue
		}
		if first == "" {
			first = t.Check
		} else if t.Check != first {
			r.Check = CheckMixed
			return
		}
	}
	switch first {
	case "":
		r.Check = CheckUnresolved
	case CheckSatisfied, CheckUnsatisfied:
		ok := first == CheckSatisfied
		r.Satisfied, r.Check = &ok, first
	default:
		r.Check = first
	}
}

// check checks the constraint against project target t's current release, under t's scheme.
func (rs *resolver) check(from, t *Claim, by, constraint string) *Resolution {
	res := newResolution(from, t, by)
	if constraint == "" {
		res.Check = CheckNoConstraint
		return res
	}
	ck := constraintKey{constraint, t.Scheme}
	pc, ok := rs.constraints[ck]
	if !ok {
		pc.c, pc.err = version.ParseConstraintIn(constraint, t.Scheme)
		rs.constraints[ck] = pc
	}
	if pc.err != nil {
		res.Check, res.Detail = CheckBadConstraint, fmt.Sprintf("under the target's %s scheme: %v", t.Scheme, pc.err)
		return res
	}
	if t.Current == nil {
		res.Check = CheckNoCurrent
		return res
	}
	pv, ok := rs.versions[t]
	if !ok {
		pv.v, pv.err = version.Parse(t.Current.Version, t.Scheme)
		rs.versions[t] = pv
	}
	if pv.err != nil {
		res.Check, res.Detail = CheckBadVersion, pv.err.Error()
		return res
	}
	ok = pc.c.Match(pv.v)
	res.Satisfied = &ok
	if ok {
		res.Check = CheckSatisfied
	} else {
		res.Check = CheckUnsatisfied
	}
	return res
}

func newResolution(from, t *Claim, by string) *Resolution {
	res := &Resolution{Claim: t, By: by, Scheme: t.Scheme, SchemeDiffers: t.Scheme != from.Scheme}
	if t.Current != nil {
		res.Version = t.Current.Version
	}
	return res
}

// capabilities gathers every capability a listed current release provides or a current
// relationship names, with its references and users.
func (n *Network) capabilities() {
	for _, r := range n.Relationships {
		if r.Capability == "" {
			continue
		}
		cp := n.capability(r.Capability)
		cp.References = append(cp.References, r)
		if !containsUse(cp.Users, r.From, r.Kind) {
			cp.Users = append(cp.Users, CapabilityUse{From: r.From, Kind: r.Kind})
		}
	}
	for _, cp := range n.CapabilityByName {
		sort.SliceStable(cp.Users, func(i, j int) bool {
			a, b := cp.Users[i], cp.Users[j]
			if a.From != b.From {
				return a.From.Key.Less(b.From.Key)
			}
			return a.Kind < b.Kind
		})
		n.Capabilities = append(n.Capabilities, cp)
	}
	sort.Slice(n.Capabilities, func(i, j int) bool { return n.Capabilities[i].Name < n.Capabilities[j].Name })
}

// containsUse: relationships arrive grouped by From, so only the trailing run can match.
func containsUse(us []CapabilityUse, from *Claim, kind string) bool {
	for i := len(us) - 1; i >= 0 && us[i].From == from; i-- {
		if us[i].Kind == kind {
			return true
		}
	}
	return false
}

func (n *Network) usedBy() {
	for _, r := range n.Relationships {
		for _, t := range r.Targets {
			tc := t.Claim
			if len(tc.ReferencedBy) == 0 || tc.ReferencedBy[len(tc.ReferencedBy)-1] != r {
				tc.ReferencedBy = append(tc.ReferencedBy, r)
			}
			if r.Kind != protocol.KindRequires || r.Self {
				continue
			}
			if k := len(tc.UsedBy); k == 0 || tc.UsedBy[k-1] != r.From {
				tc.UsedBy = append(tc.UsedBy, r.From)
			}
		}
	}
}

// cycles finds the strongly connected components (Tarjan) of the requires graph of current
// releases, and marks the relationships inside one. Self-references are not edges.
func (n *Network) cycles() {
	edges := map[*Claim][]*Claim{}
	for _, r := range n.Relationships {
		if r.Kind != protocol.KindRequires || r.Self {
			continue
		}
		for _, t := range r.Targets {
			edges[r.From] = append(edges[r.From], t.Claim)
		}
	}
	index := map[*Claim]int{}
	low := map[*Claim]int{}
	on := map[*Claim]bool{}
	comp := map[*Claim]int{}
	var stack []*Claim
	next, ncomp := 0, 0
	var strong func(v *Claim)
	strong = func(v *Claim) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges[v] {
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var members []*Claim
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			comp[w] = ncomp
			members = append(members, w)
			if w == v {
				break
			}
		}
		ncomp++
		if len(members) > 1 {
			sort.Slice(members, func(i, j int) bool { return members[i].Key.Less(members[j].Key) })
			n.Cycles = append(n.Cycles, &Cycle{Claims: members})
		}
	}
	for _, c := range n.Listed {
		if _, seen := index[c]; !seen {
			strong(c)
		}
	}
	sort.Slice(n.Cycles, func(i, j int) bool { return n.Cycles[i].Claims[0].Key.Less(n.Cycles[j].Claims[0].Key) })
	inCycle := map[int]bool{}
	for _, cy := range n.Cycles {
		inCycle[comp[cy.Claims[0]]] = true
	}
	for _, r := range n.Relationships {
		if r.Kind != protocol.KindRequires || r.Self || !inCycle[comp[r.From]] {
			continue
		}
		for _, t := range r.Targets {
			if comp[t.Claim] == comp[r.From] {
				r.InCycle = true
			}
		}
	}
}

// Gap labels, in words.
const (
	labelProject    = "by project id: no listed site publishes this id"
	labelCapability = "by capability: no listed claim's current release provides it"
	labelURL        = "by URL: a reference with no project id or capability, only a link"
	labelName       = "name only: references with identical text and nothing else; the same words are not the same project"
)

// gaps groups the relationships of every release of the listed claims that resolve to
// nothing, one reference per claim, kind and target (the current release's first).
func (n *Network) gaps() {
	groups := map[GapKind]map[string]*Gap{GapProject: {}, GapCapability: {}, GapURL: {}, GapName: {}}
	type seenKey struct {
		g    *Gap
		c    *Claim
		kind string
	}
	seen := map[seenKey]bool{}
	add := func(kind GapKind, key, label string, r *Relationship) {
		g := groups[kind][key]
		if g == nil {
			g = &Gap{Kind: kind, Key: key, Label: label}
			groups[kind][key] = g
		}
		if r.Gap == nil {
			r.Gap = g
		}
		if k := (seenKey{g, r.From, r.Kind}); !seen[k] {
			seen[k] = true
			g.References = append(g.References, r)
		}
	}
	for _, c := range n.Listed {
		for _, rel := range currentFirst(c) {
			for _, r := range rel.Relationships {
				var byP, byC bool
				for _, t := range r.Targets {
					byP = byP || t.By == "project"
					byC = byC || t.By == "capability"
				}
				switch {
				case r.Target == TargetNeither && r.URL != "":
					add(GapURL, r.URL, labelURL, r)
				case r.Target == TargetNeither && r.Name != "":
					add(GapName, r.Name, labelName, r)
				case r.Target == TargetNeither && rel.Current:
					n.Gaps.Empty = append(n.Gaps.Empty, r)
				}
				if r.Project != "" && !byP {
					add(GapProject, r.Project, labelProject, r)
				}
				if r.Capability != "" && !byC {
					add(GapCapability, r.Capability, labelCapability, r)
				}
			}
		}
	}
	sorted := func(kind GapKind) []*Gap {
		var out []*Gap
		for _, g := range groups[kind] {
			g.Names, g.URLs = distinct(g.References, func(r *Relationship) string { return r.Name }),
				distinct(g.References, func(r *Relationship) string { return r.URL })
			out = append(out, g)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
		return out
	}
	n.Gaps.ByProject = sorted(GapProject)
	n.Gaps.ByCapability = sorted(GapCapability)
	n.Gaps.ByURL = sorted(GapURL)
	n.Gaps.ByName = sorted(GapName)
	n.candidates()
}

func (n *Network) candidates() {
	enrolled := n.enrolledSites()
	cands := map[string]*Candidate{}
	for _, list := range [][]*Gap{n.Gaps.ByProject, n.Gaps.ByCapability, n.Gaps.ByURL} {
		for _, g := range list {
			for _, u := range g.URLs {
				if !candidateURL(u) || enrolled.contains(u) {
					continue
				}
				cd := cands[u]
				if cd == nil {
					cd = &Candidate{URL: u, Command: "ashyams inspect " + shellQuote(u)}
					cands[u] = cd
					n.Gaps.Candidates = append(n.Gaps.Candidates, cd)
				}
				cd.Gaps = append(cd.Gaps, g)
			}
		}
	}
	sort.Slice(n.Gaps.Candidates, func(i, j int) bool { return n.Gaps.Candidates[i].URL < n.Gaps.Candidates[j].URL })
}

func currentFirst(c *Claim) []*Release {
	out := make([]*Release, 0, len(c.Releases))
	for _, r := range c.Releases {
		if r.Current {
			out = append(out, r)
		}
	}
	for _, r := range c.Releases {
		if !r.Current {
			out = append(out, r)
		}
	}
	return out
}

func distinct(rs []*Relationship, f func(*Relationship) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if s := f(r); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func candidateURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// sitePrefix is an enrolled site's address space: a host and a path prefix ending in "/".
type sitePrefix struct{ host, path string }

type prefixes []sitePrefix

// enrolledSites are the address spaces of the sites this index reads: each origin's index
// and site URL and each source URL, except removed sources and origins reached only by them.
func (n *Network) enrolledSites() prefixes {
	status := map[string]string{}
	for _, s := range n.Sources {
		status[s.URL] = s.Health
	}
	var ps prefixes
	addURL := func(s string) {
		if p, ok := prefixOf(s); ok {
			ps = append(ps, p)
		}
	}
	for _, s := range n.Sources {
		if s.Health != "removed" {
			addURL(s.URL)
		}
	}
	for _, o := range n.Origins {
		enrolled := len(o.Sources) == 0
		for _, s := range o.Sources {
			if h, known := status[s]; !known || h != "removed" {
				enrolled = true
			}
		}
		if !enrolled {
			continue
		}
		addURL(o.IndexURL)
		if o.SiteURL != nil {
			addURL(*o.SiteURL)
		}
	}
	return ps
}

// prefixOf is the directory of s, lowercased (static hosts ignore case in a project site's
// path, and a candidate is only a suggestion), a default port dropped.
func prefixOf(s string) (sitePrefix, bool) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return sitePrefix{}, false
	}
	host := strings.ToLower(u.Host)
	host = strings.TrimSuffix(strings.TrimSuffix(host, ":443"), ":80")
	p := u.Path
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i+1]
	} else {
		p = "/"
	}
	return sitePrefix{host: host, path: strings.ToLower(p)}, true
}

func (ps prefixes) contains(s string) bool {
	u, ok := prefixOf(s)
	if !ok {
		return false
	}
	for _, p := range ps {
		if u.host == p.host && strings.HasPrefix(u.path, p.path) {
			return true
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell when it has anything but plainly safe characters.
func shellQuote(s string) string {
	unsafe := func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,%=+@", r))
	}
	if s != "" && !strings.ContainsFunc(s, unsafe) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (n *Network) featured() {
	for _, f := range n.Curation.Featured {
		ft := &Featured{Featured: f}
		if p := n.ByProject[f.Project]; p != nil {
			ft.Claims = p.Listed
			p.Featured = ft
		}
		if len(ft.Claims) == 0 {
			n.Unmatched = append(n.Unmatched, fmt.Sprintf("[[featured]] #%d: no listed claim for project %s", f.Entry, f.Project))
		}
		n.Featured = append(n.Featured, ft)
	}
}
