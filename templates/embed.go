// Package templates holds the site's html/template files, embedded. _layout.html defines
// "layout" (the page frame), _partials.html the shared pieces, _catalog.html a list entry; every
// other file defines "main" for one kind of page (project-one.html, frameless, redefines
// "layout"). Publisher text arrives as plain strings inside <bdi> or a data-pub element; only
// sanitized CommonMark arrives as HTML. Embedded fields are reached by full path
// ($r.Release.Version): a promoted field's lookup allocates, millions of times per build.
package templates

import "embed"

// FS holds every *.html template.
//
//go:embed *.html
var FS embed.FS
