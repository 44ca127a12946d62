package diff

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// mode says which two releases compareRelease is looking at.
type mode int

const (
	// headMode: a channel's head before and after it moved. What differs between any two
	// versions by construction (digests, file names, URLs, tag) is not reported.
	headMode mode = iota
	// amendMode: one release whose version did not change: every difference is reported.
	amendMode
)

// arrow separates before and after in a details line, as the reference writes it.
const arrow = " → "

// compareRelease lists the differences between releases b and a, in the reference's order.
func compareRelease(b, a *protocol.Release, md mode) []Change {
	amend := md == amendMode
	var out []Change
	out = append(out, runtimeChanges(b.Runtimes, a.Runtimes)...)

	bx, ax := decodeExtensions(b.Extensions), decodeExtensions(a.Extensions)
	bs, as := takeOpenMW(bx), takeOpenMW(ax)
	if !valueConstraintEqual(bs.luaAPI, as.luaAPI) {
		out = append(out, Change{Change: ChangeLuaAPI, Before: constraintValue(bs.luaAPI), After: constraintValue(as.luaAPI)})
	}
	out = setChange(out, ChangePlatforms, platformKeys(b.Platforms), platformKeys(a.Platforms))

	padd, prem := setDiff(b.Provides, a.Provides)
	for _, c := range padd {
		out = append(out, Change{Change: ChangeCapabilityAdded, Capability: c})
	}
	for _, c := range prem {
		out = append(out, Change{Change: ChangeCapabilityRemoved, Capability: c})
	}

	out = append(out, relationshipChanges(b.Relationships, a.Relationships)...)
	out = append(out, componentChanges(b.Components, a.Components, bs.components, as.components)...)
	out = append(out, groupChanges(b.Groups, a.Groups)...)
	out = setChange(out, ChangeRequiredContent, stringList(bs.requiresContent), stringList(as.requiresContent))
	out = append(out, extensionChanges(bx, ax)...)
	out = setChange(out, ChangeCriticalExtensions, b.CriticalExtensions, a.CriticalExtensions)
	out = append(out, artifactChanges(b.Artifacts, a.Artifacts, md)...)

	src := func(name, bv, av string) {
		if bv != av {
			out = append(out, Change{Change: ChangeSourceRevision, Field: name, Before: opt(bv), After: opt(av)})
		}
	}
	src("repository", b.Source.Repository, a.Source.Repository)
	if amend {
		src("tag", b.Source.Tag, a.Source.Tag)
		src("release", b.Source.Release, a.Source.Release)
		src("revision", b.Source.Revision, a.Source.Revision)
	}
	return out
}

// runtimeChanges compares runtime constraints by id, parsed under the numeric scheme, so
// ">=0.49" and ">= 0.49.0" are the same.
func runtimeChanges(b, a map[string]string) []Change {
	var out []Change
	for _, id := range unionKeys(b, a) {
		bv, inB := b[id]
		av, inA := a[id]
		if inB == inA && constraintEqual(bv, av, version.Numeric) {
			continue
		}
		out = append(out, Change{Change: ChangeRuntime, Runtime: id, Before: present(bv, inB), After: present(av, inA)})
	}
	return out
}

// constraintEqual reports whether two constraints are equal strings or parse under sch to
// comparators of equal precedence.
func constraintEqual(x, y string, sch version.Scheme) bool {
	if x == y {
		return true
	}
	cx, err1 := version.ParseConstraintIn(x, sch)
	cy, err2 := version.ParseConstraintIn(y, sch)
	if err1 != nil || err2 != nil || cx.Any != cy.Any || len(cx.Comparators) != len(cy.Comparators) {
		return false
	}
	for i := range cx.Comparators {
		if cx.Comparators[i].Op != cy.Comparators[i].Op || version.Compare(cx.Comparators[i].Version, cy.Comparators[i].Version) != 0 {
			return false
		}
	}
	return true
}

// valueConstraintEqual compares two decoded lua_api values as constraints, else as JSON.
func valueConstraintEqual(x, y any) bool {
	xs, ok1 := x.(string)
	ys, ok2 := y.(string)
	if ok1 && ok2 {
		return constraintEqual(xs, ys, version.Numeric)
	}
	return bytes.Equal(js(x), js(y))
}

func constraintValue(v any) json.RawMessage {
	switch x := v.(type) {
	case nil:
		return json.RawMessage("null")
	case string:
		return js(x)
	}
	return js(string(js(v)))
}

// platformKey is a platform as the reference names it: "os/arch", and "+variant" if any.
func platformKey(os, arch, variant string) string {
	if variant != "" {
		return os + "/" + arch + "+" + variant
	}
	return os + "/" + arch
}

func platformKeys(ps []protocol.Platform) []string {
	var out []string
	for _, p := range ps {
		out = append(out, platformKey(p.OS, p.Arch, ""))
	}
	return out
}

func targetOf(r *protocol.Relationship) *Target {
	return &Target{Project: r.Project, Capability: r.Capability, Name: cmp.Or(r.Name, r.Capability, r.Project), URL: r.URL}
}

// relationshipIdentity is what a relationship is about: its project id, else its capability,
// URL or name.
func relationshipIdentity(r *protocol.Relationship) string {
	switch {
	case r.Project != "":
		return "project\x00" + r.Project
	case r.Capability != "":
		return "capability\x00" + r.Capability
	case r.URL != "":
		return "url\x00" + r.URL
	default:
		return "name\x00" + r.Name
	}
}

