// Package sources reads network/sources.toml, the list of sites this index reads (SPEC section
// 6): one `[[source]]` table per enrolled URL, with `url` (any address the DreamWeave discovery
// algorithm can start from), `added` (YYYY-MM-DD) and `note`.
//
// A bad file is refused when it is loaded, never at use (SPEC, "seed documents"): every problem
// is reported at once, each naming the entry number and, where it can be found, its line.
// A source list that does not load fails the refresh: it is this index's own bug
// (seeds/crawler.txt, "What never fails a refresh").
package sources

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Source is one enrolled URL. Entry is its 1-based position among the [[source]] tables and
// Line the 1-based line of its `url` key (0 when it could not be located), for messages.
type Source struct {
	URL   string
	Added string // YYYY-MM-DD, "" when absent
	Note  string
	Entry int
	Line  int
}

// Problem is one thing wrong with the file: the entry (0 for the file as a whole), its line
// (0 when unknown) and what is wrong.
type Problem struct {
	Entry   int
	Line    int
	Message string
}

// String is "line L: [[source]] #N: message", leaving out what is unknown.
func (p Problem) String() string {
	switch {
	case p.Entry == 0 && p.Line == 0:
		return p.Message
	case p.Entry == 0:
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	case p.Line == 0:
		return fmt.Sprintf("[[source]] #%d: %s", p.Entry, p.Message)
	}
	return fmt.Sprintf("line %d: [[source]] #%d: %s", p.Line, p.Entry, p.Message)
}

// Error is a refused source list: its path and every problem found, in file order.
type Error struct {
	Path     string
	Problems []Problem
}

// Error names the file, then each problem on its own indented line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: refused", e.Path)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s", p)
	}
	return b.String()
}

// Load reads and checks the source list at path. A missing file is an error (a refresh with no
// list of sites is a mistake, not an empty network); so is unreadable TOML or any bad entry
// (*Error naming each).
func Load(path string) ([]Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	return Parse(path, b)
}

// Parse checks the source list b; name is used in messages. Refused: TOML that does not parse;
// top-level keys other than `source`; an entry with unknown keys, a missing or empty url, a url
// that does not parse, is not absolute http(s), has no host, carries a user name or password,
// or has surrounding whitespace; the same url listed twice (scheme and host compared without
// case); an `added` that is not a date; a `note` that is not a string.
func Parse(name string, b []byte) ([]Source, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Path: name, Problems: []Problem{{Line: pe.Position.Line, Message: "not valid TOML: " + pe.Message}}}
		}
		return nil, &Error{Path: name, Problems: []Problem{{Message: "not valid TOML: " + err.Error()}}}
	}
	lines := locate(string(b))
	var ps []Problem
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "source" {
			ps = append(ps, Problem{Message: fmt.Sprintf("unknown key %q (want [[source]] entries)", k)})
		}
	}
	var tables []map[string]any
	switch t := doc["source"].(type) {
	case nil:
	case []map[string]any:
		tables = t
	case []any:
		for i, e := range t {
			m, ok := e.(map[string]any)
			if !ok {
				ps = append(ps, Problem{Entry: i + 1, Message: "is not a table"})
				m = map[string]any{}
			}
			tables = append(tables, m)
		}
	default:
		ps = append(ps, Problem{Message: `"source" is not an array of [[source]] tables`})
	}
	var out []Source
	seen := map[string]int{}
	for i, m := range tables {
		n := i + 1
		s := Source{Entry: n, Line: lines.url(n)}
		bad := func(format string, a ...any) {
			ps = append(ps, Problem{Entry: n, Line: s.Line, Message: fmt.Sprintf(format, a...)})
		}
		if s.Line == 0 {
			s.Line = lines.header(n)
		}
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if k != "url" && k != "added" && k != "note" {
				bad("unknown key %q (want url, added, note)", k)
			}
		}
		before := len(ps)
		switch v := m["url"].(type) {
		case nil:
			bad("url is missing")
		case string:
			if msg := checkURL(v); msg != "" {
				bad("url %q %s", v, msg)
			} else {
				s.URL = v
			}
		default:
			bad("url is %s, not a string", typeName(v))
		}
		switch v := m["added"].(type) {
		case nil:
		case string:
			if _, err := time.Parse(time.DateOnly, v); err != nil {
				bad("added %q is not a date (want YYYY-MM-DD)", v)
			}
			s.Added = v
		case time.Time:
			if v.Location().String() != "date-local" {
				bad("added is a date-time; want a date (YYYY-MM-DD)")
			}
			s.Added = v.Format(time.DateOnly)
		default:
			bad("added is %s, not a date (want YYYY-MM-DD)", typeName(v))
		}
		switch v := m["note"].(type) {
		case nil:
		case string:
			s.Note = v
		default:
			bad("note is %s, not a string", typeName(v))
		}
		if s.URL != "" {
			key := dupKey(s.URL)
			if prev, ok := seen[key]; ok {
				bad("url %s repeats [[source]] #%d (line %d)", s.URL, prev, out[prev-1].Line)
			} else {
				seen[key] = n
			}
		}
		if len(ps) > before {
			s.URL = "" // keep indexes aligned for the duplicate message; never returned
		}
		out = append(out, s)
	}
	if len(ps) > 0 {
		return nil, &Error{Path: name, Problems: ps}
	}
	return out, nil
}

