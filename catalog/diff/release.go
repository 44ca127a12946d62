package diff

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// mode says which two releases compareRelease is looking at.
type mode int

const (
	// headMode: two different releases, a channel's head before and after it moved. What
	// differs between any two versions by construction (artifact digests and file names,
	// download and signature URLs, source tag, release and revision) is not reported;
	// everything a reader installs against is.
	headMode mode = iota
	// amendMode: one release whose version did not change: every difference is reported.
	amendMode
)

// arrow separates before and after in a details line, as the reference writes it.
const arrow = " → "

// compareRelease lists the differences between releases b and a, in the reference's order:
// runtimes by id, Lua API, platforms, provided capabilities, relationships, components and
// groups, required content, extensions by namespace, critical extensions, artifacts, source.
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

// runtimeChanges compares runtime constraints by id. Constraints are compared as parsed under
// the numeric scheme (SPEC section 1: runtime constraints use it), so ">=0.49" and ">= 0.49.0"
// are the same; before and after are the strings as published, null when absent.
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

// constraintValue is a decoded lua_api value as an event stores it: the string, null when
// absent, or the JSON text of a value that is not a string (validation reports such a value;
// the event still says what changed).
func constraintValue(v any) json.RawMessage {
	switch x := v.(type) {
	case nil:
		return json.RawMessage("null")
	case string:
		return js(x)
	}
	return js(string(js(v)))
}

// platformKey is a platform as the reference names it: "os/arch", with "+variant" when there
// is one.
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

// unionKeys returns the keys of two maps, sorted.
func unionKeys[V any](b, a map[string]V) []string {
	keys := slices.Collect(maps.Keys(b))
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// multisetDiff returns the items of a not in b (in a's order) and of b not in a (in b's
// order), counting duplicates.
func multisetDiff[T any](b, a []T, key func(T) string) (added, removed []T) {
	return minus(a, b, key), minus(b, a, key)
}

// minus returns the items of x not in y, in x's order, counting duplicates.
func minus[T any](x, y []T, key func(T) string) []T {
	count := map[string]int{}
	for _, v := range y {
		count[key(v)]++
	}
	var out []T
	for _, v := range x {
		if k := key(v); count[k] > 0 {
			count[k]--
		} else {
			out = append(out, v)
		}
	}
	return out
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

// present is v as a JSON string, or null when it is absent (!ok).
func present(v string, ok bool) json.RawMessage {
	if !ok {
		return json.RawMessage("null")
	}
	return js(v)
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

// openmwFacts are the openmw extension values reported on their own: the Lua API constraint,
// the release's required content, and each component's install data (nil when absent).
type openmwFacts struct {
	luaAPI          any
	requiresContent any
	components      map[string]map[string]any
}

// takeOpenMW removes the openmw values reported on their own from the decoded extensions (so
// the namespace comparison does not report them again) and returns them.
func takeOpenMW(ext map[string]any) openmwFacts {
	f := openmwFacts{components: map[string]map[string]any{}}
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
				f.components[id] = cm
				delete(comps, id)
			}
		}
		if len(comps) == 0 {
			delete(o, "components")
		}
	}
	return f
}

// stringList is a decoded list of strings; anything else in it is kept as its text, and a
// value that is not a list (validation reports it) is a list of that one value.
func stringList(v any) []string {
	l, ok := v.([]any)
	if !ok && v != nil {
		return []string{valueText(v)}
	}
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, string(js(x)))
		}
	}
	return out
}

// extensionChanges compares namespaces (sorted): added, removed, or changed (what is left of
// openmw once its reported parts are taken out counts too).
func extensionChanges(b, a map[string]any) []Change {
	var out []Change
	for _, ns := range unionKeys(b, a) {
		bv, inB := b[ns]
		av, inA := a[ns]
		switch {
		case !inB:
			out = append(out, Change{Change: ChangeExtensionAdded, Namespace: ns})
		case !inA:
			out = append(out, Change{Change: ChangeExtensionRemoved, Namespace: ns})
		case !bytes.Equal(js(bv), js(av)):
			out = append(out, Change{Change: ChangeExtensionChanged, Namespace: ns})
		}
	}
	return out
}

// valueText renders a decoded value for a details line: strings as themselves, lists
// comma-separated, absent and empty lists as "none", anything else as compact JSON.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case string:
		return x
	case json.Number:
		return x.String()
	case []any:
		if len(x) == 0 {
			return "none"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			if s, ok := e.(string); ok {
				parts[i] = s
			} else {
				parts[i] = string(js(e))
			}
		}
		return strings.Join(parts, ", ")
	}
	return string(js(v))
}

// --- relationships ---

