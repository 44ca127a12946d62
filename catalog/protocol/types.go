// Package protocol is the typed model of DreamWeave schema_version "2" documents (SPEC section
// 1), the site index and the project manifest: their strict decoding, validation against the
// embedded schemas and the rules the schemas cannot express. Field names are the protocol's;
// names, descriptions, captions and reasons are display text, never matched; URLs are absolute.
package protocol

import "encoding/json"

// SchemaVersion is the only protocol version this index reads; a document naming another
// "speaks a newer protocol" (SPEC section 1).
const SchemaVersion = "2"

// Document kinds, the value of the top-level "document" field (SPEC section 1).
const (
	DocIndex   = "index"   // a site index, dreamweave.json
	DocProject = "project" // a project manifest
)

// Index is a site index, dreamweave.json. Projects are sorted by id as published.
type Index struct {
	SchemaVersion string       `json:"schema_version"`      // SchemaVersion
	Document      string       `json:"document"`            // DocIndex
	Generator     string       `json:"generator,omitempty"` // free text
	Site          Site         `json:"site"`
	Projects      []IndexEntry `json:"projects"` // one entry per project, sorted by id (rule index-order), ids unique
}

// Site names the publisher's site as the index states it.
type Site struct {
	Name string `json:"name"`
	URL  string `json:"url"` // absolute http(s) URL of the site's home page
}

// IndexEntry is one project as a site index lists it. Encoded in the state, it has the
// reference index's shape (summary omitted when absent, updated always present), so an entry
// read and written back keeps its bytes.
type IndexEntry struct {
	ID             string            `json:"id"` // lowercase UUID, the manifest's project.id (rule id-match)
	Name           string            `json:"name"`
	Summary        *string           `json:"summary,omitempty"` // nil when the index has none
	Type           string            `json:"type"`              // a project type
	Status         string            `json:"status"`            // a project status
	Page           string            `json:"page"`              // absolute URL of the project's page
	Manifest       string            `json:"manifest"`          // absolute URL of the project manifest
	ManifestSHA256 string            `json:"manifest_sha256"`   // lowercase hex SHA-256 of the manifest as served
	Updated        *string           `json:"updated"`           // the publisher's date, YYYY-MM-DD; nil when the index gives null
	Channels       map[string]string `json:"channels"`          // channel name -> head version, as the index states it
}

// SummaryText is the entry's summary, "" when the index has none.
func (e IndexEntry) SummaryText() string {
	if e.Summary == nil {
		return ""
	}
	return *e.Summary
}

// UpdatedText is the entry's date, "" when the index gives null.
func (e IndexEntry) UpdatedText() string {
	if e.Updated == nil {
		return ""
	}
	return *e.Updated
}

// Manifest is a project manifest.
type Manifest struct {
	SchemaVersion string                 `json:"schema_version"`      // SchemaVersion
	Document      string                 `json:"document"`            // DocProject
	Generator     string                 `json:"generator,omitempty"` // free text
	Project       Project                `json:"project"`
	Channels      map[string]ChannelHead `json:"channels"` // channel name -> stated head; must equal Heads(m) (rule channel-heads)
	Releases      []Release              `json:"releases"` // in publisher order
}

// ChannelHead is a manifest's statement of a channel's head version.
type ChannelHead struct {
	Version string `json:"version"`
}

// Project is a manifest's project metadata.
type Project struct {
	ID           string       `json:"id"` // lowercase UUID chosen by the author; never proof of who publishes it
	Name         string       `json:"name"`
	Summary      string       `json:"summary,omitempty"`    // one-line description
	Type         string       `json:"type"`                 // mod, library, framework, tool, assets, total-conversion or documentation
	Status       string       `json:"status"`               // active, maintenance, experimental, deprecated or archived
	Versioning   string       `json:"versioning,omitempty"` // "numeric" or "decimal"; "" means numeric (version.SchemeOf)
	Game         string       `json:"game"`                 // the game the project is for, e.g. "morrowind"
	License      string       `json:"license,omitempty"`    // an SPDX expression
	Tags         []string     `json:"tags"`
	Maintainers  []Person     `json:"maintainers"`
	Links        Links        `json:"links"`
	Integrations Integrations `json:"integrations"` // other services the project is on; never identity
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
	Role string `json:"role,omitempty"` // free text
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
	Nexusmods     string `json:"nexusmods,omitempty"` // the Nexus Mods page
	Crate         string `json:"crate,omitempty"`     // the crates.io page
}

// Integrations link a project to other services. Never identity.
type Integrations struct {
	Nexusmods *Nexusmods `json:"nexusmods,omitempty"` // nil when none
}

// Nexusmods is a Nexus Mods game domain and mod id.
type Nexusmods struct {
	Game  string `json:"game"`   // the Nexus Mods game domain, e.g. "morrowind"
	ModID int64  `json:"mod_id"` // an integer within int64 (rule integer)
}

