// Package textdir names the explicit bidirectional formatting characters: the embeddings,
// overrides and isolates the build neutralises in publisher text (site, bidi.go) and the link
// checker ignores when it compares a page's words with the publisher's (site/linkcheck).
package textdir

import "strings"

// IsControl reports whether r is an explicit bidi embedding, override or isolate character (or
// their terminators): U+202A..U+202E and U+2066..U+2069.
func IsControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// Strip removes every explicit bidi formatting character from s.
func Strip(s string) string {
	if !strings.ContainsFunc(s, IsControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if IsControl(r) {
			return -1
		}
		return r
	}, s)
}
