// Package diff compares two manifests of one claim and returns typed, structural differences
// (SPEC section 4, "Updates"). Nothing is interpreted: only the publisher's notes.breaking is
// ever called breaking.
//
// # Vocabulary
//
// Events store the reference index's change vocabulary, token and key for key, so either index
// reads the other's state: unknown tokens and keys are errors. Facts the vocabulary has no
// token for are written as the token carrying the same fact: a channel appearing or going as
// channel-head with a null side; notice edits as release-status; sets (platforms, content,
// tags, maintainers, ...) as {added, removed}, reordering being no change; an artifact's file
// facts as artifact-file details; a component's or group's rules as component-selection and
// group-selection; other extension values by namespace; source fields as source-revision.
//
// Not written, as the reference records none and they change nothing a reader installs:
// document fields, names and descriptions of components and groups, suggested_with, a
// relationship's name, URL or reason, and a version rewritten to the same precedence. The
// unusual facts of SPEC section 4 are computed at build time (Unusual), not stored.
package diff

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Change is one typed difference, tagged by Change (a Change* token). The token's vocabulary
// entry fixes which other fields it uses, their JSON keys and its line; setting any other
// field is an encoding error. Pointers are the reference's nullable strings.
type Change struct {
	Change string

	Field       string // a project or source field's name
	Channel     string
	Version     string  // the release's version string
	Date        *string // the publisher's date, nil for none
	Status      string
	Notes       json.RawMessage // the notes object as published, or null
	Reason      *string         // the new notice's reason, nil for none
	Replacement *string         // the new notice's replacement, nil for none
	Before      json.RawMessage // the value before (type fixed by the token)
	After       json.RawMessage // the value after (type fixed by the token)
	Changes     []Change        // the release-level changes inside a channel head or release

	Added      []string // what joined a set
	Removed    []string // what left a set
	Link       string   // the link's key (page, source, issues, ...)
	Runtime    string
	Capability string  // the capability provided
	Kind       string  // the relationship kind, or the download source's kind
	Target     *Target // what the relationship points at
	Constraint *string // the relationship's version constraint (key "version"), nil for none
	Component  string
	Name       string   // the component's display name
	Details    []string // "what: before → after" lines
	Group      string
	Namespace  string
	Artifact   string
	Filename   string // the artifact's file name
	Size       uint64 // the artifact's size in bytes
	SHA256     string // the artifact's digest
	URL        string // the download source's or signature's URL
	Format     string // the signature format
}

// Target is what a relationship points at, as an event stores it: the project id or the
// capability, the display name (the publisher's, else the capability, else the project id),
// and the URL when published.
type Target struct {
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name"`
	URL        string `json:"url,omitempty"`
}

// Top-level change tokens. Each token's keys, in written order, are its entry in topLevel.
const (
	ChangeProjectField   = "project-field"
	ChangeTags           = "tags"
	ChangeMaintainers    = "maintainers"
	ChangeCredits        = "credits"
	ChangeMedia          = "media"
	ChangeLink           = "link"
	ChangeNexusMods      = "nexus-mods"
	ChangeChannelHead    = "channel-head"
	ChangeReleaseAdded   = "release-added"
	ChangeReleaseRemoved = "release-removed"
	ChangeReleaseStatus  = "release-status"
	ChangeReleaseChannel = "release-channel"
	ChangeReleaseDate    = "release-date"
	ChangeReleaseNotes   = "release-notes"
	ChangeReleaseAmended = "release-amended"
)

// Release-level change tokens (inside channel-head and release-amended), keyed in releaseLevel.
const (
	ChangeRuntime                = "runtime"
	ChangeLuaAPI                 = "lua-api"
	ChangePlatforms              = "platforms"
	ChangeCapabilityAdded        = "capability-added"
	ChangeCapabilityRemoved      = "capability-removed"
	ChangeRelationshipAdded      = "relationship-added"
	ChangeRelationshipRemoved    = "relationship-removed"
	ChangeRelationshipConstraint = "relationship-constraint"
	ChangeRelationshipKind       = "relationship-kind"
	ChangeComponentAdded         = "component-added"
	ChangeComponentRemoved       = "component-removed"
	ChangeComponentSelection     = "component-selection"
	ChangeGroupSelection         = "group-selection"
	ChangeRequiredContent        = "required-content"
	ChangeExtensionAdded         = "extension-added"
	ChangeExtensionRemoved       = "extension-removed"
	ChangeExtensionChanged       = "extension-changed"
	ChangeCriticalExtensions     = "critical-extensions"
	ChangeArtifactAdded          = "artifact-added"
	ChangeArtifactRemoved        = "artifact-removed"
	ChangeArtifactDigest         = "artifact-digest"
	ChangeArtifactSize           = "artifact-size"
	ChangeArtifactFile           = "artifact-file"
	ChangeArtifactSourceAdded    = "artifact-source-added"
	ChangeArtifactSourceRemoved  = "artifact-source-removed"
	ChangeSignatureAdded         = "signature-added"
	ChangeSignatureRemoved       = "signature-removed"
	ChangeSourceRevision         = "source-revision"
)

