package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestBadInput: each kind of bad input gives a clear finding naming what is wrong, with line
// and column where the bytes are at fault, and never a typed document.
func TestBadInput(t *testing.T) {
	deep := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	for _, tc := range []struct {
		name, in  string
		rule, ptr string
		msg       string
	}{
		{"empty", "", RuleSyntax, "", "the document is empty"},
		{"only whitespace", " \n\t", RuleSyntax, "", "the document is empty"},
		{"trailing comma", "{\"a\":\n  [1,2,]}", RuleSyntax, "", "line 2, column 8: unexpected character ']', expected a value"},
		{"missing colon", `{"a" 1}`, RuleSyntax, "", "line 1, column 6: unexpected character '1', expected ':'"},
		{"unterminated object", `{"a":1`, RuleSyntax, "", "line 1, column 7: unexpected end of input, expected ',' or '}'"},
		{"unterminated string", `{"a":"b`, RuleSyntax, "", "unexpected end of input in a string"},
		{"single quotes", `{'a':1}`, RuleSyntax, "", "column 2: unexpected character '\\'', expected a string key"},
		{"data after the value", `{"a":1} x`, RuleSyntax, "", "line 1, column 9: data after the end of the top-level value"},
		{"two values", `{}{}`, RuleSyntax, "", "data after the end"},
		{"bad literal", `{"a":tru}`, RuleSyntax, "", "column 6"},
		{"leading zero", `{"a":01}`, RuleSyntax, "", "column 7: unexpected character '1', expected ',' or '}'"},
		{"bare fraction", `{"a":.5}`, RuleSyntax, "", "expected a value"},
		{"dot without digits", `{"a":1.}`, RuleSyntax, "", "a digit after the decimal point"},
		{"plus sign", `{"a":+1}`, RuleSyntax, "", "expected a value"},
		{"exponent without digits", `{"a":1e}`, RuleSyntax, "", "a digit in the exponent"},
		{"control character in a string", "{\"a\":\"x\ny\"}", RuleSyntax, "", "control character U+000A"},
		{"invalid escape", `{"a":"\x41"}`, RuleSyntax, "", `invalid escape "\\x"`},
		{"short unicode escape", `{"a":"\u12"}`, RuleSyntax, "", `invalid \u escape`},
		{"byte order mark", "\xef\xbb\xbf{}", RuleSyntax, "", "byte order mark"},
		{"invalid UTF-8", "{\"a\":\n\"\xff\"}", RuleUTF8, "", "invalid UTF-8 at line 2, column 2 (byte offset 7, byte 0xff)"},
		{"overlong UTF-8", "{\"a\":\"\xc0\xaf\"}", RuleUTF8, "", "invalid UTF-8 at line 1, column 7"},
		{"lone high surrogate", `{"a":"\ud800x"}`, RuleUTF8, "/a", `lone UTF-16 surrogate escape \uD800 at line 1, column 7`},
		{"lone low surrogate", `{"a":["\udc00"]}`, RuleUTF8, "/a/0", `\uDC00`},
		{"lone surrogate in a key", `{"b":{"\ud800":1}}`, RuleUTF8, "/b", `\uD800`},
		{"duplicate key", `{"a":1,"a":2}`, RuleDuplicateKey, "/a", `duplicate key "a" in the same object (again at line 1, column 8)`},
		{"duplicate key deep, escaped pointer", `{"x":{"b":[{"c/d":1},{"c/d":1,"c/d":2}]}}`, RuleDuplicateKey, "/x/b/1/c~1d", `duplicate key "c/d"`},
		{"number out of range", `{"size":1e400}`, RuleNumberRange, "/size", `field "size" (/size): number 1e400 is out of range`},
		{"negative number out of range", `{"a":[-1e400]}`, RuleNumberRange, "/a/0", "out of range"},
		{"number too small", `{"a":1e-400}`, RuleNumberRange, "/a", "too small to represent"},
		{"huge exponent on zero", `{"a":0e999999999}`, RuleNumberRange, "/a", "out-of-range exponent"},
		{"absurd literal", `{"a":` + strings.Repeat("9", 80) + `}`, RuleNumberRange, "/a", "80-character number literal"},
		{"too deep", deep(MaxDepth + 1), RuleDepth, "/" + strings.TrimSuffix(strings.Repeat("a/", MaxDepth), "/"), "nesting deeper than 64 levels at line 1, column 321"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, fs := Decode([]byte(tc.in))
			if d != nil {
				t.Errorf("Doc = %+v, want nil", d)
			}
			if len(fs) != 1 {
				t.Fatalf("want exactly one finding, got %v", fs)
			}
			f := fs[0]
			if f.Rule != tc.rule || f.Pointer != tc.ptr || !strings.Contains(f.Message, tc.msg) {
				t.Errorf("got %s, want [%s] at %q containing %q", f, tc.rule, tc.ptr, tc.msg)
			}
			if IsRefused(fs) || IsNewerProtocol(fs) || IsNotDreamWeave(fs) {
				t.Errorf("bad JSON classified as refused/newer/not DreamWeave: %v", fs)
			}
		})
	}
}

