package assets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestFindMatches: the search engine (find.js) finds an entry when every query word starts,
// or (from three characters) sits inside, one of its words, or is a typo of a word of letters
// sharing its first character (one edit from four letters, two from eight); it finds nothing
// for a word no entry comes near, every entry for a query of no word, and the same from the
// index as find.json carries it as from the texts. A document that is not an index is refused.
func TestFindMatches(t *testing.T) {
	texts := []string{
		"Candlelight 1.2 mod active from Lantern Works",
		"Lantern Keeper tool from Site 7",
		"Synthetic project 00042 from Σπίτι",
		"Morrowind Rebirth",
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
		{"0004", []int{2}},            // a prefix of digits
		{"00043", []int{}},            // no typo in a word that is not letters
	}
	var qs []string
	for _, c := range cases {
		qs = append(qs, c.q)
	}
	res := runNode(t, []nodeCase{
		{Fn: "find.match", Args: []any{texts, qs}},
		{Fn: "find.fromDoc", Args: []any{map[string]any{"format": "ashyams-find-1", "rows": []any{}, "words": []any{}, "postings": []any{}}}},
		{Fn: "find.fromDoc", Args: []any{map[string]any{"format": "ashyams-find-2", "rows": []any{}, "words": []any{"b", "a"}, "postings": []any{"0", "0"}}}},
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
	for i, want := range []string{"not an ashyams-find-2 document", "not sorted"} {
		if s := string(res[i+1]); !strings.Contains(s, want) {
			t.Errorf("a bad document %d: fromDoc says %s, want %q", i, s, want)
		}
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
