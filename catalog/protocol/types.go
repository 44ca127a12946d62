// Package protocol is the typed model of DreamWeave schema_version "2" documents: the site
// index (document "index") and the project manifest (document "project"), their strict decoding,
// validation against our embedded schemas and the rules the schemas cannot express.
//
// Source: SPEC.md section 1 ("The protocol"). Field names are the protocol's own.
package protocol

import "encoding/json"

// SchemaVersion is the only protocol version this index reads. A document naming another one
// "speaks a newer protocol" (SPEC section 1); its last good data is kept.
const SchemaVersion = "2"

// Document kinds, the value of the top-level "document" field.
const (
	DocIndex   = "index"
	DocProject = "project"
)

// Index is a site index, dreamweave.json. Projects are sorted by id as published.
type Index struct {
	SchemaVersion string       `json:"schema_version"`
	Document      string       `json:"document"`
	Generator     string       `json:"generator,omitempty"`
	Site          Site         `json:"site"`
	Projects      []IndexEntry `json:"projects"`
}

// Site names the publisher's site as the index states it.
type Site struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// IndexEntry is one project as a site index lists it. ManifestSHA256 is the lowercase hex
// SHA-256 of the manifest's bytes as served: the publisher's claim and the crawler's change
// signal. Channels maps channel name to head version.
type IndexEntry struct {
	ID             string            `json:"id"`
	Name           string            `json:"name"`
	Summary        string            `json:"summary,omitempty"`
	Type           string            `json:"type"`
	Status         string            `json:"status"`
	Page           string            `json:"page"`
	Manifest       string            `json:"manifest"`
	ManifestSHA256 string            `json:"manifest_sha256"`
	Updated        string            `json:"updated"`
	Channels       map[string]string `json:"channels"`
}

// Manifest is a project manifest. Channels maps channel name to its head; it must equal the
// heads recomputed from Releases.
type Manifest struct {
	SchemaVersion string                 `json:"schema_version"`
	Document      string                 `json:"document"`
	Generator     string                 `json:"generator,omitempty"`
	Project       Project                `json:"project"`
	Channels      map[string]ChannelHead `json:"channels"`
	Releases      []Release              `json:"releases"`
}

// ChannelHead is a manifest's statement of a channel's head version.
type ChannelHead struct {
	Version string `json:"version"`
}

// Project is a manifest's project metadata. ID is a lowercase UUID chosen by the author: never
// proof of who publishes it. Versioning is "numeric" or "decimal" (empty means numeric).
type Project struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Summary      string       `json:"summary,omitempty"`
	Type         string       `json:"type"`
	Status       string       `json:"status"`
	Versioning   string       `json:"versioning,omitempty"`
	Game         string       `json:"game"`
	License      string       `json:"license,omitempty"`
	Tags         []string     `json:"tags"`
	Maintainers  []Person     `json:"maintainers"`
	Links        Links        `json:"links"`
	Integrations Integrations `json:"integrations"`
	Media        []Media      `json:"media"`
	Credits      []Credit     `json:"credits"`
}