func TestDepthLimitIsInclusive(t *testing.T) {
	in := strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth)
	v, fs := parseStrict([]byte(in))
	if fs != nil || v == nil {
		t.Fatalf("%d levels refused: %v", MaxDepth, fs)
	}
}

func TestAllDuplicatesReported(t *testing.T) {
	_, fs := Decode([]byte(`{"a":1,"a":2,"b":{"c":1,"c":1},"b":0}`))
	var ptrs []string
	for _, f := range fs {
		ptrs = append(ptrs, f.Pointer)
	}
	if strings.Join(ptrs, " ") != "/a /b /b/c" {
		t.Errorf("duplicates at %v, want /a /b /b/c", ptrs)
	}
}

// TestSizeLimit: more than 16 MiB is refused by crawler policy (never called invalid), with
// one number (the document's size) and no contradiction; a valid document of exactly 16 MiB is
// read and stays valid.
func TestSizeLimit(t *testing.T) {
	padded := func(n int) []byte {
		b := bytes.Repeat([]byte(" "), n)
		copy(b, minimalManifest)
		return b
	}
	exact := padded(MaxDocumentBytes)
	m, fs := ValidateManifest(exact, "")
	if len(fs) != 0 || m == nil {
		t.Fatalf("a valid manifest padded to exactly 16 MiB: %v", fs)
	}
	over := padded(MaxDocumentBytes + 1)
	d, fs := Decode(over)
	want := "refused by crawler policy: more than the 16 MiB document limit (the document is 16777217 bytes)"
	if d != nil || len(fs) != 1 || !IsRefused(fs) || fs[0].Message != want || fs[0].Pointer != "" {
		t.Fatalf("16 MiB + 1 byte: %v, want one finding %q", fs, want)
	}
	if strings.Contains(fs[0].Message, "invalid") || !strings.HasPrefix(fs[0].Message, TooLargeMessage) {
		t.Errorf("a refused document must be refused in TooLargeMessage's words, never called invalid: %s", fs[0].Message)
	}
	if _, fs := ValidateIndex(over); !IsRefused(fs) {
		t.Errorf("ValidateIndex, 16 MiB + 1 byte: %v", fs)
	}
}

func TestSurrogatePairsAndEscapes(t *testing.T) {
	v, fs := parseStrict([]byte(`{"a":"\ud83d\ude00 \u00e9\n\t\"\\\/\b\f\r","b":[true,false,null,-0.5e+2]}`))
	if fs != nil {
		t.Fatal(fs)
	}
	m := v.(map[string]any)
	if m["a"] != "😀 é\n\t\"\\/\b\f\r" {
		t.Errorf("a = %q", m["a"])
	}
	if !reflect.DeepEqual(m["b"], []any{true, false, nil, json.Number("-0.5e+2")}) {
		t.Errorf("b = %#v", m["b"])
	}
}

// FuzzParseStrict holds the hand-written scanner to encoding/json: what it accepts is valid JSON
// and decodes to exactly what encoding/json (UseNumber) gives; what encoding/json calls
// invalid, it refuses. It never panics.
func FuzzParseStrict(f *testing.F) {
	for _, s := range []string{minimalManifest, minimalIndex, `{"a":[1,2,{"b":null}]}`, `[]`, `{}`, `"x"`, `-0.0e-0`, `{"a":1,"a":2}`, `{"a":"\ud800"}`, `[1,]`, "\xef\xbb\xbf{}", `{"a":1e400}`, "{\"a\":\"\xff\"}", `  {"a" : "\u00e9" }  `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, fs := parseStrict(b)
		valid := json.Valid(b)
		if fs == nil {
			if !valid {
				t.Fatalf("accepted invalid JSON %q", b)
			}
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			var std any
			if err := dec.Decode(&std); err != nil {
				t.Fatalf("encoding/json cannot decode accepted %q: %v", b, err)
			}
			if !reflect.DeepEqual(v, std) {
				t.Fatalf("decoded %#v, encoding/json %#v", v, std)
			}
			return
		}
		if len(fs) == 0 || fs[0].Message == "" {
			t.Fatalf("empty findings for %q", b)
		}
	})
}

// FuzzDecode: any bytes give either findings or a complete, typed, valid document; never a
// panic and never a silent pass; every finding prints on one line with no control character.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{minimalManifest, minimalIndex, `{"schema_version":"3","document":"index"}`, `{"schema_version":"2","document":"project","project":1}`,
		`{"schema_version":"2","document":"project","project":{"\u001b[2J\n":1,"type":"\u202e\r"}}`, "{\"\x1b\":\"\\\x1b\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, fs := Decode(b)
		if len(fs) == 0 {
			if d == nil || (d.Kind == DocIndex) == (d.Index == nil) || (d.Kind == DocProject) == (d.Manifest == nil) {
				t.Fatalf("no findings but incomplete Doc %+v for %q", d, b)
			}
		}
		for _, f := range fs {
			if f.Rule == "" || f.Message == "" {
				t.Fatalf("finding without rule or message: %+v", f)
			}
			if r, bad := unprintable(f.String()); bad {
				t.Fatalf("finding carries raw %U into a terminal: %q", r, f.String())
			}
		}
	})
}
