package diff

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// mode says which two releases compareRelease is looking at.
type mode int

const (
	// headMode: two different releases, a channel's head before and after it moved. What
	// differs between any two versions by construction (artifact digests and file names,
	// download and signature URLs, source tag, release and revision, the version) is not
	// reported; everything a reader installs against is.
	headMode mode = iota
	// amendMode: one release whose version did not change, outside development: every
	// difference is reported, and a changed artifact digest is unusual.
	amendMode
	// amendDevelopmentMode: the same inside the development channel, where artifacts change by
	// design (SPEC section 1), so nothing is unusual.
	amendDevelopmentMode
)

// compareRelease lists the differences between releases b and a, in this order: version
// (amend modes), runtimes by id, Lua API, platforms, required content (release, then each
// component by id), critical extensions, provides, relationships, components, groups, other
// extension values, artifacts, source.
func compareRelease(b, a *protocol.Release, md mode) []Change {
	amend := md != headMode
	var out []Change
	if amend && b.Version != a.Version {
		out = append(out, Change{Change: ChangeReleaseVersion, Before: js(b.Version), After: js(a.Version)})
	}
	out = append(out, runtimeChanges(b.Runtimes, a.Runtimes)...)

	bx, ax := decodeExtensions(b.Extensions), decodeExtensions(a.Extensions)
	bs, as := takeOpenMW(bx), takeOpenMW(ax)
	if !valueConstraintEqual(bs.luaAPI, as.luaAPI) {
		out = append(out, Change{Change: ChangeLuaAPI, Before: js(bs.luaAPI), After: js(as.luaAPI)})
	}

	added, removed := multisetDiff(b.Platforms, a.Platforms, func(p protocol.Platform) string { return p.OS + "\x00" + p.Arch })
	for _, p := range removed {
		out = append(out, Change{Change: ChangePlatformRemoved, Before: js(p)})
	}
	for _, p := range added {
		out = append(out, Change{Change: ChangePlatformAdded, After: js(p)})
	}

	if bv, av := normList(bs.requiresContent), normList(as.requiresContent); !bytes.Equal(bv, av) {
		out = append(out, Change{Change: ChangeRequiresContent, Before: bv, After: av})
	}
	for _, id := range unionKeys(bs.componentRequires, as.componentRequires) {
		if bv, av := normList(bs.componentRequires[id]), normList(as.componentRequires[id]); !bytes.Equal(bv, av) {
			out = append(out, Change{Change: ChangeRequiresContent, Component: id, Before: bv, After: av})
		}
	}

	if bv, av := list(b.CriticalExtensions), list(a.CriticalExtensions); !bytes.Equal(bv, av) {
		out = append(out, Change{Change: ChangeCriticalExtensions, Before: bv, After: av})
	}

	padd, prem := multisetDiff(b.Provides, a.Provides, func(s string) string { return s })
	for _, c := range prem {
		out = append(out, Change{Change: ChangeProvidesRemoved, Capability: c})
	}
	for _, c := range padd {
		out = append(out, Change{Change: ChangeProvidesAdded, Capability: c})
	}

	out = append(out, relationshipChanges(b.Relationships, a.Relationships)...)
	out = append(out, componentChanges(b.Components, a.Components)...)
	out = append(out, groupChanges(b.Groups, a.Groups)...)
	out = treeDiff(out, "", bx, ax)
	out = append(out, artifactChanges(b.Artifacts, a.Artifacts, md)...)

	src := func(kind, name, bv, av string) {
		if bv != av {
			out = append(out, Change{Change: kind, Field: name, Before: str(bv), After: str(av)})
		}
	}
	src(ChangeSourceRepository, "repository", b.Source.Repository, a.Source.Repository)
	if amend {
		src(ChangeSourceTag, "tag", b.Source.Tag, a.Source.Tag)
		src(ChangeSourceRelease, "release", b.Source.Release, a.Source.Release)
		src(ChangeSourceRevision, "revision", b.Source.Revision, a.Source.Revision)
	}
	return out
}

