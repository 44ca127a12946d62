package store

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Publisher text (site and project names, URLs, problems quoting documents, file names in a
// state) reaches terminals and CI logs through every command's output. Unescaped, a newline
// starts a new log line, where GitHub Actions reads "::command::" (leading white space trimmed)
// as a workflow command, and ESC or BEL sequences drive the reader's terminal. Every command
// prints publisher text only through these helpers (seeds/crawler.txt, "Hostile input":
// publisher text is escaped when rendered).

// TermText escapes s for one line of terminal or log output, without quotes: C0 and C1 control
// characters (newline, tab and ESC included), DEL, Unicode format characters (bidirectional
// overrides and isolates, zero-width characters), line and paragraph separators and every
// other non-printable rune are written as Go escapes (\n, \x1b, \u202e); invalid UTF-8 bytes
// as \xNN; "##[" (a legacy workflow command anywhere in a line) as "##\x5b". Printable text,
// non-ASCII letters included, is unchanged, backslashes too (the escapes are for reading; use
// TermQuote where the exact text matters). The result is one line.
func TermText(s string) string { return termEscape(s, false) }

// TermQuote is TermText in double quotes, with '"' and '\' escaped too: the form for publisher
// text at the start of a line, or wherever its bounds must be visible (strconv.Quote's
// escapes, keeping printable non-ASCII as is).
func TermQuote(s string) string { return termEscape(s, true) }

// TermLine makes one finished output line safe: its content is TermText-escaped, and if it
// would begin, after leading white space, with "::" (a GitHub Actions workflow command), that
// first ':' is written as \x3a. Use it on every line a command prints that holds publisher
// text, whatever its prefix.
func TermLine(line string) string {
	s := TermText(line)
	trimmed := strings.TrimLeft(s, " ")
	if strings.HasPrefix(trimmed, "::") {
		return s[:len(s)-len(trimmed)] + `\x3a` + trimmed[1:]
	}
	return s
}

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
