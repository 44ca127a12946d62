package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDocumentBytes is the crawler's document limit: a document of this size or more is refused
// by crawler policy, never called invalid (crawler.txt "Resource limits": 16 MiB).
const MaxDocumentBytes = 16 << 20

// MaxDepth is the deepest nesting of objects and arrays accepted. A real manifest nests about 8
// deep; the limit keeps hostile input from costing recursion.
const MaxDepth = 64

// maxNumberLen bounds a number literal's length: no DreamWeave field needs more, and huge
// literals or exponents would make exact arithmetic (big.Rat in schema checks) expensive.
const maxNumberLen = 64

// parseStrict reads b as one JSON value with the strict policy: under the document limit,
// valid UTF-8 without lone surrogate escapes, well-formed, no duplicate keys at any depth,
// nesting at most MaxDepth, every number within float64 range. It returns the value as
// encoding/json would decode it with UseNumber (map[string]any, []any, string, json.Number,
// bool, nil) or the findings, never both.
func parseStrict(b []byte) (any, []Finding) {
	if len(b) >= MaxDocumentBytes {
		return nil, []Finding{{Pointer: "", Rule: RuleCrawlerPolicy,
			Message: fmt.Sprintf("refused by crawler policy: over the 16 MiB document limit (%d bytes; the limit is %d)", len(b), MaxDocumentBytes)}}
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return nil, []Finding{{Rule: RuleSyntax, Message: "malformed JSON at line 1, column 1: the document starts with a UTF-8 byte order mark, which JSON text must not have (RFC 8259 section 8.1)"}}
	}
	if !utf8.Valid(b) {
		off := firstInvalidUTF8(b)
		line, col := lineCol(b, off)
		return nil, []Finding{{Rule: RuleUTF8, Message: fmt.Sprintf("invalid UTF-8 at line %d, column %d (byte offset %d, byte 0x%02x): a DreamWeave document must be UTF-8", line, col, off, b[off])}}
	}
	p := &strictParser{b: b, dec: json.NewDecoder(bytes.NewReader(b))}
	p.dec.UseNumber()
	v, err := p.value("", 0)
	if err == nil && len(p.findings) == 0 {
		if _, terr := p.dec.Token(); terr != io.EOF {
			if terr == nil {
				line, col := lineCol(b, int(p.dec.InputOffset()))
				return nil, []Finding{{Rule: RuleSyntax, Message: fmt.Sprintf("malformed JSON at line %d, column %d: data after the end of the top-level value", line, col)}}
			}
			err = terr
		}
	}
	if err != nil {
		if errors.Is(err, errStop) {
			return nil, p.findings
		}
		return nil, append(p.findings, p.syntaxFinding(err))
	}
	if len(p.findings) > 0 {
		return nil, p.findings
	}
	if fs := loneSurrogates(b); len(fs) > 0 {
		return nil, fs
	}
	return v, nil
}

// errStop ends parsing after a finding that makes going on pointless (depth).
var errStop = errors.New("stop")

type strictParser struct {
	b        []byte
	dec      *json.Decoder
	findings []Finding
}

func (p *strictParser) syntaxFinding(err error) Finding {
	off := len(p.b)
	msg := err.Error()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
		if off > 0 {
			off-- // Offset is after the offending byte
		}
	case err == io.EOF && len(bytes.TrimSpace(p.b)) == 0:
		return Finding{Rule: RuleSyntax, Message: "malformed JSON: the document is empty"}
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		msg = "unexpected end of input"
	}
	line, col := lineCol(p.b, off)
	msg = strings.TrimPrefix(msg, "json: ")
	return Finding{Rule: RuleSyntax, Message: fmt.Sprintf("malformed JSON at line %d, column %d: %s", line, col, msg)}
}

// value reads one value whose pointer is ptr at nesting depth d.
func (p *strictParser) value(ptr string, d int) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if d+1 > MaxDepth {
			line, col := lineCol(p.b, int(p.dec.InputOffset())-1)
			p.findings = append(p.findings, Finding{Pointer: ptr, Rule: RuleDepth,
				Message: fmt.Sprintf("nesting deeper than %d levels at line %d, column %d", MaxDepth, line, col)})
			return nil, errStop
		}
		if t == '{' {
			return p.object(ptr, d+1)
		}
		return p.array(ptr, d+1)
	case json.Number:
		p.checkNumber(ptr, t)
		return t, nil
	default: // string, bool, nil
		return t, nil
	}
}

