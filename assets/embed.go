// Package assets holds the site's stylesheet, its small script and its icon, embedded in the
// binary so a build needs nothing but the state (SPEC section 5). No external fonts, scripts
// or trackers: every file here is served from the built site itself.
package assets

import "embed"

// FS holds site.css, site.js and find.js (the project list's page and its search engine),
// icon.svg, version.js (the versions every script compares), and the setup check's
// openmwcfg.js, setupcheck.js (its engine) and setup.js (its page), and the planner's plan.js
// (its engine) and planpage.js (its page), and shards.js, which loads the data parts of both
// pages.
//
//go:embed site.css site.js find.js icon.svg version.js openmwcfg.js shards.js setupcheck.js setup.js plan.js planpage.js
var FS embed.FS
