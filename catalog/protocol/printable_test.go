package protocol

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// hostile is publisher text made to break a log line and drive a terminal: a newline, ESC
// sequences (clear the screen, a colour), a carriage return, a bidi override and a DEL.
const hostile = "x\n\x1b[2J\x1b[31mred\r\u202eevil\x7f"

// unprintable returns the first character of s that is neither a space nor strconv.IsPrint,
// and whether there is one.
func unprintable(s string) (rune, bool) {
	for _, r := range s {
		if r != ' ' && !strconv.IsPrint(r) {
			return r, true
		}
	}
	return 0, false
}

// checkPrintable fails for any finding whose Message or String() carries a raw control
// character, and returns how many messages quote the hostile text in escaped form.
func checkPrintable(t *testing.T, what string, fs []Finding) int {
	t.Helper()
	quoted := 0
	for _, f := range fs {
		if r, bad := unprintable(f.Message); bad {
			t.Errorf("%s: message carries raw %U: %q", what, r, f.Message)
		}
		if r, bad := unprintable(f.String()); bad {
			t.Errorf("%s: String() carries raw %U: %q", what, r, f.String())
		}
		if strings.Contains(f.Message, `\x1b[2J`) {
			quoted++
		}
	}
	return quoted
}

// TestFindingsPrintable: publisher text with control characters in keys and values, at each
// stage that quotes publisher text (strict JSON, dispatch, schema, protocol rules), gives
// findings whose messages and one-line renderings hold no raw control character; the text is
// quoted in escaped form, not dropped. The pointer field stays exact (it is data).
func TestFindingsPrintable(t *testing.T) {
	esc, _ := json.Marshal(hostile) // hostile as a JSON string literal, escapes and all
	h := string(esc)
	manifest := func(edit func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal([]byte(minimalManifest), &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	release := map[string]any{
		"version": "1.0.0", "channel": "stable", "status": "available",
		"source":    map[string]any{"repository": "https://a.example/r"},
		"runtimes":  map[string]any{"openmw": ">=0.49"},
		"platforms": []any{}, "provides": []any{}, "relationships": []any{}, "groups": []any{},
		"components": []any{map[string]any{"id": "core", "name": "Core", "path": ".", "required": true, "default": true,
			"requires": []any{}, "conflicts": []any{}, "suggested_with": []any{}}},
		"extensions": map[string]any{}, "critical_extensions": []any{},
		"artifacts": []any{map[string]any{"id": "a", "format": "flat", "filename": "a.zip", "media_type": "application/zip", "size": 1,
			"digests": map[string]any{"sha256": strings.Repeat("0", 64)}, "sources": []any{map[string]any{"url": "https://a.example/a.zip", "kind": "publisher"}}, "signatures": []any{}}},
	}
	withRelease := func(edit func(r map[string]any)) []byte {
		return manifest(func(m map[string]any) {
			r := map[string]any{}
			b, _ := json.Marshal(release)
			json.Unmarshal(b, &r)
			edit(r)
			m["releases"] = []any{r}
			m["channels"] = map[string]any{"stable": map[string]any{"version": "1.0.0"}}
		})
	}
	if _, fs := ValidateManifest(withRelease(func(map[string]any) {}), ""); len(fs) != 0 {
		t.Fatalf("the base release must be valid for the rule cases to reach the rules: %v", fs)
	}
	cases := []struct {
		name string
		doc  []byte
		// quotes: at least one message quotes the hostile text in escaped form.
		quotes bool
	}{
		{"duplicate key", []byte(`{"schema_version":"2",` + h + `:1,` + h + `:2}`), true},
		{"invalid escape of a control character", []byte("{\"a\":\"\\\x1b\"}"), false},
		{"unexpected control character", []byte("{\"a\":\x1b}"), false},
		{"raw control character in a string", []byte("{\"a\":\"\x1b\"}"), false},
		{"newer protocol", []byte(`{"schema_version":` + h + `,"document":"project"}`), true},
		{"document kind", []byte(`{"schema_version":"2","document":` + h + `}`), true},
		{"unknown field", manifest(func(m map[string]any) { m["project"].(map[string]any)[hostile] = 1 }), true},
		{"enum value", manifest(func(m map[string]any) { m["project"].(map[string]any)["type"] = hostile }), false},
		{"uri format", manifest(func(m map[string]any) { m["project"].(map[string]any)["links"].(map[string]any)["page"] = hostile }), true},
		{"key under a pointer", manifest(func(m map[string]any) { m["channels"] = map[string]any{hostile: 1} }), false},
		{"release version", withRelease(func(r map[string]any) { r["version"] = hostile }), false},
		{"extension namespace", withRelease(func(r map[string]any) { r["extensions"] = map[string]any{hostile: map[string]any{}} }), false},
		{"critical extension", withRelease(func(r map[string]any) { r["critical_extensions"] = []any{hostile} }), false},
		{"runtime constraint", withRelease(func(r map[string]any) { r["runtimes"] = map[string]any{"openmw": hostile} }), false},
		{"relationship", withRelease(func(r map[string]any) {
			r["relationships"] = []any{map[string]any{"kind": "requires", "capability": hostile, "version": hostile, "name": hostile}}
		}), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := Decode(tc.doc)
			if len(fs) == 0 {
				t.Fatalf("no findings for %q", tc.doc)
			}
			_, mfs := ValidateManifest(tc.doc, "7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73")
			_, ifs := ValidateIndex(tc.doc)
			n := checkPrintable(t, "Decode", fs) + checkPrintable(t, "ValidateManifest", mfs) + checkPrintable(t, "ValidateIndex", ifs)
			if tc.quotes && n == 0 {
				t.Errorf("no message quotes the hostile text (escaped): %v", fs)
			}
		})
	}
	// The pointer stays the exact key, as published: --json consumers address the document with it.
	_, fs := Decode(manifest(func(m map[string]any) { m["project"].(map[string]any)[hostile] = 1 }))
	found := false
	for _, f := range fs {
		if f.Pointer == "/project/"+hostile {
			found = true
		}
	}
	if !found {
		t.Errorf("want a finding at the exact pointer /project/%q: %v", hostile, fs)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"plain text, é 😀":   "plain text, é 😀",
		`already "quoted"\`: `already "quoted"\`,
		"a\nb":              `a\nb`,
		"\x1b[31m":          `\x1b[31m`,
		"tab\there":         `tab\there`,
		"\u202eevil":        `\u202eevil`,
		"del\x7f":           `del\x7f`,
		"\u00a0nbsp":        `\u00a0nbsp`,
	} {
		got := Printable(in)
		if got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
		if Printable(got) != got {
			t.Errorf("Printable is not idempotent on %q", in)
		}
	}
}
