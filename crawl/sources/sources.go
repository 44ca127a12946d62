// Package sources reads network/sources.toml, the sites this index reads (SPEC section 6): one
// [[source]] per enrolled URL with url, added (YYYY-MM-DD) and note. A bad file is refused with
// every problem at once and fails the refresh. Messages never show a password.
package sources

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/catalog/tomlfile"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// Options change what a source list may hold.
type Options struct {
	// AllowLoopback admits loopback hosts and localhost, for local drills (--allow-loopback);
	// private, metadata and reserved addresses stay refused.
	AllowLoopback bool
	// AllowEmpty admits a list with no entries (`add` may start one); a refresh never sets it.
	AllowEmpty bool
}

// Source is one enrolled URL. Entry is its 1-based place among the [[source]] tables, Line the
// line of its `url` key (0 when unknown).
type Source struct {
	URL   string
	Added string // YYYY-MM-DD, "" when absent
	Note  string
	Entry int
	Line  int
}

// Problem is one thing wrong with the file: the entry (0: the file), its line (0: unknown)
// and what is wrong.
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

// LoadWith reads and checks the source list at path: a missing file, an empty list (never an
// empty network), bad TOML or any bad entry (*Error naming each) is an error.
func LoadWith(path string, o Options) ([]Source, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	return ParseWith(path, b, o)
}

// Parse is ParseWith(name, b, Options{}): loopback hosts are refused.
func Parse(name string, b []byte) ([]Source, error) { return ParseWith(name, b, Options{}) }

// ParseWith checks the source list b (name for messages), refusing bad TOML, keys but
// `source`, unknown keys, a url tomlfile.CheckURL or the guard refuses (localhost unless
// o.AllowLoopback), a url twice (dupKey), an `added` that is no date, a bad `note`.
func ParseWith(name string, b []byte, o Options) ([]Source, error) {
	f, err := tomlfile.Decode(b, tomlfile.Shape{"source": entryKeys})
	if err != nil {
		var se *tomlfile.SyntaxError
		if !errors.As(err, &se) {
			se = &tomlfile.SyntaxError{Message: err.Error()}
		}
		return nil, &Error{Path: name, Problems: []Problem{{Line: se.Line, Message: "not valid TOML: " + se.Message}}}
	}
	tables, ps := sourceTables(f)
	if len(tables) == 0 && len(ps) == 0 && !o.AllowEmpty {
		// A refresh would withdraw every claim and the next deploy publish an empty index.
		ps = append(ps, Problem{Message: "lists no [[source]] entries; a refresh would withdraw every claim of every site (remove sites one entry at a time)"})
	}
	var out []Source
	seen := map[string]int{}
	for i, m := range tables {
		n := i + 1
		s, eps := readEntry(n, m, f, o)
		if s.URL != "" {
			key := dupKey(s.URL)
			if prev, ok := seen[key]; ok {
				eps = append(eps, Problem{Entry: n, Line: s.Line, Message: fmt.Sprintf("url %q repeats [[source]] #%d (line %d)", termtext.RedactURL(s.URL), prev, out[prev-1].Line)})
			} else {
				seen[key] = n
			}
		}
		if len(eps) > 0 {
			s.URL = "" // failed; kept so indexes stay aligned
		}
		ps = append(ps, eps...)
		out = append(out, s)
	}
	if len(ps) > 0 {
		return nil, &Error{Path: name, Problems: ps}
	}
	return out, nil
}

// sourceTables returns a decoded list's [[source]] tables and top-level problems; a non-table
// entry reads as an empty one, so entry numbers stay the file's.
func sourceTables(f *tomlfile.File) ([]map[string]any, []Problem) {
	var ps []Problem
	for _, k := range f.UnknownTop() {
		ps = append(ps, Problem{Message: fmt.Sprintf("unknown key %q (want [[source]] entries)", k)})
	}
	v, ok := f.Doc["source"]
	if !ok {
		return nil, ps
	}
	list, ok := tomlfile.Array(v)
	if !ok {
		return nil, append(ps, Problem{Message: `"source" is not an array of [[source]] tables`})
	}
	var tables []map[string]any
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			ps = append(ps, Problem{Entry: i + 1, Message: "is not a table"})
			m = map[string]any{}
		}
		tables = append(tables, m)
	}
	return tables, ps
}

