package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
)

// Publisher text (site and project names, URLs, problems quoting documents, file names in a
// state) reaches terminals and CI logs through every command's output. Unescaped, a newline
// starts a new log line, where GitHub Actions reads "::command::" (leading white space trimmed)
// as a workflow command, and ESC or BEL sequences drive the reader's terminal. Every command
// prints publisher text only through these helpers (seeds/crawler.txt, "Hostile input":
// publisher text is escaped when rendered).

// Text escapes s for one line of terminal or log output, without quotes: C0 and C1 control
// characters (newline, tab and ESC included), DEL, Unicode format characters (bidirectional
// overrides and isolates, zero-width characters), line and paragraph separators and every
// other non-printable rune are written as Go escapes (\n, \x1b, \u202e); invalid UTF-8 bytes
// as \xNN; "##[" (a legacy workflow command anywhere in a line) as "##\x5b". Printable text,
// non-ASCII letters included, is unchanged, backslashes too (the escapes are for reading; use
// Quote where the exact text matters). The result is one line.
func Text(s string) string { return termEscape(s, false) }

// Quote is Text in double quotes, with '"' and '\' escaped too: the form for publisher
// text at the start of a line, or wherever its bounds must be visible (strconv.Quote's
// escapes, keeping printable non-ASCII as is).
func Quote(s string) string { return termEscape(s, true) }

// Line makes one finished output line safe: its content is Text-escaped, and the
// workflow-command rule (Inert) applied, so a line that would begin, after leading white space,
// with "::" has that first ':' written as \x3a. Use it on every line a command prints that holds
// publisher text, whatever its prefix.
func Line(line string) string { return Inert(Text(line)) }

func termEscape(s string, quote bool) string {
	clean := !quote
	for i := 0; clean && i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !printable(r) || strings.HasPrefix(s[i:], "##[") {
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
		case !printable(r):
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

// printable is strconv.IsPrint (letters, marks, numbers, punctuation, symbols, ASCII space),
// which excludes every control, format (Cf) and unassigned rune and every separator but ' '.
func printable(r rune) bool { return strconv.IsPrint(r) }

// JSON makes encoded JSON safe to print and to serve: every C1 control character
// (U+0080..U+009F, which 8-bit terminals read as escape sequences: U+009B is CSI; U+0085 ends a
// log line), every explicit bidirectional formatting character (U+202A..U+202E embeddings and
// overrides, U+2066..U+2069 isolates, which reorder the text around them on screen), the line
// and paragraph separators U+2028 and U+2029, and the '[' of "##[" (a workflow command anywhere
// in a log line) are written as \uXXXX escapes. encoding/json leaves the first two kinds raw;
// they, and "##[", can stand only inside JSON strings, where the escape means the same
// character, so the document decodes to the same value. No line of the result is a workflow
// command (JSON has no raw CR, and no line of it starts with ':'). b is returned as it is when
// it holds none of them; otherwise a new slice.
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

// jsonEscape reports, for the start of b, how many bytes JSON replaces by an escape and the
// rune that escape writes: a rune JSON escapes, or "##[" whose '[' is escaped; 0 for anything
// else.
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
