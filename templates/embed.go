// Package templates holds the site's html/template files, embedded in the binary.
//
// _layout.html defines "layout" (the page frame: landmarks, navigation, footer) and
// _partials.html the pieces pages share, _catalog.html the project lists' entry; every other
// file defines "main" for one kind of page, but project-one.html, a page without the frame,
// which redefines "layout".
// Publisher text is always passed to the templates as plain strings (html/template escapes
// it) and wrapped in <bdi> or an element carrying data-pub, so check-site can tell the
// publisher's words from the index's own; only sanitized CommonMark arrives as HTML.
//
// A field of an embedded struct is reached by its full path ($r.Release.Version, not
// $r.Version): text/template finds a promoted field through reflect's FieldByNameFunc, which
// allocates on every lookup, and the per-claim pages make millions of them.
package templates

import "embed"

// FS holds every *.html template.
//
//go:embed *.html
var FS embed.FS
