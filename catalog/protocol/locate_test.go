package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLocate: a member is found at its key, an array item at its value, a missing field at
// the member holding the object that lacks it, lines and columns counted in characters.
func TestLocate(t *testing.T) {
	b := []byte("{\n  \"a\": [1, {\"b~/c\": \"é\"}],\n  \"é\": {\"x\":\n    true}\n}")
	got := Locate(b, []string{"", "/a", "/a/1", "/a/1/b~0~1c", "/é/x", "/é/missing", "/nope/deeper", "/a/7"})
	want := map[string]Position{
		"": {1, 1}, "/a": {2, 3}, "/a/1": {2, 12}, "/a/1/b~0~1c": {2, 13}, "/é/x": {3, 9},
		"/é/missing": {3, 3}, "/nope/deeper": {1, 1}, "/a/7": {2, 3},
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%q at %+v, want %+v", p, got[p], w)
		}
	}
	if got := Locate([]byte(`{"a": [1,`), []string{"/a/0", "/b"}); got["/a/0"] != (Position{1, 8}) || got["/b"] != (Position{1, 1}) {
		t.Errorf("cut short: %+v", got)
	}
}

// TestLocateEveryFindingOfAManifest: every finding of a broken real manifest is located on
// the line of its value (or, for a missing field, the object's).
func TestLocateEveryFindingOfAManifest(t *testing.T) {
	b, err := os.ReadFile("testdata/cfg-hostile-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	_, fs := Decode(b)
	var ptrs []string
	for _, f := range fs {
		ptrs = append(ptrs, f.Pointer)
	}
	at := Locate(b, ptrs)
	lines := strings.Split(string(b), "\n")
	for _, f := range fs {
		p, ok := at[f.Pointer]
		if !ok || p.Line < 1 || p.Line > len(lines) {
			t.Fatalf("%s at %+v", f.Pointer, p)
		}
		key := lastToken(f.Pointer)
		if line := lines[p.Line-1]; !strings.Contains(line, key) && !strings.Contains(line, jsonText(key)) && !isIndex(key) {
			t.Errorf("%s located on line %d: %q", f.Pointer, p.Line, line)
		}
	}
}

func jsonText(s string) string { b, _ := json.Marshal(s); return strings.Trim(string(b), `"`) }

func isIndex(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// FuzzLocate: on any bytes Locate does not panic; on a document parseStrict accepts, every
// pointer of the value is found, a member at the quote opening its key and any other value
// at its first byte, on the line and column its offset gives.
func FuzzLocate(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, "{\n\"~/\":\n[true,null,-1.5e3]}", `[{"é":{"x":[]}},"\u2028"]`, `{"a":1,"a":2}`, `{"a":`, "\ufeff{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, fs := parseStrict(b)
		if fs != nil {
			Locate(b, []string{"", "/a", "/0/x", "/~1", "x"})
			return
		}
		var ptrs []string
		var walk func(x any, ptr string)
		walk = func(x any, ptr string) {
			if len(ptrs) > 200 {
				return
			}
			ptrs = append(ptrs, ptr)
			switch x := x.(type) {
			case map[string]any:
				for k, y := range x {
					walk(y, ptr+"/"+escapeToken(k))
				}
			case []any:
				for i, y := range x {
					walk(y, ptr+Pointer(i))
				}
			}
		}
		walk(v, "")
		at := locate(b, ptrs)
		pos := Locate(b, ptrs)
		for _, p := range ptrs {
			off, ok := at[p]
			if !ok {
				t.Fatalf("%q not located in %q", p, b)
			}
			if _, isMember := valueAt(v, parent(p)).(map[string]any); isMember && p != "" && b[off] != '"' {
				t.Fatalf("member %q located at %q", p, b[off:])
			}
			line := bytes.Count(b[:off], []byte("\n")) + 1
			col := utf8.RuneCount(b[bytes.LastIndexByte(b[:off], '\n')+1:off]) + 1
			if pos[p] != (Position{line, col}) {
				t.Fatalf("%q at %+v, want line %d column %d", p, pos[p], line, col)
			}
		}
	})
}
