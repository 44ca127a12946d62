package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDocumentBytes is the crawler's document limit (crawler.txt "Resource limits"): a document
// of more bytes is refused by crawler policy, never called invalid. Readers read one byte more
// to tell.
const MaxDocumentBytes = 16 << 20

// TooLargeReason says why a document over MaxDocumentBytes is refused and TooLargeMessage is
// the whole refusal, in every reader's words; neither says "invalid".
const (
	TooLargeReason  = "more than the 16 MiB document limit"
	TooLargeMessage = "refused by crawler policy: " + TooLargeReason
)

// MaxDepth is the deepest nesting accepted; a real manifest nests about 8 deep.
const MaxDepth = 64

// maxNumberLen bounds a number literal's length, so exact arithmetic (big.Rat) stays cheap.
const maxNumberLen = 64

// parseStrict reads b as one JSON value (RFC 8259) with the strict policy: at most
// MaxDocumentBytes, valid UTF-8 without lone surrogate escapes, no duplicate keys, nesting at
// most MaxDepth, every number within float64 range and maxNumberLen. It returns the value as
// encoding/json decodes it with UseNumber, or the findings. Hand-written: json.Decoder.Token
// costs several times more.
func parseStrict(b []byte) (any, []Finding) {
	if len(b) > MaxDocumentBytes {
		return nil, []Finding{{Pointer: "", Rule: RuleCrawlerPolicy,
			Message: fmt.Sprintf("%s (the document is %d bytes)", TooLargeMessage, len(b))}}
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return nil, []Finding{{Rule: RuleSyntax, Message: "malformed JSON at line 1, column 1: the document starts with a UTF-8 byte order mark, which JSON text must not have (RFC 8259 section 8.1)"}}
	}
	if !utf8.Valid(b) {
		off := firstInvalidUTF8(b)
		line, col := lineCol(b, off)
		return nil, []Finding{{Rule: RuleUTF8, Message: fmt.Sprintf("invalid UTF-8 at line %d, column %d (byte offset %d, byte 0x%02x): a DreamWeave document must be UTF-8", line, col, off, b[off])}}
	}
	p := &scanner{b: b}
	p.ws()
	if p.i == len(b) {
		return nil, []Finding{{Rule: RuleSyntax, Message: "malformed JSON: the document is empty"}}
	}
	v, err := p.value("", 0)
	if err == nil {
		p.ws()
		if p.i < len(b) {
			err = p.errorf("data after the end of the top-level value")
		}
	}
	if err != nil {
		var st *stopError
		if errors.As(err, &st) {
			return nil, append(p.findings, st.f)
		}
		return nil, []Finding{{Rule: RuleSyntax, Message: err.Error()}}
	}
	if len(p.findings) > 0 {
		return nil, p.findings
	}
	return v, nil
}

// stopError ends the scan with a finding other than a syntax error (depth, surrogate).
type stopError struct{ f Finding }

func (e *stopError) Error() string { return e.f.Message }

type scanner struct {
	b        []byte
	i        int
	findings []Finding // duplicate keys and number ranges: the scan goes on to report them all
	// want are the pointers Locate asks for; at gets each one's offset.
	want map[string]bool
	at   map[string]int
}

// mark records offset off for ptr when Locate wants it and has no place for it yet.
func (p *scanner) mark(ptr string, off int) {
	if p.want[ptr] {
		if _, ok := p.at[ptr]; !ok {
			p.at[ptr] = off
		}
	}
}