// runtimeChanges compares runtime constraints by id. Constraints are compared as parsed under
// the numeric scheme (SPEC section 1: runtime constraints use it), so ">=0.49" and ">= 0.49.0"
// are the same; Before/After are the strings as published.
func runtimeChanges(b, a map[string]string) []Change {
	var out []Change
	for _, id := range unionKeys(b, a) {
		bv, inB := b[id]
		av, inA := a[id]
		if inB == inA && constraintEqual(bv, av, version.Numeric) {
			continue
		}
		c := Change{Change: ChangeRuntime, Field: id, Before: json.RawMessage("null"), After: json.RawMessage("null")}
		if inB {
			c.Before = js(bv)
		}
		if inA {
			c.After = js(av)
		}
		out = append(out, c)
	}
	return out
}

// constraintEqual reports whether two constraints say the same thing: equal strings, or both
// parse under sch to the same comparators whose versions have equal precedence.
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

// valueConstraintEqual compares two decoded JSON values that should be numeric-scheme
// constraints (lua_api); anything else is compared as JSON.
func valueConstraintEqual(x, y any) bool {
	xs, ok1 := x.(string)
	ys, ok2 := y.(string)
	if ok1 && ok2 {
		return constraintEqual(xs, ys, version.Numeric)
	}
	return bytes.Equal(js(x), js(y))
}

// unionKeys returns the keys of two maps, sorted.
func unionKeys[V any](b, a map[string]V) []string {
	seen := map[string]bool{}
	for k := range b {
		seen[k] = true
	}
	for k := range a {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// multisetDiff returns the items of a not in b (in a's order) and of b not in a (in b's
// order), counting duplicates.
func multisetDiff[T any](b, a []T, key func(T) string) (added, removed []T) {
	count := map[string]int{}
	for _, x := range b {
		count[key(x)]++
	}
	for _, x := range a {
		if k := key(x); count[k] > 0 {
			count[k]--
		} else {
			added = append(added, x)
		}
	}
	count = map[string]int{}
	for _, x := range a {
		count[key(x)]++
	}
	for _, x := range b {
		if k := key(x); count[k] > 0 {
			count[k]--
		} else {
			removed = append(removed, x)
		}
	}
	return added, removed
}

// pairByKey pairs items with equal keys, in order, the first before item with the first after
// item and so on. It returns after -> before and before -> after indexes, -1 for none.
func pairByKey(bn, an int, bkey, akey func(int) string) (a2b, b2a []int) {
	a2b, b2a = make([]int, an), make([]int, bn)
	queue := map[string][]int{}
	for i := 0; i < bn; i++ {
		b2a[i] = -1
		queue[bkey(i)] = append(queue[bkey(i)], i)
	}
	for j := 0; j < an; j++ {
		a2b[j] = -1
		if q := queue[akey(j)]; len(q) > 0 {
			a2b[j], b2a[q[0]] = q[0], j
			queue[akey(j)] = q[1:]
		}
	}
	return a2b, b2a
}

// --- extensions ---

// decodeExtensions decodes each namespace's value (numbers kept as written). A value that is
// not JSON (only possible for a manifest built in code) is kept as its text.
func decodeExtensions(ext map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(ext))
	for ns, raw := range ext {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			v = string(raw)
		}
		out[ns] = v
	}
	return out
}

// openmwFacts are the openmw extension values SPEC section 4 names on their own: the Lua API
// constraint and required content, release-wide and per component (nil when absent).
type openmwFacts struct {
	luaAPI            any
	requiresContent   any
	componentRequires map[string]any
}

// takeOpenMW removes the named openmw values from the decoded extensions (so the generic
// comparison does not report them twice) and returns them.
func takeOpenMW(ext map[string]any) openmwFacts {
	f := openmwFacts{componentRequires: map[string]any{}}
	o, ok := ext["openmw"].(map[string]any)
	if !ok {
		return f
	}
	f.luaAPI, f.requiresContent = o["lua_api"], o["requires_content"]
	delete(o, "lua_api")
	delete(o, "requires_content")
	if comps, ok := o["components"].(map[string]any); ok {
		for id, c := range comps {
			if cm, ok := c.(map[string]any); ok {
				if rc, ok := cm["requires_content"]; ok {
					f.componentRequires[id] = rc
					delete(cm, "requires_content")
				}
			}
		}
	}
	return f
}