// Person is a maintainer.
type Person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// Credit names a contributor and their role.
type Credit struct {
	Name string `json:"name"`
	Role string `json:"role,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Links are the project's links: page, source and issues always; the rest optional.
type Links struct {
	Page          string `json:"page"`
	Source        string `json:"source"`
	Issues        string `json:"issues"`
	Documentation string `json:"documentation,omitempty"`
	Support       string `json:"support,omitempty"`
	Donate        string `json:"donate,omitempty"`
	Homepage      string `json:"homepage,omitempty"`
	Nexusmods     string `json:"nexusmods,omitempty"`
	Crate         string `json:"crate,omitempty"`
}

// Integrations link a project to other services. Never identity.
type Integrations struct {
	Nexusmods *Nexusmods `json:"nexusmods,omitempty"`
}

// Nexusmods is a Nexus Mods game domain and mod id.
type Nexusmods struct {
	Game  string `json:"game"`
	ModID int64  `json:"mod_id"`
}

// Media is an image or video the publisher shows for the project.
type Media struct {
	Kind      string `json:"kind"`
	URL       string `json:"url"`
	Alt       string `json:"alt"`
	Thumbnail string `json:"thumbnail,omitempty"`
	Caption   string `json:"caption,omitempty"`
	Category  string `json:"category,omitempty"`
	Featured  bool   `json:"featured,omitempty"`
}

// Release is one published version. Status is available, yanked or deprecated; Yanked and
// Deprecated are present exactly when Status says so. Date is the publisher's date
// (YYYY-MM-DD), never the time this index first saw the release.
type Release struct {
	Version            string                     `json:"version"`
	Channel            string                     `json:"channel"`
	Date               string                     `json:"date,omitempty"`
	Status             string                     `json:"status"`
	Yanked             *Notice                    `json:"yanked,omitempty"`
	Deprecated         *Notice                    `json:"deprecated,omitempty"`
	Source             Source                     `json:"source"`
	Notes              *Notes                     `json:"notes,omitempty"`
	Runtimes           map[string]string          `json:"runtimes"`
	Platforms          []Platform                 `json:"platforms"`
	Provides           []string                   `json:"provides"`
	Relationships      []Relationship             `json:"relationships"`
	Components         []Component                `json:"components"`
	Groups             []Group                    `json:"groups"`
	Extensions         map[string]json.RawMessage `json:"extensions"`
	CriticalExtensions []string                   `json:"critical_extensions"`
	Artifacts          []Artifact                 `json:"artifacts"`
}

// Release statuses.
const (
	StatusAvailable  = "available"
	StatusYanked     = "yanked"
	StatusDeprecated = "deprecated"
)

// Notice explains a yank or deprecation; Replacement is a version to use instead.
type Notice struct {
	Reason      string `json:"reason"`
	Replacement string `json:"replacement,omitempty"`
}

// Source says where a release was built from.
type Source struct {
	Repository string `json:"repository"`
	Tag        string `json:"tag,omitempty"`
	Release    string `json:"release,omitempty"`
	Revision   string `json:"revision,omitempty"`
}

// Notes are release notes. Every string is publisher CommonMark: untrusted, sanitized before
// it is shown. Only Breaking is ever called breaking.
type Notes struct {
	Summary     string   `json:"summary,omitempty"`
	Highlights  string   `json:"highlights,omitempty"`
	Added       []string `json:"added,omitempty"`
	Changed     []string `json:"changed,omitempty"`
	Fixed       []string `json:"fixed,omitempty"`
	Breaking    []string `json:"breaking,omitempty"`
	Migration   string   `json:"migration,omitempty"`
	KnownIssues []string `json:"known_issues,omitempty"`
	Notes       string   `json:"notes,omitempty"`
}

// Platform is a desktop build target listed in a release's platforms.
type Platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

// ArtifactPlatform is the one platform a binary artifact runs on. Variant (portmaster, muos)
// is skipped by clients that do not know it.
type ArtifactPlatform struct {
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	Variant string `json:"variant,omitempty"`
}

// Relationship kinds.
const (
	KindRequires   = "requires"
	KindRecommends = "recommends"
	KindConflicts  = "conflicts"
	KindCompatible = "compatible"
	KindReplaces   = "replaces"
)

// Relationship points at a project (by id), a capability, or neither (informational). Version
// is a constraint, only with Project, evaluated under the target's versioning scheme.
type Relationship struct {
	Kind       string `json:"kind"`
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name,omitempty"`
	Version    string `json:"version,omitempty"`
	URL        string `json:"url,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// Component is an installable part of a release.
type Component struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Description   string   `json:"description,omitempty"`
	Path          string   `json:"path"`
	Required      bool     `json:"required"`
	Default       bool     `json:"default"`
	Group         string   `json:"group,omitempty"`
	Requires      []string `json:"requires"`
	Conflicts     []string `json:"conflicts"`
	SuggestedWith []string `json:"suggested_with"`
}

// Group is a selection rule over components (exactly-one, at-most-one, at-least-one, any).
type Group struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Select      string `json:"select"`
}

// OpenMW is the "openmw" extension: per-component install data, content required by the
// whole release, settings, and the Lua API constraint (numeric scheme).
type OpenMW struct {
	Components      map[string]OpenMWComponent `json:"components"`
	RequiresContent []string                   `json:"requires_content"`
	LuaAPI          string                     `json:"lua_api,omitempty"`
	Settings        []OpenMWSetting            `json:"settings"`
}

// OpenMWComponent is how OpenMW loads one component.
type OpenMWComponent struct {
	DataDirectories  []string          `json:"data_directories"`
	ContentFiles     []string          `json:"content_files"`
	GroundcoverFiles []string          `json:"groundcover_files"`
	FallbackArchives []string          `json:"fallback_archives"`
	FallbackEntries  map[string]string `json:"fallback_entries"`
	Config           bool              `json:"config"`
	RequiresContent  []string          `json:"requires_content"`
}

// OpenMWSetting is one settings.cfg line a release asks for.
type OpenMWSetting struct {
	Category string `json:"category"`
	Key      string `json:"key"`
	Value    string `json:"value"`
}

// Artifact is a downloadable file. Size (bytes) and Digests.SHA256 are the publisher's claim;
// this index never downloads artifacts to check them.
type Artifact struct {
	ID         string            `json:"id"`
	Format     string            `json:"format"`
	Filename   string            `json:"filename"`
	MediaType  string            `json:"media_type"`
	Size       int64             `json:"size"`
	Digests    Digests           `json:"digests"`
	Layout     *Layout           `json:"layout,omitempty"`
	Sources    []ArtifactSource  `json:"sources"`
	Signatures []Signature       `json:"signatures"`
	Platform   *ArtifactPlatform `json:"platform,omitempty"`
}

// Digests of an artifact's bytes, lowercase hex.
type Digests struct {
	SHA256 string `json:"sha256"`
}

// Layout points at well-known files inside a game-data archive.
type Layout struct {
	ReleaseDocument string `json:"release_document,omitempty"`
	Documentation   string `json:"documentation,omitempty"`
	Installer       string `json:"installer,omitempty"`
}

// ArtifactSource is a download URL; Kind is publisher or mirror.
type ArtifactSource struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

// Signature is a published signature (sigstore-bundle). Shown as published; this index does
// not verify signatures and never says "verified".
type Signature struct {
	Format   string `json:"format"`
	URL      string `json:"url"`
	Issuer   string `json:"issuer,omitempty"`
	Identity string `json:"identity,omitempty"`
}

// OpenMWExtension decodes the release's "openmw" extension, or returns nil when absent or not
// an object of the expected shape (validation reports the latter).
func (r *Release) OpenMWExtension() *OpenMW {
	raw, ok := r.Extensions["openmw"]
	if !ok {
		return nil
	}
	var o OpenMW
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil
	}
	return &o
}
