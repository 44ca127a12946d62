// Package diff compares two manifests of one claim and returns typed, structural differences
// (SPEC section 4, "Updates"). Nothing is interpreted: only the publisher's notes.breaking is
// ever called breaking.
//
// # Vocabulary
//
// The changes an event stores use the reference index's change vocabulary (its events'
// "changes"), so that either index can continue and read the other's state: every token and
// key below is exactly the reference's, unknown tokens and unknown keys are errors (the
// reference rejects them too), and a change read and written back keeps its bytes.
//
// Some facts the differ tells apart have no token of their own in that vocabulary. Each is
// written as the reference token that carries the same fact, or not written:
//
//   - A channel appearing or going away is a channel-head whose before or after is null: the
//     reference describes a channel by its head, and an absent head is null.
//   - A release yanked, deprecated or restored is release-status, whose reason and replacement
//     come from the new notice. A notice edited under an unchanged status is release-status
//     with equal before and after: the status token then carries the new reason, which is the
//     fact a reader needs.
//   - Platforms, required content, critical extensions, tags, maintainers, credits and media
//     are {added, removed} sets: the reference compares them as sets, so reordering a list is
//     no change.
//   - Provided capabilities are capability-added and capability-removed.
//   - An artifact's format, platform, file name, media type or layout is one artifact-file
//     whose details say "what: before → after" per field; download sources and signatures are
//     artifact-source-added/-removed and signature-added/-removed, one per URL.
//   - A component's required, default, group, path, rules between components, or its OpenMW
//     install data (content files, data directories, required content, ...) is one
//     component-selection with details; a group's selection rule is group-selection.
//   - Any other extension value is extension-added, -removed or -changed, by namespace.
//   - The release's source repository, tag, release name and revision are source-revision
//     with field naming which.
//
// Not written, because the reference does not record them and they change nothing a reader
// installs: document fields (schema_version, document, generator), a component's name,
// description or suggested_with, a group's name or description, a relationship's display
// name, URL or reason, the project id (fixed per claim), and a version string rewritten to
// the same precedence (1.2 to 1.2.0+rebuild; the release is matched, and anything else about
// it that changed is still reported under its new version). Release notes edits are
// release-notes with the version only, as the reference writes them.
//
// The facts SPEC section 4 calls unusual (a digest changed without a version change outside
// development, an indexed release vanished, the versioning scheme changed) are not stored: a
// stored flag would be a key the reference rejects. Unusual computes them from the stored
// changes at build time, so they apply to every event, including the reference's.
package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// Change is one typed difference, tagged by Change (one of the Change* constants). Which
// other fields a change uses is fixed by its token (the constants' comments name its JSON
// keys, in the order they are written); every other field must be zero, and encoding a change
// that sets one is an error rather than a silent loss. Changes holds the release-level
// differences inside a channel-head or release-amended.
//
// Before and After hold JSON values whose type the token fixes: a string, a string or null, a
// non-negative integer (artifact-size), a release status or a relationship kind. The
// pointers are the reference's nullable strings: nil is written null.
type Change struct {
	Change string

	Field       string          // project-field: project field name; source-revision: source field name
	Channel     string          // channel-head, release-added/-removed/-status/-amended
	Version     string          // release-*: the release's version string
	Date        *string         // release-added: the publisher's date, nil for none
	Status      string          // release-added: the release status
	Notes       json.RawMessage // release-added: the notes object as published, or null
	Reason      *string         // release-status: the new notice's reason, nil for none
	Replacement *string         // release-status: the new notice's replacement, nil for none
	Before      json.RawMessage // the value before (type fixed by the token)
	After       json.RawMessage // the value after (type fixed by the token)
	Changes     []Change        // channel-head, release-amended: release-level changes

	Added   []string // tags, maintainers, credits, media, platforms, required-content, critical-extensions
	Removed []string // the same tokens: what left the set
	Link    string   // link: the link's key (page, source, issues, ...)

	Runtime    string  // runtime: the runtime id
	Capability string  // capability-added/-removed
	Kind       string  // relationship-added/-removed/-constraint: relationship kind; artifact-source-*: source kind
	Target     *Target // relationship-*: what the relationship points at
	Constraint *string // relationship-added/-removed: the version constraint (key "version"), nil for none
	Component  string  // component-*: the component id
	Name       string  // component-added/-removed: the component's display name
	Details    []string
	Group      string // group-selection: the group id
	Namespace  string // extension-added/-removed/-changed
	Artifact   string // artifact-*, signature-*: the artifact id
	Filename   string // artifact-added/-removed
	Size       uint64 // artifact-added: bytes
	SHA256     string // artifact-added: the digest
	URL        string // artifact-source-*, signature-*
	Format     string // signature-*: the signature format
}