// relationshipChanges matches relationships by identity, the same kind first, then any kind.
// It reports matched pairs, added ones in after order, then removed ones; a changed name, URL
// or reason alone is not reported.
func relationshipChanges(b, a []protocol.Relationship) []Change {
	a2b, b2a := pairByKey(len(b), len(a),
		func(i int) string { return relationshipIdentity(&b[i]) + "\x00" + b[i].Kind },
		func(j int) string { return relationshipIdentity(&a[j]) + "\x00" + a[j].Kind })
	// second pass: same identity, another kind
	queue := map[string][]int{}
	for i := range b {
		if b2a[i] < 0 {
			queue[relationshipIdentity(&b[i])] = append(queue[relationshipIdentity(&b[i])], i)
		}
	}
	for j := range a {
		if a2b[j] >= 0 {
			continue
		}
		id := relationshipIdentity(&a[j])
		if q := queue[id]; len(q) > 0 {
			a2b[j], b2a[q[0]] = q[0], j
			queue[id] = q[1:]
		}
	}
	var out []Change
	for j := range a {
		i := a2b[j]
		if i < 0 {
			continue
		}
		br, ar := &b[i], &a[j]
		if br.Kind != ar.Kind {
			out = append(out, Change{Change: ChangeRelationshipKind, Target: targetOf(ar), Before: js(br.Kind), After: js(ar.Kind)})
		}
		if br.Version != ar.Version && !sameConstraintText(br.Version, ar.Version) {
			out = append(out, Change{Change: ChangeRelationshipConstraint, Kind: ar.Kind, Target: targetOf(ar), Before: opt(br.Version), After: opt(ar.Version)})
		}
	}
	for j := range a {
		if a2b[j] < 0 {
			out = append(out, Change{Change: ChangeRelationshipAdded, Kind: a[j].Kind, Target: targetOf(&a[j]), Constraint: optPtr(a[j].Version)})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeRelationshipRemoved, Kind: b[i].Kind, Target: targetOf(&b[i]), Constraint: optPtr(b[i].Version)})
		}
	}
	return out
}

// sameConstraintText reports whether two constraints differ only in whitespace: the target's
// scheme is not known here.
func sameConstraintText(x, y string) bool {
	cx, err1 := version.ParseConstraint(x)
	cy, err2 := version.ParseConstraint(y)
	return err1 == nil && err2 == nil && cx.String() == cy.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// componentChanges matches components by id: added ones, changed ones with details, removed
// ones; last, OpenMW install data of an id that is no component.
func componentChanges(b, a []protocol.Component, bo, ao map[string]map[string]any) []Change {
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	matched := map[string]bool{}
	for j := range a {
		i := a2b[j]
		if i < 0 {
			out = append(out, Change{Change: ChangeComponentAdded, Component: a[j].ID, Name: a[j].Name})
			continue
		}
		bc, ac := &b[i], &a[j]
		matched[ac.ID] = true
		var details []string
		if bc.Required != ac.Required {
			details = append(details, "required: "+strconv.FormatBool(bc.Required)+arrow+strconv.FormatBool(ac.Required))
		}
		if bc.Default != ac.Default {
			details = append(details, "default: "+strconv.FormatBool(bc.Default)+arrow+strconv.FormatBool(ac.Default))
		}
		if bc.Group != ac.Group {
			details = append(details, "group: "+orNone(bc.Group)+arrow+orNone(ac.Group))
		}
		if bc.Path != ac.Path {
			details = append(details, "path: "+bc.Path+arrow+ac.Path)
		}
		if !bytes.Equal(list(bc.Requires), list(ac.Requires)) || !bytes.Equal(list(bc.Conflicts), list(ac.Conflicts)) {
			details = append(details, "rules between components changed")
		}
		details = append(details, openmwDetails(bo[ac.ID], ao[ac.ID])...)
		if len(details) > 0 {
			out = append(out, Change{Change: ChangeComponentSelection, Component: ac.ID, Details: details})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeComponentRemoved, Component: b[i].ID, Name: b[i].Name})
		}
	}
	known := map[string]bool{}
	for _, c := range b {
		known[c.ID] = true
	}
	for _, c := range a {
		known[c.ID] = true
	}
	for _, id := range unionKeys(bo, ao) {
		if known[id] {
			continue
		}
		if details := openmwDetails(bo[id], ao[id]); len(details) > 0 {
			out = append(out, Change{Change: ChangeComponentSelection, Component: id, Details: details})
		}
	}
	return out
}

func groupChanges(b, a []protocol.Group) []Change {
	sel := func(gs []protocol.Group) map[string]string {
		m := map[string]string{}
		for _, g := range gs {
			if _, dup := m[g.ID]; !dup {
				m[g.ID] = g.Select
			}
		}
		return m
	}
	bs, as := sel(b), sel(a)
	var out []Change
	for _, id := range unionKeys(bs, as) {
		bv, inB := bs[id]
		av, inA := as[id]
		if inB == inA && bv == av {
			continue
		}
		out = append(out, Change{Change: ChangeGroupSelection, Group: id, Before: present(bv, inB), After: present(av, inA)})
	}
	return out
}