// checkURL returns "" for an enrollable URL, else what is wrong with it.
func checkURL(s string) string {
	if s == "" {
		return "is empty"
	}
	if strings.TrimSpace(s) != s {
		return "has surrounding whitespace"
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "does not parse as a URL: " + strings.TrimPrefix(err.Error(), fmt.Sprintf("parse %q: ", s))
	case u.Scheme != "http" && u.Scheme != "https":
		return "is not an absolute http or https URL"
	case u.User != nil:
		return "carries a user name or password"
	case u.Host == "" || u.Hostname() == "":
		return "has no host"
	}
	return ""
}

// dupKey compares URLs as written except for the case of scheme and host, which never matters.
func dupKey(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	return u.String()
}

func typeName(v any) string {
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

// lineIndex locates [[source]] headers and their url keys by scanning the text, since the TOML
// decoder does not expose key positions. It only feeds messages: a line it cannot find is 0.
type lineIndex struct {
	headers []int // line of the n-th [[source]] header (1-based lines)
	urls    []int // line of its url key, 0 when not found
}

var (
	headerRE = regexp.MustCompile(`^\s*\[\[\s*("source"|'source'|source)\s*\]\]\s*(#.*)?$`)
	tableRE  = regexp.MustCompile(`^\s*\[`)
	urlKeyRE = regexp.MustCompile(`^\s*("url"|'url'|url)\s*=`)
)

func locate(text string) lineIndex {
	var li lineIndex
	in := -1 // index of the entry whose body we are in
	multi := ""
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if multi != "" { // inside a multi-line string: only its end matters
			if strings.Count(line, multi)%2 == 1 {
				multi = ""
			}
			continue
		}
		switch {
		case headerRE.MatchString(line):
			li.headers = append(li.headers, n)
			li.urls = append(li.urls, 0)
			in = len(li.headers) - 1
		case tableRE.MatchString(line):
			in = -1
		case in >= 0 && li.urls[in] == 0 && urlKeyRE.MatchString(line):
			li.urls[in] = n
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(line, q)%2 == 1 {
				multi = q
			}
		}
	}
	return li
}

func (li lineIndex) header(n int) int {
	if n-1 < len(li.headers) {
		return li.headers[n-1]
	}
	return 0
}

func (li lineIndex) url(n int) int {
	if n-1 < len(li.urls) {
		return li.urls[n-1]
	}
	return 0
}

// CheckURL applies the entry checks of Parse to one URL (absolute http or https, a host, no
// user name or password, no surrounding whitespace): nil when it could be enrolled, else an
// error naming the URL and what is wrong. inspect and add use it before reading anything.
func CheckURL(raw string) error {
	if msg := checkURL(raw); msg != "" {
		return fmt.Errorf("url %q %s", raw, msg)
	}
	return nil
}
