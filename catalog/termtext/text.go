package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
)

// Text escapes s for one line of output, without quotes: every non-printable rune as Go escapes
// it (\n, \x1b, \u202e), invalid UTF-8 as \xNN, "##[" as "##\x5b"; printable text and
// backslashes are kept.
func Text(s string) string { return termEscape(s, false) }

// Quote is Text in double quotes, '"' and '\' escaped too: for publisher text whose bounds
// must be visible.
func Quote(s string) string { return termEscape(s, true) }

// Line makes one finished output line safe: Text, then the workflow-command rule (Inert). Use
// it on every printed line holding publisher text.
func Line(line string) string { return Inert(Text(line)) }

func termEscape(s string, quote bool) string {
	clean := !quote
	for i := 0; clean && i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !strconv.IsPrint(r) || strings.HasPrefix(s[i:], "##[") {
			clean = false
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	if quote {
		b.WriteByte('"')
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case quote && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '[' && i >= 2 && s[i-2:i] == "##":
			b.WriteString(`\x5b`)
		case !strconv.IsPrint(r): // a control, format, unassigned rune or separator but ' '
			q := strconv.QuoteRuneToASCII(r) // '\n', '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	if quote {
		b.WriteByte('"')
	}
	return b.String()
}

// JSON makes encoded JSON safe to print and serve: C1 controls, bidi formatting characters,
// U+2028, U+2029 and the '[' of "##[" become \uXXXX escapes, which decode to the same value. b
// is returned as is when it holds none.
func JSON(b []byte) []byte {
	first := -1
	for i := 0; i+1 < len(b); i++ {
		if n, _ := jsonEscape(b[i:]); n > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:first]...)
	for i := first; i < len(b); {
		n, r := jsonEscape(b[i:])
		if n == 0 {
			out = append(out, b[i])
			i++
			continue
		}
		if r == '[' {
			out = append(out, "##"...) // "##[": the '[' is escaped
		}
		out = append(out, `\u`...)
		out = append(out, strconv.FormatUint(uint64(r)|0x10000, 16)[1:]...)
		i += n
	}
	return out
}

// jsonEscape reports how many bytes at the start of b JSON escapes, and the rune written.
func jsonEscape(b []byte) (int, rune) {
	switch {
	case len(b) >= 2 && b[0] == 0xC2 && b[1] >= 0x80 && b[1] <= 0x9F:
		return 2, rune(b[1]) // U+0080..U+009F
	case len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9):
		return 3, 0x2000 + rune(b[2]-0x80) // U+2028, U+2029
	case textdir.At(b) != textdir.None:
		r, _ := utf8.DecodeRune(b)
		return 3, r
	case len(b) >= 3 && b[0] == '#' && b[1] == '#' && b[2] == '[':
		return 3, '['
	}
	return 0, 0
}