// Target is what a relationship points at, as an event stores it: the project id or the
// capability when the relationship names one, the display name (the publisher's name, else the
// capability, else the project id; "" when none), and the URL when published. Empty optional
// fields are left out when written.
type Target struct {
	Project    string `json:"project,omitempty"`
	Capability string `json:"capability,omitempty"`
	Name       string `json:"name"`
	URL        string `json:"url,omitempty"`
}

// Top-level change tokens, with their JSON keys after "change".
const (
	// ChangeProjectField: field (name, summary, type, status, versioning, game, license),
	// before, after (strings or null).
	ChangeProjectField = "project-field"
	// ChangeTags, ChangeMaintainers (names), ChangeCredits ("name (role)" or "name") and
	// ChangeMedia (URLs): added, removed, sorted sets of strings.
	ChangeTags        = "tags"
	ChangeMaintainers = "maintainers"
	ChangeCredits     = "credits"
	ChangeMedia       = "media"
	// ChangeLink: link (the key), before, after (URLs or null).
	ChangeLink = "link"
	// ChangeNexusMods: before, after ("game/mod_id" or null).
	ChangeNexusMods = "nexus-mods"
	// ChangeChannelHead: channel, before, after (head versions; null when the channel is
	// absent on that side), changes (the head releases compared, see compareRelease).
	ChangeChannelHead = "channel-head"
	// ChangeReleaseAdded: version, channel, date (or null), status, notes (object or null).
	ChangeReleaseAdded = "release-added"
	// ChangeReleaseRemoved: version, channel.
	ChangeReleaseRemoved = "release-removed"
	// ChangeReleaseStatus: version, channel, before, after (statuses), reason, replacement
	// (the new notice's, or null).
	ChangeReleaseStatus = "release-status"
	// ChangeReleaseChannel: version, before, after (channel names).
	ChangeReleaseChannel = "release-channel"
	// ChangeReleaseDate: version, before, after (dates or null).
	ChangeReleaseDate = "release-date"
	// ChangeReleaseNotes: version (its notes were edited).
	ChangeReleaseNotes = "release-notes"
	// ChangeReleaseAmended: version, channel, changes (the release's contents compared).
	ChangeReleaseAmended = "release-amended"
)

