// Package curation reads network/curation.toml, this index's own decisions (SPEC sections 3, 5
// and 6): [[migration]] reviewed host moves and [[featured]] front-page projects. A bad file is
// refused when loaded, every problem at once; an absent file is an empty curation.
package curation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/tomlfile"
)

// Migration is one reviewed host move (a `[[migration]]` entry) between two site index URLs.
type Migration struct {
	Project  string // the project id, a lowercase UUID
	From     string // the old site index URL, absolute http(s)
	To       string // the new site index URL, absolute http(s), not From
	Reason   string // why, in words; never empty
	Reviewed string // the review date, YYYY-MM-DD, a real calendar date
	Entry    int    // 1-based position among the [[migration]] entries
}

// Featured is one front-page choice (a `[[featured]]` entry): a project id and why.
type Featured struct {
	Project string // the project id, a lowercase UUID
	Note    string // why this index features it, in words; never empty
	Entry   int    // 1-based position among the [[featured]] entries: the order shown
}

// Curation is a loaded curation file.
type Curation struct {
	Migrations []Migration // the [[migration]] entries, in file order
	Featured   []Featured  // the [[featured]] entries, in file order
}

// Problem is one thing wrong with the file.
type Problem struct {
	Entry   string // "[[migration]] #2 (project ...)", or "file" for the whole document
	Message string // what is wrong, naming the field
	Line    int    // the line of the entry's [[...]] header (of the syntax error for "file"); 0 when unknown
}

// String is "line L: <entry>: <message>", leaving the line out when it is unknown.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.Entry + ": " + p.Message
	}
	return fmt.Sprintf("line %d: %s: %s", p.Line, p.Entry, p.Message)
}

func atLine(ps []Problem, line int) []Problem {
	for i := range ps {
		if ps[i].Line == 0 {
			ps[i].Line = line
		}
	}
	return ps
}

// Error is a refused curation file: its path and every problem found.
type Error struct {
	Path     string    // the curation file's path, as given to Load
	Problems []Problem // every problem found: the file's own first, then each entry's; at least one
}

// Error is "<path>: refused", then each problem on its own indented line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: refused", e.Path)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", p.Entry, p.Message)
	}
	return b.String()
}

// Load reads and checks the curation file at path; a missing file is an empty curation. Bad
// content is an *Error naming the path.
func Load(path string) (*Curation, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Curation{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("curation: %w", err)
	}
	return Parse(path, b)
}

// Parse checks the curation document b (name for messages): unknown keys, missing fields, bad
// ids, URLs and dates, repeats, a project moved from one site to two, and cycles of moves.
func Parse(name string, b []byte) (*Curation, error) {
	f, err := tomlfile.Decode(b, shape)
	if err != nil {
		var se *tomlfile.SyntaxError
		if !errors.As(err, &se) {
			se = &tomlfile.SyntaxError{Message: err.Error()}
		}
		return nil, &Error{Path: name, Problems: []Problem{{Entry: "file", Message: "not valid TOML: " + se.Error(), Line: se.Line}}}
	}
	c := &Curation{}
	var ps []Problem
	for _, k := range f.UnknownTop() {
		ps = append(ps, Problem{Entry: "file", Message: fmt.Sprintf("unknown key %q (want [[migration]] or [[featured]] entries)", k)})
	}
	migs, p := entries(f.Doc, "migration")
	lines := func(n int) int { return f.Header("migration", n) }
	ps = append(ps, p...)
	seenMig := map[[2]string]int{}
	for i, m := range migs {
		mg, p := migration(i+1, m, f.Unknown("migration", m))
		ps = append(ps, atLine(p, lines(i+1))...)
		if len(p) > 0 {
			continue
		}
		key := [2]string{mg.Project, mg.From}
		if prev, ok := seenMig[key]; ok {
			if to := c.Migrations[prev].To; to != mg.To {
				ps = append(ps, Problem{Entry: mg.label(), Line: lines(mg.Entry), Message: fmt.Sprintf("moves the project from %s to %s%s, but [[migration]] #%d%s moves it from the same site to %s: a claim continues at one site, not two",
					mg.From, mg.To, at(lines, mg.Entry), c.Migrations[prev].Entry, at(lines, c.Migrations[prev].Entry), to)})
				continue
			}
			ps = append(ps, Problem{Entry: mg.label(), Line: lines(mg.Entry), Message: fmt.Sprintf("repeats [[migration]] #%d (same project and from)", c.Migrations[prev].Entry)})
			continue
		}
		seenMig[key] = len(c.Migrations)
		c.Migrations = append(c.Migrations, mg)
	}
	ps = append(ps, cycles(c.Migrations, lines)...)
	feats, p := entries(f.Doc, "featured")
	ps = append(ps, p...)
	seenFeat := map[string]int{}
	for i, m := range feats {
		ft, p := featured(i+1, m, f.Unknown("featured", m))
		ps = append(ps, atLine(p, f.Header("featured", i+1))...)
		if len(p) > 0 {
			continue
		}
		if prev, ok := seenFeat[ft.Project]; ok {
			ps = append(ps, Problem{Entry: ft.label(), Line: f.Header("featured", ft.Entry), Message: fmt.Sprintf("repeats [[featured]] #%d (same project)", prev)})
			continue
		}
		seenFeat[ft.Project] = ft.Entry
		c.Featured = append(c.Featured, ft)
	}
	if len(ps) > 0 {
		return nil, &Error{Path: name, Problems: ps}
	}
	return c, nil
}