// normList encodes a decoded list value, with absent and empty both as [].
func normList(v any) json.RawMessage {
	if v == nil {
		return json.RawMessage("[]")
	}
	if l, ok := v.([]any); ok && len(l) == 0 {
		return json.RawMessage("[]")
	}
	return js(v)
}

// treeDiff compares decoded JSON values: objects key by key (sorted), anything else whole.
// Field is the JSON pointer (RFC 6901) of the value inside extensions; absent is null.
func treeDiff(out []Change, path string, b, a any) []Change {
	bm, bok := b.(map[string]any)
	am, aok := a.(map[string]any)
	if bok && aok {
		for _, k := range unionKeys(bm, am) {
			out = treeDiff(out, path+"/"+pointerEscape(k), bm[k], am[k])
		}
		return out
	}
	if bv, av := js(b), js(a); !bytes.Equal(bv, av) {
		out = append(out, Change{Change: ChangeExtensionField, Field: path, Before: bv, After: av})
	}
	return out
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// --- relationships ---

// target is a relationship's target as events show it: its identity fields as published.
type target struct {
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name,omitempty"`
	URL        string `json:"url,omitempty"`
}

func targetOf(r *protocol.Relationship) json.RawMessage {
	return js(target{r.Project, r.Capability, r.Name, r.URL})
}

// relationshipIdentity is what a relationship is about: its project id, else its capability,
// else its URL, else its name (SPEC section 4's resolution order, then display text). A
// relationship naming both project and capability is identified by the project; one naming
// nothing at all has the empty identity.
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

// relationshipChanges matches relationships by identity, the same kind first (so "requires X"
// and "conflicts X" side by side stay apart), then any kind (a kind change). Matched pairs are
// reported in the after order (kind, constraint, then name, url, capability, reason), then
// added ones in the after order, then removed ones in the before order.
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
		t := targetOf(ar)
		if br.Kind != ar.Kind {
			out = append(out, Change{Change: ChangeRelationshipKind, Kind: ar.Kind, Target: t, Before: js(br.Kind), After: js(ar.Kind)})
		}
		if br.Version != ar.Version && !sameConstraintText(br.Version, ar.Version) {
			out = append(out, Change{Change: ChangeRelationshipConstraint, Kind: ar.Kind, Target: t, Before: str(br.Version), After: str(ar.Version)})
		}
		for _, f := range []struct{ name, b, a string }{
			{"name", br.Name, ar.Name}, {"url", br.URL, ar.URL}, {"capability", br.Capability, ar.Capability}, {"reason", br.Reason, ar.Reason},
		} {
			if f.b != f.a {
				out = append(out, Change{Change: ChangeRelationshipField, Kind: ar.Kind, Target: t, Field: f.name, Before: str(f.b), After: str(f.a)})
			}
		}
	}
	for j := range a {
		if a2b[j] < 0 {
			out = append(out, Change{Change: ChangeRelationshipAdded, Kind: a[j].Kind, Target: targetOf(&a[j]), After: js(a[j])})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeRelationshipRemoved, Kind: b[i].Kind, Target: targetOf(&b[i]), Before: js(b[i])})
		}
	}
	return out
}

// sameConstraintText reports whether two relationship constraints differ only in whitespace.
// The target's scheme is not known here (a constraint is evaluated under the TARGET's scheme,
// SPEC section 1), so precedence is not used: "=1.5" and "=1.50" differ under numeric.
func sameConstraintText(x, y string) bool {
	cx, err1 := version.ParseConstraint(x)
	cy, err2 := version.ParseConstraint(y)
	return err1 == nil && err2 == nil && cx.String() == cy.String()
}

// --- components and groups ---

func componentChanges(b, a []protocol.Component) []Change {
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	for j := range a {
		i := a2b[j]
		if i < 0 {
			continue
		}
		bc, ac := &b[i], &a[j]
		cf := func(name string, bv, av json.RawMessage) {
			if !bytes.Equal(bv, av) {
				out = append(out, Change{Change: ChangeComponentField, Component: ac.ID, Field: name, Before: bv, After: av})
			}
		}
		cf("name", str(bc.Name), str(ac.Name))
		cf("description", str(bc.Description), str(ac.Description))
		cf("path", str(bc.Path), str(ac.Path))
		cf("required", js(bc.Required), js(ac.Required))
		cf("default", js(bc.Default), js(ac.Default))
		cf("group", str(bc.Group), str(ac.Group))
		cf("requires", list(bc.Requires), list(ac.Requires))
		cf("conflicts", list(bc.Conflicts), list(ac.Conflicts))
		cf("suggested_with", list(bc.SuggestedWith), list(ac.SuggestedWith))
	}
	for j := range a {
		if a2b[j] < 0 {
			out = append(out, Change{Change: ChangeComponentAdded, Component: a[j].ID, After: js(a[j])})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeComponentRemoved, Component: b[i].ID, Before: js(b[i])})
		}
	}
	return out
}

