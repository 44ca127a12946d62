package site

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// SetupPage is the setup check page: a player's openmw.cfg read in the browser.
const SetupPage = "setup/index.html"

// setupDoc is the setup check's data: what the current release of each listed claim
// declares about OpenMW content files, folders and archives (extensions.openmw), as this
// index last read it. The setup page loads its name indexes in parts (setupShards) and its
// claims from the plan page's parts (installShards).
type setupDoc struct {
	// ContentFiles maps a content file name, lowercased as OpenMW compares names (ASCII
	// letters only), to the keys ("<project>/<site>") of every listed claim whose release
	// declares it, sorted: two claims declaring one file are both there.
	ContentFiles map[string][]string `json:"content_files"`
	// GroundcoverFiles and FallbackArchives map a groundcover file or an archive name, folded
	// the same way, to the keys of every listed claim whose release declares it, sorted.
	GroundcoverFiles map[string][]string `json:"groundcover_files"`
	FallbackArchives map[string][]string `json:"fallback_archives"`
	// DataDirs maps the last folder name of a data directory a release declares (the
	// component's path joined to it, folded) to the keys of every listed claim declaring one
	// so named, sorted: a data= line ending in that name may be that claim's.
	DataDirs map[string][]string `json:"data_dirs"`
	// Claims holds every claim the maps or a relationship name, by key.
	Claims map[string]*setupClaim `json:"claims"`
}

// claimHead is what the setup and plan pages' data say of every claim they hold.
type claimHead struct {
	Project string `json:"project"`
	Site    string `json:"site"`
	// SiteName is how the pages name the claim's site (siteNames.claimSiteText).
	SiteName string `json:"site_name"`
	Name     string `json:"name"`
	// Page is the claim's page, relative to the site root.
	Page   string `json:"page"`
	Health string `json:"health"`
	// Stale: the claim's data is cached from an earlier read (its page shows a staleness
	// banner).
	Stale bool `json:"stale"`
}

func (b *builder) claimHead(c *network.Claim) claimHead {
	return claimHead{Project: c.Project, Site: c.Site, SiteName: b.names.claimSiteText(c), Name: c.Name,
		Page: claimKeyPath(c), Health: c.Health, Stale: stalenessOf(c) != staleNone}
}

// setupClaim is one listed claim as the setup check needs it.
type setupClaim struct {
	claimHead
	// ProjectStatus is the manifest's project.status (active, deprecated, archived, ...).
	ProjectStatus string `json:"project_status"`
	// Release is the release read: the current release, else (every release is yanked or
	// deprecated) the one of highest precedence; nil when the manifest has no release.
	Release *setupRelease `json:"release"`
	// ContentFiles are the content files the release's components declare, in component
	// order, each once (compared as OpenMW compares names).
	ContentFiles []setupContent `json:"content_files"`
	// RequiresContent is extensions.openmw.requires_content: what the whole release needs.
	RequiresContent []string `json:"requires_content"`
	// OpenMW is runtimes.openmw as published (a numeric-scheme constraint); "" when the
	// release names none.
	OpenMW string `json:"openmw"`
	// Relationships are the release's requires and conflicts relationships, in publisher
	// order, without those naming the claim itself.
	Relationships []setupRelationship `json:"relationships"`
	// DataDirs are the release's data directories, each its component's path joined to the
	// declared directory ("/"-separated, "." parts dropped), each once; a directory that is
	// the artifact's root is left out, since no folder name tells it apart. ConfigDirs are
	// the paths of the components that carry an openmw.cfg (config). Groundcover and
	// Archives are the groundcover files and fallback archives the release's components
	// declare, each once.
	DataDirs    []string `json:"data_dirs"`
	ConfigDirs  []string `json:"config_dirs"`
	Groundcover []string `json:"groundcover"`
	Archives    []string `json:"archives"`
}

// setupRelease is the release a setupClaim reads.
type setupRelease struct {
	Version string `json:"version"`
	Channel string `json:"channel"`
	// Current: this is the claim's current release (SPEC section 4).
	Current bool `json:"current"`
	// Status is available, yanked or deprecated; Reason and Replacement are the publisher's
	// notice for the last two.
	Status      string `json:"status"`
	Reason      string `json:"reason,omitempty"`
	Replacement string `json:"replacement,omitempty"`
}

// setupContent is one declared content file.
type setupContent struct {
	// File is the name as the publisher wrote it.
	File string `json:"file"`
	// RequiresContent is what every component declaring the file needs on top of the
	// release's RequiresContent.
	RequiresContent []string `json:"requires_content"`
}