// kind is one change token: its keys in written order, by which codec.go encodes, decodes and
// checks a change, and its one-line text (Lines). nested marks the release-level tokens.
type kind struct {
	keys   []key
	line   func(c Change) string
	nested bool
}

// topLevel and releaseLevel are the vocabulary: every token, its keys and its line.
var topLevel = map[string]kind{
	ChangeProjectField: {keys: ks(kField, kBefore, kAfter), line: func(c Change) string { return c.Field + " " + beforeAfter(c) }},
	ChangeTags:         {keys: ks(kAdded, kRemoved), line: setLine},
	ChangeMaintainers:  {keys: ks(kAdded, kRemoved), line: setLine},
	ChangeCredits:      {keys: ks(kAdded, kRemoved), line: setLine},
	ChangeMedia:        {keys: ks(kAdded, kRemoved), line: setLine},
	ChangeLink:         {keys: ks(kLink, kBefore, kAfter), line: func(c Change) string { return "link " + c.Link + " " + beforeAfter(c) }},
	ChangeNexusMods:    {keys: ks(kBefore, kAfter), line: func(c Change) string { return "Nexus Mods " + beforeAfter(c) }},
	// before and after are head versions, null when the channel is absent on that side.
	ChangeChannelHead:    {keys: ks(kChannel, kBefore, kAfter, kChanges), line: channelHeadLine},
	ChangeReleaseAdded:   {keys: ks(kVersion, kChannel, kDate, kStatus, kNotes), line: releaseAddedLine},
	ChangeReleaseRemoved: {keys: ks(kVersion, kChannel), line: func(c Change) string { return "- " + releaseName(c) }},
	// reason and replacement are the new notice's.
	ChangeReleaseStatus: {keys: ks(kVersion, kChannel, kBefore.as(tStatus), kAfter.as(tStatus), kReason, kReplacement), line: releaseStatusLine},
	ChangeReleaseChannel: {keys: ks(kVersion, kBefore.as(tStr), kAfter.as(tStr)),
		line: func(c Change) string { return "release " + c.Version + " channel " + beforeAfter(c) }},
	ChangeReleaseDate: {keys: ks(kVersion, kBefore, kAfter), line: func(c Change) string { return "release " + c.Version + " date " + beforeAfter(c) }},
	// the release's notes were edited: the version only, as the reference writes it.
	ChangeReleaseNotes:   {keys: ks(kVersion), line: func(c Change) string { return "release " + c.Version + " notes edited" }},
	ChangeReleaseAmended: {keys: ks(kVersion, kChannel, kChanges), line: func(c Change) string { return releaseName(c) + " amended" }},
}