func (p *scanner) errorf(format string, args ...any) error {
	line, col := lineCol(p.b, p.i)
	return fmt.Errorf("malformed JSON at line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))
}

func (p *scanner) unexpected(want string) error {
	if p.i >= len(p.b) {
		return p.errorf("unexpected end of input, expected %s", want)
	}
	r, _ := utf8.DecodeRune(p.b[p.i:])
	return p.errorf("unexpected character %q, expected %s", r, want)
}

func (p *scanner) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *scanner) value(ptr string, d int) (any, error) {
	if p.want != nil {
		p.mark(ptr, p.i)
	}
	if p.i >= len(p.b) {
		return nil, p.unexpected("a value")
	}
	switch c := p.b[p.i]; {
	case c == '{' || c == '[':
		if d+1 > MaxDepth {
			line, col := lineCol(p.b, p.i)
			return nil, &stopError{Finding{Pointer: ptr, Rule: RuleDepth,
				Message: fmt.Sprintf("nesting deeper than %d levels at line %d, column %d", MaxDepth, line, col)}}
		}
		p.i++
		if c == '{' {
			return p.object(ptr, d+1)
		}
		return p.array(ptr, d+1)
	case c == '"':
		return p.str(ptr)
	case c == '-' || c >= '0' && c <= '9':
		return p.number(ptr)
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.unexpected("a value")
}

func (p *scanner) literal(word string) error {
	if !bytes.HasPrefix(p.b[p.i:], []byte(word)) {
		return p.unexpected("a value")
	}
	p.i += len(word)
	return nil
}

func (p *scanner) object(ptr string, d int) (any, error) {
	m := map[string]any{}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.unexpected("a string key")
		}
		keyAt := p.i
		k, err := p.str(ptr)
		if err != nil {
			return nil, err
		}
		kp := ptr + "/" + escapeToken(k)
		if p.want != nil {
			p.mark(kp, keyAt)
		}
		_, dup := m[k]
		if dup {
			line, col := lineCol(p.b, keyAt)
			p.findings = append(p.findings, found(kp, RuleDuplicateKey,
				"duplicate key %q in the same object (again at line %d, column %d): which value counts is ambiguous", pub(k), line, col))
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.unexpected("':' after an object key")
		}
		p.i++
		p.ws()
		v, err := p.value(kp, d)
		if err != nil {
			return nil, err
		}
		if !dup {
			m[k] = v
		}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return m, nil
		}
		return nil, p.unexpected("',' or '}' after an object member")
	}
}

func (p *scanner) array(ptr string, d int) (any, error) {
	a := []any{}
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		p.ws()
		v, err := p.value(ptr+"/"+strconv.Itoa(len(a)), d)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return a, nil
		}
		return nil, p.unexpected("',' or ']' after an array item")
	}
}

// str reads a string starting at the opening quote; ptr is the value's pointer.
func (p *scanner) str(ptr string) (string, error) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := string(p.b[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errorf("control character U+%04X in a string (it must be escaped)", c)
		}
		p.i++
	}
	var sb strings.Builder
	sb.Write(p.b[start:p.i])
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return sb.String(), nil
		case c < 0x20:
			return "", p.errorf("control character U+%04X in a string (it must be escaped)", c)
		case c != '\\':
			sb.WriteByte(c)
			p.i++
		default:
			if err := p.escape(&sb, ptr); err != nil {
				return "", err
			}
		}
	}
	return "", p.errorf("unexpected end of input in a string")
}

func (p *scanner) escape(sb *strings.Builder, ptr string) error {
	if p.i+1 >= len(p.b) {
		p.i++
		return p.unexpected("an escape character")
	}
	e := p.b[p.i+1]
	switch e {
	case '"', '\\', '/':
		sb.WriteByte(e)
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'n':
		sb.WriteByte('\n')
	case 'r':
		sb.WriteByte('\r')
	case 't':
		sb.WriteByte('\t')
	case 'u':
		return p.unicodeEscape(sb, ptr)
	default:
		p.i++
		r, _ := utf8.DecodeRune(p.b[p.i:]) // the escaped character, quoted: it may be a control
		return p.errorf("invalid escape %q in a string", "\\"+string(r))
	}
	p.i += 2
	return nil
}

// unicodeEscape reads a \uXXXX escape at p.i into sb, with a high surrogate's low half; a lone
// surrogate is RuleUTF8.
func (p *scanner) unicodeEscape(sb *strings.Builder, ptr string) error {
	r, ok := p.hex(p.i + 2)
	if !ok {
		p.i += 2
		return p.errorf("invalid \\u escape in a string (want four hex digits)")
	}
	if utf16.IsSurrogate(r) {
		if r < 0xDC00 && p.i+11 < len(p.b) && p.b[p.i+6] == '\\' && p.b[p.i+7] == 'u' {
			if lo, ok := p.hex(p.i + 8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				sb.WriteRune(utf16.DecodeRune(r, lo))
				p.i += 12
				return nil
			}
		}
		line, col := lineCol(p.b, p.i)
		return &stopError{Finding{Pointer: ptr, Rule: RuleUTF8, Message: fmt.Sprintf("lone UTF-16 surrogate escape \\u%04X at line %d, column %d: not a character", r, line, col)}}
	}
	sb.WriteRune(r)
	p.i += 6
	return nil
}

