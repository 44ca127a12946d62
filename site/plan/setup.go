// Package plan computes the data of the setup check and the install planner (SPEC section 7),
// cut into the parts the two pages load (site/shards; engines assets/setupcheck.js and
// assets/plan.js).
package plan

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// SetupPage is the setup check page: a player's openmw.cfg read in the browser.
const SetupPage = "setup/index.html"

// SetupDoc is the setup check's data: what the current release of each listed claim
// declares under extensions.openmw. The page loads its name indexes from SetupParts and its
// claims from InstallParts.
type SetupDoc struct {
	// ContentFiles maps a content file name, folded (FoldASCII), to the sorted keys
	// ("<project>/<site>") of every listed claim whose release declares it.
	ContentFiles map[string][]string `json:"content_files"`
	// GroundcoverFiles and FallbackArchives map a folded name likewise.
	GroundcoverFiles map[string][]string `json:"groundcover_files"`
	FallbackArchives map[string][]string `json:"fallback_archives"`
	// DataDirs maps the folded last folder name of a declared data directory likewise: a
	// data= line ending in that name may be that claim's.
	DataDirs map[string][]string `json:"data_dirs"`
	// Claims holds every claim the maps or a relationship name, by key.
	Claims map[string]*SetupClaim `json:"claims"`
}

// releaseOf is the Release the pages say r is.
func releaseOf(r *network.Release) *Release {
	out := &Release{Version: r.Version, Channel: r.Channel, Current: r.Current, Status: r.Status}
	if n := cmp.Or(r.Yanked, r.Deprecated); n != nil {
		out.Reason, out.Replacement = n.Reason, n.Replacement
	}
	return out
}

// Head is what the setup and plan pages' data say of every claim they hold.
type Head struct {
	Project string `json:"project"`
	Site    string `json:"site"`
	// SiteName is how the pages name the claim's site (siteNames.ClaimSiteText).
	SiteName string `json:"site_name"`
	Name     string `json:"name"`
	// Page is the claim's page, relative to the site root.
	Page   string `json:"page"`
	Health string `json:"health"`
	// Stale: the claim's data is cached from an earlier read.
	Stale bool `json:"stale"`
}

// Input is what the setup and plan data are computed from: the listed claims and each
// one's Head.
type Input struct {
	Listed []*network.Claim
	Head   func(*network.Claim) Head
}

// SetupClaim is one listed claim as the setup check needs it.
type SetupClaim struct {
	Head
	// ProjectStatus is the manifest's project.status (active, deprecated, archived, ...).
	ProjectStatus string `json:"project_status"`
	// Release is the release read (setupReleaseOf); nil when the manifest has none.
	Release *Release `json:"release"`
	// ContentFiles are the content files the release's components declare, in component
	// order, each once.
	ContentFiles []Content `json:"content_files"`
	// RequiresContent is extensions.openmw.requires_content: what the whole release needs.
	RequiresContent []string `json:"requires_content"`
	// OpenMW is runtimes.openmw as published; "" when none.
	OpenMW string `json:"openmw"`
	// Relationships are the release's requires and conflicts, in publisher order, without
	// self-references.
	Relationships []Relationship `json:"relationships"`
	// DataDirs are the release's data directories (component path joined, "/"-separated),
	// each once, the artifact's root left out. ConfigDirs are the paths of components with an
	// openmw.cfg. Groundcover and Archives are the declared groundcover files and fallback
	// archives, each once.
	DataDirs    []string `json:"data_dirs"`
	ConfigDirs  []string `json:"config_dirs"`
	Groundcover []string `json:"groundcover"`
	Archives    []string `json:"archives"`
}

// Release is the release a SetupClaim reads.
type Release struct {
	Version string `json:"version"`
	Channel string `json:"channel"`
	// Current: this is the claim's current release (SPEC section 4).
	Current bool `json:"current"`
	// Status is available, yanked or deprecated; Reason and Replacement are the publisher's
	// notice.
	Status      string `json:"status"`
	Reason      string `json:"reason,omitempty"`
	Replacement string `json:"replacement,omitempty"`
}

// Content is one declared content file.
type Content struct {
	// File is the name as the publisher wrote it.
	File string `json:"file"`
	// RequiresContent is what every component declaring the file needs beyond the release's.
	RequiresContent []string `json:"requires_content"`
}

