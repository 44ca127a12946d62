// Package diff compares two manifests of one claim and returns typed, structural differences
// (SPEC section 4, "Updates"). Nothing is interpreted: only the publisher's notes.breaking is
// ever called breaking.
package diff

import "encoding/json"

// Change is one typed difference, tagged by Change (one of the Change* constants below). Which
// other fields are set depends on the kind; nested Changes hold the differences inside a moved
// channel head or an amended release. Before and After hold raw JSON values (a string, a number,
// an array, an object, or null for "absent"). The JSON shape is the reference index's event
// vocabulary (corpus/state/events); the fields after Changes are this index's additions, all
// omitted when empty so reference events decode and re-encode unchanged.
type Change struct {
	Change   string          `json:"change"`
	Field    string          `json:"field,omitempty"`
	Channel  string          `json:"channel,omitempty"`
	Version  string          `json:"version,omitempty"`
	Artifact string          `json:"artifact,omitempty"`
	Kind     string          `json:"kind,omitempty"`
	Target   json.RawMessage `json:"target,omitempty"`
	Date     string          `json:"date,omitempty"`
	Status   string          `json:"status,omitempty"`
	Notes    json.RawMessage `json:"notes,omitempty"`
	Before   json.RawMessage `json:"before,omitempty"`
	After    json.RawMessage `json:"after,omitempty"`
	Changes  []Change        `json:"changes,omitempty"`

	// Capability names a capability for provides-added / provides-removed.
	Capability string `json:"capability,omitempty"`
	// Component names a component id (component-*, and requires-content of one component).
	Component string `json:"component,omitempty"`
	// Group names a group id (group-*).
	Group string `json:"group,omitempty"`
	// Notice is the yanked/deprecated object {reason, replacement?} as published, on
	// release-yanked and release-deprecated.
	Notice json.RawMessage `json:"notice,omitempty"`
	// Unusual marks the facts SPEC section 4 says are shown first: an artifact digest changed
	// without a version change outside development, a previously indexed release vanished, the
	// versioning scheme changed. A top-level change holding an unusual nested change is unusual
	// too, and Diff puts unusual changes first.
	Unusual bool `json:"unusual,omitempty"`
}

// Change kinds at the top level of a diff.
const (
	// ChangeProjectField: Field is a project field (name, summary, type, status, versioning,
	// game, license, tags, maintainers, links.<key>, integrations, media, credits, id);
	// Before/After its values (null when absent). Unusual when the versioning scheme changed.
	ChangeProjectField = "project-field"
	// ChangeDocumentField: Field is a top-level document field other than project, channels
	// and releases (generator, schema_version, document); Before/After its values.
	ChangeDocumentField = "document-field"
	// ChangeChannelHead: Channel's head moved from Before to After (version strings); Changes
	// compare the two head releases (see compareRelease, head mode).
	ChangeChannelHead = "channel-head"
	// ChangeChannelAdded / ChangeChannelRemoved: Channel appeared with head Version, or is gone
	// (its last head was Version).
	ChangeChannelAdded   = "channel-added"
	ChangeChannelRemoved = "channel-removed"
	// ChangeReleaseAdded: Version, Channel, Date, Status and Notes (the notes object as
	// published, or null) of a release that was not there before.
	ChangeReleaseAdded = "release-added"
	// ChangeReleaseRemoved: Version and Channel of a release that is gone. Unusual outside the
	// development channel (a previously indexed release vanished).
	ChangeReleaseRemoved = "release-removed"
	// ChangeReleaseYanked / ChangeReleaseDeprecated: Version, Channel; Before the old status,
	// After the new one; Notice the published {reason, replacement?}.
	ChangeReleaseYanked     = "release-yanked"
	ChangeReleaseDeprecated = "release-deprecated"
	// ChangeReleaseRestored: Version, Channel; Before the old status, After "available".
	ChangeReleaseRestored = "release-restored"
	// ChangeReleaseStatus: any other status transition (a status outside the protocol's
	// three); Before/After the statuses.
	ChangeReleaseStatus = "release-status"
	// ChangeReleaseNotice: the status is unchanged but its notice was edited; Field is
	// "yanked" or "deprecated", Before/After the notice objects.
	ChangeReleaseNotice = "release-notice"
	// ChangeReleaseChannel: Version moved from channel Before to channel After (Channel is
	// the new channel).
	ChangeReleaseChannel = "release-channel"
	// ChangeReleaseDate: Version's publisher date changed from Before to After (null when
	// absent). Shaped exactly as the reference index writes it (no channel).
	ChangeReleaseDate = "release-date"
	// ChangeReleaseNotes: Version's notes were edited; Before/After the notes objects as
	// published (null when absent).
	ChangeReleaseNotes = "release-notes"
	// ChangeReleaseAmended: Version (in Channel) kept its version but its contents changed;
	// Changes compare the two (see compareRelease, amend mode).
	ChangeReleaseAmended = "release-amended"
)

