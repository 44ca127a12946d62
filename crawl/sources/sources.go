// Package sources reads network/sources.toml, the list of sites this index reads (SPEC section
// 6): one `[[source]]` table per enrolled URL, with `url` (any address the DreamWeave discovery
// algorithm can start from), `added` (YYYY-MM-DD) and `note`.
//
// A bad file is refused when it is loaded, never at use (SPEC, "seed documents"): every problem
// is reported at once, each naming the entry number and, where it can be found, its line. That
// includes a url the crawler would refuse to fetch before any lookup (crawl/guard.CheckURL: a
// literal loopback, private, link-local/metadata, reserved... address, a malformed host). A
// source list that does not load fails the refresh: it is this index's own bug
// (seeds/crawler.txt, "What never fails a refresh"). Messages never show a URL's password.
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
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// Options change what a source list may hold.
type Options struct {
	// AllowLoopback admits literal loopback hosts (127.0.0.0/8, ::1) and localhost, for local
	// drills run with --allow-loopback (seeds/crawler.txt: it admits loopback "and nothing
	// else"). Private, metadata and reserved addresses stay refused.
	AllowLoopback bool
	// AllowEmpty admits a list with no [[source]] entries: `add` reads the list it appends to,
	// which may not have one yet. A refresh never sets it.
	AllowEmpty bool
}

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

// Load is LoadWith(path, Options{}): loopback hosts are refused.
func Load(path string) ([]Source, error) { return LoadWith(path, Options{}) }

// LoadWith reads and checks the source list at path. A missing file is an error, and so is a
// list with no entries (a refresh with no list of sites is a mistake, not an empty network); so
// is unreadable TOML or any bad entry (*Error naming each).
func LoadWith(path string, o Options) ([]Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	return ParseWith(path, b, o)
}

// Parse is ParseWith(name, b, Options{}): loopback hosts are refused.
func Parse(name string, b []byte) ([]Source, error) { return ParseWith(name, b, Options{}) }

// ParseWith checks the source list b; name is used in messages. Refused: TOML that does not
// parse; top-level keys other than `source`; an entry with unknown keys; a url that is missing,
// empty, does not parse, is not absolute http(s), has no host, carries a user name or password,
// has a #fragment (never sent to a site) or surrounding whitespace, or that the crawler's guard
// refuses before any lookup (crawl/guard.CheckURL: literal loopback unless o.AllowLoopback,
// private, link-local, reserved... addresses, non-canonical IPv4 forms, malformed host names,
// bad ports; localhost unless o.AllowLoopback); the same url listed twice (compared by
// store.CanonicalURL: scheme and host lowercased, an IDN host as punycode, a default port and a
// trailing dot on the host dropped, %-escapes normalised and dot segments removed as RFC 3986
// section 6.2.2 says; an empty path read as "/"); `added` missing or not a date (YYYY-MM-DD); `note` missing, not a
// string, empty, or not one line of printable text.
func ParseWith(name string, b []byte, o Options) ([]Source, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Path: name, Problems: []Problem{{Line: pe.Position.Line, Message: "not valid TOML: " + pe.Message}}}
		}
		return nil, &Error{Path: name, Problems: []Problem{{Message: "not valid TOML: " + err.Error()}}}
	}
	lines := locate(string(b))
	unknownTop, unknownInEntry := unknownKeys(b)
	tables, ps := sourceTables(doc, unknownTop)
	if len(tables) == 0 && len(ps) == 0 && !o.AllowEmpty {
		// An empty list is never what a maintainer means: a refresh would withdraw every claim
		// and the next deploy would publish an empty index.
		ps = append(ps, Problem{Message: "lists no [[source]] entries; a refresh would withdraw every claim of every site (remove sites one entry at a time)"})
	}
	var out []Source
	seen := map[string]int{}
	for i, m := range tables {
		n := i + 1
		s, eps := readEntry(n, m, lines, unknownInEntry, o)
		if s.URL != "" {
			key := dupKey(s.URL)
			if prev, ok := seen[key]; ok {
				eps = append(eps, Problem{Entry: n, Line: s.Line, Message: fmt.Sprintf("url %q repeats [[source]] #%d (line %d)", redact(s.URL), prev, out[prev-1].Line)})
			} else {
				seen[key] = n
			}
		}
		if len(eps) > 0 {
			s.URL = "" // keep indexes aligned for the duplicate message; never returned
		}
		ps = append(ps, eps...)
		out = append(out, s)
	}
	if len(ps) > 0 {
		return nil, &Error{Path: name, Problems: ps}
	}
	return out, nil
}