// Release-level change tokens (inside channel-head and release-amended), with their keys.
const (
	// ChangeRuntime: runtime (id), before, after (constraints or null).
	ChangeRuntime = "runtime"
	// ChangeLuaAPI: before, after (the OpenMW Lua API constraint or null).
	ChangeLuaAPI = "lua-api"
	// ChangePlatforms: added, removed ("os/arch" keys).
	ChangePlatforms = "platforms"
	// ChangeCapabilityAdded / ChangeCapabilityRemoved: capability (provided by the release).
	ChangeCapabilityAdded   = "capability-added"
	ChangeCapabilityRemoved = "capability-removed"
	// ChangeRelationshipAdded / ChangeRelationshipRemoved: kind, target, version (the
	// constraint or null).
	ChangeRelationshipAdded   = "relationship-added"
	ChangeRelationshipRemoved = "relationship-removed"
	// ChangeRelationshipConstraint: kind, target, before, after (constraints or null).
	ChangeRelationshipConstraint = "relationship-constraint"
	// ChangeRelationshipKind: target, before, after (relationship kinds).
	ChangeRelationshipKind = "relationship-kind"
	// ChangeComponentAdded / ChangeComponentRemoved: component (id), name.
	ChangeComponentAdded   = "component-added"
	ChangeComponentRemoved = "component-removed"
	// ChangeComponentSelection: component, details ("what: before → after" lines).
	ChangeComponentSelection = "component-selection"
	// ChangeGroupSelection: group, before, after (selection rules or null).
	ChangeGroupSelection = "group-selection"
	// ChangeRequiredContent: added, removed (content files the release needs).
	ChangeRequiredContent = "required-content"
	// ChangeExtensionAdded / Removed / Changed: namespace.
	ChangeExtensionAdded   = "extension-added"
	ChangeExtensionRemoved = "extension-removed"
	ChangeExtensionChanged = "extension-changed"
	// ChangeCriticalExtensions: added, removed (namespaces).
	ChangeCriticalExtensions = "critical-extensions"
	// ChangeArtifactAdded: artifact, filename, size, sha256.
	ChangeArtifactAdded = "artifact-added"
	// ChangeArtifactRemoved: artifact, filename.
	ChangeArtifactRemoved = "artifact-removed"
	// ChangeArtifactDigest: artifact, before, after (SHA-256 digests).
	ChangeArtifactDigest = "artifact-digest"
	// ChangeArtifactSize: artifact, before, after (bytes, integers).
	ChangeArtifactSize = "artifact-size"
	// ChangeArtifactFile: artifact, details ("what: before → after" lines).
	ChangeArtifactFile = "artifact-file"
	// ChangeArtifactSourceAdded / Removed: artifact, url, kind (publisher or mirror).
	ChangeArtifactSourceAdded   = "artifact-source-added"
	ChangeArtifactSourceRemoved = "artifact-source-removed"
	// ChangeSignatureAdded / Removed: artifact, format, url.
	ChangeSignatureAdded   = "signature-added"
	ChangeSignatureRemoved = "signature-removed"
	// ChangeSourceRevision: field (repository, tag, release, revision), before, after
	// (strings or null).
	ChangeSourceRevision = "source-revision"
)

// valueType is the JSON type a key holds.
type valueType int

const (
	tStr     valueType = iota // a string
	tOptStr                   // a string or null
	tUint                     // a non-negative integer (u64)
	tStrList                  // an array of strings
	tStatus                   // a release status token
	tRelKind                  // a relationship kind token
	tTarget                   // a Target object
	tNotes                    // a notes object or null
	tChanges                  // an array of release-level changes
)

type key struct {
	name string
	typ  valueType
}

// shape is a token's keys in written order; nested marks the release-level tokens.
type shape struct {
	keys   []key
	nested bool
}

func keys(nested bool, ks ...key) shape { return shape{keys: ks, nested: nested} }

var (
	kVersion  = key{"version", tStr}
	kChannel  = key{"channel", tStr}
	kArtifact = key{"artifact", tStr}
	kTarget   = key{"target", tTarget}
	kAdded    = key{"added", tStrList}
	kRemoved  = key{"removed", tStrList}
	kDetails  = key{"details", tStrList}
	kBefore   = key{"before", tOptStr}
	kAfter    = key{"after", tOptStr}
	kChanges  = key{"changes", tChanges}
)

