package plan

import (
	"fmt"
	"maps"
	"slices"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// PlanPage is the install planner: a list of projects becomes openmw.cfg lines, computed in
// the browser (assets/plan.js) from what the page carries.
const PlanPage = "plan/index.html"

// Doc is the plan page's data as its script holds it once every part is loaded (the
// tests read it so): the projects and the claims with a release. The parts the build writes
// are InstallClaims.
type Doc struct {
	// Projects maps each project id to the keys ("<project>/<site>") of its listed claims,
	// sorted: two keys are an identity conflict, and the player chooses.
	Projects map[string][]string `json:"projects"`
	// Claims holds each listed claim with a release, by key.
	Claims map[string]*Claim `json:"claims"`
}

// InstallClaim is one listed claim as the plan and setup pages read it, from the parts
// under PlanDataDir that both load: the planner's facts when it has a release (Claim),
// and what the setup check reads of its openmw extension (SetupClaim's).
type InstallClaim struct {
	Claim
	ProjectStatus string    `json:"project_status"`
	ContentFiles  []Content `json:"content_files"`
	DataDirs      []string  `json:"data_dirs"`
	ConfigDirs    []string  `json:"config_dirs"`
}

// Claim is one listed claim as the planner reads it.
type Claim struct {
	Head
	// Scheme is the project's versioning scheme: a constraint naming this project is read
	// under it.
	Scheme  string   `json:"scheme"`
	Release *Release `json:"release"`
	// OpenMW and LuaAPI are runtimes.openmw and extensions.openmw.lua_api as published.
	OpenMW        string         `json:"openmw"`
	LuaAPI        string         `json:"lua_api"`
	Provides      []string       `json:"provides"`
	Relationships []Relationship `json:"relationships"`
	// Installs: the release has an openmw extension, so it says how OpenMW loads it.
	Installs bool `json:"installs"`
	// CriticalExtensions are the extensions a client must apply to install the release.
	CriticalExtensions []string                 `json:"critical_extensions"`
	RequiresContent    []string                 `json:"requires_content"`
	Settings           []protocol.OpenMWSetting `json:"settings"`
	Components         []Component              `json:"components"`
	Groups             []protocol.Group         `json:"groups"`
	Artifacts          []Artifact               `json:"artifacts"`
}

// Component is a component with how OpenMW loads it (nil lists when the extension says
// nothing about it). Fallback entries are sorted by key: a manifest's object has no order the
// decoder keeps.
type Component struct {
	protocol.Component
	Data            []string    `json:"data"`
	Content         []string    `json:"content"`
	Groundcover     []string    `json:"groundcover"`
	Archives        []string    `json:"archives"`
	Fallback        [][2]string `json:"fallback"`
	Config          bool        `json:"config"`
	RequiresContent []string    `json:"requires_content"`
}

// Artifact is one artifact to download, with the publisher's stated digest.
type Artifact struct {
	ID       string                     `json:"id"`
	Format   string                     `json:"format"`
	Filename string                     `json:"filename"`
	Size     int64                      `json:"size"`
	SHA256   string                     `json:"sha256"`
	Platform *protocol.ArtifactPlatform `json:"platform,omitempty"`
	Sources  []protocol.ArtifactSource  `json:"sources"`
}

// orEmpty is s, [] when nil: the pages' data writes [] for none.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Install computes every listed claim's InstallClaim, by key: the planner's facts for
// those with a release (setupReleaseOf), and the setup check's (setup, from Setup) for those
// it holds. A relationship's targets are every claim it resolves to, as the setup check
// reads them; the planner leaves out those without a release (assets/plan.js plannable).
func Install(in Input, setup *SetupDoc) map[string]*InstallClaim {
	claims := map[string]*InstallClaim{}
	for _, c := range in.Listed {
		k := c.Key.String()
		ic := &InstallClaim{Claim: claimOf(in, c, setupReleaseOf(c)),
			ContentFiles: []Content{}, DataDirs: []string{}, ConfigDirs: []string{}}
		if c.Manifest != nil {
			ic.ProjectStatus = c.Manifest.Project.Status
		}
		if sc := setup.Claims[k]; sc != nil {
			ic.ContentFiles, ic.DataDirs, ic.ConfigDirs = sc.ContentFiles, sc.DataDirs, sc.ConfigDirs
		}
		claims[k] = ic
	}
	return claims
}

// claimOf is what the planner reads of c and its release r (nil for none).
func claimOf(in Input, c *network.Claim, r *network.Release) Claim {
	pc := Claim{Head: in.Head(c), Scheme: string(c.Scheme), Provides: []string{},
		Relationships: []Relationship{}, RequiresContent: []string{}, Settings: []protocol.OpenMWSetting{},
		Components: []Component{}, Groups: []protocol.Group{}, Artifacts: []Artifact{}, CriticalExtensions: []string{}}
	if r == nil {
		return pc
	}
	pc.Release, pc.OpenMW, pc.Provides = releaseOf(r), r.Runtimes["openmw"], orEmpty(r.Provides)
	pc.Relationships = relationshipsOf(r, nil, protocol.KindRequires, protocol.KindConflicts, protocol.KindRecommends)
	pc.CriticalExtensions, pc.Groups = orEmpty(r.CriticalExtensions), orEmpty(r.Groups)
	ext := r.OpenMWExtension()
	if pc.Installs = ext != nil; ext == nil {
		ext = &protocol.OpenMW{}
	}
	pc.LuaAPI, pc.RequiresContent, pc.Settings = ext.LuaAPI, orEmpty(ext.RequiresContent), orEmpty(ext.Settings)
	for _, comp := range r.Components {
		oc := ext.Components[comp.ID]
		p := Component{Component: comp, Data: orEmpty(oc.DataDirectories), Content: orEmpty(oc.ContentFiles),
			Groundcover: orEmpty(oc.GroundcoverFiles), Archives: orEmpty(oc.FallbackArchives), Fallback: [][2]string{},
			Config: oc.Config, RequiresContent: orEmpty(oc.RequiresContent)}
		p.Requires, p.Conflicts, p.SuggestedWith = orEmpty(p.Requires), orEmpty(p.Conflicts), orEmpty(p.SuggestedWith)
		for _, k := range slices.Sorted(maps.Keys(oc.FallbackEntries)) {
			p.Fallback = append(p.Fallback, [2]string{k, oc.FallbackEntries[k]})
		}
		pc.Components = append(pc.Components, p)
	}
	for _, a := range r.Artifacts {
		pc.Artifacts = append(pc.Artifacts, Artifact{ID: a.ID, Format: a.Format, Filename: a.Filename, Size: a.Size,
			SHA256: a.Digests.SHA256, Platform: a.Platform, Sources: orEmpty(a.Sources)})
	}
	return pc
}

// PlanDataDir holds the claims the plan and setup pages read, in parts (InstallParts).
const PlanDataDir = "plan/data"

// PlanPageData is what the plan page carries itself: how its data is cut into the parts
// under plan/data/, how many claims with a release they hold, and the index's published
// address (the base URL, ending in "/"), which a plan link names when the page is a file.
type PlanPageData struct {
	Claims int         `json:"claims"`
	Shards shards.Plan `json:"shards"`
	Index  string      `json:"index"`
}

// InstallParts cuts the claims into the parts under PlanDataDir: "c<prefix>" holds the
// claims of the project ids with that prefix (shards.ClaimPrefixLen of every listed claim), every
// part written, each claim as parter.claimPart writes it. The project box searches the project
// list's index (FindDir).
func InstallParts(claims map[string]*InstallClaim, prefix int) (map[string]any, error) {
	parts, out := map[string]map[string]any{}, map[string]any{}
	for _, n := range shards.AllClaimShards(prefix) {
		parts[n] = map[string]any{}
		out[n] = map[string]any{"claims": parts[n]}
	}
	var w parter
	for k, c := range claims {
		v, err := w.claimPart(c)
		if err != nil {
			return nil, fmt.Errorf("the claim %s: %w", k, err)
		}
		parts[shards.ClaimShard(c.Project, prefix)][k] = v
	}
	return out, nil
}
