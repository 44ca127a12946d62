// Package textdir is the one home of the explicit bidirectional formatting characters, which
// the build neutralises in publisher text, the link checker ignores and JSON escapes.
package textdir

import "strings"

// IsControl reports whether r is an explicit bidi embedding, override or isolate character or
// terminator.
func IsControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// Kind classifies an explicit bidi formatting character by what the build does with it.
type Kind int

// The kinds At reports: None for anything else.
const (
	None Kind = iota
	// Drop: U+202A..U+202E, U+2066 and U+2067.
	Drop
	// FSI: U+2068 FIRST STRONG ISOLATE.
	FSI
	// PDI: U+2069 POP DIRECTIONAL ISOLATE.
	PDI
)

// Lead is the first byte of every control's UTF-8 encoding.
const Lead = 0xE2

// At classifies the UTF-8 sequence at the start of b (each control is 3 bytes long).
func At(b []byte) Kind {
	if len(b) < 3 || b[0] != Lead {
		return None
	}
	switch {
	case b[1] == 0x80 && b[2] >= 0xAA && b[2] <= 0xAE, b[1] == 0x81 && (b[2] == 0xA6 || b[2] == 0xA7):
		return Drop
	case b[1] == 0x81 && b[2] == 0xA8:
		return FSI
	case b[1] == 0x81 && b[2] == 0xA9:
		return PDI
	}
	return None
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