// shapes is the vocabulary: every token and its keys.
var shapes = map[string]shape{
	ChangeProjectField:   keys(false, key{"field", tStr}, kBefore, kAfter),
	ChangeTags:           keys(false, kAdded, kRemoved),
	ChangeMaintainers:    keys(false, kAdded, kRemoved),
	ChangeCredits:        keys(false, kAdded, kRemoved),
	ChangeMedia:          keys(false, kAdded, kRemoved),
	ChangeLink:           keys(false, key{"link", tStr}, kBefore, kAfter),
	ChangeNexusMods:      keys(false, kBefore, kAfter),
	ChangeChannelHead:    keys(false, kChannel, kBefore, kAfter, kChanges),
	ChangeReleaseAdded:   keys(false, kVersion, kChannel, key{"date", tOptStr}, key{"status", tStatus}, key{"notes", tNotes}),
	ChangeReleaseRemoved: keys(false, kVersion, kChannel),
	ChangeReleaseStatus: keys(false, kVersion, kChannel, key{"before", tStatus}, key{"after", tStatus},
		key{"reason", tOptStr}, key{"replacement", tOptStr}),
	ChangeReleaseChannel: keys(false, kVersion, key{"before", tStr}, key{"after", tStr}),
	ChangeReleaseDate:    keys(false, kVersion, kBefore, kAfter),
	ChangeReleaseNotes:   keys(false, kVersion),
	ChangeReleaseAmended: keys(false, kVersion, kChannel, kChanges),

	ChangeRuntime:                keys(true, key{"runtime", tStr}, kBefore, kAfter),
	ChangeLuaAPI:                 keys(true, kBefore, kAfter),
	ChangePlatforms:              keys(true, kAdded, kRemoved),
	ChangeCapabilityAdded:        keys(true, key{"capability", tStr}),
	ChangeCapabilityRemoved:      keys(true, key{"capability", tStr}),
	ChangeRelationshipAdded:      keys(true, key{"kind", tRelKind}, kTarget, key{"version", tOptStr}),
	ChangeRelationshipRemoved:    keys(true, key{"kind", tRelKind}, kTarget, key{"version", tOptStr}),
	ChangeRelationshipConstraint: keys(true, key{"kind", tRelKind}, kTarget, kBefore, kAfter),
	ChangeRelationshipKind:       keys(true, kTarget, key{"before", tRelKind}, key{"after", tRelKind}),
	ChangeComponentAdded:         keys(true, key{"component", tStr}, key{"name", tStr}),
	ChangeComponentRemoved:       keys(true, key{"component", tStr}, key{"name", tStr}),
	ChangeComponentSelection:     keys(true, key{"component", tStr}, kDetails),
	ChangeGroupSelection:         keys(true, key{"group", tStr}, kBefore, kAfter),
	ChangeRequiredContent:        keys(true, kAdded, kRemoved),
	ChangeExtensionAdded:         keys(true, key{"namespace", tStr}),
	ChangeExtensionRemoved:       keys(true, key{"namespace", tStr}),
	ChangeExtensionChanged:       keys(true, key{"namespace", tStr}),
	ChangeCriticalExtensions:     keys(true, kAdded, kRemoved),
	ChangeArtifactAdded: keys(true, kArtifact, key{"filename", tStr}, key{"size", tUint},
		key{"sha256", tStr}),
	ChangeArtifactRemoved:       keys(true, kArtifact, key{"filename", tStr}),
	ChangeArtifactDigest:        keys(true, kArtifact, key{"before", tStr}, key{"after", tStr}),
	ChangeArtifactSize:          keys(true, kArtifact, key{"before", tUint}, key{"after", tUint}),
	ChangeArtifactFile:          keys(true, kArtifact, kDetails),
	ChangeArtifactSourceAdded:   keys(true, kArtifact, key{"url", tStr}, key{"kind", tStr}),
	ChangeArtifactSourceRemoved: keys(true, kArtifact, key{"url", tStr}, key{"kind", tStr}),
	ChangeSignatureAdded:        keys(true, kArtifact, key{"format", tStr}, key{"url", tStr}),
	ChangeSignatureRemoved:      keys(true, kArtifact, key{"format", tStr}, key{"url", tStr}),
	ChangeSourceRevision:        keys(true, key{"field", tStr}, kBefore, kAfter),
}

// statuses and relationKinds are the protocol's tokens (catalog/protocol), the only ones the
// reference's typed fields accept.
var (
	statuses      = map[string]bool{"available": true, "yanked": true, "deprecated": true}
	relationKinds = map[string]bool{"requires": true, "recommends": true, "conflicts": true, "compatible": true, "replaces": true}
)