// targetOf is a relationship's target as events store it.
func targetOf(r *protocol.Relationship) *Target {
	name := r.Name
	if name == "" {
		name = r.Capability
	}
	if name == "" {
		name = r.Project
	}
	return &Target{Project: r.Project, Capability: r.Capability, Name: name, URL: r.URL}
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
// reported in the after order (kind, then constraint), then added ones in the after order,
// then removed ones in the before order. A matched relationship whose display name, URL or
// reason changed is not reported (the reference records none of them); the target of its
// other changes shows the new name and URL.
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

// sameConstraintText reports whether two relationship constraints differ only in whitespace.
// The target's scheme is not known here (a constraint is evaluated under the TARGET's scheme,
// SPEC section 1), so precedence is not used: "=1.5" and "=1.50" differ under numeric.
func sameConstraintText(x, y string) bool {
	cx, err1 := version.ParseConstraint(x)
	cy, err2 := version.ParseConstraint(y)
	return err1 == nil && err2 == nil && cx.String() == cy.String()
}

// --- components and groups ---

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// componentChanges matches components by id: added ones (after order), then the matched ones
// whose selection or OpenMW install data changed, then removed ones (before order). The
// details name what changed, "what: before → after": required, default, group, path, the rules
// between components (requires, conflicts), and each OpenMW install value ("OpenMW
// content_files: ..."). OpenMW install data of an id that is no component on both sides is
// reported last, by id.
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

// list encodes a slice, with nil and empty both as [] (an absent list and an empty one say the
// same thing).
func list[T any](s []T) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage("[]")
	}
	return js(s)
}

// openmwDetails compares one component's OpenMW install data key by key (sorted).
func openmwDetails(b, a map[string]any) []string {
	var out []string
	for _, k := range unionKeys(b, a) {
		if bv, av := b[k], a[k]; !bytes.Equal(js(bv), js(av)) {
			out = append(out, "OpenMW "+k+": "+valueText(bv)+arrow+valueText(av))
		}
	}
	return out
}

// groupChanges reports each group (by id, sorted) whose selection rule changed, appeared
// (before null) or went away (after null).
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

// --- artifacts ---

func artifactPlatform(p *protocol.ArtifactPlatform) string {
	if p == nil {
		return "none"
	}
	return platformKey(p.OS, p.Arch, p.Variant)
}

func layoutText(l *protocol.Layout) string {
	if l == nil {
		return "none"
	}
	return string(js(l))
}

// artifactChanges matches artifacts by id: each after artifact (in order) is artifact-added,
// or its changes (digest in amend mode, size, file details, sources added and removed,
// signatures added and removed); then removed artifacts (before order). In amend mode
// sources and signatures are matched by URL; in head mode by what they are (a source's kind
// and name, a signature's format, issuer and identity), because every URL names its version:
// a mirror or a signature appearing or going away is reported, a new download URL is not.
func artifactChanges(b, a []protocol.Artifact, md mode) []Change {
	amend := md == amendMode
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	for j := range a {
		aa := &a[j]
		i := a2b[j]
		if i < 0 {
			size := uint64(0)
			if aa.Size > 0 {
				size = uint64(aa.Size)
			}
			out = append(out, Change{Change: ChangeArtifactAdded, Artifact: aa.ID, Filename: aa.Filename, Size: size, SHA256: aa.Digests.SHA256})
			continue
		}
		ba := &b[i]
		if amend && ba.Digests.SHA256 != aa.Digests.SHA256 {
			out = append(out, Change{Change: ChangeArtifactDigest, Artifact: aa.ID, Before: js(ba.Digests.SHA256), After: js(aa.Digests.SHA256)})
		}
		if ba.Size != aa.Size {
			out = append(out, Change{Change: ChangeArtifactSize, Artifact: aa.ID, Before: js(max(ba.Size, 0)), After: js(max(aa.Size, 0))})
		}
		var details []string
		detail := func(what, bv, av string) {
			if bv != av {
				details = append(details, what+": "+bv+arrow+av)
			}
		}
		detail("format", ba.Format, aa.Format)
		detail("platform", artifactPlatform(ba.Platform), artifactPlatform(aa.Platform))
		if amend {
			detail("file name", ba.Filename, aa.Filename)
		}
		detail("media type", ba.MediaType, aa.MediaType)
		detail("layout", layoutText(ba.Layout), layoutText(aa.Layout))
		if len(details) > 0 {
			out = append(out, Change{Change: ChangeArtifactFile, Artifact: aa.ID, Details: details})
		}

		srcKey := func(s protocol.ArtifactSource) string { return s.URL }
		sigKey := func(s protocol.Signature) string { return s.URL }
		if !amend {
			srcKey = func(s protocol.ArtifactSource) string { return s.Kind + "\x00" + s.Name }
			sigKey = func(s protocol.Signature) string { return s.Format + "\x00" + s.Issuer + "\x00" + s.Identity }
		}
		sadd, srem := multisetDiff(ba.Sources, aa.Sources, srcKey)
		for _, s := range sadd {
			out = append(out, Change{Change: ChangeArtifactSourceAdded, Artifact: aa.ID, URL: s.URL, Kind: s.Kind})
		}
		for _, s := range srem {
			out = append(out, Change{Change: ChangeArtifactSourceRemoved, Artifact: aa.ID, URL: s.URL, Kind: s.Kind})
		}
		gadd, grem := multisetDiff(ba.Signatures, aa.Signatures, sigKey)
		for _, s := range gadd {
			out = append(out, Change{Change: ChangeSignatureAdded, Artifact: aa.ID, Format: s.Format, URL: s.URL})
		}
		for _, s := range grem {
			out = append(out, Change{Change: ChangeSignatureRemoved, Artifact: aa.ID, Format: s.Format, URL: s.URL})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeArtifactRemoved, Artifact: b[i].ID, Filename: b[i].Filename})
		}
	}
	return out
}
