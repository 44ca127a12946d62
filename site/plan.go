package site

import (
	"maps"
	"slices"
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// PlanPage is the install planner: a list of projects becomes openmw.cfg lines, computed in
// the browser (assets/plan.js) from what the page carries.
const PlanPage = "plan/index.html"

// planDoc is the plan page's data: what every listed claim's release declares about
// installing it (SPEC section 7), computed here so the page's script only plans. The page
// loads it in parts (planShards) as a plan names them, as scripts of the site, so it works
// from file:// and connects nowhere.
type planDoc struct {
	// Projects maps each project id to the keys ("<project>/<site>") of its listed claims,
	// sorted: two keys are an identity conflict, and the player chooses.
	Projects map[string][]string `json:"projects"`
	// Claims holds each listed claim with a release, by key.
	Claims map[string]*planClaim `json:"claims"`
}

// planClaim is one listed claim as the planner reads it.
type planClaim struct {
	claimHead
	// Scheme is the project's versioning scheme: a constraint naming this project is read
	// under it.
	Scheme  string        `json:"scheme"`
	Release *setupRelease `json:"release"`
	// OpenMW and LuaAPI are runtimes.openmw and extensions.openmw.lua_api as published.
	OpenMW        string              `json:"openmw"`
	LuaAPI        string              `json:"lua_api"`
	Provides      []string            `json:"provides"`
	Relationships []setupRelationship `json:"relationships"`
	// Installs: the release has an openmw extension, so it says how OpenMW loads it.
	Installs        bool                     `json:"installs"`
	RequiresContent []string                 `json:"requires_content"`
	Settings        []protocol.OpenMWSetting `json:"settings"`
	Components      []planComponent          `json:"components"`
	Groups          []protocol.Group         `json:"groups"`
	Artifacts       []planArtifact           `json:"artifacts"`
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
	doc := &planDoc{Projects: map[string][]string{}, Claims: map[string]*planClaim{}}
	for _, c := range b.n.Listed {
		r := setupReleaseOf(c)
		if r == nil {
			continue
		}
		k := c.Key.String()
		pc := &planClaim{claimHead: b.claimHead(c), Scheme: string(c.Scheme),
			Release: &setupRelease{Version: r.Version, Channel: r.Channel, Current: r.Current, Status: r.Status},
			OpenMW:  r.Runtimes["openmw"], Provides: nonNilStrings(r.Provides),
			Relationships:   relationshipsOf(r, nil, protocol.KindRequires, protocol.KindConflicts, protocol.KindRecommends),
			RequiresContent: []string{}, Settings: []protocol.OpenMWSetting{}, Components: []planComponent{},
			Groups: r.Groups, Artifacts: []planArtifact{}}
		if pc.Groups == nil {
			pc.Groups = []protocol.Group{}
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
					for _, k := range slices.Sorted(maps.Keys(oc.FallbackEntries)) {
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
	for k, keys := range doc.Projects {
		sort.Strings(keys)
		doc.Projects[k] = slices.Compact(keys)
	}
	return doc
}

// PlanDataDir holds the plan page's data parts (planShards).
const PlanDataDir = "plan/data"

// planPageData is what the plan page carries itself: how its data is cut into the parts
// under plan/data/, and how many claims they hold.
type planPageData struct {
	Claims int       `json:"claims"`
	Shards shardPlan `json:"shards"`
}

// planShards cuts the plan page's document into its parts: "c<prefix>" holds the claims
// (and the projects map) of the project ids with that prefix, every part written. The
// project box searches the project list's index (FindDir).
func planShards(doc *planDoc) (planPageData, map[string]any) {
	prefix := claimPrefixLen(len(doc.Claims))
	parts := map[string]any{}
	type part struct {
		Claims   map[string]*planClaim `json:"claims"`
		Projects map[string][]string   `json:"projects"`
	}
	byName := map[string]*part{}
	for _, n := range allClaimShards(prefix) {
		byName[n] = &part{Claims: map[string]*planClaim{}, Projects: map[string][]string{}}
		parts[n] = byName[n]
	}
	for k, c := range doc.Claims {
		byName[claimShard(c.Project, prefix)].Claims[k] = c
	}
	for p, ks := range doc.Projects {
		byName[claimShard(p, prefix)].Projects[p] = ks
	}
	return planPageData{Claims: len(doc.Claims), Shards: shardPlan{Claims: prefix}}, parts
}

// planPage is the install planner (PlanPage); its data is in parts under PlanDataDir.
func (b *builder) planPage() error {
	data, parts := planShards(b.planData())
	if err := b.writeShards(PlanDataDir, parts); err != nil {
		return err
	}
	return b.page("plan", &Page{Path: PlanPage, Title: "Plan an install", Section: "plan",
		Desc:    "Choose projects and get the openmw.cfg lines, settings and downloads their publishers declare, computed in your browser.",
		Scripts: []string{"assets/version.js", "assets/openmwcfg.js", "assets/shards.js", "assets/find.js", "assets/plan.js", "assets/planpage.js"}, Offline: true, Data: data})
}