// Media is an image or video the publisher shows for the project.
type Media struct {
	Kind      string `json:"kind"` // "image" or "video"
	URL       string `json:"url"`
	Alt       string `json:"alt"`
	Thumbnail string `json:"thumbnail,omitempty"`
	Caption   string `json:"caption,omitempty"`
	Category  string `json:"category,omitempty"` // free text
	Featured  bool   `json:"featured,omitempty"` // a card image candidate
}

// Release is one published version. Date is the publisher's date, never the time this index
// first saw the release.
type Release struct {
	Version            string                     `json:"version"`              // release[-prerelease][+build], parsed under the project's scheme (rule version-scheme)
	Channel            string                     `json:"channel"`              // channel name; "stable" is the default, "development" a rolling build
	Date               string                     `json:"date,omitempty"`       // the publisher's date, YYYY-MM-DD
	Status             string                     `json:"status"`               // StatusAvailable, StatusYanked or StatusDeprecated
	Yanked             *Notice                    `json:"yanked,omitempty"`     // present exactly when Status is yanked (rule status-notice)
	Deprecated         *Notice                    `json:"deprecated,omitempty"` // present exactly when Status is deprecated (rule status-notice)
	Source             Source                     `json:"source"`
	Notes              *Notes                     `json:"notes,omitempty"`
	Runtimes           map[string]string          `json:"runtimes"`  // runtime id -> constraint under the numeric scheme (rule constraint)
	Platforms          []Platform                 `json:"platforms"` // the desktop builds only
	Provides           []string                   `json:"provides"`  // capability names this release provides
	Relationships      []Relationship             `json:"relationships"`
	Components         []Component                `json:"components"`
	Groups             []Group                    `json:"groups"`              // selection rules over Components
	Extensions         map[string]json.RawMessage `json:"extensions"`          // namespace (openmw, or dotted) -> the extension object as published
	CriticalExtensions []string                   `json:"critical_extensions"` // namespaces a client must implement to install the release
	Artifacts          []Artifact                 `json:"artifacts"`           // downloadable files, at least one; never downloaded by this index
}

// Release statuses.
const (
	StatusAvailable  = "available"  // may be a channel head
	StatusYanked     = "yanked"     // withdrawn by the publisher; never a head
	StatusDeprecated = "deprecated" // still published, use discouraged; never a head
)

// Notice explains a yank or deprecation; Replacement is a version to use instead.
type Notice struct {
	Reason      string `json:"reason"`
	Replacement string `json:"replacement,omitempty"` // a version under the project's scheme
}

// Source says where a release was built from.
type Source struct {
	Repository string `json:"repository"` // absolute URL of the source repository
	Tag        string `json:"tag,omitempty"`
	Release    string `json:"release,omitempty"`  // the publisher's name for the release
	Revision   string `json:"revision,omitempty"` // the commit built: 40 or 64 lowercase hex digits
}

// Notes are release notes: publisher CommonMark, untrusted, sanitized before it is shown. Only
// Breaking is ever called breaking.
type Notes struct {
	Summary     string   `json:"summary,omitempty"`      // CommonMark
	Highlights  string   `json:"highlights,omitempty"`   // CommonMark
	Added       []string `json:"added,omitempty"`        // CommonMark, one item each
	Changed     []string `json:"changed,omitempty"`      // CommonMark, one item each
	Fixed       []string `json:"fixed,omitempty"`        // CommonMark, one item each
	Breaking    []string `json:"breaking,omitempty"`     // CommonMark; the only thing ever called breaking, shown verbatim
	Migration   string   `json:"migration,omitempty"`    // CommonMark, shown with Breaking
	KnownIssues []string `json:"known_issues,omitempty"` // CommonMark, one item each
	Notes       string   `json:"notes,omitempty"`        // CommonMark, anything else
}

// Platform is a desktop build target listed in a release's platforms.
type Platform struct {
	OS   string `json:"os"`   // windows, macos or linux
	Arch string `json:"arch"` // x86_64 or aarch64
}

// ArtifactPlatform is the one platform a binary artifact runs on; clients skip a Variant they
// do not know.
type ArtifactPlatform struct {
	OS      string `json:"os"`                // windows, macos, linux or android
	Arch    string `json:"arch"`              // x86_64 or aarch64
	Variant string `json:"variant,omitempty"` // a token such as portmaster or muos
}

// Relationship kinds.
const (
	KindRequires   = "requires"   // needed; a project or capability target
	KindRecommends = "recommends" // suggested; a project or capability target
	KindConflicts  = "conflicts"  // must not be installed together; a project or capability target
	KindCompatible = "compatible" // tested together; a project target or informational
	KindReplaces   = "replaces"   // takes the place of; a project target or informational
)