// MarshalJSON writes c as the reference writes it: "change" first, then exactly the token's
// keys in its order. It is an error when c is a release-level token (those are written only
// inside channel-head and release-amended), when a key's value has the wrong type, or when a
// field the token does not use is set.
func (c Change) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := c.write(&buf, false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON reads one top-level change: a JSON object whose "change" is a top-level token
// and whose other keys are exactly that token's (a missing nullable key reads as null, as the
// reference reads it). Unknown tokens, unknown or duplicate keys and values of the wrong type
// are errors naming the token and key; c is left unchanged then.
func (c *Change) UnmarshalJSON(b []byte) error {
	var n Change
	if err := n.read(b, false); err != nil {
		return err
	}
	*c = n
	return nil
}

func (c *Change) write(buf *bytes.Buffer, nested bool) error {
	s, ok := shapes[c.Change]
	if !ok {
		return fmt.Errorf("change %q: unknown change token", c.Change)
	}
	if s.nested != nested {
		return levelError(c.Change, nested)
	}
	buf.WriteString(`{"change":`)
	writeString(buf, c.Change)
	used := map[string]bool{}
	for _, k := range s.keys {
		used[k.name+"/"+slotName(k)] = true
		buf.WriteByte(',')
		writeString(buf, k.name)
		buf.WriteByte(':')
		if err := c.writeValue(buf, k); err != nil {
			return fmt.Errorf("change %q: key %q: %w", c.Change, k.name, err)
		}
	}
	buf.WriteByte('}')
	for _, f := range allSlots {
		if !used[f.id] && !f.zero(c) {
			return fmt.Errorf("change %q has no key %q, but its %s is set", c.Change, f.key, f.field)
		}
	}
	return nil
}

// slot is one Change field as a key: id is key/field, so that the two fields a key can name
// (version: Version or Constraint) are told apart.
type slot struct {
	id, key, field string
	zero           func(c *Change) bool
}

func slotName(k key) string {
	switch {
	case k.name == "version" && k.typ == tOptStr:
		return "Constraint"
	}
	return k.name
}

var allSlots = []slot{
	{"field/field", "field", "Field", func(c *Change) bool { return c.Field == "" }},
	{"channel/channel", "channel", "Channel", func(c *Change) bool { return c.Channel == "" }},
	{"version/version", "version", "Version", func(c *Change) bool { return c.Version == "" }},
	{"version/Constraint", "version", "Constraint", func(c *Change) bool { return c.Constraint == nil }},
	{"date/date", "date", "Date", func(c *Change) bool { return c.Date == nil }},
	{"status/status", "status", "Status", func(c *Change) bool { return c.Status == "" }},
	{"notes/notes", "notes", "Notes", func(c *Change) bool { return len(c.Notes) == 0 }},
	{"reason/reason", "reason", "Reason", func(c *Change) bool { return c.Reason == nil }},
	{"replacement/replacement", "replacement", "Replacement", func(c *Change) bool { return c.Replacement == nil }},
	{"before/before", "before", "Before", func(c *Change) bool { return len(c.Before) == 0 }},
	{"after/after", "after", "After", func(c *Change) bool { return len(c.After) == 0 }},
	{"changes/changes", "changes", "Changes", func(c *Change) bool { return len(c.Changes) == 0 }},
	{"added/added", "added", "Added", func(c *Change) bool { return len(c.Added) == 0 }},
	{"removed/removed", "removed", "Removed", func(c *Change) bool { return len(c.Removed) == 0 }},
	{"link/link", "link", "Link", func(c *Change) bool { return c.Link == "" }},
	{"runtime/runtime", "runtime", "Runtime", func(c *Change) bool { return c.Runtime == "" }},
	{"capability/capability", "capability", "Capability", func(c *Change) bool { return c.Capability == "" }},
	{"kind/kind", "kind", "Kind", func(c *Change) bool { return c.Kind == "" }},
	{"target/target", "target", "Target", func(c *Change) bool { return c.Target == nil }},
	{"component/component", "component", "Component", func(c *Change) bool { return c.Component == "" }},
	{"name/name", "name", "Name", func(c *Change) bool { return c.Name == "" }},
	{"details/details", "details", "Details", func(c *Change) bool { return len(c.Details) == 0 }},
	{"group/group", "group", "Group", func(c *Change) bool { return c.Group == "" }},
	{"namespace/namespace", "namespace", "Namespace", func(c *Change) bool { return c.Namespace == "" }},
	{"artifact/artifact", "artifact", "Artifact", func(c *Change) bool { return c.Artifact == "" }},
	{"filename/filename", "filename", "Filename", func(c *Change) bool { return c.Filename == "" }},
	{"size/size", "size", "Size", func(c *Change) bool { return c.Size == 0 }},
	{"sha256/sha256", "sha256", "SHA256", func(c *Change) bool { return c.SHA256 == "" }},
	{"url/url", "url", "URL", func(c *Change) bool { return c.URL == "" }},
	{"format/format", "format", "Format", func(c *Change) bool { return c.Format == "" }},
}

func levelError(token string, nested bool) error {
	if nested {
		return fmt.Errorf("change %q is a top-level change, not allowed inside channel-head or release-amended", token)
	}
	return fmt.Errorf("change %q is a release-level change, allowed only inside channel-head or release-amended", token)
}

// strField returns the string field a tStr key names.
func (c *Change) strField(name string) *string {
	switch name {
	case "field":
		return &c.Field
	case "channel":
		return &c.Channel
	case "version":
		return &c.Version
	case "status":
		return &c.Status
	case "link":
		return &c.Link
	case "runtime":
		return &c.Runtime
	case "capability":
		return &c.Capability
	case "kind":
		return &c.Kind
	case "component":
		return &c.Component
	case "name":
		return &c.Name
	case "group":
		return &c.Group
	case "namespace":
		return &c.Namespace
	case "artifact":
		return &c.Artifact
	case "filename":
		return &c.Filename
	case "sha256":
		return &c.SHA256
	case "url":
		return &c.URL
	case "format":
		return &c.Format
	}
	return nil
}

// optField returns the nullable string field a tOptStr key names (nil for before and after,
// which are raw values).
func (c *Change) optField(name string) **string {
	switch name {
	case "date":
		return &c.Date
	case "reason":
		return &c.Reason
	case "replacement":
		return &c.Replacement
	case "version":
		return &c.Constraint
	}
	return nil
}

func (c *Change) listField(name string) *[]string {
	switch name {
	case "added":
		return &c.Added
	case "removed":
		return &c.Removed
	case "details":
		return &c.Details
	}
	return nil
}

func (c *Change) rawField(name string) *json.RawMessage {
	switch name {
	case "before":
		return &c.Before
	case "after":
		return &c.After
	}
	return nil
}

func (c *Change) writeValue(buf *bytes.Buffer, k key) error {
	if raw := c.rawField(k.name); raw != nil {
		v, err := canonicalValue(*raw, k.typ)
		if err != nil {
			return err
		}
		buf.Write(v)
		return nil
	}
	switch k.typ {
	case tStr, tStatus, tRelKind:
		s := *c.strField(k.name)
		if err := checkToken(s, k.typ); err != nil {
			return err
		}
		writeString(buf, s)
	case tOptStr:
		p := *c.optField(k.name)
		if p == nil {
			buf.WriteString("null")
		} else {
			writeString(buf, *p)
		}
	case tUint:
		buf.WriteString(strconv.FormatUint(c.Size, 10))
	case tStrList:
		writeList(buf, *c.listField(k.name))
	case tTarget:
		if c.Target == nil {
			return errors.New("no target")
		}
		b, err := encode(c.Target)
		if err != nil {
			return err
		}
		buf.Write(b)
	case tNotes:
		v, err := canonicalNotes(c.Notes)
		if err != nil {
			return err
		}
		buf.Write(v)
	case tChanges:
		buf.WriteByte('[')
		for i := range c.Changes {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := c.Changes[i].write(buf, true); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	return nil
}

func checkToken(s string, typ valueType) error {
	switch {
	case typ == tStatus && !statuses[s]:
		return fmt.Errorf("%q is not a release status (available, yanked, deprecated)", s)
	case typ == tRelKind && !relationKinds[s]:
		return fmt.Errorf("%q is not a relationship kind (requires, recommends, conflicts, compatible, replaces)", s)
	}
	return nil
}

// canonicalValue checks a raw before/after value against typ and returns it re-encoded the
// way the reference writes it. An absent value is null when typ allows null (missing), else an
// error.
func canonicalValue(raw json.RawMessage, typ valueType) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		if typ == tOptStr {
			return json.RawMessage("null"), nil
		}
		return nil, errors.New("no value")
	}
	switch typ {
	case tOptStr:
		if string(bytes.TrimSpace(raw)) == "null" {
			return json.RawMessage("null"), nil
		}
		fallthrough
	case tStr, tStatus, tRelKind:
		var s string
		if err := strictString(raw, &s); err != nil {
			return nil, err
		}
		if err := checkToken(s, typ); err != nil {
			return nil, err
		}
		return encode(s)
	case tUint:
		var n uint64
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || t[0] < '0' || t[0] > '9' || json.Unmarshal(t, &n) != nil {
			return nil, fmt.Errorf("%s is not a non-negative integer", t)
		}
		return json.RawMessage(strconv.FormatUint(n, 10)), nil
	}
	return nil, fmt.Errorf("internal: raw value of type %d", typ)
}

func strictString(raw json.RawMessage, s *string) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' {
		return fmt.Errorf("%s is not a string", t)
	}
	return json.Unmarshal(t, s)
}

