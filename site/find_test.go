package site

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFindIndex: find.json holds one row per listed claim, in the project list's order, each
// with every column; it is minified and valid under its schema; its words are sorted as the
// script compares them, and each word's postings name exactly the rows whose text holds it,
// including what the entry does not show (a maintainer's name).
func TestFindIndex(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	synthState(t, state, 30)
	res, out := build(t, state, Options{})
	raw := readOut(t, out, FindFile)
	if bytes.Contains(raw, []byte("\n ")) {
		t.Error("find.json is indented")
	}
	if err := validateFind(raw); err != nil {
		t.Errorf("find.json breaks its schema: %v", err)
	}
	var doc findDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != findFormat || !slices.Equal(doc.Columns, findColumns) || doc.RowTags != rowTags {
		t.Fatalf("find.json: format %q, columns %v, row_tags %d", doc.Format, doc.Columns, doc.RowTags)
	}
	listed := byName(res.Network.Listed)
	if len(doc.Rows) != len(listed) {
		t.Fatalf("find.json has %d rows for %d listed claims", len(doc.Rows), len(listed))
	}
	for i, r := range doc.Rows {
		if len(r) != len(doc.Columns) {
			t.Fatalf("row %d has %d values for %d columns", i, len(r), len(doc.Columns))
		}
		if k := listed[i].Key.Project + "/" + listed[i].Key.Site; r[0] != k {
			t.Errorf("row %d is %v, want %s (name order)", i, r[0], k)
		}
	}
	if len(doc.Words) != len(doc.Postings) || len(doc.Words) == 0 {
		t.Fatalf("find.json has %d words and %d postings", len(doc.Words), len(doc.Postings))
	}
	rows := map[string][]int{}
	for k, w := range doc.Words {
		if k > 0 && doc.Words[k-1] >= w { // ASCII here: byte order is UTF-16 order
			t.Errorf("words %q and %q are out of order", doc.Words[k-1], w)
		}
		at := 0
		for _, g := range strings.Split(doc.Postings[k], ",") {
			n, err := strconv.ParseInt(g, 36, 64)
			if err != nil {
				t.Fatalf("word %q: posting %q: %v", w, doc.Postings[k], err)
			}
			at += int(n)
			rows[w] = append(rows[w], at)
		}
	}
	for i, c := range listed {
		words := map[string]bool{}
		more, ids := findMore(c)
		for _, w := range append(findWords(c.Name+" "+more+" "+c.Key.Site), ids...) {
			words[w] = true
		}
		if !words[c.Key.Project] {
			t.Fatalf("claim %d's words %v lack its project id whole", i, words)
		}
		if !words["someone"] {
			t.Fatalf("claim %d's words %v lack the maintainer", i, words)
		}
		for w := range words {
			if !slices.Contains(rows[w], i) {
				t.Errorf("the postings of %q (%v) lack row %d", w, rows[w], i)
			}
		}
	}
	for w, rs := range rows {
		if !slices.IsSorted(rs) || len(slices.Compact(slices.Clone(rs))) != len(rs) {
			t.Errorf("the rows of %q are not ascending: %v", w, rs)
		}
	}
}

// TestFindWords: the build's words are runs of letters and digits, lowercased a character at
// a time, and sort as JavaScript compares strings (a character past U+FFFF after U+E000..).
func TestFindWords(t *testing.T) {
	for in, want := range map[string]string{
		"Candlelight: 0.49-Lua!":  "candlelight 0 49 lua",
		"ΟΔΟΣ İstanbul":           "οδοσ istanbul",
		"a\u0301b  x_y\u200dz 12": "a b x y z 12",
		"":                        "",
	} {
		if got := strings.Join(findWords(in), " "); got != want {
			t.Errorf("findWords(%q) = %q, want %q", in, got, want)
		}
	}
	ws := []string{"\U0001F600", "\uFF21", "b", "a"}
	sortUTF16(ws)
	if want := []string{"a", "b", "\U0001F600", "\uFF21"}; !slices.Equal(ws, want) {
		t.Errorf("sortUTF16 = %q, want %q", ws, want)
	}
}
