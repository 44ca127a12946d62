// Package tomlfile is what the readers of network/'s hand-edited TOML files (crawl/sources,
// catalog/curation) share; each reader words its own problems.
package tomlfile

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Shape is what a file may hold: each top-level array of tables with its entries' keys.
type Shape map[string][]string

// File is a decoded file: Doc as the decoder gives it, and its keys and lines.
type File struct {
	Doc     map[string]any
	unknown map[string]map[string]bool // "" -> top-level keys outside the shape; table -> its entries' keys outside it
	entries map[string][]entryLines    // table -> its [[table]] headers in file order
}

// entryLines is one [[table]] header's line and the line of each key written under it.
type entryLines struct {
	header int
	keys   map[string]int
}

// SyntaxError is a file that is not TOML: the decoder's line (0 when none) and message.
type SyntaxError struct {
	Line    int
	Message string
}

// Error is "line L: message", or the message alone when the line is unknown.
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return e.Message
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Message)
}

// Decode decodes b against shape; the error is a *SyntaxError when b is not TOML. Keys outside
// the shape are listed by Unknown and UnknownTop.
func Decode(b []byte, shape Shape) (*File, error) {
	f := &File{}
	if _, err := toml.Decode(string(b), &f.Doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &SyntaxError{Line: pe.Position.Line, Message: pe.Message}
		}
		return nil, &SyntaxError{Message: err.Error()}
	}
	f.unknown = undecoded(string(b), shape)
	f.entries = scan(string(b), shape)
	return f, nil
}

// UnknownTop returns the file's top-level keys outside its shape, sorted.
func (f *File) UnknownTop() []string { return slices.Sorted(maps.Keys(f.unknown[""])) }