// Change kinds nested inside channel-head and release-amended.
const (
	// ChangeReleaseVersion: the matched release's version string changed without changing
	// precedence (build metadata, trailing zeros); Before/After the strings.
	ChangeReleaseVersion = "release-version"
	// ChangeRuntime: Field is a runtime id (openmw); Before/After its constraints (null when
	// absent).
	ChangeRuntime = "runtime"
	// ChangeLuaAPI: extensions.openmw.lua_api changed; Before/After constraints or null.
	ChangeLuaAPI = "lua-api"
	// ChangePlatformAdded / ChangePlatformRemoved: After / Before is the {os, arch} object.
	ChangePlatformAdded   = "platform-added"
	ChangePlatformRemoved = "platform-removed"
	// ChangeRequiresContent: extensions.openmw.requires_content (Component empty) or
	// extensions.openmw.components.<Component>.requires_content; Before/After the lists.
	ChangeRequiresContent = "requires-content"
	// ChangeCriticalExtensions: critical_extensions; Before/After the lists.
	ChangeCriticalExtensions = "critical-extensions"
	// ChangeProvidesAdded / ChangeProvidesRemoved: Capability.
	ChangeProvidesAdded   = "provides-added"
	ChangeProvidesRemoved = "provides-removed"
	// Relationships are matched by identity (see relationshipIdentity). Target is
	// {project?, capability?, name?, url?}; Kind the relationship kind.
	// ChangeRelationshipAdded / Removed: After / Before is the relationship as published.
	ChangeRelationshipAdded   = "relationship-added"
	ChangeRelationshipRemoved = "relationship-removed"
	// ChangeRelationshipConstraint: the version constraint changed; Before/After or null.
	ChangeRelationshipConstraint = "relationship-constraint"
	// ChangeRelationshipKind: Before/After are the kinds; Kind is the new kind.
	ChangeRelationshipKind = "relationship-kind"
	// ChangeRelationshipField: Field (name, url, capability, reason) changed; Before/After.
	ChangeRelationshipField = "relationship-field"
	// ChangeComponentAdded / Removed: Component; After / Before the component as published.
	ChangeComponentAdded   = "component-added"
	ChangeComponentRemoved = "component-removed"
	// ChangeComponentField: Component's Field changed; Before/After.
	ChangeComponentField = "component-field"
	// ChangeGroupAdded / Removed / Field: the same for groups (Group); select is the
	// selection rule.
	ChangeGroupAdded   = "group-added"
	ChangeGroupRemoved = "group-removed"
	ChangeGroupField   = "group-field"
	// ChangeExtensionField: any other extension value; Field is a JSON pointer into
	// extensions (e.g. /openmw/settings, /org.tes3mp); Before/After or null.
	ChangeExtensionField = "extension-field"
	// Artifacts are matched by id. ChangeArtifactAdded / Removed: Artifact; After / Before
	// the artifact as published.
	ChangeArtifactAdded   = "artifact-added"
	ChangeArtifactRemoved = "artifact-removed"
	// ChangeArtifactFormat, Platform, Filename, MediaType, Digest (digests.sha256), Size
	// (bytes), Layout, Sources, Signatures: Artifact; Before/After the values. Digest is
	// Unusual when no version changed outside development.
	ChangeArtifactFormat     = "artifact-format"
	ChangeArtifactPlatform   = "artifact-platform"
	ChangeArtifactFilename   = "artifact-filename"
	ChangeArtifactMediaType  = "artifact-media-type"
	ChangeArtifactDigest     = "artifact-digest"
	ChangeArtifactSize       = "artifact-size"
	ChangeArtifactLayout     = "artifact-layout"
	ChangeArtifactSources    = "artifact-sources"
	ChangeArtifactSignatures = "artifact-signatures"
	// ChangeSourceRepository, Tag, Release, Revision: the release's source; Field is the
	// source field name (as the reference index writes source-revision).
	ChangeSourceRepository = "source-repository"
	ChangeSourceTag        = "source-tag"
	ChangeSourceRelease    = "source-release"
	ChangeSourceRevision   = "source-revision"
)
