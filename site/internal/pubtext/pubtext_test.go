package pubtext

import "testing"

func TestPlainPub(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Wickwork", "Wickwork"},
		{"l3i \u202egnp.exe", "l3i gnp.exe"},                                     // unterminated override: removed
		{"a\u202ab\u202cc\u2066d\u2069e\u2067f\u2068g", "abcdef\u2068g\u2069"},   // embeddings, overrides, LRI and RLI go; FSI closed
		{"\u05e9\u05dc\u05d5\u05dd 2", FSI + "\u05e9\u05dc\u05d5\u05dd 2" + PDI}, // Hebrew: isolated
		{"\u202e\u0645\u0631\u062d\u0628\u0627", FSI + "\u0645\u0631\u062d\u0628\u0627" + PDI},
		{"", ""},
		{"a\u200fb", FSI + "a\u200fb" + PDI}, // a right-to-left mark is a strong R character
	}
	for _, c := range cases {
		if got := Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestBidiText: the rule on one stretch, and on markup, where each stretch is balanced on its
// own and clean input is returned as it is.
func TestBidiText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain › text", "plain › text"},
		{"a\u202eb\u202cc", "abc"},
		{"\u2069a\u2068b", "a\u2068b\u2069"},
		{"\u2068a\u2069\u2068\u2068b\u2069", "\u2068a\u2069\u2068\u2068b\u2069\u2069"},
		{"\u2066a\u2069b", "ab"},
	} {
		if got := string(Text([]byte(c.in), nil)); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	page := "<p title=\"x\u2068y\">\u2068a<b>b\u2069</b>\u202e</p>"
	if got, want := string(Text([]byte(page), MarkupEnds)), "<p title=\"x\u2068y\u2069\">\u2068a\u2069<b>b</b></p>"; got != want {
		t.Errorf("markup: %q, want %q", got, want)
	}
	clean := []byte("<p>clean — text</p>")
	if got := Text(clean, MarkupEnds); &got[0] != &clean[0] {
		t.Error("clean markup was copied")
	}
}
