// Package find makes the project list's search index at build time: the parts under Dir
// that assets/find.js searches, each checked against its schema.
package find

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// Dir holds the project list's search index, in parts the project list and the plan page's
// project box load as needed (assets/find.js, assets/shards.js):
//
//   - "terms": the words the listed claims are found by, with their rows (schemas.FindTerms).
//   - "i0" .. "if": project ids by first character (schemas.FindIDs).
//   - "filters": each row's filter codes and the sort orders (schemas.FindFilters).
//   - "r0", "r1", ...: what the entries show, Chunk rows a part (schemas.FindRows).
//
// Rows are the listed claims in the project list's order. Parts are script files
// (site/shards), so the plan page, whose CSP allows no connection, and file:// work too.
const Dir = format.DataDir + "/find"

// Chunk is how many rows one rows part holds (about 20 KB a part at 10,000 claims).
const Chunk = 64

// The formats of the parts, one schema each; assets/find.js and assets/site.js refuse others.
const (
	findTermsFormat   = "ashyams-find-terms-1"
	findIDsFormat     = "ashyams-find-ids-1"
	findFiltersFormat = "ashyams-find-filters-1"
	findRowsFormat    = "ashyams-find-rows-1"
)

// Columns are a row's values, in order (arrays: column names would be a third of the part).
var Columns = []string{"key", "name", "version", "site", "type", "status", "game", "tags", "health",
	"conflict", "updated", "first", "runtime", "openmw", "summary", "thumb", "badges"}

// Terms is the "terms" part. Words are the distinct words of every row's shown and more
// text, ids aside, sorted by UTF-16 code units for the script's binary search; Postings[i]
// is the rows holding Words[i] (findPostings). Same lists the rows of each project id more
// than one row claims, NoRelease the rows with no current release.
type Terms struct {
	Format    string   `json:"format"`
	Rows      int      `json:"rows"`
	Chunk     int      `json:"chunk"`
	Same      [][]int  `json:"same"`
	NoRelease string   `json:"no_release"`
	Words     []string `json:"words"`
	Postings  []string `json:"postings"`
}

// IDs is an "i<c>" part: the project ids starting with c that rows are found by, sorted,
// and the rows of each.
type IDs struct {
	Format   string   `json:"format"`
	IDs      []string `json:"ids"`
	Postings []string `json:"postings"`
}

// Filters is the "filters" part: per row the index of its value in Types, Statuses and
// Games, and its OpenMW code (0: works with any version; 1: no constraint; 2+k: OpenMW[k]);
// NotCurrent and Conflict rows; each tag with its rows; the rows in each sort order.
type Filters struct {
	Format     string   `json:"format"`
	Types      []string `json:"types"`
	Type       []int    `json:"type"`
	Statuses   []string `json:"statuses"`
	Status     []int    `json:"status"`
	Games      []string `json:"games"`
	Game       []int    `json:"game"`
	OpenMW     []string `json:"openmw"`
	Runtime    []int    `json:"runtime"`
	NotCurrent string   `json:"not_current"`
	Conflict   string   `json:"conflict"`
	Tags       []string `json:"tags"`
	TagRows    []string `json:"tag_rows"`
	Updated    []int    `json:"updated"`
	First      []int    `json:"first"`
}

// Rows is an "r<k>" part: rows From to From+len(Rows)-1. RowTags is how many of a row's
// tags its entry shows.
type Rows struct {
	Format  string   `json:"format"`
	Columns []string `json:"columns"`
	RowTags int      `json:"row_tags"`
	From    int      `json:"from"`
	Rows    [][]any  `json:"rows"`
}

// findPart is one part of the index: its name, document and schema.
type findPart struct {
	name, schema string
	doc          any
}

// Input is what the index is made from: the listed claims in list order, each one's Entry,
// and how many tags a row shows.
type Input struct {
	Listed  []*network.Claim
	Entry   func(*network.Claim) Entry
	RowTags int
}

// Entry is what the project list shows of a claim beside the model: the fields of its row.
type Entry struct {
	Version, Site, Type, Status, Game, Summary string
	// Updated and First are observation times; Runtime ("constraint", "any" or "none") and
	// OpenMW the OpenMW filter's reading.
	Updated, First, Runtime, OpenMW string
	// Thumb is the first file of the claim's card image ("" for none).
	Thumb string
	Tags  []string
	// Stale: the claim's data is not current.
	Stale bool
	// Badges are the entry's badges, each its class and its words.
	Badges [][2]string
}

