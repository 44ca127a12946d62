package termtext

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Site and project names carrying newlines, workflow commands and terminal escapes print as
// one inert line each: publisher text must not forge a log line or drive a terminal.
func TestTextEscapesPublisherText(t *testing.T) {
	cases := []struct{ in, text, quote string }{
		{"Tallow", "Tallow", `"Tallow"`},
		{"Émeraude ✓ 日本", "Émeraude ✓ 日本", `"Émeraude ✓ 日本"`},
		{"Nice\n::error file=x::pwned", `Nice\n::error file=x::pwned`, `"Nice\n::error file=x::pwned"`},
		{"\x1b]0;title\x07\x1b[2J", `\x1b]0;title\a\x1b[2J`, `"\x1b]0;title\a\x1b[2J"`},
		{"a\r\tb", `a\r\tb`, `"a\r\tb"`},
		{"c1\u0085\u009b", `c1\u0085\u009b`, `"c1\u0085\u009b"`},
		{"bidi \u202egnp.exe\u2066", `bidi \u202egnp.exe\u2066`, `"bidi \u202egnp.exe\u2066"`},
		{"sep\u2028\u2029zw\u200b", `sep\u2028\u2029zw\u200b`, `"sep\u2028\u2029zw\u200b"`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`, `"bad \xff\xfe utf8"`},
		{"say ##[add-mask]x", `say ##\x5badd-mask]x`, `"say ##\x5badd-mask]x"`},
		{`q"b\s`, `q"b\s`, `"q\"b\\s"`},
		{"del\x7f", `del\x7f`, `"del\x7f"`},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %s, want %s", c.in, got, c.text)
		}
		if got := Quote(c.in); got != c.quote {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.quote)
		}
	}
}

func TestLineNeverStartsAWorkflowCommand(t *testing.T) {
	for in, want := range map[string]string{
		"::error::x":            `\x3a:error::x`,
		"   ::add-mask::secret": `   \x3a:add-mask::secret`,
		"  name: ::error::x":    "  name: ::error::x",
		"a\n::error::x":         `a\n::error::x`,
		"plain":                 "plain",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %s, want %s", in, got, want)
		}
	}
}

// Whatever the input, the output is one printable line, and Quote round-trips through
// strconv.Unquote for valid UTF-8 without "##[".
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "x\n::error::y", "\x1b[31m", "\xff", "##[", "\u202e", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Quote(s), Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if !strconv.IsPrint(r) {
					t.Fatalf("non-printable %U out of %q: %q", r, s, out)
				}
			}
			if strings.Contains(out, "##[") {
				t.Fatalf("##[ out of %q: %q", s, out)
			}
		}
		if strings.HasPrefix(strings.TrimLeft(Line(s), " "), "::") {
			t.Fatalf("Line(%q) starts a workflow command", s)
		}
		if utf8.ValidString(s) && !strings.Contains(s, "##[") {
			if u, err := strconv.Unquote(Quote(s)); err != nil || u != s {
				t.Fatalf("Quote(%q) = %s does not unquote back: %q %v", s, Quote(s), u, err)
			}
		}
	})
}

// TestJSON: C1 controls and explicit bidi formatting characters in encoded JSON are
// escaped, the document decodes to the same value, and clean JSON is returned unchanged.
func TestJSON(t *testing.T) {
	v := map[string]string{
		"csi":      "a\u009b31mred\u0080\u009f",
		"override": "Site\u202e etiS\u202a\u202b\u202c\u202d",
		"isolates": "\u2066x\u2067y\u2068z\u2069",
		"letters":  "é ü 日本 \u00a0 \u00a9 \u2065 \u206a",
		"command":  "::error::x\n##[add-mask]x ###[",
		"::a##[":   "sep\u2028\u2029\u0085",
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(raw)
	for _, r := range string(got) {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%U left raw in %s", r, got)
		}
	}
	for _, want := range []string{`\u009b`, `\u0080`, `\u009f`, `\u202e`, `\u202a`, `\u2066`, `\u2069`, "é ü 日本 \u00a0 \u00a9 \u2065 \u206a"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("%s does not hold %q", got, want)
		}
	}
	if cmd := WorkflowCommand(string(got)); cmd != "" {
		t.Errorf("a workflow command is left in %s: %q", got, cmd)
	}
	for _, raw := range []string{"\u2028", "\u2029"} { // as another encoder may leave them
		if out := JSON([]byte(`"` + raw + `"`)); string(out) != `"\u`+strconv.FormatInt(int64([]rune(raw)[0]), 16)+`"` {
			t.Errorf("JSON(%q) = %s", raw, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("decodes to %q, want %q", back, v)
	}
	clean := []byte(`{"a":"é \u00a0"}`)
	if out := JSON(clean); &out[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
	if out := JSON(nil); len(out) != 0 {
		t.Errorf("nil: %q", out)
	}
}