// Unknown returns the keys of entry, an entry of table, outside the shape, sorted, each by its
// first part; a known key holding a table is no unknown key.
func (f *File) Unknown(table string, entry map[string]any) []string {
	var out []string
	for k := range entry {
		if f.unknown[table][k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Header returns the line of the n-th (1-based) [[table]] header, 0 when unknown.
func (f *File) Header(table string, n int) int {
	if e, ok := f.entry(table, n); ok {
		return e.header
	}
	return 0
}

// KeyLine returns the line of "key = ..." in the n-th [[table]] entry, 0 when not written so.
func (f *File) KeyLine(table string, n int, key string) int {
	if e, ok := f.entry(table, n); ok {
		return e.keys[key]
	}
	return 0
}

// entry is the n-th [[table]] header found, when as many headers as entries were found.
func (f *File) entry(table string, n int) (entryLines, bool) {
	es := f.entries[table]
	all, _ := Array(f.Doc[table])
	if n < 1 || n > len(es) || len(es) != len(all) {
		return entryLines{}, false
	}
	return es[n-1], true
}

// Array returns v's elements when v is a TOML array (of tables or of other values).
func Array(v any) ([]any, bool) {
	switch t := v.(type) {
	case []any:
		return t, true
	case []map[string]any:
		out := make([]any, len(t))
		for i, m := range t {
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

// TypeName names v's TOML type with its article ("an integer"), for messages.
func TypeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date-time"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// Date reads a value as a calendar date ("YYYY-MM-DD" or a TOML local date): the date, or ""
// and what is wrong, worded after key.
func Date(key string, v any) (string, string) {
	switch v := v.(type) {
	case string:
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return "", fmt.Sprintf("%s %q is not a date (want YYYY-MM-DD)", key, v)
		}
		return v, ""
	case time.Time:
		if v.Location().String() != "date-local" {
			return "", key + " is a date-time; want a date (YYYY-MM-DD)"
		}
		return v.Format(time.DateOnly), ""
	}
	return "", fmt.Sprintf("%s is %s, not a date (want YYYY-MM-DD)", key, TypeName(v))
}

// CheckURL returns "" for an absolute http(s) URL with a host, no user info, no fragment and no
// surrounding white space; else what is wrong. Nothing is normalized.
func CheckURL(s string) string {
	if s == "" {
		return "is empty"
	}
	if strings.TrimSpace(s) != s {
		return "has surrounding whitespace"
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, password included
		}
		return "does not parse as a URL: " + err.Error()
	case u.Scheme != "http" && u.Scheme != "https":
		return "is not an absolute http or https URL"
	case u.User != nil:
		return "carries a user name or password"
	case u.Host == "" || u.Hostname() == "":
		return "has no host"
	case strings.Contains(s, "#"):
		return "has a #fragment, which is never sent to a site; write the URL without it"
	}
	return ""
}

// anyValue takes any TOML value and marks every key inside it decoded.
type anyValue struct{}

// UnmarshalTOML accepts v whatever it is.
func (*anyValue) UnmarshalTOML(any) error { return nil }

// undecoded decodes text into structs built from shape and returns the undecoded keys: under ""
// the top-level ones, under each table its entries' others.
func undecoded(text string, shape Shape) map[string]map[string]bool {
	tables := slices.Sorted(maps.Keys(shape))
	file := reflect.New(structOf(tables, reflect.TypeFor[toml.Primitive]()))
	md, err := toml.Decode(text, file.Interface())
	out := map[string]map[string]bool{"": {}}
	if err != nil {
		return out
	}
	for i, t := range tables {
		out[t] = map[string]bool{}
		var entries []toml.Primitive
		if !md.IsDefined(t) || md.PrimitiveDecode(file.Elem().Field(i).Interface().(toml.Primitive), &entries) != nil {
			continue
		}
		entry := structOf(shape[t], reflect.TypeFor[anyValue]())
		for _, e := range entries {
			_ = md.PrimitiveDecode(e, reflect.New(entry).Interface()) // not a table: the reader says so
		}
	}
	for _, k := range md.Undecoded() {
		if m, ok := out[k[0]]; ok && k[0] != "" && len(k) > 1 {
			m[k[1]] = true
		} else {
			out[""][k[0]] = true
		}
	}
	return out
}

func structOf(names []string, typ reflect.Type) reflect.Type {
	fields := make([]reflect.StructField, len(names))
	for i, n := range names {
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: typ, Tag: reflect.StructTag(fmt.Sprintf("toml:%q", n))}
	}
	return reflect.StructOf(fields)
}

// scan finds each [[table]] header of the shape and the first "key = ..." line of each key
// under it, from the text (the decoder gives no positions), skipping multi-line strings. It
// only feeds messages.
func scan(text string, shape Shape) map[string][]entryLines {
	out := map[string][]entryLines{}
	var cur *entryLines
	multi := ""
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if multi != "" { // inside a multi-line string: only its end matters
			if strings.Count(line, multi)%2 == 1 {
				multi = ""
			}
			continue
		}
		if name, ok := header(line); ok {
			cur = nil
			if _, ok := shape[name]; ok {
				out[name] = append(out[name], entryLines{header: n, keys: map[string]int{}})
				cur = &out[name][len(out[name])-1]
			}
		} else if strings.HasPrefix(strings.TrimSpace(line), "[") {
			cur = nil // another table: its keys are not the entry's
		} else if k, ok := keyOf(line); ok && cur != nil && cur.keys[k] == 0 {
			cur.keys[k] = n
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(line, q)%2 == 1 {
				multi = q
			}
		}
	}
	return out
}

// header returns the table name of an array-of-tables header line.
func header(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "[[")
	if !ok {
		return "", false
	}
	name, after, ok := strings.Cut(rest, "]]")
	if after = strings.TrimSpace(after); !ok || (after != "" && after[0] != '#') {
		return "", false
	}
	return unquote(strings.TrimSpace(name)), true
}

// keyOf returns the key a "key = value" line sets (bare or quoted), not a dotted key's.
func keyOf(line string) (string, bool) {
	k, _, ok := strings.Cut(line, "=")
	if !ok {
		return "", false
	}
	k = strings.TrimSpace(k)
	if q := unquote(k); q != k {
		return q, true
	}
	if k == "" || strings.ContainsAny(k, ".\"' \t#[") {
		return "", false
	}
	return k, true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