// cycles finds, per project, the moves that lead back to a site they left; each cycle is one
// problem on its highest-numbered entry.
func cycles(migs []Migration, lines func(entry int) int) []Problem {
	next := map[[2]string]Migration{} // project, from -> the move
	for _, m := range migs {
		next[[2]string{m.Project, m.From}] = m
	}
	var ps []Problem
	reported := map[int]bool{}
	for _, m := range migs {
		if reported[m.Entry] {
			continue
		}
		path := []Migration{m}
		seen := map[string]int{m.From: 0}
		cur := m
		for {
			n, ok := next[[2]string{m.Project, cur.To}]
			if !ok {
				break
			}
			if i, loop := seen[n.From]; loop {
				if i == 0 { // the walk came back to m's own site: m is on a cycle
					ps = append(ps, cycleProblem(path, lines))
					for _, c := range path {
						reported[c.Entry] = true
					}
				}
				break
			}
			seen[n.From] = len(path)
			path = append(path, n)
			cur = n
		}
	}
	return ps
}

// cycleProblem words one cycle of moves, starting at its first entry in the file.
func cycleProblem(path []Migration, lines func(entry int) int) Problem {
	first, last := 0, 0
	for i, m := range path {
		if m.Entry < path[first].Entry {
			first = i
		}
		if m.Entry > path[last].Entry {
			last = i
		}
	}
	closing := path[last]
	path = append(path[first:], path[:first]...)
	var parts []string
	for _, m := range path {
		parts = append(parts, fmt.Sprintf("[[migration]] #%d%s moves it from %s to %s", m.Entry, at(lines, m.Entry), m.From, m.To))
	}
	what := "moves that contradict each other"
	if len(path) > 2 {
		what = "a cycle of moves"
	}
	return Problem{Entry: closing.label(), Message: what + ": " + strings.Join(parts, "; ") +
		"; they lead back to the site they start from, so no site is where the claim continues"}
}

// at is " (line N)" for entry n when its header line is known, else "".
func at(lines func(entry int) int, n int) string {
	if l := lines(n); l > 0 {
		return fmt.Sprintf(" (line %d)", l)
	}
	return ""
}

func (m Migration) label() string { return label("migration", m.Entry, m.Project) }
func (f Featured) label() string  { return label("featured", f.Entry, f.Project) }

func label(table string, n int, project string) string {
	if store.IsProjectID(project) {
		return fmt.Sprintf("[[%s]] #%d (project %s)", table, n, project)
	}
	return fmt.Sprintf("[[%s]] #%d", table, n)
}

