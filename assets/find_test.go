package assets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestFindMatches: the search engine (find.js) finds an entry when every query word starts,
// or (from three characters) sits inside, one of its words, or is a typo of a word of letters
// sharing its first character (one edit from four letters, two from eight); hex words joined
// by hyphens, four characters or more, also find the entries whose project id they start
// (a pasted id finds its entry, a short hex word no id); it finds nothing for a word no
// entry comes near, every entry for a query of no word, and the same from the index as the
// build writes it (terms and id parts) as from the texts.
func TestFindMatches(t *testing.T) {
	texts := []string{
		"Candlelight 1.2 mod active from Lantern Works",
		"Lantern Keeper tool from Site 7",
		"Synthetic project 00042 from Σπίτι",
		"Morrowind Rebirth Cafe",
	}
	ids := [][]string{
		{"4d0c9f6e-0000-4000-8000-000000000001"},
		{"cafe0000-0000-4000-8000-000000000002", "4d0c9f6e-0000-4000-8000-000000000001"},
		{"0042aaaa-0000-4000-8000-000000000003"},
		{"deadbeef-0000-4000-8000-000000000004"},
	}
	cases := []struct {
		q    string
		want any // []int, or nil for every entry
	}{
		{"candlelight", []int{0}},
		{"CANDLE", []int{0}},          // a prefix, any case
		{"light", []int{0}},           // inside a word
		{"li", []int{}},               // too short to be inside one
		{"candelight", []int{0}},      // one letter left out
		{"cnadlelight", []int{0}},     // two swapped
		{"candlelihgt", []int{0}},     // two edits in eight letters or more
		{"xandlelight", []int{}},      // a typo in the first letter is not forgiven
		{"keeq", []int{}},             // one edit from no word (keeper is three away)
		{"keepre", []int{1}},          // a swap at the end
		{"lantern from", []int{0, 1}}, // every word must match
		{"lantern 00042", []int{}},    // in no one entry together
		{"σπίτι", []int{2}},           // letters past ASCII
		{"ΣΠΊΤΙ", []int{2}},           // lowercased a character at a time
		{"rebirh", []int{3}},          // one edit in six letters
		{"", nil},                     // no word: every entry
		{" - ", nil},                  // still no word
		{"zzzzzz", []int{}},           // nothing near
		{"00042", []int{2}},           // digits
		{"0004", []int{2, 2}[:1]},     // a prefix of digits (and the start of no id: 0042...)
		{"00043", []int{}},            // no typo in a word that is not letters
		{"4d0c9f6e", []int{0, 1}},     // an id's start: its own entry and one naming it
		{"4D0C9F6E-0000-4000-8000-000000000001", []int{0, 1}}, // a pasted id, whole
		{"4d0c9f6e-0000-4000", []int{0, 1}},                   // its start across hyphens
		{"4d0c9f6e-0000-4001", []int{}},                       // an id no entry has
		{"cafe", []int{1, 3}},                                 // a word, and an id's start
		{"caf", []int{3}},                                     // three characters: a word's start only
		{"deadbeef rebirth", []int{3}},                        // an id and a word, both needed
		{"0000-4000", []int{}},                                // the middle of an id is not its start
	}
	var qs []string
	for _, c := range cases {
		qs = append(qs, c.q)
	}
	res := runNode(t, []nodeCase{
		{Fn: "find.match", Args: []any{texts, qs, ids}},
		{Fn: "find.fromTerms", Args: []any{map[string]any{"format": "ashyams-find-2", "rows": 0, "words": []any{}, "postings": []any{}}}},
		{Fn: "find.fromTerms", Args: []any{map[string]any{"format": "ashyams-find-terms-1", "rows": 0, "words": []any{"b", "a"}, "postings": []any{"0", "0"}}}},
		{Fn: "find.addIDs", Args: []any{map[string]any{"format": "ashyams-find-ids-1", "ids": []any{"a1"}, "postings": []any{}}}},
		{Fn: "find.addIDs", Args: []any{map[string]any{"format": "ashyams-find-ids-1", "ids": []any{"ab", "aa"}, "postings": []any{"0", "0"}}}},
	})
	var got []any
	if err := json.Unmarshal(res[0], &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if fmt.Sprint(got[i]) != fmt.Sprint(normal(c.want)) {
			t.Errorf("searching %q finds %v, want %v", c.q, got[i], c.want)
		}
	}
	for i, want := range []string{"not an ashyams-find-terms-1 document", "not sorted at 1", "ia is not an ashyams-find-ids-1 document", "ids of ia are not sorted"} {
		if s := string(res[i+1]); !strings.Contains(s, want) {
			t.Errorf("a bad document %d: the engine says %s, want %q", i, s, want)
		}
	}
}

// TestFindBestAndNeeds: ranked, a word's start beats a part of a word, and equal matches keep the list's order, as the plan page's project box offers them; the
// id parts a query reads are those of the first character of each id-like token, once.
func TestFindBestAndNeeds(t *testing.T) {
	names := []string{"Candlelight", "Tallow", "Candle Wax Patch", "Horiz0n", "Lantern Works — Site A", "candlelighter", "Relight", "Lighthouse"}
	cases := []struct {
		query string
		want  []int
	}{
		{"cand", []int{0, 2, 5}},
		{"candelight", []int{0}},     // a letter missing (candlelighter is three edits away)
		{"light", []int{7, 0, 5, 6}}, // a word's start first, then inside a word, in list order
		{"tallw", []int{1}},          // a typo
		{"wax cand", []int{2}},
		{"horiz0n", []int{3}},
		{"site a", []int{4}},
		{"zzz", []int{}},
		{"  ", []int{}},
	}
	var nc []nodeCase
	for _, c := range cases {
		nc = append(nc, nodeCase{"find.best", []any{names, c.query, 20}})
	}
	nc = append(nc, nodeCase{"find.best", []any{names, "cand", 2}},
		nodeCase{"find.needs", []any{"4d0c9f6e candle 4d0c-1 abc f00d-beef Cafe"}})
	got := runNode(t, nc)
	for i, c := range cases {
		if s := string(got[i]); s != strings.ReplaceAll(fmt.Sprint(c.want), " ", ",") {
			t.Errorf("best for %q = %s, want %v", c.query, s, c.want)
		}
	}
	if s := string(got[len(cases)]); s != "[0,2]" {
		t.Errorf("the best 2 for cand = %s, want [0,2]", s)
	}
	if s := string(got[len(cases)+1]); s != `["i4","if","ic"]` {
		t.Errorf("the id parts read = %s, want i4, if, ic", s)
	}
}

// normal is want as JSON decodes the engine's answer.
func normal(want any) any {
	ns, ok := want.([]int)
	if !ok {
		return nil
	}
	out := []any{}
	for _, n := range ns {
		out = append(out, float64(n))
	}
	return out
}
