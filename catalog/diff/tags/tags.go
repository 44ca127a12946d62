// Package tags classifies recorded events at build time (SPEC section 4, "Tags, computed at
// build time"): the crawl stores only typed differences, so a better classification here applies
// to all history, including events the reference index recorded.
package tags

import (
	"encoding/json"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// The tags, in the order Tags returns them (SPEC section 4's list).
const (
	// Release: a release was added, or a channel's head moved or a channel appeared (a
	// top-level release-added, channel-head or channel-added).
	Release = "release"
	// Breaking: an added release's notes.breaking is not empty. Never inferred from anything
	// else (a major version, a removed relationship, words in other notes).
	Breaking = "breaking"
	// Migration: an added release's notes.migration is not empty.
	Migration = "migration"
	// Dependencies: a relationship was added, removed or changed, or required content changed,
	// anywhere (in a moved head or an amendment).
	Dependencies = "dependencies"
	// Runtime: a runtime constraint, the OpenMW Lua API constraint or the critical extensions
	// (what a client must understand to install the release) changed, anywhere.
	Runtime = "runtime"
	// Status: a release was yanked, deprecated or restored (or its notice edited), or the
	// project's status changed.
	Status = "status"
	// Artifacts: an artifact was added or removed or changed format, platform, sources or
	// signatures, or a desktop platform was added or removed, anywhere; or any artifact fact
	// changed inside an amendment (same version). A moved head's artifacts differing in size,
	// media type or layout is what two builds do and is not tagged.
	Artifacts = "artifacts"
	// Anomaly: an unusual fact (SPEC section 4), recomputed from the facts so that events
	// recorded without the flag are classified too: a release removed outside development, an
	// artifact digest changed inside an amendment outside development, the versioning scheme
	// changed; or any change flagged unusual.
	Anomaly = "anomaly"
	// Capabilities: a provided capability was added or removed, or a relationship whose target
	// is a capability changed.
	Capabilities = "capabilities"
	// Components: a component or group (selection rule) was added, removed or changed, or a
	// component's OpenMW install data (extension values under /openmw/components/).
	Components = "components"
	// Metadata: a project field or a document field (generator, ...) changed.
	Metadata = "metadata"
	// Development: a changed event whose every top-level change concerns the development
	// channel (its head, its releases).
	Development = "development"
	// Observed: the claim's first observation (event kind observed).
	Observed = "observed"
	// Listing: the claim left or came back to the catalog (withdrawn, restored): its site's
	// index stopped or resumed listing the project, or this index stopped or resumed reading
	// the site; the event does not say which.
	Listing = "listing"
	// Moved: the claim moved here from another site (moved_from is set).
	Moved = "moved"
)

var order = []string{Release, Breaking, Migration, Dependencies, Runtime, Status, Artifacts, Anomaly,
	Capabilities, Components, Metadata, Development, Observed, Listing, Moved}

// Tags returns e's tags in the fixed order above, never nil. It reads only e: the tags are a
// function of the recorded event.
func Tags(e store.Event) []string {
	set := map[string]bool{}
	switch e.Kind {
	case store.EventObserved:
		set[Observed] = true
	case store.EventWithdrawn, store.EventRestored:
		set[Listing] = true
	}
	if e.MovedFrom != nil {
		set[Moved] = true
	}
	for _, c := range e.Changes {
		switch c.Change {
		case diff.ChangeChannelHead, diff.ChangeChannelAdded:
			set[Release] = true
		case diff.ChangeReleaseAdded:
			set[Release] = true
			var n struct {
				Breaking  []string `json:"breaking"`
				Migration string   `json:"migration"`
			}
			if len(c.Notes) > 0 && json.Unmarshal(c.Notes, &n) == nil {
				set[Breaking] = set[Breaking] || len(n.Breaking) > 0
				set[Migration] = set[Migration] || n.Migration != ""
			}
		case diff.ChangeReleaseYanked, diff.ChangeReleaseDeprecated, diff.ChangeReleaseRestored,
			diff.ChangeReleaseStatus, diff.ChangeReleaseNotice:
			set[Status] = true
		case diff.ChangeReleaseRemoved:
			if c.Channel != diff.Development {
				set[Anomaly] = true
			}
		case diff.ChangeProjectField:
			set[Metadata] = true
			if c.Field == "status" {
				set[Status] = true
			}
			if c.Field == "versioning" && schemeChanged(c) {
				set[Anomaly] = true
			}
		case diff.ChangeDocumentField:
			set[Metadata] = true
		}
		amended := c.Change == diff.ChangeReleaseAmended
		walk(set, c, amended, amended && c.Channel != diff.Development)
	}
	if e.Kind == store.EventChanged && developmentOnly(e.Changes) {
		set[Development] = true
	}
	out := []string{}
	for _, t := range order {
		if set[t] {
			out = append(out, t)
		}
	}
	return out
}

// walk tags c and its nested changes; amended says they sit inside a release-amended, stable
// that the amended release is outside development.
func walk(set map[string]bool, c diff.Change, amended, stable bool) {
	if c.Unusual {
		set[Anomaly] = true
	}
	switch c.Change {
	case diff.ChangeRelationshipAdded, diff.ChangeRelationshipRemoved, diff.ChangeRelationshipConstraint,
		diff.ChangeRelationshipKind, diff.ChangeRelationshipField:
		set[Dependencies] = true
		var t struct {
			Capability string `json:"capability"`
		}
		if json.Unmarshal(c.Target, &t) == nil && t.Capability != "" {
			set[Capabilities] = true
		}
	case diff.ChangeRequiresContent:
		set[Dependencies] = true
	case diff.ChangeRuntime, diff.ChangeLuaAPI, diff.ChangeCriticalExtensions:
		set[Runtime] = true
	case diff.ChangeProvidesAdded, diff.ChangeProvidesRemoved:
		set[Capabilities] = true
	case diff.ChangeComponentAdded, diff.ChangeComponentRemoved, diff.ChangeComponentField,
		diff.ChangeGroupAdded, diff.ChangeGroupRemoved, diff.ChangeGroupField:
		set[Components] = true
	case diff.ChangeExtensionField:
		if strings.HasPrefix(c.Field, "/openmw/components/") {
			set[Components] = true
		}
	case diff.ChangeArtifactAdded, diff.ChangeArtifactRemoved, diff.ChangeArtifactFormat, diff.ChangeArtifactPlatform,
		diff.ChangeArtifactSources, diff.ChangeArtifactSignatures, diff.ChangePlatformAdded, diff.ChangePlatformRemoved:
		set[Artifacts] = true
	case diff.ChangeArtifactDigest:
		set[Artifacts] = set[Artifacts] || amended
		if amended && stable {
			set[Anomaly] = true
		}
	case diff.ChangeArtifactSize, diff.ChangeArtifactFilename, diff.ChangeArtifactMediaType, diff.ChangeArtifactLayout:
		set[Artifacts] = set[Artifacts] || amended
	}
	for _, n := range c.Changes {
		walk(set, n, amended, stable)
	}
}

// schemeChanged reports whether a versioning project-field changes the scheme ("" and
// "numeric" are the same scheme).
func schemeChanged(c diff.Change) bool {
	var b, a string
	json.Unmarshal(c.Before, &b)
	json.Unmarshal(c.After, &a)
	return version.SchemeOf(b) != version.SchemeOf(a)
}

// developmentOnly reports whether changes is not empty and every change concerns the
// development channel. A release-date carries no channel (the reference shape): its channel is
// taken from another change about the same version in the event, if any.
func developmentOnly(changes []diff.Change) bool {
	if len(changes) == 0 {
		return false
	}
	for _, c := range changes {
		if channelOf(c, changes) != diff.Development {
			return false
		}
	}
	return true
}

func channelOf(c diff.Change, all []diff.Change) string {
	switch {
	case strings.HasPrefix(c.Change, "channel-"):
		return c.Channel
	case strings.HasPrefix(c.Change, "release-"):
		if c.Change == diff.ChangeReleaseChannel {
			// moving a release between channels concerns both
			var b string
			json.Unmarshal(c.Before, &b)
			if b != c.Channel {
				return ""
			}
		}
		if c.Channel != "" {
			return c.Channel
		}
		for _, o := range all {
			if o.Version == c.Version && o.Channel != "" && strings.HasPrefix(o.Change, "release-") {
				return o.Channel
			}
		}
	}
	return ""
}
