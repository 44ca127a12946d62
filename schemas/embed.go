// Package schemas embeds this index's JSON Schemas: the DreamWeave site index and manifest (from
// SPEC section 1; README.md lists the differences from the published snapshot), the network
// catalog, search.json, the search index parts. Compile is the one place any schema is compiled.
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

// Catalog names the network catalog v1 schema in FS (catalog.json and events.json), which the
// build publishes.
const Catalog = "dreamweave-network-catalog-1.schema.json"

// Search names the schema of the build's network-data/search.json in FS: the reference
// index's dreamweave-network-search format, version 1, which it publishes no schema for.
const Search = "dreamweave-network-search-1.schema.json"

// The schemas of the parts of the build's search index (network-data/find/, find.Dir in site/find):
// the project list's and the plan page's own files, which only the site's scripts read.
const (
	FindTerms   = "ashyams-find-terms-1.schema.json"
	FindIDs     = "ashyams-find-ids-1.schema.json"
	FindFilters = "ashyams-find-filters-1.schema.json"
	FindRows    = "ashyams-find-rows-1.schema.json"
)

// The installer's files: a plan saved from the plan page (the file `ashyams install PLAN`
// reads) and the lock file install writes into a mods folder (crawl/install).
const (
	PlanFile = "ashyams-plan-1.schema.json"
	LockFile = "ashyams-lock-1.schema.json"
)
