package site

import (
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// PlanPage is the install planner: a list of projects becomes openmw.cfg lines, computed in
// the browser (assets/plan.js) from what the page carries.
const PlanPage = "plan/index.html"

// planDoc is the plan page's data: what every listed claim's release declares about
// installing it (SPEC section 7), computed here so the page's script only plans. The page
// carries it inside itself, so it works from file:// and connects nowhere.
type planDoc struct {
	// Projects maps each project id to the keys ("<project>/<site>") of its listed claims,
	// sorted: two keys are an identity conflict, and the player chooses.
	Projects map[string][]string `json:"projects"`
	// Capabilities maps a capability to the keys of the listed claims whose release provides
	// it, sorted.
	Capabilities map[string][]string `json:"capabilities"`
	// Claims holds each listed claim with a release, by key.
	Claims map[string]*planClaim `json:"claims"`
}

// planClaim is one listed claim as the planner reads it.
type planClaim struct {
	Project  string `json:"project"`
	Site     string `json:"site"`
	SiteName string `json:"site_name"`
	Name     string `json:"name"`
	Page     string `json:"page"`
	Health   string `json:"health"`
	Stale    bool   `json:"stale"`
	// Scheme is the project's versioning scheme: a constraint naming this project is read
	// under it.
	Scheme  string        `json:"scheme"`
	Release *setupRelease `json:"release"`
	// OpenMW and LuaAPI are runtimes.openmw and extensions.openmw.lua_api as published.
	OpenMW        string             `json:"openmw"`
	LuaAPI        string             `json:"lua_api"`
	Provides      []string           `json:"provides"`
	Relationships []planRelationship `json:"relationships"`
	// Installs: the release has an openmw extension, so it says how OpenMW loads it.
	Installs        bool                     `json:"installs"`
	RequiresContent []string                 `json:"requires_content"`
	Settings        []protocol.OpenMWSetting `json:"settings"`
	Components      []planComponent          `json:"components"`
	Groups          []protocol.Group         `json:"groups"`
	Artifacts       []planArtifact           `json:"artifacts"`
}

// planRelationship is a requires, recommends or conflicts relationship with the claims it
// resolves to.
type planRelationship struct {
	Kind       string   `json:"kind"`
	Project    string   `json:"project,omitempty"`
	Capability string   `json:"capability,omitempty"`
	Name       string   `json:"name,omitempty"`
	Version    string   `json:"version,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Targets    []string `json:"targets"`
}

// planComponent is a component with how OpenMW loads it (nil lists when the extension says
// nothing about it). Fallback entries are sorted by key: a manifest's object has no order the
// decoder keeps.
type planComponent struct {
	protocol.Component
	Data            []string    `json:"data"`
	Content         []string    `json:"content"`
	Groundcover     []string    `json:"groundcover"`
	Archives        []string    `json:"archives"`
	Fallback        [][2]string `json:"fallback"`
	Config          bool        `json:"config"`
	RequiresContent []string    `json:"requires_content"`
}

// planArtifact is one artifact to download, with the publisher's stated digest.
type planArtifact struct {
	ID       string                     `json:"id"`
	Format   string                     `json:"format"`
	Filename string                     `json:"filename"`
	Size     int64                      `json:"size"`
	SHA256   string                     `json:"sha256"`
	Platform *protocol.ArtifactPlatform `json:"platform,omitempty"`
	Sources  []protocol.ArtifactSource  `json:"sources"`
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// planData computes the plan page's document from the model.
func (b *builder) planData() *planDoc {
	doc := &planDoc{Projects: map[string][]string{}, Capabilities: map[string][]string{}, Claims: map[string]*planClaim{}}
	for _, c := range b.n.Listed {
		r := setupReleaseOf(c)
		if r == nil {
			continue
		}
		k := c.Key.String()
		pc := &planClaim{Project: c.Project, Site: c.Site, SiteName: b.names.claimSiteText(c), Name: c.Name,
			Page: claimKeyPath(c), Health: c.Health, Stale: stalenessOf(c) != staleNone, Scheme: string(c.Scheme),
			Release: &setupRelease{Version: r.Version, Channel: r.Channel, Current: r.Current, Status: r.Status},
			OpenMW:  r.Runtimes["openmw"], Provides: nonNilStrings(r.Provides), Relationships: []planRelationship{},
			RequiresContent: []string{}, Settings: []protocol.OpenMWSetting{}, Components: []planComponent{},
			Groups: r.Groups, Artifacts: []planArtifact{}}
		if pc.Groups == nil {
			pc.Groups = []protocol.Group{}
		}
		for _, rel := range r.Relationships {
			if rel.Self || (rel.Kind != protocol.KindRequires && rel.Kind != protocol.KindConflicts && rel.Kind != protocol.KindRecommends) {
				continue
			}
			pr := planRelationship{Kind: rel.Kind, Project: rel.Project, Capability: rel.Capability, Name: rel.Name,
				Version: rel.Version, Reason: rel.Reason, Targets: []string{}}
			for _, t := range rel.Targets {
				pr.Targets = append(pr.Targets, t.Claim.Key.String())
			}
			pc.Relationships = append(pc.Relationships, pr)
		}
		ext := r.OpenMWExtension()
		if ext != nil {
			pc.Installs = true
			pc.LuaAPI = ext.LuaAPI
			pc.RequiresContent = nonNilStrings(ext.RequiresContent)
			if ext.Settings != nil {
				pc.Settings = ext.Settings
			}
		}
		for _, comp := range r.Components {
			p := planComponent{Component: comp, Data: []string{}, Content: []string{}, Groundcover: []string{},
				Archives: []string{}, Fallback: [][2]string{}, RequiresContent: []string{}}
			p.Requires, p.Conflicts, p.SuggestedWith = nonNilStrings(p.Requires), nonNilStrings(p.Conflicts), nonNilStrings(p.SuggestedWith)
			if ext != nil {
				if oc, ok := ext.Components[comp.ID]; ok {
					p.Data, p.Content, p.Groundcover = nonNilStrings(oc.DataDirectories), nonNilStrings(oc.ContentFiles), nonNilStrings(oc.GroundcoverFiles)
					p.Archives, p.Config, p.RequiresContent = nonNilStrings(oc.FallbackArchives), oc.Config, nonNilStrings(oc.RequiresContent)
					keys := make([]string, 0, len(oc.FallbackEntries))
					for k := range oc.FallbackEntries {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						p.Fallback = append(p.Fallback, [2]string{k, oc.FallbackEntries[k]})
					}
				}
			}
			pc.Components = append(pc.Components, p)
		}
		for _, a := range r.Artifacts {
			pa := planArtifact{ID: a.ID, Format: a.Format, Filename: a.Filename, Size: a.Size, SHA256: a.Digests.SHA256,
				Platform: a.Platform, Sources: a.Sources}
			if pa.Sources == nil {
				pa.Sources = []protocol.ArtifactSource{}
			}
			pc.Artifacts = append(pc.Artifacts, pa)
		}
		doc.Claims[k] = pc
		doc.Projects[c.Project] = append(doc.Projects[c.Project], k)
		for _, cap := range r.Provides {
			doc.Capabilities[cap] = append(doc.Capabilities[cap], k)
		}
	}
	// Relationship targets outside the document (a claim without a release) are dropped:
	// the planner cannot add them, and says the requirement is unresolved.
	for _, pc := range doc.Claims {
		for i := range pc.Relationships {
			ts := pc.Relationships[i].Targets[:0]
			for _, t := range pc.Relationships[i].Targets {
				if doc.Claims[t] != nil {
					ts = append(ts, t)
				}
			}
			pc.Relationships[i].Targets = ts
		}
	}
	for _, m := range []map[string][]string{doc.Projects, doc.Capabilities} {
		for k, keys := range m {
			sort.Strings(keys)
			m[k] = dedupSorted(keys)
		}
	}
	return doc
}

// dedupSorted drops repeats from a sorted list.
func dedupSorted(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// planPage is the install planner (PlanPage).
func (b *builder) planPage() error {
	return b.page("plan", &Page{Path: PlanPage, Title: "Plan an install", Section: "plan",
		Desc:    "Choose projects and get the openmw.cfg lines, settings and downloads their publishers declare, computed in your browser.",
		Scripts: []string{"assets/version.js", "assets/openmwcfg.js", "assets/plan.js", "assets/planpage.js"}, Offline: true, Data: b.planData()})
}
