package protocol

import (
	"maps"
	"slices"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// manifestRules checks the SPEC section 1 rules on a manifest that passed the schema.
func manifestRules(m *Manifest, e entryWant) []Finding {
	var fs findings
	if f, ok := e.idFinding(m); ok {
		fs = append(fs, f)
	}
	sch := SchemeOf(m)
	parsed := make([]*version.Version, len(m.Releases))
	for i := range m.Releases {
		parsed[i] = fs.release(&m.Releases[i], i, sch, m.Project.ID)
	}
	fs.uniquePrecedence(m, parsed)
	fs.channelHeads(m, sch)
	return fs
}

// findings collects the findings of one document, in the order the rules find them.
type findings []Finding

func (fs *findings) add(ptr, rule, format string, args ...any) {
	*fs = append(*fs, found(ptr, rule, format, args...))
}

// release checks release i and returns its version parsed under sch, nil when it does not.
func (fs *findings) release(r *Release, i int, sch version.Scheme, project string) *version.Version {
	rp := Pointer("releases", i)
	var parsed *version.Version
	if v, err := version.Parse(r.Version, sch); err != nil {
		fs.add(rp+"/version", RuleVersionScheme, "release version does not parse under the project's %s versioning: %s", sch, versionFault(err, r.Version, sch))
	} else {
		parsed = &v
	}
	*fs = append(*fs, noticeRule(r, rp)...)
	for _, n := range []struct {
		name string
		n    *Notice
	}{{"yanked", r.Yanked}, {"deprecated", r.Deprecated}} {
		if n.n != nil && n.n.Replacement != "" {
			if _, err := version.Parse(n.n.Replacement, sch); err != nil {
				fs.add(rp+"/"+n.name+"/replacement", RuleVersionScheme, "%s.replacement does not parse under the project's %s versioning: %s", n.name, sch, versionFault(err, n.n.Replacement, sch))
			}
		}
	}
	fs.runtimes(r, i)
	fs.namespaces(r, i)
	fs.relationships(r, i)
	fs.cfgLines(r, i, project)
	return parsed
}

// runtimes: runtime and OpenMW Lua API constraints parse under the numeric scheme.
func (fs *findings) runtimes(r *Release, i int) {
	for _, id := range sortedKeys(r.Runtimes) {
		if _, err := version.ParseConstraintIn(r.Runtimes[id], version.Numeric); err != nil {
			fs.add(Pointer("releases", i, "runtimes", id), RuleConstraint, "runtimes.%s is not a constraint under the numeric scheme: %s", pub(id), constraintText(err, r.Runtimes[id]))
		}
	}
	if o := r.OpenMWExtension(); o != nil && o.LuaAPI != "" {
		if _, err := version.ParseConstraintIn(o.LuaAPI, version.Numeric); err != nil {
			fs.add(Pointer("releases", i)+"/extensions/openmw/lua_api", RuleConstraint, "extensions.openmw.lua_api is not a constraint under the numeric scheme: %s", constraintText(err, o.LuaAPI))
		}
	}
}

// namespaces: every extension and critical extension is a valid namespace.
func (fs *findings) namespaces(r *Release, i int) {
	for _, ns := range sortedKeys(r.Extensions) {
		if !ValidNamespace(ns) {
			fs.add(Pointer("releases", i, "extensions", ns), RuleExtensionNamespace, "%s", namespacePhrase(ns))
		}
	}
	for k, ns := range r.CriticalExtensions {
		if !ValidNamespace(ns) {
			fs.add(Pointer("releases", i, "critical_extensions", k), RuleExtensionNamespace, "critical_extensions: %s", namespacePhrase(ns))
		}
	}
}

// relationships: a version constraint only with a project target, and one that parses; a
// capability target alone, and only for the kinds that may name one.
func (fs *findings) relationships(r *Release, i int) {
	for k, rel := range r.Relationships {
		relp := Pointer("releases", i, "relationships", k)
		if rel.Version != "" {
			if rel.Project == "" {
				fs.add(relp+"/version", RuleRelationshipVersion, "relationship version %q is only allowed with a project target", pub(rel.Version))
			}
			if _, err := version.ParseConstraint(rel.Version); err != nil {
				fs.add(relp+"/version", RuleConstraint, "relationship version is not a constraint: %s", constraintText(err, rel.Version))
			}
		}
		if rel.Capability != "" {
			if rel.Project != "" {
				fs.add(relp+"/capability", RuleRelationshipTarget, "relationship names both project %q and capability %q; a target is one or the other", pub(rel.Project), pub(rel.Capability))
			}
			if rel.Kind != KindRequires && rel.Kind != KindRecommends && rel.Kind != KindConflicts {
				fs.add(relp+"/capability", RuleRelationshipCapabity, "relationship kind %q cannot target a capability (only requires, recommends, conflicts)", pub(string(rel.Kind)))
			}
		}
	}
}

// uniquePrecedence: no two releases share a precedence (parsed is nil where one does not parse).
func (fs *findings) uniquePrecedence(m *Manifest, parsed []*version.Version) {
	for j := range parsed {
		for i := 0; i < j; i++ {
			if parsed[i] != nil && parsed[j] != nil && version.Compare(*parsed[i], *parsed[j]) == 0 {
				fs.add(Pointer("releases", j, "version"), RuleUniquePrecedence, "release version %q has the same precedence as %q at /releases/%d", pub(m.Releases[j].Version), pub(m.Releases[i].Version), i)
				break
			}
		}
	}
}

// channelHeads: the manifest's channel versions parse and equal the heads Heads recomputes.
func (fs *findings) channelHeads(m *Manifest, sch version.Scheme) {
	heads := Heads(m)
	for _, ch := range sortedKeys(m.Channels) {
		cp := Pointer("channels", ch)
		stated := m.Channels[ch].Version
		if _, err := version.Parse(stated, sch); err != nil {
			fs.add(cp+"/version", RuleVersionScheme, "channels.%s.version does not parse under the project's %s versioning: %s", pub(ch), sch, versionFault(err, stated, sch))
			continue
		}
		h, ok := heads[ch]
		switch {
		case !ok:
			fs.add(cp, RuleChannelHeads, "channel %q has no release with status available, so it must be absent from channels", pub(ch))
		case h.Version != stated:
			fs.add(cp+"/version", RuleChannelHeads, "channels.%s.version is %q but the channel's head (its highest-precedence available release) is %q", pub(ch), pub(stated), pub(h.Version))
		}
	}
	for _, ch := range sortedKeys(heads) {
		if _, ok := m.Channels[ch]; !ok {
			fs.add(Pointer("channels", ch), RuleChannelHeads, "channel %q is missing from channels: its head is release %q", ch, heads[ch].Version)
		}
	}
}

// noticeRule: yanked/deprecated present exactly when status says so.
func noticeRule(r *Release, rp string) []Finding {
	var fs []Finding
	for _, n := range []struct {
		name    string
		present bool
	}{{StatusYanked, r.Yanked != nil}, {StatusDeprecated, r.Deprecated != nil}} {
		want := r.Status == n.name
		switch {
		case want && !n.present:
			fs = append(fs, found(rp+"/"+n.name, RuleStatusNotice, "status is %q but the %s notice is missing", pub(string(r.Status)), n.name))
		case !want && n.present:
			fs = append(fs, found(rp+"/"+n.name, RuleStatusNotice, "a %s notice is present but status is %q", n.name, pub(string(r.Status))))
		}
	}
	return fs
}

// indexRules checks a site index that passed the schema: projects sorted by id, ids unique,
// channel versions parse under the decimal syntax (the superset: the index names no scheme).
func indexRules(ix *Index) []Finding {
	var fs []Finding
	first := map[string]int{}
	for i, e := range ix.Projects {
		if j, dup := first[e.ID]; dup {
			fs = append(fs, found(Pointer("projects", i, "id"), RuleIndexUniqueID, "project id %q is listed twice (also at /projects/%d)", pub(e.ID), j))
		} else {
			first[e.ID] = i
		}
		if i > 0 {
			if prev := ix.Projects[i-1].ID; e.ID < prev {
				fs = append(fs, found(Pointer("projects", i, "id"), RuleIndexOrder, "projects must be sorted by id: %q comes after %q", pub(e.ID), pub(prev)))
			}
		}
		for _, ch := range sortedKeys(e.Channels) {
			if _, err := version.Parse(e.Channels[ch], version.Decimal); err != nil {
				fs = append(fs, found(Pointer("projects", i, "channels", ch), RuleVersionScheme, "channels.%s is not a version: %s", pub(ch), versionFault(err, e.Channels[ch], version.Decimal)))
			}
		}
	}
	return fs
}

// Heads recomputes each channel's head from m.Releases: the highest-precedence available
// release (SPEC section 1); a channel with none is absent, unparsable versions are skipped.
// The values point into m.Releases.
func Heads(m *Manifest) map[string]*Release {
	heads := map[string]*Release{}
	if m == nil {
		return heads
	}
	sch := SchemeOf(m)
	best := map[string]version.Version{}
	for i := range m.Releases {
		r := &m.Releases[i]
		if r.Status != StatusAvailable {
			continue
		}
		v, err := version.Parse(r.Version, sch)
		if err != nil {
			continue
		}
		if b, ok := best[r.Channel]; !ok || version.Compare(v, b) > 0 {
			best[r.Channel] = v
			heads[r.Channel] = r
		}
	}
	return heads
}

// Current is the release a claim shows as current: the stable head; else the highest head of
// any other channel but development (ties to the channel name sorting first); else the
// development head. "" and nil when no channel has a head.
func Current(m *Manifest) (channel string, r *Release) {
	heads := Heads(m)
	if h, ok := heads["stable"]; ok {
		return "stable", h
	}
	sch := SchemeOf(m)
	var bestV version.Version
	for _, ch := range sortedKeys(heads) {
		if ch == "development" {
			continue
		}
		v, _ := version.Parse(heads[ch].Version, sch) // heads only hold parsed versions
		if r == nil || version.Compare(v, bestV) > 0 {
			channel, r, bestV = ch, heads[ch], v
		}
	}
	if r != nil {
		return channel, r
	}
	if h, ok := heads["development"]; ok {
		return "development", h
	}
	return "", nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
