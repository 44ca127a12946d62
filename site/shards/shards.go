// Package shards is the format of the data parts the setup, plan and project list pages
// load as script files (plan/data/, setup/data/, network-data/find/; assets/shards.js):
// the pages' CSP allows no connection, and a script loads from file:// too.
//
// A part is named by what it holds: "c" and the first hex characters of its claims' project
// ids (ClaimShard), or "n" and a hash of the folded names it indexes (NameShard). Its file
// calls AshyamsData(name, text) with the part's JSON as a string, which JSON.parse keeps
// safe from keys such as "__proto__".
package shards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
)

// ClaimsPerPart is the most claims one claim part holds on average (256 parts of about 40
// at 10,000 claims).
const ClaimsPerPart = 64

// namesPerPart is the most names (content files, folders) one part of a name index holds on
// average; maxNameShards bounds the number of parts.
const (
	namesPerPart  = 256
	maxNameShards = 4096
)

// Plan is how a page's data is cut: the project id prefix length of its claim parts
// and the number of its name parts (a power of two). The page reads it from its own data.
type Plan struct {
	Claims int `json:"claims"`
	Names  int `json:"names"`
}

// ClaimPrefixLen is the shortest project id prefix (hex characters, at most 3) that cuts n
// claims into parts of at most ClaimsPerPart on average.
func ClaimPrefixLen(n int) int {
	l := 0
	for l < 3 && n > ClaimsPerPart<<(4*l) {
		l++
	}
	return l
}

// NameShardCount is the fewest parts (a power of two) that hold n names at most namesPerPart
// each on average.
func NameShardCount(n int) int {
	s := 1
	for s < maxNameShards && n > namesPerPart*s {
		s *= 2
	}
	return s
}

// ClaimShard names the part holding the claims of project id p.
func ClaimShard(p string, prefix int) string {
	return "c" + p[:min(prefix, len(p))]
}

// fnv1a is the 32-bit FNV-1a hash of s's bytes (UTF-8), as shards.js computes it.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// NameShard names the part of a name index holding the folded name k.
func NameShard(k string, parts int) string {
	return fmt.Sprintf("n%x", fnv1a(k)%uint32(parts))
}

// Script appends to dst a part's file, AshyamsData('<name>', '<v>'), and returns it with v's
// JSON, which buf (reset) holds: HTML characters unescaped, under the pages' bidi rule
// (pubtext.Text) and served-JSON escaping in the file, quoted single (ScriptString) so JSON's
// double quotes stay as they are.
func Script(dst []byte, buf *bytes.Buffer, name string, v any) (js, data []byte, err error) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, nil, fmt.Errorf("the data part %s: %w", name, err)
	}
	data = buf.Bytes()[:buf.Len()-1]
	text := termtext.JSON(pubtext.Text(data, func(c byte) bool { return c == '"' }))
	dst = appendQuoted(append(dst, "AshyamsData("...), []byte(name))
	return append(appendQuoted(append(dst, ','), text), ");\n"...), data, nil
}

// ScriptString is s as a single-quoted JavaScript string literal: backslash and quote
// escaped, control characters and line terminators as \u escapes.
func ScriptString(s string) string { return string(appendQuoted(nil, []byte(s))) }

// appendQuoted appends s quoted as ScriptString quotes it.
func appendQuoted(dst, s []byte) []byte {
	dst = append(dst, '\'')
	for _, r := range string(s) {
		switch {
		case r == '\\' || r == '\'':
			dst = append(dst, '\\', byte(r))
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029':
			dst = fmt.Appendf(dst, "\\u%04x", r)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '\'')
}

// AllClaimShards lists every claim part a prefix length makes, so each is written even
// when empty: a part that does not load is then a fault, not a gap.
func AllClaimShards(prefix int) []string {
	out := []string{"c"}
	for range prefix {
		var next []string
		for _, p := range out {
			for _, c := range "0123456789abcdef" {
				next = append(next, p+string(c))
			}
		}
		out = next
	}
	return out
}

// Write writes each part of parts as dir/<name>.js through write (which must not keep
// data), in name order.
func Write(dir string, parts map[string]any, write func(rel string, data []byte) error) error {
	var buf bytes.Buffer
	var js []byte
	var err error
	for _, n := range slices.Sorted(maps.Keys(parts)) {
		if js, _, err = Script(js[:0], &buf, n, parts[n]); err != nil {
			return err
		}
		if err := write(dir+"/"+n+".js", js); err != nil {
			return err
		}
	}
	return nil
}
