package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The workflow-command rule. A GitHub Actions runner reads a line as a workflow command when,
// trimmed, it starts with "::" or holds "##[" anywhere; it ends lines at LF, CR, VT, FF, NEL,
// LS and PS. So text reaching a log keeps its LFs and writes the other breaks as escapes, a
// leading "::"'s first ':' as \x3a and the '[' of "##[" as \x5b.

// Inert returns s with the workflow-command rule applied, every other character kept.
func Inert(s string) string {
	var r commandRule
	out, _ := r.apply(nil, []byte(s), true)
	if string(out) == s {
		return s
	}
	return string(out)
}

// commandRule applies the workflow-command rule to a stream written in pieces, carrying what a
// piece boundary may split. The zero value is at the start of a line.
type commandRule struct {
	notLead bool // a character other than white space has been seen on this line
	colon   bool // a ':' after the line's leading white space is held, to see if ':' follows
	hashes  int  // the number of '#' just written, up to 2
}

// apply appends src to dst under the rule. When final is false, an incomplete UTF-8 sequence at
// the end of src is returned as rest, to be given again with the next piece.
func (r *commandRule) apply(dst, src []byte, final bool) (out, rest []byte) {
	for i := 0; i < len(src); {
		c, n := utf8.DecodeRune(src[i:])
		if c == utf8.RuneError && n == 1 && !final && !utf8.FullRune(src[i:]) {
			return r.end(dst, false), src[i:]
		}
		raw := src[i : i+n]
		i += n
		if r.colon {
			r.colon, r.notLead = false, true
			if c == ':' {
				dst = append(dst, `\x3a:`...)
				continue
			}
			dst = append(dst, ':')
		}
		switch esc := lineBreakEscape(c); {
		case c == '\n':
			dst = append(dst, '\n')
			*r = commandRule{}
			continue
		case esc != "":
			dst = append(dst, esc...)
			r.notLead, r.hashes = true, 0
			continue
		case !r.notLead && c == ':':
			r.colon = true
			continue
		case !r.notLead && unicode.IsSpace(c):
			dst = append(dst, raw...)
			continue
		case c == '[' && r.hashes >= 2:
			dst = append(dst, `\x5b`...)
			r.hashes = 0
		case c == '#':
			dst = append(dst, '#')
			r.hashes = min(r.hashes+1, 2)
		default:
			dst = append(dst, raw...)
			r.hashes = 0
		}
		r.notLead = true
	}
	return r.end(dst, final), nil
}

func (r *commandRule) end(dst []byte, final bool) []byte {
	if final && r.colon {
		dst = append(dst, ':')
		r.colon, r.notLead = false, true
	}
	return dst
}

// lineBreakEscape is the escape of a rune a runner ends a line at, other than LF; else "".
func lineBreakEscape(c rune) string {
	switch c {
	case '\r':
		return `\r`
	case '\v':
		return `\v`
	case '\f':
		return `\f`
	case '\u0085':
		return `\u0085`
	case '\u2028':
		return `\u2028`
	case '\u2029':
		return `\u2029`
	}
	return ""
}

// WorkflowCommand returns the first line of s a runner would read as a workflow command, or "".
func WorkflowCommand(s string) string {
	start := 0
	for i := 0; i <= len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if i < len(s) && c != '\n' && lineBreakEscape(c) == "" {
			i += n
			continue
		}
		line := s[start:i]
		if t := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(t, "::") || strings.Contains(line, "##[") {
			return line
		}
		if i == len(s) {
			break
		}
		i += n
		start = i
	}
	return ""
}
