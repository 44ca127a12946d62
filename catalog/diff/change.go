// Package diff compares two manifests of one claim and returns typed, structural differences
// (SPEC section 4, "Updates"). Nothing is interpreted: only the publisher's notes.breaking is
// ever called breaking.
package diff

import "encoding/json"

// Change is one typed difference, tagged by Change (e.g. "project-field", "channel-head",
// "release-added", "artifact-digest"). Which other fields are set depends on the kind; nested
// Changes hold the differences inside a moved channel head or an amended release. Before and
// After hold raw JSON values (a string, a number, an object, or null).
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
}
