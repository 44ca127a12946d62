// Package exgen writes the example network's documents (crawl/example/www, www-next),
// computing every manifest_sha256 and channel head; `go generate ./crawl/example` rewrites
// them, and a test fails when they differ.
package exgen

// The JSON shapes below mirror schema_version "2" (SPEC section 1) in publishers' field order,
// apart from catalog/protocol's types so the example does not change when those grow.

type index struct {
	SchemaVersion string  `json:"schema_version"`
	Document      string  `json:"document"`
	Generator     string  `json:"generator"`
	Site          site    `json:"site"`
	Projects      []entry `json:"projects"`
}

type site struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type entry struct {
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

type manifest struct {
	SchemaVersion string          `json:"schema_version"`
	Document      string          `json:"document"`
	Generator     string          `json:"generator"`
	Project       project         `json:"project"`
	Channels      map[string]head `json:"channels"`
	Releases      []release       `json:"releases"`
}

type head struct {
	Version string `json:"version"`
}

type project struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Summary      string         `json:"summary,omitempty"`
	Type         string         `json:"type"`
	Status       string         `json:"status"`
	Versioning   string         `json:"versioning"`
	Game         string         `json:"game"`
	License      string         `json:"license,omitempty"`
	Tags         []string       `json:"tags"`
	Maintainers  []person       `json:"maintainers"`
	Links        links          `json:"links"`
	Integrations map[string]any `json:"integrations"`
	Media        []media        `json:"media"`
	Credits      []person       `json:"credits"`
}

type person struct {
	Name string `json:"name"`
	Role string `json:"role,omitempty"`
	URL  string `json:"url,omitempty"`
}

type links struct {
	Page          string `json:"page"`
	Source        string `json:"source"`
	Issues        string `json:"issues"`
	Documentation string `json:"documentation,omitempty"`
	Support       string `json:"support,omitempty"`
}

type media struct {
	Kind     string `json:"kind"`
	URL      string `json:"url"`
	Alt      string `json:"alt"`
	Caption  string `json:"caption,omitempty"`
	Featured bool   `json:"featured,omitempty"`
}

type release struct {
	Version            string            `json:"version"`
	Channel            string            `json:"channel"`
	Date               string            `json:"date"`
	Status             string            `json:"status"`
	Yanked             *notice           `json:"yanked,omitempty"`
	Deprecated         *notice           `json:"deprecated,omitempty"`
	Source             source            `json:"source"`
	Notes              *notes            `json:"notes,omitempty"`
	Runtimes           map[string]string `json:"runtimes"`
	Platforms          []platform        `json:"platforms"`
	Provides           []string          `json:"provides"`
	Relationships      []relationship    `json:"relationships"`
	Components         []component       `json:"components"`
	Groups             []any             `json:"groups"`
	Extensions         map[string]any    `json:"extensions"`
	CriticalExtensions []string          `json:"critical_extensions"`
	Artifacts          []artifact        `json:"artifacts"`
}

type notice struct {
	Reason      string `json:"reason"`
	Replacement string `json:"replacement,omitempty"`
}

type source struct {
	Repository string `json:"repository"`
	Tag        string `json:"tag,omitempty"`
	Release    string `json:"release,omitempty"`
	Revision   string `json:"revision,omitempty"`
}

type notes struct {
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

type platform struct {
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	Variant string `json:"variant,omitempty"`
}

type relationship struct {
	Kind       string `json:"kind"`
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name,omitempty"`
	Version    string `json:"version,omitempty"`
	URL        string `json:"url,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

type component struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Path          string   `json:"path"`
	Required      bool     `json:"required"`
	Default       bool     `json:"default"`
	Requires      []string `json:"requires"`
	Conflicts     []string `json:"conflicts"`
	SuggestedWith []string `json:"suggested_with"`
}

type openmw struct {
	Components      map[string]openmwComponent `json:"components"`
	RequiresContent []string                   `json:"requires_content"`
	LuaAPI          string                     `json:"lua_api,omitempty"`
	Settings        []any                      `json:"settings"`
}

type openmwComponent struct {
	DataDirectories  []string          `json:"data_directories"`
	ContentFiles     []string          `json:"content_files"`
	GroundcoverFiles []string          `json:"groundcover_files"`
	FallbackArchives []string          `json:"fallback_archives"`
	FallbackEntries  map[string]string `json:"fallback_entries"`
	Config           bool              `json:"config"`
	RequiresContent  []string          `json:"requires_content"`
}

type artifact struct {
	ID         string      `json:"id"`
	Format     string      `json:"format"`
	Filename   string      `json:"filename"`
	MediaType  string      `json:"media_type"`
	Size       int64       `json:"size"`
	Digests    digests     `json:"digests"`
	Platform   *platform   `json:"platform,omitempty"`
	Sources    []artSource `json:"sources"`
	Signatures []signature `json:"signatures"`
}

type digests struct {
	SHA256 string `json:"sha256"`
}

type artSource struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

type signature struct {
	Format   string `json:"format"`
	URL      string `json:"url"`
	Issuer   string `json:"issuer,omitempty"`
	Identity string `json:"identity,omitempty"`
}
