// Package schemas holds this index's JSON Schemas, embedded in the binary: the DreamWeave
// schema_version "2" site index and project manifest schemas (written from SPEC.md section 1;
// README.md lists every deliberate difference from the published snapshot) and the network
// catalog schema. Every *.json file in this directory is embedded.
package schemas

import "embed"

// FS holds every *.json schema in this directory, by file name (for example
// "dreamweave-project-2.schema.json").
//
//go:embed *.json
var FS embed.FS

// Names of the protocol schemas in FS.
const (
	Index   = "dreamweave-index-2.schema.json"
	Project = "dreamweave-project-2.schema.json"
)
