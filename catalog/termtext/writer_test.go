package termtext

import (
	"strings"
	"testing"
)

// TestWriterJoinsSplitWrites: a URL written in pieces is redacted as one line, a last line
// without a newline is written by Flush, and text without user info passes unchanged.
func TestWriterJoinsSplitWrites(t *testing.T) {
	var buf strings.Builder
	w := NewWriter(&buf)
	for _, p := range []string{"GET https://u:s3", "cr3t@host/ ok\nplain line\n", "last :s3cr", "3t@"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got, want := buf.String(), "GET https://xxxxx@host/ ok\nplain line\n"; got != want {
		t.Errorf("before Flush: %q, want %q", got, want)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "GET https://xxxxx@host/ ok\nplain line\nlast xxxxx@"; got != want {
		t.Errorf("after Flush: %q, want %q", got, want)
	}
	if NewWriter(w) != w {
		t.Error("a Writer was wrapped again")
	}
}

// TestInertNeutralisesWorkflowCommands: every line break but LF is escaped, a line's leading
// "::" loses its first ':', "##[" its '[', and other text, LFs and tabs included, is kept.
func TestInertNeutralisesWorkflowCommands(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\n":                         "plain\ttext\n",
		"::error::x":                            `\x3a:error::x`,
		"ok\n  \t::add-mask::s\n":               "ok\n  \t\\x3a:add-mask::s\n",
		"\u00a0\u3000::error::x":                "\u00a0\u3000\\x3a:error::x",
		"a: ::b":                                "a: ::b",
		":single":                               ":single",
		":":                                     ":",
		"say ##[add-mask]x ###[ #[":             `say ##\x5badd-mask]x ###\x5b #[`,
		"u\r::error::x":                         `u\r::error::x`,
		"v\v::w\f::x\u0085::y\u2028::z\u2029::": `v\v::w\f::x\u0085::y\u2028::z\u2029::`,
		"::error::x\n##[add-mask]x":             "\\x3a:error::x\n##\\x5badd-mask]x",
		"bad \xff utf8 ::":                      "bad \xff utf8 ::",
		"é ✓ 日本":                                "é ✓ 日本",
	} {
		if got := Inert(in); got != want {
			t.Errorf("Inert(%q) = %q, want %q", in, got, want)
		}
		if got := Inert(Inert(in)); got != want {
			t.Errorf("Inert twice (%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriterCarriesTheRuleAcrossPieces: a line cut at the pending limit is still one line to
// the rule: a "##" and its '[', a leading ':' and its second, and the bytes of one rune may
// each fall on both sides of the cut.
func TestWriterCarriesTheRuleAcrossPieces(t *testing.T) {
	const limit = 64
	long := strings.Repeat("a", limit)
	for _, c := range []struct{ pieces []string }{
		{[]string{long + "#", "#[x\n"}},
		{[]string{strings.Repeat(" ", limit+1), ":", ":error::x\n"}},
		{[]string{long + "\xe2\x80", "\xa8::error::x\n"}},
		{[]string{long + "\xc2", "\x85::error::x\n"}},
	} {
		var buf strings.Builder
		w := &Writer{w: &buf, max: limit}
		for _, p := range c.pieces {
			if _, err := w.Write([]byte(p)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if cmd := WorkflowCommand(buf.String()); cmd != "" {
			t.Errorf("pieces ending %q: a workflow command got through: %q", tail(c.pieces), cmd)
		}
		if want := Inert(strings.Join(c.pieces, "")); buf.String() != want {
			t.Errorf("pieces ending %q: written in pieces differs from Inert of the whole", tail(c.pieces))
		}
	}
}

func tail(pieces []string) string {
	s := strings.Join(pieces, "|")
	return s[max(0, len(s)-24):]
}

// FuzzInert: whatever the text, no line of Inert's output is a workflow command, and the
// output is the input when the input holds none of what the rule changes.
func FuzzInert(f *testing.F) {
	for _, s := range []string{"", "::error::x", "\r::x", "##[", " \u2028::", "\xe2\x80", ":\n:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Inert(s)
		if cmd := WorkflowCommand(out); cmd != "" {
			t.Fatalf("Inert(%q) = %q holds the workflow command %q", s, out, cmd)
		}
		if WorkflowCommand(s) == "" && !strings.ContainsAny(s, "\r\v\f\u0085\u2028\u2029") && out != s {
			t.Fatalf("Inert(%q) = %q changed harmless text", s, out)
		}
	})
}
