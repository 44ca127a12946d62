package site

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// decodePostings is a postings string as the script decodes it.
func decodePostings(t *testing.T, p string) []int {
	t.Helper()
	var out []int
	if p == "" {
		return out
	}
	at := 0
	for _, g := range strings.Split(p, ",") {
		n, err := strconv.ParseInt(g, 36, 64)
		if err != nil {
			t.Fatalf("posting %q: %v", p, err)
		}
		at += int(n)
		out = append(out, at)
	}
	if !slices.IsSorted(out) || len(slices.Compact(slices.Clone(out))) != len(out) {
		t.Errorf("postings %q are not ascending: %v", p, out)
	}
	return out
}

// TestFindIndex: the search index's parts (network-data/find/) are each valid under their
// kind's schema; the rows parts hold one row per listed claim, in the project list's order,
// find.Chunk a part, each with every column; the terms part's words are sorted as the script
// compares them, hold no project id, and each word's postings name exactly the rows whose
// text holds it, including what the entry does not show (a maintainer's name); every
// project id is in the part of its first character with its row; the filters part gives each
// row's type, health, OpenMW code and tags and the rows newest first; the rows sharing a
// project id and those without a current release are listed.
func TestFindIndex(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	synthState(t, state, 210) // one identity conflict in 200 claims, four rows parts
	res, out := build(t, state, Options{})
	parts := dataParts(t, out, find.Dir)
	schemaOf := func(name string) string {
		switch {
		case name == "terms":
			return schemas.FindTerms
		case name == "filters":
			return schemas.FindFilters
		case strings.HasPrefix(name, "i"):
			return schemas.FindIDs
		case strings.HasPrefix(name, "r"):
			return schemas.FindRows
		}
		t.Fatalf("an unexpected part %s", name)
		return ""
	}
	for name, b := range parts {
		sch, err := schemas.Compile(schemas.FS, schemaOf(name))
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(sch, b); err != nil {
			t.Errorf("%s breaks its schema: %v", name, err)
		}
	}
	listed := view.ByName(res.Network.Listed)
	var terms find.Terms
	var filt find.Filters
	for name, v := range map[string]any{"terms": &terms, "filters": &filt} {
		if err := json.Unmarshal(parts[name], v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if terms.Rows != len(listed) || terms.Chunk != find.Chunk {
		t.Fatalf("terms: %d rows in chunks of %d, want %d in %d", terms.Rows, terms.Chunk, len(listed), find.Chunk)
	}
	var rows [][]any
	for k := 0; k*find.Chunk < len(listed); k++ {
		var p find.Rows
		if err := json.Unmarshal(parts["r"+strconv.Itoa(k)], &p); err != nil {
			t.Fatalf("r%d: %v", k, err)
		}
		if p.From != k*find.Chunk || !slices.Equal(p.Columns, find.Columns) || p.RowTags != view.RowTags {
			t.Fatalf("r%d: from %d, columns %v, row_tags %d", k, p.From, p.Columns, p.RowTags)
		}
		rows = append(rows, p.Rows...)
	}
	if len(rows) != len(listed) || parts["r"+strconv.Itoa(len(listed)/find.Chunk+1)] != nil {
		t.Fatalf("the rows parts hold %d rows for %d listed claims", len(rows), len(listed))
	}
	for i, r := range rows {
		if len(r) != len(find.Columns) {
			t.Fatalf("row %d has %d values for %d columns", i, len(r), len(find.Columns))
		}
		if k := listed[i].Key.Project + "/" + listed[i].Key.Site; r[0] != k {
			t.Errorf("row %d is %v, want %s (name order)", i, r[0], k)
		}
	}

	if len(terms.Words) != len(terms.Postings) || len(terms.Words) == 0 {
		t.Fatalf("terms has %d words and %d postings", len(terms.Words), len(terms.Postings))
	}
	found := map[string][]int{}
	for k, w := range terms.Words {
		if k > 0 && terms.Words[k-1] >= w { // ASCII here: byte order is UTF-16 order
			t.Errorf("words %q and %q are out of order", terms.Words[k-1], w)
		}
		found[w] = decodePostings(t, terms.Postings[k])
	}
	ids := map[string][]int{}
	for name, b := range parts {
		if !strings.HasPrefix(name, "i") {
			continue
		}
		var p find.IDs
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		for k, id := range p.IDs {
			if "i"+id[:1] != name {
				t.Errorf("the id %s is in part %s", id, name)
			}
			ids[id] = decodePostings(t, p.Postings[k])
		}
	}
	same := map[string][]int{}
	var noRelease []int
	for i, c := range listed {
		words := map[string]bool{}
		more, _ := find.Extra(c)
		for _, w := range find.Words(c.Name + " " + more + " " + c.Key.Site) {
			words[w] = true
		}
		if !words["someone"] {
			t.Fatalf("claim %d's words %v lack the maintainer", i, words)
		}
		for w := range words {
			if !slices.Contains(found[w], i) {
				t.Errorf("the postings of %q (%v) lack row %d", w, found[w], i)
			}
		}
		if found[c.Key.Project] != nil {
			t.Errorf("the project id %s is among the words", c.Key.Project)
		}
		if !slices.Contains(ids[c.Key.Project], i) {
			t.Errorf("the id part of %s (%v) lacks row %d", c.Key.Project, ids[c.Key.Project], i)
		}
		same[c.Key.Project] = append(same[c.Key.Project], i)
		if c.Current == nil {
			noRelease = append(noRelease, i)
		}
		typ, runtime, openmw := rows[i][4].(string), rows[i][12].(string), rows[i][13].(string)
		if got := filt.Types[filt.Type[i]]; got != typ {
			t.Errorf("row %d's type code says %q, want %q", i, got, typ)
		}
		switch rt := filt.Runtime[i]; {
		case runtime == "any" && rt != 1, runtime == "none" && rt != 0, runtime == "constraint" && (rt < 2 || filt.OpenMW[rt-2] != openmw):
			t.Errorf("row %d's OpenMW code is %d for %s %q", i, rt, runtime, openmw)
		}
		if notCurrent := slices.Contains(decodePostings(t, filt.NotCurrent), i); notCurrent != (rows[i][8] == "not-current") {
			t.Errorf("row %d is %v, and in not_current: %v", i, rows[i][8], notCurrent)
		}
		for _, tag := range rows[i][7].([]any) {
			tag := tag.(string)
			k, ok := slices.BinarySearch(filt.Tags, strings.Map(unicode.ToLower, tag))
			if !ok || !slices.Contains(decodePostings(t, filt.TagRows[k]), i) {
				t.Errorf("row %d's tag %q is not among the tags' rows", i, tag)
			}
		}
	}
	var wantSame [][]int
	for _, c := range listed {
		if rs := same[c.Key.Project]; len(rs) > 1 {
			wantSame = append(wantSame, rs)
			delete(same, c.Key.Project)
		}
	}
	if len(wantSame) == 0 || !slices.EqualFunc(terms.Same, wantSame, slices.Equal) {
		t.Errorf("terms.same = %v, want %v (the synthetic state has identity conflicts)", terms.Same, wantSame)
	}
	if got := decodePostings(t, terms.NoRelease); !slices.Equal(got, noRelease) {
		t.Errorf("no_release = %v, want %v", got, noRelease)
	}
	for _, o := range [][]int{filt.Updated, filt.First} {
		if len(o) != len(listed) {
			t.Fatalf("an order of %d rows for %d", len(o), len(listed))
		}
	}
	for k := 1; k < len(filt.Updated); k++ {
		a, b := filt.Updated[k-1], filt.Updated[k]
		if x, y := rows[a][10].(string), rows[b][10].(string); x < y || x == y && a > b {
			t.Errorf("updated order: row %d (%s) before row %d (%s)", a, x, b, y)
		}
	}
}
