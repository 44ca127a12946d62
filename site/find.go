package site

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// FindFile is the project list's own search index: what site.js needs to match, filter, sort
// and show every listed claim, and nothing else. The page fetches it only when a player first
// uses the search or a filter, so the list's first page costs what it shows. search.json, in
// the reference index's format, stays for other readers.
const FindFile = format.DataDir + "/find.json"

// findFormat names find.json's layout (schemas.Find); assets/find.js refuses any other.
const findFormat = "ashyams-find-2"

// findColumns are a row's values, in order: arrays rather than objects, as the column names
// would be a third of the file.
var findColumns = []string{"key", "name", "version", "site", "type", "status", "game", "tags", "health",
	"conflict", "updated", "first", "runtime", "openmw", "summary", "thumb", "badges"}

// findDoc is find.json. Rows are the listed claims in the project list's order (by name).
// Words are the distinct words (findWords) of every row's text and of what its entry does
// not show but a search should find (findMore), sorted as JavaScript compares strings (UTF-16
// code units) so the script can look them up by binary search; Postings[i] is the rows
// holding Words[i], ascending, as base-36 gaps joined by commas (the first gap from 0).
// RowTags is how many of a row's tags its entry shows. Minified: nobody reads it but the script.
type findDoc struct {
	Format   string   `json:"format"`
	Columns  []string `json:"columns"`
	RowTags  int      `json:"row_tags"`
	Rows     [][]any  `json:"rows"`
	Words    []string `json:"words"`
	Postings []string `json:"postings"`
}

func (b *builder) findJSON() ([]byte, error) {
	doc := findDoc{Format: findFormat, Columns: findColumns, RowTags: rowTags}
	post := map[string][]int{}
	for i, c := range byName(b.n.Listed) {
		row, text := b.findRow(c)
		doc.Rows = append(doc.Rows, row)
		more, ids := findMore(c)
		for _, w := range append(findWords(text+" "+more), ids...) {
			if p := post[w]; len(p) == 0 || p[len(p)-1] != i {
				post[w] = append(p, i)
			}
		}
	}
	doc.Words = make([]string, 0, len(post))
	for w := range post {
		doc.Words = append(doc.Words, w)
	}
	sortUTF16(doc.Words)
	doc.Postings = make([]string, len(doc.Words))
	var buf []byte
	for k, w := range doc.Words {
		buf, prev := buf[:0], 0
		for j, i := range post[w] {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(i-prev), 36)
			prev = i
		}
		doc.Postings[k] = string(buf)
	}
	if doc.Rows == nil {
		doc.Rows = [][]any{}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", FindFile, err)
	}
	return out, nil
}

// findRow is c's row of find.json (findColumns), and the text a search finds it by: what its
// entry shows (its runtime aside: the OpenMW filter answers that) and its site id.
func (b *builder) findRow(c *network.Claim) ([]any, string) {
	s := b.summarize(c)
	r := b.ref(c)
	health, conflict := "current", 0
	if r.Stale != staleNone {
		health = "not-current"
	}
	if c.Conflict != nil {
		conflict = 1
	}
	thumb := ""
	if s.Card != nil && len(s.Card.Files) > 0 {
		thumb = s.Card.Files[0]
	}
	badges := make([][2]string, 0, len(r.Badges))
	texts := make([]string, 0, len(r.Badges))
	for _, bd := range r.Badges {
		badges = append(badges, [2]string{bd.Class, bd.Text})
		texts = append(texts, bd.Text)
	}
	tags := s.Tags
	if tags == nil {
		tags = []string{}
	}
	key := c.Key.Project + "/" + c.Key.Site
	text := strings.Join([]string{c.Name, s.Version, strings.Join(texts, " "), s.Type, s.Status, s.Game, "from", r.SiteText,
		s.Summary, strings.Join(tags, " "), c.Key.Site}, " ")
	return []any{key, c.Name, s.Version, r.SiteText, s.Type, s.Status, s.Game, tags, health,
		conflict, s.Updated, s.First, s.Runtime, s.OpenMW, s.Summary, thumb, badges}, text
}

// findMore is the text a search of c should find that its entry does not show: maintainers,
// license, channels, what its current release provides and names in its relationships, its
// Lua API; and the project ids it is found by, its own and those its relationships name, each
// one word (lowercased), as a vocabulary of their parts would be mostly hex.
func findMore(c *network.Claim) (string, []string) {
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

// findWords is s's words as assets/find.js reads them: runs of letters and digits, each
// character lowercased on its own (unicode.ToLower, which the script matches), repeats kept.
func findWords(s string) []string {
	return strings.FieldsFunc(strings.Map(unicode.ToLower, s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// sortUTF16 sorts words as JavaScript's < compares strings: by UTF-16 code units, which
// differs from Go's byte order where a character past U+FFFF meets one from U+E000.
func sortUTF16(words []string) {
	units := make(map[string][]uint16, len(words))
	for _, w := range words {
		units[w] = utf16.Encode([]rune(w))
	}
	sort.Slice(words, func(i, j int) bool { return slices.Compare(units[words[i]], units[words[j]]) < 0 })
}

// findSchema is find.json's schema (schemas.Find), compiled once.
var findSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return schemas.Compile(schemas.FS, schemas.Find) })

// validateFind checks find.json against its schema; the error names the JSON pointer of the
// value that does not match.
func validateFind(doc []byte) error {
	s, err := findSchema()
	if err != nil {
		return err
	}
	return schemas.Validate(s, doc)
}