// notesShape is the protocol's release notes object as the reference writes it: keys in this
// order, absent ones left out, present empty lists kept.
type notesShape struct {
	Summary     *string   `json:"summary,omitempty"`
	Highlights  *string   `json:"highlights,omitempty"`
	Added       *[]string `json:"added,omitempty"`
	Changed     *[]string `json:"changed,omitempty"`
	Fixed       *[]string `json:"fixed,omitempty"`
	Breaking    *[]string `json:"breaking,omitempty"`
	Migration   *string   `json:"migration,omitempty"`
	KnownIssues *[]string `json:"known_issues,omitempty"`
	Notes       *string   `json:"notes,omitempty"`
}

// canonicalNotes checks a notes value (an object of the protocol's notes keys, or null) and
// returns it in the reference's key order. Absent is null.
func canonicalNotes(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("null"), nil
	}
	kvs, err := object(t)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	var n notesShape
	for _, kv := range kvs {
		var dst any
		switch kv.key {
		case "summary":
			dst = &n.Summary
		case "highlights":
			dst = &n.Highlights
		case "migration":
			dst = &n.Migration
		case "notes":
			dst = &n.Notes
		case "added":
			dst = &n.Added
		case "changed":
			dst = &n.Changed
		case "fixed":
			dst = &n.Fixed
		case "breaking":
			dst = &n.Breaking
		case "known_issues":
			dst = &n.KnownIssues
		default:
			return nil, fmt.Errorf("notes: unknown key %q", kv.key)
		}
		if err := decodeNotesValue(kv.raw, dst); err != nil {
			return nil, fmt.Errorf("notes: key %q: %w", kv.key, err)
		}
	}
	return encode(n)
}