func (p *scanner) hex(at int) (rune, bool) {
	if at+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and checks its range.
func (p *scanner) number(ptr string) (any, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		digits()
	default:
		return nil, p.unexpected("a digit in a number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.unexpected("a digit after the decimal point")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.unexpected("a digit in the exponent")
		}
	}
	n := json.Number(p.b[start:p.i])
	p.checkNumber(ptr, n)
	return n, nil
}

// checkNumber refuses numbers no float64 holds (1e400, 1e-400) and absurd literals.
func (p *scanner) checkNumber(ptr string, n json.Number) {
	s := string(n)
	var bad phrase
	if len(s) > maxNumberLen {
		bad = phrase{"a %d-character number literal (at most %d accepted)", []any{len(s), maxNumberLen}}
	} else if f, err := strconv.ParseFloat(s, 64); err != nil {
		bad = phrase{"number %s is out of range", []any{pub(s)}}
	} else if f == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(s), "e", 2)[0], "123456789") {
		bad = phrase{"number %s is out of range (too small to represent)", []any{pub(s)}}
	} else if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+")); err != nil || e > 400 || e < -400 {
			bad = phrase{"number %s has an out-of-range exponent", []any{pub(s)}}
		}
	}
	if bad.format != "" {
		p.findings = append(p.findings, found(ptr, RuleNumberRange, "%s: %s", fieldLabel(ptr), bad))
	}
}

// Position is a place in a document: 1-based line and column, the column in characters.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Locate finds where each pointer of ptrs is in the JSON document b: a member at its key, any
// other value at its first character, a missing field at the nearest value holding its place.
// A pointer b does not reach is left out. One scan, whatever the number of pointers.
func Locate(b []byte, ptrs []string) map[string]Position {
	at := locate(b, ptrs)
	offs := make([]int, 0, len(at))
	for _, off := range at {
		offs = append(offs, off)
	}
	slices.Sort(offs)
	pos := make(map[int]Position, len(offs))
	line, col, i := 1, 1, 0
	for _, off := range offs {
		for ; i < off; i++ {
			switch c := b[i]; {
			case c == '\n':
				line, col = line+1, 1
			case c&0xc0 != 0x80:
				col++
			}
		}
		pos[off] = Position{line, col}
	}
	out := make(map[string]Position, len(at))
	for ptr, off := range at {
		out[ptr] = pos[off]
	}
	return out
}

// locate is Locate's byte offsets: each pointer's, or its nearest holder's.
func locate(b []byte, ptrs []string) map[string]int {
	p := &scanner{b: b, want: map[string]bool{}, at: map[string]int{}}
	for _, ptr := range ptrs {
		for q := ptr; q != ""; q = parent(q) {
			p.want[q] = true
		}
	}
	p.want[""] = true
	if !utf8.Valid(b) {
		return nil
	}
	p.ws()
	_, _ = p.value("", 0) // a syntax error ends the scan; what it reached is located
	out := map[string]int{}
	for _, ptr := range ptrs {
		for q := ptr; ; q = parent(q) {
			if off, ok := p.at[q]; ok {
				out[ptr] = off
				break
			}
			if q == "" {
				break
			}
		}
	}
	return out
}

// parent is the pointer of the value holding ptr's ("" for the document and its members).
func parent(ptr string) string { return ptr[:max(strings.LastIndexByte(ptr, '/'), 0)] }

func lineCol(b []byte, off int) (int, int) {
	off = min(max(off, 0), len(b))
	pre := b[:off]
	line := bytes.Count(pre, []byte("\n")) + 1
	start := bytes.LastIndexByte(pre, '\n') + 1
	return line, utf8.RuneCount(pre[start:]) + 1
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}