// sourceTables returns the [[source]] tables of a decoded list, and the problems of its top
// level: unknown keys (sorted), a `source` that is not an array of tables, an entry that is not
// a table (read as an empty one, so entry numbers stay those of the file).
func sourceTables(doc map[string]any, unknownTop map[string]bool) ([]map[string]any, []Problem) {
	var ps []Problem
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if unknownTop[k] {
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
	return tables, ps
}

// readEntry reads the n-th [[source]] table: its unknown keys (sorted), then url, added and
// note, each checked as ParseWith says. The Source's URL is set only when it passed.
func readEntry(n int, m map[string]any, lines lineIndex, unknownInEntry map[string]bool, o Options) (Source, []Problem) {
	s := Source{Entry: n, Line: lines.url(n)}
	if s.Line == 0 {
		s.Line = lines.header(n)
	}
	var ps []Problem
	bad := func(format string, a ...any) {
		ps = append(ps, Problem{Entry: n, Line: s.Line, Message: fmt.Sprintf(format, a...)})
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		if unknownInEntry[k] {
			bad("unknown key %q (want url, added, note)", k)
		}
	}
	switch v := m["url"].(type) {
	case nil:
		bad("url is missing")
	case string:
		if msg := checkURL(v); msg != "" {
			bad("url %q %s", redact(v), msg)
		} else if msg := checkFetchable(v, o.AllowLoopback); msg != "" {
			bad("url %q %s", redact(v), msg)
		} else {
			s.URL = v
		}
	default:
		bad("url is %s, not a string", typeName(v))
	}
	switch v := m["added"].(type) {
	case nil:
		bad("added is missing (the day the site was enrolled, YYYY-MM-DD)")
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
		bad("note is missing (one line for the humans reviewing the list)")
	case string:
		if msg := CheckNote(v); msg != "" {
			bad("note %s", msg)
		}
		s.Note = v
	default:
		bad("note is %s, not a string", typeName(v))
	}
	return s, ps
}

// entryKeys declares the keys a [[source]] entry may hold. Decoding an entry into it marks
// them decoded, so toml.MetaData.Undecoded lists every other key. ParseWith checks the
// values, in its own words.
type entryKeys struct {
	URL   anyValue `toml:"url"`
	Added anyValue `toml:"added"`
	Note  anyValue `toml:"note"`
}

// anyValue takes any TOML value. As a toml.Unmarshaler it marks every key inside the value
// decoded too, so a known key holding a table (url = {a = 1}, url.a = 1) is no unknown key:
// ParseWith reports the value's type instead.
type anyValue struct{}

// UnmarshalTOML accepts v whatever it is.
func (*anyValue) UnmarshalTOML(v any) error { return nil }

// unknownKeys decodes b, which parses as TOML, against the file's shape (a `source` array of
// entryKeys tables) and returns the names toml.MetaData.Undecoded reports: top-level keys
// other than `source`, and keys of [[source]] entries other than entryKeys's. A `source` that
// is not an array, or an entry that is not a table, is skipped here: ParseWith reports its
// shape.
func unknownKeys(b []byte) (top, inEntry map[string]bool) {
	var file struct {
		Source toml.Primitive `toml:"source"`
	}
	md, err := toml.Decode(string(b), &file)
	if err != nil {
		return nil, nil
	}
	var entries []toml.Primitive
	if md.IsDefined("source") && md.PrimitiveDecode(file.Source, &entries) == nil {
		for _, e := range entries {
			_ = md.PrimitiveDecode(e, &entryKeys{}) // an entry that is not a table: ParseWith says so
		}
	}
	top, inEntry = map[string]bool{}, map[string]bool{}
	for _, k := range md.Undecoded() {
		if k[0] == "source" && len(k) > 1 {
			inEntry[k[1]] = true
		} else {
			top[k[0]] = true
		}
	}
	return top, inEntry
}

// checkURL returns "" for an enrollable URL, else what is wrong with it (the URL's syntax only).
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
		return "has a #fragment, which is never sent to a site; enroll the URL without it"
	}
	return ""
}

// checkFetchable returns "" when the crawler's guard would try to fetch s, else why not: the
// checks guard.CheckURL makes before any lookup, and localhost (a name that is loopback by
// definition, RFC 6761) unless loopback is allowed.
func checkFetchable(s string, allowLoopback bool) string {
	u, err := guard.CheckURL(s, allowLoopback)
	if err != nil {
		var re *guard.Error
		if !errors.As(err, &re) {
			return "is refused: " + err.Error()
		}
		msg := "is refused by the crawler's guard: " + re.Reason // a loopback refusal names --allow-loopback
		return msg
	}
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if !allowLoopback && (h == "localhost" || strings.HasSuffix(h, ".localhost")) {
		return "is refused by the crawler's guard: localhost is loopback (" + guard.LoopbackHint + ")"
	}
	return ""
}