var entryKeys = []string{"url", "added", "note"}

// readEntry reads the n-th [[source]] table; the Source's URL is set only when it passed.
func readEntry(n int, m map[string]any, f *tomlfile.File, o Options) (Source, []Problem) {
	s := Source{Entry: n, Line: cmp.Or(f.KeyLine("source", n, "url"), f.Header("source", n))}
	var ps []Problem
	bad := func(format string, a ...any) {
		ps = append(ps, Problem{Entry: n, Line: s.Line, Message: fmt.Sprintf(format, a...)})
	}
	for _, k := range f.Unknown("source", m) {
		bad("unknown key %q (want url, added, note)", k)
	}
	switch v := m["url"].(type) {
	case nil:
		bad("url is missing")
	case string:
		if msg := tomlfile.CheckURL(v); msg != "" {
			bad("url %q %s", termtext.RedactURL(v), msg)
		} else if msg := checkFetchable(v, o.AllowLoopback); msg != "" {
			bad("url %q %s", termtext.RedactURL(v), msg)
		} else {
			s.URL = v
		}
	default:
		bad("url is %s, not a string", tomlfile.TypeName(v))
	}
	if v, ok := m["added"]; !ok {
		bad("added is missing (the day the site was enrolled, YYYY-MM-DD)")
	} else if date, msg := tomlfile.Date("added", v); msg != "" {
		bad("%s", msg)
	} else {
		s.Added = date
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
		bad("note is %s, not a string", tomlfile.TypeName(v))
	}
	return s, ps
}

// checkFetchable returns "" when the guard would try to fetch s, else why not: guard.CheckURL,
// and localhost (RFC 6761) unless loopback is allowed.
func checkFetchable(s string, allowLoopback bool) string {
	u, err := guard.CheckURL(s, allowLoopback)
	if err != nil {
		var re *guard.Error
		if !errors.As(err, &re) {
			return "is refused: " + err.Error()
		}
		return "is refused by the crawler's guard: " + re.Reason // a loopback refusal names --allow-loopback
	}
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if !allowLoopback && (h == "localhost" || strings.HasSuffix(h, ".localhost")) {
		return "is refused by the crawler's guard: localhost is loopback (" + guard.LoopbackHint + ")"
	}
	return ""
}

// dupKey is the URL as a site sees the request: canonical, no fragment, empty path "/".
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

// Enrolled returns the entry of list that enrolls u already (dupKey), or nil.
func Enrolled(list []Source, u string) *Source {
	key := dupKey(u)
	for i := range list {
		if dupKey(list[i].URL) == key {
			return &list[i]
		}
	}
	return nil
}

// AppendEntry returns list with a [[source]] entry for s appended after one blank line, every
// byte of list kept. s must pass CheckNote and CheckURL, so only \ and " need escapes.
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

func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// CheckNote returns "" for a usable note, else what is wrong: empty, not UTF-8, several lines,
// or a character that hides, reorders or breaks text (ZWNJ and ZWJ stay: scripts need them).
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
			continue
		}
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return fmt.Sprintf("holds the control or formatting character %U; one line of plain text is wanted", r)
		}
	}
	return ""
}

// CheckURL applies ParseWith's syntax checks to one URL, for inspect and add: nil, or an error
// naming the URL (password redacted). Addresses are left to the guard.
func CheckURL(raw string) error {
	if msg := tomlfile.CheckURL(raw); msg != "" {
		return fmt.Errorf("url %q %s", termtext.RedactURL(raw), msg)
	}
	return nil
}