// shape is what a curation file may hold: the two arrays of tables and their entries' keys.
var shape = tomlfile.Shape{
	"migration": {"project", "from", "to", "reason", "reviewed"},
	"featured":  {"project", "note"},
}

// entries returns the array of tables under key, refusing any other shape.
func entries(doc map[string]any, key string) ([]map[string]any, []Problem) {
	v, ok := doc[key]
	if !ok {
		return nil, nil
	}
	list, ok := tomlfile.Array(v)
	if !ok {
		return nil, []Problem{{Entry: "file", Message: fmt.Sprintf("%q is %s; write each entry as a [[%s]] table", key, tomlfile.TypeName(v), key)}}
	}
	out := make([]map[string]any, 0, len(list))
	var ps []Problem
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			ps = append(ps, Problem{Entry: fmt.Sprintf("[[%s]] #%d", key, i+1), Message: fmt.Sprintf("is %s, not a table", tomlfile.TypeName(e))})
			continue
		}
		out = append(out, m)
	}
	return out, ps
}

func migration(n int, m map[string]any, unknown []string) (Migration, []Problem) {
	mg := Migration{Entry: n}
	ps, bad := entryProblems("migration", n, m, unknown, "project, from, to, reason, reviewed")
	mg.Project = projectField(m, bad)
	for _, u := range []struct {
		key string
		v   *string
	}{{"from", &mg.From}, {"to", &mg.To}} {
		if *u.v = stringField(m, u.key, bad); *u.v != "" {
			if msg := tomlfile.CheckURL(*u.v); msg != "" {
				bad("%s %q %s", u.key, *u.v, msg)
			}
		}
	}
	if mg.From != "" && mg.From == mg.To {
		bad("from and to are the same site index URL; a move needs two sites")
	}
	mg.Reason = stringField(m, "reason", bad)
	if v, ok := m["reviewed"]; !ok {
		bad("reviewed is missing (the date this move was reviewed, YYYY-MM-DD)")
	} else if date, msg := tomlfile.Date("reviewed", v); msg != "" {
		bad("%s", msg)
	} else {
		mg.Reviewed = date // a bare TOML local date (reviewed = 2026-09-28) is a date too
	}
	return mg, *ps
}

func featured(n int, m map[string]any, unknown []string) (Featured, []Problem) {
	ps, bad := entryProblems("featured", n, m, unknown, "project, note")
	f := Featured{Entry: n, Project: projectField(m, bad)}
	f.Note = stringField(m, "note", bad)
	return f, *ps
}

// entryProblems starts the problems of the n-th entry of table with its unknown keys, and
// returns the function that adds one more.
func entryProblems(table string, n int, m map[string]any, unknown []string, want string) (*[]Problem, func(string, ...any)) {
	project, _ := m["project"].(string)
	lbl, ps := label(table, n, project), new([]Problem)
	bad := func(format string, a ...any) {
		*ps = append(*ps, Problem{Entry: lbl, Message: fmt.Sprintf(format, a...)})
	}
	for _, k := range unknown {
		bad("unknown key %q (want %s)", k, want)
	}
	return ps, bad
}

func projectField(m map[string]any, bad func(string, ...any)) string {
	p := stringField(m, "project", bad)
	if p != "" && !store.IsProjectID(p) {
		bad("project %q is not a lowercase UUID", p)
	}
	return p
}

// stringField returns m[key] as a non-blank string, or "" having said what is wrong.
func stringField(m map[string]any, key string, bad func(string, ...any)) string {
	v, ok := m[key]
	s, isString := v.(string)
	switch {
	case !ok:
		bad("%s is missing", key)
	case !isString:
		bad("%s is %s, not a string", key, tomlfile.TypeName(v))
	case strings.TrimSpace(s) == "":
		bad("%s is empty", key)
	default:
		return s
	}
	return ""
}

// FeaturedProject reports whether id is featured, and the entry when it is.
func (c *Curation) FeaturedProject(id string) (Featured, bool) {
	if c != nil {
		if i := slices.IndexFunc(c.Featured, func(f Featured) bool { return f.Project == id }); i >= 0 {
			return c.Featured[i], true
		}
	}
	return Featured{}, false
}