func groupChanges(b, a []protocol.Group) []Change {
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	for j := range a {
		i := a2b[j]
		if i < 0 {
			continue
		}
		for _, f := range []struct{ name, b, a string }{
			{"name", b[i].Name, a[j].Name}, {"description", b[i].Description, a[j].Description}, {"select", b[i].Select, a[j].Select},
		} {
			if f.b != f.a {
				out = append(out, Change{Change: ChangeGroupField, Group: a[j].ID, Field: f.name, Before: str(f.b), After: str(f.a)})
			}
		}
	}
	for j := range a {
		if a2b[j] < 0 {
			out = append(out, Change{Change: ChangeGroupAdded, Group: a[j].ID, After: js(a[j])})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeGroupRemoved, Group: b[i].ID, Before: js(b[i])})
		}
	}
	return out
}

// --- artifacts ---

type sourceShape struct{ Kind, Name string }
type signatureShape struct{ Format, Issuer, Identity string }

// artifactChanges matches artifacts by id and compares them: per artifact format, platform,
// filename (amend), media type, digest (amend), size, layout, sources, signatures; then added
// artifacts (after order) and removed ones (before order). In head mode sources and signatures
// are compared without their URLs (which name the version): a mirror or a signature appearing
// or going away is reported, a new download URL is not.
func artifactChanges(b, a []protocol.Artifact, md mode) []Change {
	amend := md != headMode
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	for j := range a {
		i := a2b[j]
		if i < 0 {
			continue
		}
		ba, aa := &b[i], &a[j]
		af := func(kind string, bv, av json.RawMessage, unusual bool) {
			if !bytes.Equal(bv, av) {
				out = append(out, Change{Change: kind, Artifact: aa.ID, Before: bv, After: av, Unusual: unusual})
			}
		}
		af(ChangeArtifactFormat, str(ba.Format), str(aa.Format), false)
		af(ChangeArtifactPlatform, js(ba.Platform), js(aa.Platform), false)
		if amend {
			af(ChangeArtifactFilename, str(ba.Filename), str(aa.Filename), false)
		}
		af(ChangeArtifactMediaType, str(ba.MediaType), str(aa.MediaType), false)
		if amend {
			af(ChangeArtifactDigest, str(ba.Digests.SHA256), str(aa.Digests.SHA256), md == amendMode)
		}
		af(ChangeArtifactSize, js(ba.Size), js(aa.Size), false)
		af(ChangeArtifactLayout, js(ba.Layout), js(aa.Layout), false)
		if amend || !bytes.Equal(js(sourceShapes(ba.Sources)), js(sourceShapes(aa.Sources))) {
			af(ChangeArtifactSources, list(ba.Sources), list(aa.Sources), false)
		}
		if amend || !bytes.Equal(js(signatureShapes(ba.Signatures)), js(signatureShapes(aa.Signatures))) {
			af(ChangeArtifactSignatures, list(ba.Signatures), list(aa.Signatures), false)
		}
	}
	for j := range a {
		if a2b[j] < 0 {
			out = append(out, Change{Change: ChangeArtifactAdded, Artifact: a[j].ID, After: js(a[j])})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeArtifactRemoved, Artifact: b[i].ID, Before: js(b[i])})
		}
	}
	return out
}

func sourceShapes(s []protocol.ArtifactSource) []sourceShape {
	out := []sourceShape{}
	for _, x := range s {
		out = append(out, sourceShape{x.Kind, x.Name})
	}
	return out
}

func signatureShapes(s []protocol.Signature) []signatureShape {
	out := []signatureShape{}
	for _, x := range s {
		out = append(out, signatureShape{x.Format, x.Issuer, x.Identity})
	}
	return out
}
