package textdir

import "testing"

// Strip removes exactly the embeddings, overrides and isolates; other invisible characters
// (marks, joiners) are not its business.
func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                           "plain",
		"a\u202eb\u202cc":                 "abc",
		"\u2066x\u2069 \u2067y\u2068z":    "x yz",
		"mark \u200f and joiner \u200d":   "mark \u200f and joiner \u200d",
		"edges \u202a\u202e \u2066\u2069": "edges  ",
	} {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}
