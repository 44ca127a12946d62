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

// At agrees with IsControl on every rune of the planes the controls sit in.
func TestAtMatchesIsControl(t *testing.T) {
	for r := rune(0x2000); r < 0x2100; r++ {
		b := []byte(string(r))
		if got := At(b) != None; got != IsControl(r) {
			t.Errorf("U+%04X: At says control %v, IsControl %v", r, got, IsControl(r))
		}
	}
	if At([]byte("\u2068")) != FSI || At([]byte("\u2069")) != PDI || At([]byte("\u202e")) != Drop || At([]byte("\xe2\x81")) != None {
		t.Error("At misclassifies FSI, PDI, RLO or a cut sequence")
	}
}