func (p *strictParser) object(ptr string, d int) (any, error) {
	m := map[string]any{}
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := tok.(string)
		if !ok { // Token reports non-string keys as syntax errors; be safe anyway
			return nil, fmt.Errorf("object key is not a string")
		}
		kp := ptr + "/" + escapeToken(k)
		if _, dup := m[k]; dup {
			line, col := lineCol(p.b, int(p.dec.InputOffset()))
			p.findings = append(p.findings, Finding{Pointer: kp, Rule: RuleDuplicateKey,
				Message: fmt.Sprintf("duplicate key %q in the same object (second at line %d, column %d): which value counts is ambiguous", k, line, col)})
		}
		v, err := p.value(kp, d)
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; !dup {
			m[k] = v
		}
	}
	if _, err := p.dec.Token(); err != nil { // '}'
		return nil, err
	}
	return m, nil
}

func (p *strictParser) array(ptr string, d int) (any, error) {
	a := []any{}
	for i := 0; p.dec.More(); i++ {
		v, err := p.value(ptr+"/"+strconv.Itoa(i), d)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
	if _, err := p.dec.Token(); err != nil { // ']'
		return nil, err
	}
	return a, nil
}

// checkNumber refuses numbers no float64 holds (1e400, 1e-400) and absurd literals.
func (p *strictParser) checkNumber(ptr string, n json.Number) {
	s := string(n)
	bad := ""
	if len(s) > maxNumberLen {
		bad = fmt.Sprintf("a %d-character number literal (at most %d accepted)", len(s), maxNumberLen)
	} else if f, err := strconv.ParseFloat(s, 64); err != nil {
		bad = fmt.Sprintf("number %s is out of range", s)
	} else if f == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(s), "e", 2)[0], "123456789") {
		bad = fmt.Sprintf("number %s is out of range (too small to represent)", s)
	} else if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+")); err != nil || e > 400 || e < -400 {
			bad = fmt.Sprintf("number %s has an out-of-range exponent", s)
		}
	}
	if bad != "" {
		name := lastToken(ptr)
		if name == "" {
			name = "(document)"
		}
		p.findings = append(p.findings, Finding{Pointer: ptr, Rule: RuleNumberRange, Message: fmt.Sprintf("field %q: %s", name, bad)})
	}
}

// lineCol turns a byte offset into a 1-based line and column (column counted in characters).
func lineCol(b []byte, off int) (int, int) {
	if off > len(b) {
		off = len(b)
	}
	if off < 0 {
		off = 0
	}
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

// loneSurrogates finds \uD800-\uDFFF escapes that are not a high-low pair: encoding/json
// would silently turn them into U+FFFD, changing the publisher's text. b is well-formed JSON.
func loneSurrogates(b []byte) []Finding {
	var fs []Finding
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !inStr {
			if c == '"' {
				inStr = true
			}
			continue
		}
		switch c {
		case '"':
			inStr = false
		case '\\':
			if i+1 < len(b) && b[i+1] == 'u' && i+5 < len(b) {
				r := hex4(b[i+2 : i+6])
				switch {
				case r >= 0xD800 && r <= 0xDBFF:
					if i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
						if lo := hex4(b[i+8 : i+12]); lo >= 0xDC00 && lo <= 0xDFFF {
							i += 11
							continue
						}
					}
					fallthrough
				case r >= 0xDC00 && r <= 0xDFFF:
					line, col := lineCol(b, i)
					fs = append(fs, Finding{Rule: RuleUTF8, Message: fmt.Sprintf("lone UTF-16 surrogate escape \\u%04X at line %d, column %d: not a character", r, line, col)})
				}
				i += 5
			} else {
				i++
			}
		}
	}
	return fs
}

func hex4(b []byte) int {
	v, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return -1
	}
	return int(v)
}