// setupRelationship is a relationship resolved by the network model.
type setupRelationship struct {
	Kind       string `json:"kind"`
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name,omitempty"`
	Version    string `json:"version,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Targets are the keys of every listed claim it resolves to (by project id or
	// capability).
	Targets []string `json:"targets"`
}

// relationshipsOf lists r's relationships of the given kinds, in publisher order, without
// those naming the claim itself; target, when set, sees every claim one resolves to.
func relationshipsOf(r *network.Release, target func(*network.Claim), kinds ...string) []setupRelationship {
	out := []setupRelationship{}
	for _, rel := range r.Relationships {
		if rel.Self || !slices.Contains(kinds, rel.Kind) {
			continue
		}
		sr := setupRelationship{Kind: rel.Kind, Project: rel.Project, Capability: rel.Capability,
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

// foldASCII lowercases ASCII letters only, as OpenMW compares content file names; other
// characters are kept as they are, so the page's JavaScript folds names identically.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// setupRelease picks the release a claim's setup entry reads: the current release, else the
// available-or-not release of highest precedence under the claim's scheme (a manifest whose
// every release is yanked or deprecated has no current release, and that is worth saying).
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

// declaredContent lists the content files r's openmw extension declares, in the order of the
// release's components (extension entries for no listed component follow, by id), each once
// by folded name, with the component-level requires_content that every component declaring
// it shares: a file two components declare needs only what both need, since either may be
// the one installed.
func declaredContent(r *protocol.Release, ext *protocol.OpenMW) []setupContent {
	if ext == nil {
		return nil
	}
	var out []setupContent
	at := map[string]int{}
	for _, id := range extComponentIDs(r, ext) {
		comp := ext.Components[id]
		for _, f := range comp.ContentFiles {
			if f == "" {
				continue
			}
			k := foldASCII(f)
			i, ok := at[k]
			if !ok {
				at[k] = len(out)
				out = append(out, setupContent{File: f, RequiresContent: appendNew([]string{}, comp.RequiresContent...)})
				continue
			}
			out[i].RequiresContent = common(out[i].RequiresContent, comp.RequiresContent)
		}
	}
	return out
}

// extComponentIDs lists the ids of ext's components in the order of r's components, each
// once, then the extension's entries for no listed component, by id.
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

// relDir joins a component's path and a directory under it as "/"-separated folder names,
// "." and empty parts dropped ("" is the artifact's root).
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

// declaredFiles fills e's data and config directories, groundcover files and archives from
// r's openmw extension, in component order, each once.
func declaredFiles(e *setupClaim, r *protocol.Release, ext *protocol.OpenMW) {
	paths := map[string]string{}
	for _, comp := range r.Components {
		if _, ok := paths[comp.ID]; !ok {
			paths[comp.ID] = comp.Path
		}
	}
	for _, id := range extComponentIDs(r, ext) {
		oc := ext.Components[id]
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
}

// lastDir is the folded last folder name of a "/"-separated directory.
func lastDir(d string) string {
	return foldASCII(d[strings.LastIndexByte(d, '/')+1:])
}

// common keeps the names of list that are also in other (compared folded), in one pass over
// each: a publisher's list of any length costs linear time.
func common(list, other []string) []string {
	in := make(map[string]bool, len(other))
	for _, o := range other {
		in[foldASCII(o)] = true
	}
	out := []string{}
	for _, l := range list {
		if in[foldASCII(l)] {
			out = append(out, l)
		}
	}
	return out
}

// appendNew appends each non-empty name of add not already in list (compared folded), in one
// pass over each.
func appendNew(list []string, add ...string) []string {
	seen := make(map[string]bool, len(list)+len(add))
	for _, l := range list {
		seen[foldASCII(l)] = true
	}
	for _, a := range add {
		if k := foldASCII(a); a != "" && !seen[k] {
			seen[k] = true
			list = append(list, a)
		}
	}
	return list
}

// setupData computes the setup check's data from the model: every listed claim whose release
// (setupReleaseOf) declares a content file, and every claim their relationships resolve to.
func (b *builder) setupData() *setupDoc {
	doc := &setupDoc{ContentFiles: map[string][]string{}, GroundcoverFiles: map[string][]string{}, FallbackArchives: map[string][]string{},
		DataDirs: map[string][]string{}, Claims: map[string]*setupClaim{}}
	entry := func(c *network.Claim) *setupClaim {
		k := c.Key.String()
		if e := doc.Claims[k]; e != nil {
			return e
		}
		e := &setupClaim{claimHead: b.claimHead(c),
			ContentFiles: []setupContent{}, RequiresContent: []string{}, Relationships: []setupRelationship{},
			DataDirs: []string{}, ConfigDirs: []string{}, Groundcover: []string{}, Archives: []string{}}
		if c.Manifest != nil {
			e.ProjectStatus = c.Manifest.Project.Status
		}
		r := setupReleaseOf(c)
		if r == nil {
			doc.Claims[k] = e
			return e
		}
		e.Release = &setupRelease{Version: r.Version, Channel: r.Channel, Current: r.Current, Status: r.Status}
		switch {
		case r.Yanked != nil:
			e.Release.Reason, e.Release.Replacement = r.Yanked.Reason, r.Yanked.Replacement
		case r.Deprecated != nil:
			e.Release.Reason, e.Release.Replacement = r.Deprecated.Reason, r.Deprecated.Replacement
		}
		e.OpenMW = r.Runtimes["openmw"]
		if ext := r.OpenMWExtension(); ext != nil {
			e.ContentFiles = append(e.ContentFiles, declaredContent(r.Release, ext)...)
			e.RequiresContent = appendNew(e.RequiresContent, ext.RequiresContent...)
			declaredFiles(e, r.Release, ext)
		}
		doc.Claims[k] = e
		return e
	}
	for _, c := range b.n.Listed {
		r := setupReleaseOf(c)
		if r == nil || r.OpenMWExtension() == nil {
			continue
		}
		e := entry(c)
		key := c.Key.String()
		for _, f := range e.ContentFiles {
			k := foldASCII(f.File)
			doc.ContentFiles[k] = append(doc.ContentFiles[k], key)
		}
		for _, f := range e.Groundcover {
			doc.GroundcoverFiles[foldASCII(f)] = append(doc.GroundcoverFiles[foldASCII(f)], key)
		}
		for _, f := range e.Archives {
			doc.FallbackArchives[foldASCII(f)] = append(doc.FallbackArchives[foldASCII(f)], key)
		}
		last := map[string]bool{}
		for _, d := range append(slices.Clone(e.DataDirs), e.ConfigDirs...) {
			if k := lastDir(d); !last[k] {
				last[k] = true
				doc.DataDirs[k] = append(doc.DataDirs[k], key)
			}
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

// setupPageData is what the setup page carries itself: the counts its text states and how
// its data is cut: the claims in the plan page's parts (PlanDataDir, installShards), the
// name indexes in the parts under setup/data/ (setupShards).
type setupPageData struct {
	Files  int       `json:"files"`
	Claims int       `json:"claims"`
	Shards shardPlan `json:"shards"`
}

// setupShards cuts the setup check's name indexes (content_files, groundcover_files,
// fallback_archives, data_dirs) into the setup page's parts by a hash of each folded name,
// every part written; prefix is the claim parts' (installShards).
func setupShards(doc *setupDoc, prefix int) (setupPageData, map[string]any) {
	names := len(doc.ContentFiles) + len(doc.GroundcoverFiles) + len(doc.FallbackArchives) + len(doc.DataDirs)
	plan := shardPlan{Claims: prefix, Names: nameShardCount(names)}
	parts := map[string]any{}
	type index = map[string]map[string][]string
	idx := map[string]index{}
	for i := 0; i < plan.Names; i++ {
		n := fmt.Sprintf("n%x", i)
		idx[n] = index{"content_files": {}, "groundcover_files": {}, "fallback_archives": {}, "data_dirs": {}}
		parts[n] = idx[n]
	}
	for field, m := range map[string]map[string][]string{"content_files": doc.ContentFiles, "groundcover_files": doc.GroundcoverFiles,
		"fallback_archives": doc.FallbackArchives, "data_dirs": doc.DataDirs} {
		for k, keys := range m {
			idx[nameShard(k, plan.Names)][field][k] = keys
		}
	}
	return setupPageData{Files: len(doc.ContentFiles), Claims: len(doc.Claims), Shards: plan}, parts
}

// setupPage is the setup check (SetupPage): a player's openmw.cfg read in the browser against
// the setup check's data (setupData), which the page loads in parts as the file names them
// (its CSP allows scripts of the site and no connection): the name indexes from setup/data/,
// the claims from the plan page's parts.
func (b *builder) setupPage() error {
	data, parts := setupShards(b.setupData(), claimPrefixLen(len(b.n.Listed)))
	if err := b.writeShards(SetupDataDir, parts); err != nil {
		return err
	}
	return b.page("setup", &Page{Path: SetupPage, Title: "Check your setup", Section: "setup",
		Desc:    "Read your openmw.cfg in your browser and see what the projects in this index declare about the content files, folders and archives it loads.",
		Scripts: []string{"assets/version.js", "assets/openmwcfg.js", "assets/shards.js", "assets/setupcheck.js", "assets/setup.js"}, Offline: true, Data: data})
}

// SetupDataDir holds the setup page's name indexes, in parts (setupShards).
const SetupDataDir = "setup/data"