// parts is the index's parts, in name order.
func parts(in Input) []findPart {
	listed := in.Listed
	terms := Terms{Format: findTermsFormat, Rows: len(listed), Chunk: Chunk, Same: [][]int{}}
	filt := Filters{Format: findFiltersFormat, Types: []string{}, Statuses: []string{}, Games: []string{}, OpenMW: []string{},
		Type: []int{}, Status: []int{}, Game: []int{}, Runtime: []int{}, Updated: []int{}, First: []int{}}
	post, idPost, tagPost := map[string][]int{}, map[string][]int{}, map[string][]int{}
	project := map[string][]int{}
	var noRelease, notCurrent, conflict []int
	code := func(vals *[]string, at map[string]int, v string) int {
		k, ok := at[v]
		if !ok {
			k = len(*vals)
			at[v] = k
			*vals = append(*vals, v)
		}
		return k
	}
	types, statuses, games, cons := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	var rows [][]any
	updated, first := make([]string, len(listed)), make([]string, len(listed))
	for i, c := range listed {
		s := in.Entry(c)
		row, text := findRow(c, s)
		rows = append(rows, row)
		more, ids := Extra(c)
		for _, w := range Words(text + " " + more) {
			addPosting(post, w, i)
		}
		for _, id := range ids {
			addPosting(idPost, id, i)
		}
		project[c.Key.Project] = append(project[c.Key.Project], i)
		filt.Type = append(filt.Type, code(&filt.Types, types, s.Type))
		filt.Status = append(filt.Status, code(&filt.Statuses, statuses, s.Status))
		filt.Game = append(filt.Game, code(&filt.Games, games, s.Game))
		rt := 0
		switch {
		case s.Runtime == "any":
			rt = 1
		case s.Runtime == "constraint" && s.OpenMW != "":
			rt = 2 + code(&filt.OpenMW, cons, s.OpenMW)
		}
		filt.Runtime = append(filt.Runtime, rt)
		if s.Runtime == "none" {
			noRelease = append(noRelease, i)
		}
		if row[8] != "current" {
			notCurrent = append(notCurrent, i)
		}
		if c.Conflict != nil {
			conflict = append(conflict, i)
		}
		for _, t := range s.Tags {
			addPosting(tagPost, strings.Map(unicode.ToLower, t), i)
		}
		updated[i], first[i] = s.Updated, s.First
	}
	for _, c := range listed {
		if rs := project[c.Key.Project]; len(rs) > 1 {
			terms.Same = append(terms.Same, rs)
			delete(project, c.Key.Project)
		}
	}
	terms.NoRelease, filt.NotCurrent, filt.Conflict = findPostings(noRelease), findPostings(notCurrent), findPostings(conflict)
	terms.Words, terms.Postings = sortedPostings(post)
	filt.Tags, filt.TagRows = sortedPostings(tagPost)
	filt.Updated, filt.First = newestFirst(updated), newestFirst(first)
	return partsOf(terms, filt, idPost, rows, in.RowTags)
}

// partsOf cuts the index into its parts.
func partsOf(terms Terms, filt Filters, idPost map[string][]int, rows [][]any, rowTags int) []findPart {
	parts := []findPart{{"filters", schemas.FindFilters, filt}}
	ids, idRows := sortedPostings(idPost)
	for _, h := range "0123456789abcdef" {
		p := IDs{Format: findIDsFormat, IDs: []string{}, Postings: []string{}}
		for k, id := range ids {
			if id[0] == byte(h) {
				p.IDs, p.Postings = append(p.IDs, id), append(p.Postings, idRows[k])
			}
		}
		parts = append(parts, findPart{"i" + string(h), schemas.FindIDs, p})
	}
	for from := 0; from < len(rows) || from == 0; from += Chunk {
		part := Rows{Format: findRowsFormat, Columns: Columns, RowTags: rowTags, From: from, Rows: rows[from:min(from+Chunk, len(rows))]}
		if part.Rows == nil {
			part.Rows = [][]any{}
		}
		parts = append(parts, findPart{"r" + strconv.Itoa(from/Chunk), schemas.FindRows, part})
	}
	parts = append(parts, findPart{"terms", schemas.FindTerms, terms})
	return parts
}

// addPosting adds row i to w's rows, once.
func addPosting(post map[string][]int, w string, i int) {
	if p := post[w]; len(p) == 0 || p[len(p)-1] != i {
		post[w] = append(p, i)
	}
}

// sortedPostings is post's words in UTF-16 order, each one's rows as findPostings.
func sortedPostings(post map[string][]int) ([]string, []string) {
	words := make([]string, 0, len(post))
	for w := range post {
		words = append(words, w)
	}
	sortUTF16(words)
	rows := make([]string, len(words))
	for k, w := range words {
		rows[k] = findPostings(post[w])
	}
	return words, rows
}