// Relationship points at a project (by id), a capability, or neither (informational).
type Relationship struct {
	Kind       string `json:"kind"`                 // a Kind* value
	Project    string `json:"project,omitempty"`    // target project id
	Capability string `json:"capability,omitempty"` // target capability; only for requires/recommends/conflicts
	Name       string `json:"name,omitempty"`
	Version    string `json:"version,omitempty"` // a constraint, only with Project
	URL        string `json:"url,omitempty"`     // where the target can be found; never followed
	Reason     string `json:"reason,omitempty"`
}

// Component is an installable part of a release.
type Component struct {
	ID            string   `json:"id"` // a token unique in the release
	Name          string   `json:"name"`
	Description   string   `json:"description,omitempty"`
	Path          string   `json:"path"` // directory inside the archive, forward slashes, "." for its root
	Required      bool     `json:"required"`
	Default       bool     `json:"default"`
	Group         string   `json:"group,omitempty"` // a Group id
	Requires      []string `json:"requires"`        // ids of components this one needs
	Conflicts     []string `json:"conflicts"`       // ids of components this one excludes
	SuggestedWith []string `json:"suggested_with"`  // project ids this component goes well with
}

// Group is a selection rule over components (exactly-one, at-most-one, at-least-one, any).
type Group struct {
	ID          string `json:"id"` // a token unique in the release
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Select      string `json:"select"` // exactly-one, at-most-one, at-least-one or any
}

// OpenMW is the "openmw" extension: per-component install data, content required by the
// whole release, settings, and the Lua API constraint (numeric scheme).
type OpenMW struct {
	Components      map[string]OpenMWComponent `json:"components"`        // component id -> how OpenMW loads it
	RequiresContent []string                   `json:"requires_content"`  // content files the whole release needs (e.g. Morrowind.esm)
	LuaAPI          string                     `json:"lua_api,omitempty"` // a constraint on the Lua API version, numeric scheme
	Settings        []OpenMWSetting            `json:"settings"`          // settings.cfg lines the release asks for
}

// OpenMWComponent is how OpenMW loads one component.
type OpenMWComponent struct {
	DataDirectories  []string          `json:"data_directories"`  // data directories OpenMW loads
	ContentFiles     []string          `json:"content_files"`     // content files to enable, in the order given
	GroundcoverFiles []string          `json:"groundcover_files"` // groundcover content files
	FallbackArchives []string          `json:"fallback_archives"` // archives (BSA) to register
	FallbackEntries  map[string]string `json:"fallback_entries"`  // fallback key -> value
	Config           bool              `json:"config"`
	RequiresContent  []string          `json:"requires_content"` // content files this component needs
}

// OpenMWSetting is one settings.cfg line a release asks for.
type OpenMWSetting struct {
	Category string `json:"category"` // the settings.cfg section
	Key      string `json:"key"`
	Value    string `json:"value"`
}

// Artifact is a downloadable file. Size and Digests are the publisher's claim; this index never
// downloads artifacts.
type Artifact struct {
	ID         string            `json:"id"`     // a token unique in the release
	Format     string            `json:"format"` // flat, bain, fomod, binary or crate
	Filename   string            `json:"filename"`
	MediaType  string            `json:"media_type"` // application/zip, application/gzip (crate), any for binary
	Size       int64             `json:"size"`       // bytes, as the publisher states it
	Digests    Digests           `json:"digests"`
	Layout     *Layout           `json:"layout,omitempty"`   // well-known files inside the archive; nil when absent
	Sources    []ArtifactSource  `json:"sources"`            // where to download it: the publisher's and mirrors
	Signatures []Signature       `json:"signatures"`         // as published; never verified here
	Platform   *ArtifactPlatform `json:"platform,omitempty"` // required for format binary; nil otherwise
}

// Digests of an artifact's bytes, lowercase hex.
type Digests struct {
	SHA256 string `json:"sha256"` // 64 lowercase hex digits
}

// Layout points at well-known files inside a game-data archive.
type Layout struct {
	ReleaseDocument string `json:"release_document,omitempty"` // path inside the archive
	Documentation   string `json:"documentation,omitempty"`    // path inside the archive
	Installer       string `json:"installer,omitempty"`        // path inside the archive
}

// ArtifactSource is a download URL; Kind is publisher or mirror.
type ArtifactSource struct {
	URL  string `json:"url"`  // absolute download URL
	Kind string `json:"kind"` // "publisher" or "mirror"
	Name string `json:"name,omitempty"`
}

// Signature is a published signature, shown as published: this index never verifies one.
type Signature struct {
	Format   string `json:"format"`             // "sigstore-bundle" (the only format today)
	URL      string `json:"url"`                // absolute URL of the signature file
	Issuer   string `json:"issuer,omitempty"`   // the certificate issuer (a URL) as published
	Identity string `json:"identity,omitempty"` // the signing identity as published
}

// OpenMWExtension decodes the release's "openmw" extension; nil when absent or of another shape.
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
