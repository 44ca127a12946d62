// Package tags classifies recorded events at build time (SPEC section 4, "Tags"): the crawl
// stores only typed differences, so the classification applies to all history.
package tags

import (
	"encoding/json"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// The tags, in the order Tags returns them (SPEC section 4's list), computed from the change
// tokens (catalog/diff), never stored.
const (
	// Release: a release was added, or a channel's head moved or a channel appeared.
	Release = "release"
	// Breaking: an added release's notes.breaking is not empty; never inferred otherwise.
	Breaking = "breaking"
	// Migration: an added release's notes.migration is not empty.
	Migration = "migration"
	// Dependencies: a relationship or the release's required content changed, anywhere.
	Dependencies = "dependencies"
	// Runtime: a runtime, Lua API or critical extensions constraint changed, anywhere.
	Runtime = "runtime"
	// Status: a release's status or notice (release-status), or the project's status changed.
	Status = "status"
	// Artifacts: an artifact added or removed, its file facts, sources or signatures changed,
	// or a platform added or removed, anywhere; or its digest or size changed in an amendment.
	// A moved head's artifacts differing in size is what two builds do.
	Artifacts = "artifacts"
	// Anomaly: an unusual fact (SPEC section 4, diff.Unusual), recomputed from the changes.
	Anomaly = "anomaly"
	// Capabilities: a provided capability added or removed, or a capability target changed.
	Capabilities = "capabilities"
	// Components: a component added or removed, its selection or OpenMW data changed, or a
	// group's selection rule changed.
	Components = "components"
	// Metadata: a project field, tags, maintainers, credits, a link, Nexus Mods or media.
	Metadata = "metadata"
	// Development: a changed event whose every top-level change concerns development.
	Development = "development"
	// Observed: the claim's first observation (event kind observed).
	Observed = "observed"
	// Listing: the claim left or came back to the catalog (withdrawn, restored).
	Listing = "listing"
	// Moved: the claim moved here from another site (moved_from is set).
	Moved = "moved"
)

var order = []string{Release, Breaking, Migration, Dependencies, Runtime, Status, Artifacts, Anomaly,
	Capabilities, Components, Metadata, Development, Observed, Listing, Moved}

// Tags returns e's tags in the fixed order above, never nil; a function of e alone.
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
		if diff.Unusual(c, e.Changes) {
			set[Anomaly] = true
		}
		switch c.Change {
		case diff.ChangeChannelHead:
			if !isNull(c.After) {
				set[Release] = true
			}
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
		case diff.ChangeReleaseStatus:
			set[Status] = true
		case diff.ChangeProjectField:
			set[Metadata] = true
			if c.Field == "status" {
				set[Status] = true
			}
		case diff.ChangeTags, diff.ChangeMaintainers, diff.ChangeCredits, diff.ChangeLink, diff.ChangeNexusMods, diff.ChangeMedia:
			set[Metadata] = true
		}
		amended := c.Change == diff.ChangeReleaseAmended
		for _, n := range c.Changes {
			walk(set, n, amended)
		}
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

// walk tags a release-level change; amended says it sits inside a release-amended.
func walk(set map[string]bool, c diff.Change, amended bool) {
	switch c.Change {
	case diff.ChangeRelationshipAdded, diff.ChangeRelationshipRemoved, diff.ChangeRelationshipConstraint,
		diff.ChangeRelationshipKind:
		set[Dependencies] = true
		if c.Target != nil && c.Target.Capability != "" {
			set[Capabilities] = true
		}
	case diff.ChangeRequiredContent:
		set[Dependencies] = true
	case diff.ChangeRuntime, diff.ChangeLuaAPI, diff.ChangeCriticalExtensions:
		set[Runtime] = true
	case diff.ChangeCapabilityAdded, diff.ChangeCapabilityRemoved:
		set[Capabilities] = true
	case diff.ChangeComponentAdded, diff.ChangeComponentRemoved, diff.ChangeComponentSelection, diff.ChangeGroupSelection:
		set[Components] = true
	case diff.ChangeArtifactAdded, diff.ChangeArtifactRemoved, diff.ChangeArtifactFile, diff.ChangeArtifactSourceAdded,
		diff.ChangeArtifactSourceRemoved, diff.ChangeSignatureAdded, diff.ChangeSignatureRemoved, diff.ChangePlatforms:
		set[Artifacts] = true
	case diff.ChangeArtifactDigest, diff.ChangeArtifactSize:
		set[Artifacts] = set[Artifacts] || amended
	}
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

// developmentOnly reports whether changes is not empty and every change concerns development;
// a change naming no channel takes that of another about the same version.
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
	case c.Change == diff.ChangeChannelHead:
		return c.Channel
	case c.Change == diff.ChangeReleaseChannel:
		var b, a string
		json.Unmarshal(c.Before, &b)
		json.Unmarshal(c.After, &a)
		if b != a {
			return "" // moving a release between channels concerns both
		}
		return a
	case strings.HasPrefix(c.Change, "release-"):
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