// findPostings is ascending row numbers as base-36 gaps joined by commas ("" for none).
func findPostings(rows []int) string {
	var buf []byte
	prev := 0
	for j, i := range rows {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(i-prev), 36)
		prev = i
	}
	return string(buf)
}

// newestFirst is the rows ordered by times, newest first, equal times in row order.
func newestFirst(times []string) []int {
	o := make([]int, len(times))
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(a, b int) bool { return times[o[a]] > times[o[b]] })
	return o
}

// Write validates each part of the index against its schema and writes it under Dir
// through write, which must not keep data.
func Write(in Input, write func(rel string, data []byte) error) error {
	var buf bytes.Buffer
	var js, data []byte
	var err error
	for _, p := range parts(in) {
		if js, data, err = shards.Script(js[:0], &buf, p.name, p.doc); err != nil {
			return err
		}
		if err := validateFind(p.schema, data); err != nil {
			return fmt.Errorf("generated %s/%s.js does not match its schema: %w", Dir, p.name, err)
		}
		if err := write(Dir+"/"+p.name+".js", js); err != nil {
			return err
		}
	}
	return nil
}

// findRow is c's row and the text a search finds it by: what its entry shows (runtime
// aside) and its site id.
func findRow(c *network.Claim, s Entry) ([]any, string) {
	health, conflict := "current", 0
	if s.Stale {
		health = "not-current"
	}
	if c.Conflict != nil {
		conflict = 1
	}
	badges := s.Badges
	if badges == nil {
		badges = [][2]string{}
	}
	texts := make([]string, 0, len(badges))
	for _, bd := range badges {
		texts = append(texts, bd[1])
	}
	tags := s.Tags
	if tags == nil {
		tags = []string{}
	}
	key := c.Key.Project + "/" + c.Key.Site
	text := strings.Join([]string{c.Name, s.Version, strings.Join(texts, " "), s.Type, s.Status, s.Game, "from", s.Site,
		s.Summary, strings.Join(tags, " "), c.Key.Site}, " ")
	return []any{key, c.Name, s.Version, s.Site, s.Type, s.Status, s.Game, tags, health,
		conflict, s.Updated, s.First, s.Runtime, s.OpenMW, s.Summary, s.Thumb, badges}, text
}

// more is the text a search of c should find that its entry does not show, and the
// project ids it is found by (its own and its relationships'), lowercased.
func Extra(c *network.Claim) (string, []string) {
	parts, ids := []string{}, []string{strings.ToLower(c.Key.Project)}
	if m := c.Manifest; m != nil {
		for _, mt := range m.Project.Maintainers {
			parts = append(parts, mt.Name)
		}
		parts = append(parts, m.Project.License)
	}
	for _, h := range c.Heads {
		parts = append(parts, h.Channel)
	}
	if r := c.Current; r != nil {
		parts = append(parts, r.Provides...)
		for _, rel := range r.Relationships {
			parts = append(parts, rel.Capability, rel.Name)
			if rel.Project != "" {
				ids = append(ids, strings.ToLower(rel.Project))
			}
		}
		if ext := r.OpenMWExtension(); ext != nil {
			parts = append(parts, ext.LuaAPI)
		}
	}
	return strings.Join(parts, " "), ids
}

// words is s's runs of letters and digits, each character lowercased (unicode.ToLower)
// as assets/find.js does, repeats kept.
func Words(s string) []string {
	return strings.FieldsFunc(strings.Map(unicode.ToLower, s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// sortUTF16 sorts words by UTF-16 code units, as JavaScript's < compares strings.
func sortUTF16(words []string) {
	units := make(map[string][]uint16, len(words))
	for _, w := range words {
		units[w] = utf16.Encode([]rune(w))
	}
	sort.Slice(words, func(i, j int) bool { return slices.Compare(units[words[i]], units[words[j]]) < 0 })
}

// findSchemas are the index's schemas, each compiled once.
var findSchemas sync.Map // name -> func() (*jsonschema.Schema, error)

// validateFind checks a part against the schema named; the error names the JSON pointer.
func validateFind(name string, doc []byte) error {
	f, _ := findSchemas.LoadOrStore(name, sync.OnceValues(func() (*jsonschema.Schema, error) { return schemas.Compile(schemas.FS, name) }))
	s, err := f.(func() (*jsonschema.Schema, error))()
	if err != nil {
		return err
	}
	return schemas.Validate(s, doc)
}
