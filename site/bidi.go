package site

import (
	"strings"

	"golang.org/x/text/unicode/bidi"
)

// Publisher text in plain-text contexts (the <title> element, Atom entry titles and
// summaries, SVG <title> and <text>, alt attributes, meta descriptions) cannot be put in a
// <bdi>, so one rule applies there, in plainPub: every explicit bidi formatting character
// (U+202A..U+202E embeddings and overrides, U+2066..U+2069 isolates) is removed, because an
// unterminated one (an RLO in a site name) would reverse the index's own words after it; and
// text that still holds a right-to-left character is wrapped in U+2068 FSI .. U+2069 PDI, so
// its direction stays inside it. Text with no right-to-left character is returned without the
// wrapper: left-to-right text cannot reorder what follows it on these left-to-right pages.

const (
	fsi = "\u2068" // FIRST STRONG ISOLATE
	pdi = "\u2069" // POP DIRECTIONAL ISOLATE
)

// isBidiControl reports whether r is an explicit bidi embedding, override or isolate
// character (or their terminators).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// stripBidiControls removes every explicit bidi formatting character from s.
func stripBidiControls(s string) string {
	if !strings.ContainsFunc(s, isBidiControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isBidiControl(r) {
			return -1
		}
		return r
	}, s)
}

// hasRTL reports whether s holds a strong right-to-left character (bidi class R or AL) or an
// Arabic number, whose direction could reach the text after it.
func hasRTL(s string) bool {
	for _, r := range s {
		p, _ := bidi.LookupRune(r)
		switch p.Class() {
		case bidi.R, bidi.AL, bidi.AN:
			return true
		}
	}
	return false
}

// plainPub is publisher text s made fit for a plain-text context (see the rule above).
func plainPub(s string) string {
	s = stripBidiControls(s)
	if hasRTL(s) {
		return fsi + s + pdi
	}
	return s
}
