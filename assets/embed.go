// Package assets holds the site's stylesheet, scripts and icon, embedded so a build needs
// nothing but the state (SPEC section 5); nothing is loaded from elsewhere.
package assets

import "embed"

// FS holds the stylesheet, icon and scripts: site.js; find.js (project list); version.js;
// the setup check's openmwcfg.js, setupcheck.js and setup.js; the planner's plan.js and
// planpage.js; shards.js, loading both pages' data parts.
//
//go:embed site.css site.js find.js icon.svg version.js openmwcfg.js shards.js setupcheck.js setup.js plan.js planpage.js
var FS embed.FS