// Relationship is a relationship resolved by the network model.
type Relationship struct {
	Kind       string `json:"kind"`
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name,omitempty"`
	Version    string `json:"version,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Targets are the keys of every listed claim it resolves to.
	Targets []string `json:"targets"`
}

// relationshipsOf lists r's relationships of the given kinds, in order, without
// self-references; target, when set, sees every claim one resolves to.
func relationshipsOf(r *network.Release, target func(*network.Claim), kinds ...string) []Relationship {
	out := []Relationship{}
	for _, rel := range r.Relationships {
		if rel.Self || !slices.Contains(kinds, rel.Kind) {
			continue
		}
		sr := Relationship{Kind: rel.Kind, Project: rel.Project, Capability: rel.Capability,
			Name: rel.Name, Version: rel.Version, Reason: rel.Reason, Targets: []string{}}
		for _, t := range rel.Targets {
			if target != nil {
				target(t.Claim)
			}
			sr.Targets = append(sr.Targets, t.Claim.Key.String())
		}
		out = append(out, sr)
	}
	return out
}

// FoldASCII lowercases ASCII letters only, as OpenMW and the page's JavaScript compare
// content file names.
func FoldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Release picks the release a claim's setup entry reads: the current release, else the one
// of highest precedence under the claim's scheme (every release yanked or deprecated).
func setupReleaseOf(c *network.Claim) *network.Release {
	if c.Current != nil {
		return c.Current
	}
	var best *network.Release
	var bv version.Version
	for _, r := range c.Releases {
		v, err := version.Parse(r.Version, c.Scheme)
		if err != nil {
			continue
		}
		if best == nil || version.Compare(v, bv) > 0 {
			best, bv = r, v
		}
	}
	return best
}

// contentList lists the content files of each [content files, requires_content] pair, in
// order, each once by folded name, with the requires_content every pair declaring it shares
// (either may be the one installed).
func contentList(comps [][2][]string) []Content {
	out := []Content{}
	at := map[string]int{}
	for _, comp := range comps {
		for _, f := range comp[0] {
			if i, ok := at[FoldASCII(f)]; ok {
				out[i].RequiresContent = common(out[i].RequiresContent, comp[1])
			} else if f != "" {
				at[FoldASCII(f)] = len(out)
				out = append(out, Content{File: f, RequiresContent: appendNew([]string{}, comp[1]...)})
			}
		}
	}
	return out
}

// extComponentIDs lists ext's component ids in r's component order, then the rest by id.
func extComponentIDs(r *protocol.Release, ext *protocol.OpenMW) []string {
	var ids, rest []string
	listed := map[string]bool{}
	for _, comp := range r.Components {
		if _, ok := ext.Components[comp.ID]; ok && !listed[comp.ID] {
			ids = append(ids, comp.ID)
		}
		listed[comp.ID] = true
	}
	for id := range ext.Components {
		if !listed[id] {
			rest = append(rest, id)
		}
	}
	sort.Strings(rest)
	return append(ids, rest...)
}

// relDir joins a component's path and a directory under it, "." and empty parts dropped.
func relDir(parts ...string) string {
	var out []string
	for _, p := range parts {
		for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
			if seg != "." {
				out = append(out, seg)
			}
		}
	}
	return strings.Join(out, "/")
}

// declaredFiles fills e's content files (contentList), directories, groundcover files and
// archives from r's openmw extension, in component order, each once.
func declaredFiles(e *SetupClaim, r *protocol.Release, ext *protocol.OpenMW) {
	paths := map[string]string{}
	for _, comp := range r.Components {
		if _, ok := paths[comp.ID]; !ok {
			paths[comp.ID] = comp.Path
		}
	}
	var content [][2][]string
	for _, id := range extComponentIDs(r, ext) {
		oc := ext.Components[id]
		content = append(content, [2][]string{oc.ContentFiles, oc.RequiresContent})
		for _, d := range oc.DataDirectories {
			if rd := relDir(paths[id], d); rd != "" {
				e.DataDirs = appendNew(e.DataDirs, rd)
			}
		}
		if rd := relDir(paths[id]); oc.Config && rd != "" {
			e.ConfigDirs = appendNew(e.ConfigDirs, rd)
		}
		e.Groundcover = appendNew(e.Groundcover, oc.GroundcoverFiles...)
		e.Archives = appendNew(e.Archives, oc.FallbackArchives...)
	}
	e.ContentFiles = contentList(content)
}

// common keeps, in place, the names of list also in other (compared folded), in linear time.
func common(list, other []string) []string {
	in := make(map[string]bool, len(other))
	for _, o := range other {
		in[FoldASCII(o)] = true
	}
	return slices.DeleteFunc(list, func(l string) bool { return !in[FoldASCII(l)] })
}

// appendNew appends each non-empty name of add not already in list (folded), in linear time.
func appendNew(list []string, add ...string) []string {
	seen := make(map[string]bool, len(list)+len(add))
	for _, l := range list {
		seen[FoldASCII(l)] = true
	}
	for _, a := range add {
		if k := FoldASCII(a); a != "" && !seen[k] {
			seen[k] = true
			list = append(list, a)
		}
	}
	return list
}

// Setup computes the setup check's data from the model: every listed claim whose release
// (setupReleaseOf) declares a content file, and every claim their relationships resolve to.
func Setup(in Input) *SetupDoc {
	doc := &SetupDoc{ContentFiles: map[string][]string{}, GroundcoverFiles: map[string][]string{}, FallbackArchives: map[string][]string{},
		DataDirs: map[string][]string{}, Claims: map[string]*SetupClaim{}}
	entry := func(c *network.Claim) *SetupClaim {
		k := c.Key.String()
		if e := doc.Claims[k]; e != nil {
			return e
		}
		e := &SetupClaim{Head: in.Head(c),
			ContentFiles: []Content{}, RequiresContent: []string{}, Relationships: []Relationship{},
			DataDirs: []string{}, ConfigDirs: []string{}, Groundcover: []string{}, Archives: []string{}}
		if c.Manifest != nil {
			e.ProjectStatus = c.Manifest.Project.Status
		}
		doc.Claims[k] = e
		if r := setupReleaseOf(c); r != nil {
			e.Release, e.OpenMW = releaseOf(r), r.Runtimes["openmw"]
			if ext := r.OpenMWExtension(); ext != nil {
				e.RequiresContent = appendNew(e.RequiresContent, ext.RequiresContent...)
				declaredFiles(e, r.Release, ext)
			}
		}
		return e
	}
	for _, c := range in.Listed {
		r := setupReleaseOf(c)
		if r == nil || r.OpenMWExtension() == nil {
			continue
		}
		e := entry(c)
		key := c.Key.String()
		add := func(m map[string][]string, names ...string) {
			for _, f := range names {
				m[FoldASCII(f)] = append(m[FoldASCII(f)], key)
			}
		}
		for _, f := range e.ContentFiles {
			add(doc.ContentFiles, f.File)
		}
		add(doc.GroundcoverFiles, e.Groundcover...)
		add(doc.FallbackArchives, e.Archives...)
		for _, d := range slices.Concat(e.DataDirs, e.ConfigDirs) {
			add(doc.DataDirs, d[strings.LastIndexByte(d, '/')+1:])
		}
		e.Relationships = relationshipsOf(r, func(t *network.Claim) { entry(t) }, protocol.KindRequires, protocol.KindConflicts)
	}
	for _, m := range []map[string][]string{doc.ContentFiles, doc.GroundcoverFiles, doc.FallbackArchives, doc.DataDirs} {
		for k, keys := range m {
			sort.Strings(keys)
			m[k] = slices.Compact(keys)
		}
	}
	return doc
}

// SetupPageData is what the setup page carries itself: the counts its text states and how
// its data is cut (InstallParts, SetupParts).
type SetupPageData struct {
	Files  int         `json:"files"`
	Claims int         `json:"claims"`
	Shards shards.Plan `json:"shards"`
}

// SetupParts cuts the setup check's name indexes into the page's parts by a hash of each
// folded name, every part written; prefix is the claim parts' (InstallParts).
func SetupParts(doc *SetupDoc, prefix int) (SetupPageData, map[string]any) {
	names := len(doc.ContentFiles) + len(doc.GroundcoverFiles) + len(doc.FallbackArchives) + len(doc.DataDirs)
	plan := shards.Plan{Claims: prefix, Names: shards.NameShardCount(names)}
	parts := map[string]any{}
	type index = map[string]map[string][]string
	idx := map[string]index{}
	for i := range plan.Names {
		n := fmt.Sprintf("n%x", i)
		idx[n] = index{"content_files": {}, "groundcover_files": {}, "fallback_archives": {}, "data_dirs": {}}
		parts[n] = idx[n]
	}
	for field, m := range map[string]map[string][]string{"content_files": doc.ContentFiles, "groundcover_files": doc.GroundcoverFiles,
		"fallback_archives": doc.FallbackArchives, "data_dirs": doc.DataDirs} {
		for k, keys := range m {
			idx[shards.NameShard(k, plan.Names)][field][k] = keys
		}
	}
	return SetupPageData{Files: len(doc.ContentFiles), Claims: len(doc.Claims), Shards: plan}, parts
}

// SetupDataDir holds the setup page's name indexes, in parts (SetupParts).
const SetupDataDir = "setup/data"