// decodeNotesValue decodes a notes value: a string for **string, an array of strings for
// **[]string. null reads as absent, as the reference's optional notes keys read it.
func decodeNotesValue(raw json.RawMessage, dst any) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	switch d := dst.(type) {
	case **string:
		var s string
		if err := strictString(raw, &s); err != nil {
			return err
		}
		*d = &s
	case **[]string:
		l, err := strictList(raw)
		if err != nil {
			return err
		}
		*d = &l
	}
	return nil
}

func strictList(raw json.RawMessage) ([]string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return nil, fmt.Errorf("%s is not an array of strings", t)
	}
	var l []string
	if err := json.Unmarshal(t, &l); err != nil {
		return nil, fmt.Errorf("%s is not an array of strings", t)
	}
	if l == nil {
		l = []string{}
	}
	return l, nil
}

type keyValue struct {
	key string
	raw json.RawMessage
}

// object splits a JSON object into its keys and raw values, in order; a duplicate key is an
// error (the reference's reader rejects it).
func object(b []byte) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%.40s is not an object", bytes.TrimSpace(b))
	}
	var out []keyValue
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		if seen[k] {
			return nil, fmt.Errorf("duplicate key %q", k)
		}
		seen[k] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, keyValue{k, raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("trailing data after the object")
	}
	return out, nil
}