// dupKey is the URL as a site would see the request: store.CanonicalURL (scheme and host
// lowercased, an IDN host as punycode, a trailing dot on the host and a default port dropped,
// %-escapes normalised and dot segments removed: RFC 3986 section 6.2.2),
// the fragment dropped, an empty path read as "/". Everything else is compared as written.
func dupKey(s string) string {
	u, err := url.Parse(store.CanonicalURL(s))
	if err != nil {
		return s
	}
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// Enrolled returns the entry of list that enrolls u already, by the loader's duplicate rule
// (dupKey: the URL as a site would see the request), or nil.
func Enrolled(list []Source, u string) *Source {
	key := dupKey(u)
	for i := range list {
		if dupKey(list[i].URL) == key {
			return &list[i]
		}
	}
	return nil
}

// AppendEntry returns list (the bytes of a source list) with one [[source]] entry for s
// appended after one blank line, every byte of list kept: url, added and note as TOML basic
// strings. s.Note must pass CheckNote and s.URL CheckURL, so no control character needs an
// escape; only backslash and double quote are escaped.
func AppendEntry(list []byte, s Source) []byte {
	out := append([]byte{}, list...)
	switch {
	case len(out) == 0:
	case strings.HasSuffix(string(out), "\n\n"):
	case strings.HasSuffix(string(out), "\n"):
		out = append(out, '\n')
	default:
		out = append(out, "\n\n"...)
	}
	return fmt.Appendf(out, "[[source]]\nurl = %s\nadded = %s\nnote = %s\n", tomlString(s.URL), tomlString(s.Added), tomlString(s.Note))
}

// tomlString quotes s as a TOML basic string, escaping backslash and double quote.
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// redact is a URL for messages: its user info replaced (termtext.RedactURL), also in a URL that
// does not parse. A URL without user info is shown exactly as written.
func redact(s string) string { return termtext.RedactURL(s) }

// CheckNote returns "" for a usable note, else what is wrong with it: empty (or only white
// space), not UTF-8 (a TOML file cannot hold it), more than one line, or holding a character that hides, reorders or breaks text in a
// review or a log: a C0 or C1 control, a line or paragraph separator, a bidirectional control
// (embeddings, overrides, isolates, marks) or another invisible formatting character (zero-width
// space, word joiner, byte order mark, soft hyphen...). Allowed, because real writing needs them:
// the zero-width non-joiner and joiner (U+200C, U+200D: Persian and Indic words, emoji ZWJ
// sequences) and variation selectors (marks, not formatting characters). sources.toml's `note`
// and `ashyams add --note` use it.
func CheckNote(note string) string {
	switch {
	case strings.TrimSpace(note) == "":
		return "is empty (one line for the humans reviewing the list)"
	case !utf8.ValidString(note):
		return "is not UTF-8 text"
	case strings.ContainsAny(note, "\n\r\u2028\u2029\u0085"):
		return "spans several lines; one line is wanted"
	}
	for _, r := range note {
		if r == '\u200c' || r == '\u200d' {
			continue // ZWNJ, ZWJ: part of words and emoji, never a control
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return fmt.Sprintf("holds the control or formatting character %U; one line of plain text is wanted", r)
		}
	}
	return ""
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

// CheckURL applies Parse's syntax checks to one URL (absolute http or https, a host, no user
// name or password, no #fragment, no surrounding whitespace): nil when it could be enrolled,
// else an error naming the URL (password redacted) and what is wrong. inspect and add use it
// before reading anything. Addresses are not judged here: those callers fetch through the
// guard, which refuses what its --allow-loopback setting refuses and says so; CheckURLWith
// judges them too.
func CheckURL(raw string) error {
	if msg := checkURL(raw); msg != "" {
		return fmt.Errorf("url %q %s", redact(raw), msg)
	}
	return nil
}

// CheckURLWith applies every entry check of ParseWith to one URL: CheckURL's, then the guard's
// checks before any lookup under o.AllowLoopback.
func CheckURLWith(raw string, o Options) error {
	if err := CheckURL(raw); err != nil {
		return err
	}
	if msg := checkFetchable(raw, o.AllowLoopback); msg != "" {
		return fmt.Errorf("url %q %s", redact(raw), msg)
	}
	return nil
}