var releaseLevel = map[string]kind{
	ChangeRuntime: {keys: ks(kRuntime, kBefore, kAfter), line: func(c Change) string { return runtimeName(c.Runtime) + " runtime " + beforeAfter(c) }},
	ChangeLuaAPI:  {keys: ks(kBefore, kAfter), line: func(c Change) string { return "OpenMW Lua API " + beforeAfter(c) }},
	// "os/arch" keys.
	ChangePlatforms:         {keys: ks(kAdded, kRemoved), line: spacedSetLine},
	ChangeCapabilityAdded:   {keys: ks(kCapability), line: func(c Change) string { return "+ provides " + c.Capability }},
	ChangeCapabilityRemoved: {keys: ks(kCapability), line: func(c Change) string { return "- provides " + c.Capability }},
	ChangeRelationshipAdded: {keys: ks(kRelKind, kTarget, kConstraint),
		line: func(c Change) string { return "+ " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint) }},
	ChangeRelationshipRemoved: {keys: ks(kRelKind, kTarget, kConstraint),
		line: func(c Change) string { return "- " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint) }},
	ChangeRelationshipConstraint: {keys: ks(kRelKind, kTarget, kBefore, kAfter),
		line: func(c Change) string { return c.Kind + " " + targetText(c.Target) + " " + beforeAfter(c) }},
	ChangeRelationshipKind: {keys: ks(kTarget, kBefore.as(tRelKind), kAfter.as(tRelKind)),
		line: func(c Change) string { return targetText(c.Target) + " " + beforeAfter(c) }},
	ChangeComponentAdded:   {keys: ks(kComponent, kName), line: func(c Change) string { return "+ component " + c.Component + nameNote(c.Name) }},
	ChangeComponentRemoved: {keys: ks(kComponent, kName), line: func(c Change) string { return "- component " + c.Component + nameNote(c.Name) }},
	ChangeComponentSelection: {keys: ks(kComponent, kDetails),
		line: func(c Change) string { return "component " + c.Component + ": " + strings.Join(c.Details, "; ") }},
	ChangeGroupSelection: {keys: ks(kGroup, kBefore, kAfter), line: func(c Change) string { return "group " + c.Group + " selection " + beforeAfter(c) }},
	// content files the release needs.
	ChangeRequiredContent:  {keys: ks(kAdded, kRemoved), line: spacedSetLine},
	ChangeExtensionAdded:   {keys: ks(kNamespace), line: func(c Change) string { return "+ extension " + c.Namespace }},
	ChangeExtensionRemoved: {keys: ks(kNamespace), line: func(c Change) string { return "- extension " + c.Namespace }},
	ChangeExtensionChanged: {keys: ks(kNamespace), line: func(c Change) string { return "extension " + c.Namespace + " changed" }},
	// namespaces.
	ChangeCriticalExtensions: {keys: ks(kAdded, kRemoved), line: spacedSetLine},
	ChangeArtifactAdded: {keys: ks(kArtifact, kFilename, kSize, kSHA256), line: func(c Change) string {
		return "+ " + artifactName(c) + " (" + c.Filename + ", " + strconv.FormatUint(c.Size, 10) + " bytes)"
	}},
	ChangeArtifactRemoved: {keys: ks(kArtifact, kFilename), line: func(c Change) string { return "- " + artifactName(c) + " (" + c.Filename + ")" }},
	ChangeArtifactDigest: {keys: ks(kArtifact, kBefore.as(tStr), kAfter.as(tStr)),
		line: func(c Change) string { return artifactName(c) + " sha256 " + beforeAfter(c) }},
	ChangeArtifactSize: {keys: ks(kArtifact, kBefore.as(tUint), kAfter.as(tUint)),
		line: func(c Change) string { return artifactName(c) + " size " + beforeAfter(c) + " bytes" }},
	ChangeArtifactFile: {keys: ks(kArtifact, kDetails), line: func(c Change) string { return artifactName(c) + ": " + strings.Join(c.Details, "; ") }},
	// kind is publisher or mirror.
	ChangeArtifactSourceAdded: {keys: ks(kArtifact, kURL, kKind),
		line: func(c Change) string { return "+ " + artifactName(c) + " source " + c.URL + " (" + c.Kind + ")" }},
	ChangeArtifactSourceRemoved: {keys: ks(kArtifact, kURL, kKind),
		line: func(c Change) string { return "- " + artifactName(c) + " source " + c.URL + " (" + c.Kind + ")" }},
	ChangeSignatureAdded: {keys: ks(kArtifact, kFormat, kURL),
		line: func(c Change) string { return "+ " + artifactName(c) + " signature " + c.URL + " (" + c.Format + ")" }},
	ChangeSignatureRemoved: {keys: ks(kArtifact, kFormat, kURL),
		line: func(c Change) string { return "- " + artifactName(c) + " signature " + c.URL + " (" + c.Format + ")" }},
	// field is repository, tag, release or revision.
	ChangeSourceRevision: {keys: ks(kField, kBefore, kAfter), line: func(c Change) string { return "source " + c.Field + " " + beforeAfter(c) }},
}

// vocabulary is topLevel and releaseLevel in one map, each release-level kind marked nested.
var vocabulary = func() map[string]kind {
	m := maps.Clone(topLevel)
	for t, k := range releaseLevel {
		k.nested = true
		m[t] = k
	}
	return m
}()

func ks(keys ...key) []key { return keys }

// Tokens returns every change token of the vocabulary, sorted.
func Tokens() []string {
	return slices.Sorted(maps.Keys(vocabulary))
}