func (c *Change) read(b []byte, nested bool) error {
	kvs, err := object(b)
	if err != nil {
		return fmt.Errorf("change: %w", err)
	}
	vals := map[string]json.RawMessage{}
	for _, kv := range kvs {
		vals[kv.key] = kv.raw
	}
	tokRaw, ok := vals["change"]
	if !ok {
		return errors.New(`change: no "change" key`)
	}
	if err := strictString(tokRaw, &c.Change); err != nil {
		return fmt.Errorf(`change: key "change": %w`, err)
	}
	s, ok := shapes[c.Change]
	if !ok {
		return fmt.Errorf("change %q: unknown change token", c.Change)
	}
	if s.nested != nested {
		return levelError(c.Change, nested)
	}
	allowed := map[string]bool{"change": true}
	for _, k := range s.keys {
		allowed[k.name] = true
	}
	for _, kv := range kvs {
		if !allowed[kv.key] {
			return fmt.Errorf("change %q: unknown key %q", c.Change, kv.key)
		}
	}
	for _, k := range s.keys {
		raw, present := vals[k.name]
		if err := c.readValue(k, raw, present); err != nil {
			return fmt.Errorf("change %q: key %q: %w", c.Change, k.name, err)
		}
	}
	return nil
}

func (c *Change) readValue(k key, raw json.RawMessage, present bool) error {
	if !present && k.typ != tOptStr && k.typ != tNotes {
		return errors.New("missing")
	}
	if p := c.rawField(k.name); p != nil {
		v, err := canonicalValue(raw, k.typ)
		if err != nil {
			return err
		}
		*p = v
		return nil
	}
	switch k.typ {
	case tStr, tStatus, tRelKind:
		p := c.strField(k.name)
		if err := strictString(raw, p); err != nil {
			return err
		}
		return checkToken(*p, k.typ)
	case tOptStr:
		if !present || string(bytes.TrimSpace(raw)) == "null" {
			return nil
		}
		var s string
		if err := strictString(raw, &s); err != nil {
			return fmt.Errorf("%s is not a string or null", bytes.TrimSpace(raw))
		}
		*c.optField(k.name) = &s
	case tUint:
		v, err := canonicalValue(raw, tUint)
		if err != nil {
			return err
		}
		c.Size, _ = strconv.ParseUint(string(v), 10, 64)
	case tStrList:
		l, err := strictList(raw)
		if err != nil {
			return err
		}
		*c.listField(k.name) = l
	case tTarget:
		t, err := readTarget(raw)
		if err != nil {
			return err
		}
		c.Target = t
	case tNotes:
		v, err := canonicalNotes(raw)
		if err != nil {
			return err
		}
		c.Notes = v
	case tChanges:
		t := bytes.TrimSpace(raw)
		var items []json.RawMessage
		if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil {
			return fmt.Errorf("%.40s is not an array of changes", t)
		}
		c.Changes = make([]Change, len(items))
		for i, it := range items {
			if err := c.Changes[i].read(it, true); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
	}
	return nil
}

func readTarget(raw json.RawMessage) (*Target, error) {
	kvs, err := object(raw)
	if err != nil {
		return nil, err
	}
	var t Target
	hasName := false
	for _, kv := range kvs {
		var dst *string
		switch kv.key {
		case "project":
			dst = &t.Project
		case "capability":
			dst = &t.Capability
		case "name":
			dst, hasName = &t.Name, true
		case "url":
			dst = &t.URL
		default:
			return nil, fmt.Errorf("unknown target key %q", kv.key)
		}
		if kv.key != "name" && string(bytes.TrimSpace(kv.raw)) == "null" {
			continue // an optional key read as absent, as the reference reads it
		}
		if err := strictString(kv.raw, dst); err != nil {
			return nil, fmt.Errorf("target key %q: %w", kv.key, err)
		}
	}
	if !hasName {
		return nil, errors.New(`target: missing key "name"`)
	}
	return &t, nil
}

// encode writes v as compact JSON without HTML escaping: the record writer decides escaping
// for the whole file, and publisher text stays readable in the state.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := encode(s) // a string always encodes
	buf.Write(b)
}

func writeList(buf *bytes.Buffer, l []string) {
	buf.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, s)
	}
	buf.WriteByte(']')
}

// Tokens returns every change token of the vocabulary, sorted.
func Tokens() []string {
	out := make([]string, 0, len(shapes))
	for t := range shapes {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
