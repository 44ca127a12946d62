package assets

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// repeat is run.js's {"$repeat": [prefix, unit, count, suffix]}: a long input sent short.
func repeat(prefix, unit string, count int, suffix string) map[string]any {
	return map[string]any{"$repeat": []any{prefix, unit, count, suffix}}
}

// hostileBoundMs is how long one parser may take on one megabyte. A linear parser takes
// milliseconds (a second on a loaded machine); the quadratic trims this test was written for
// took 28 s on 200 KB, so about twelve minutes on a megabyte: the bound is generous and still
// far below what one of them needs.
const hostileBoundMs = 30000

// TestHostileInputsStayLinear feeds megabyte inputs built to make a backtracking or quadratic
// parser stall (whitespace inside a constraint or a cfg line, long digit runs, many commas,
// dots, separators and escapes) to every parser of the site's scripts, and wants each to
// finish within hostileBoundMs with the answer the input calls for.
func TestHostileInputsStayLinear(t *testing.T) {
	const mb = 1 << 20
	type hcase struct {
		name string
		c    nodeCase
		want string // the result as JSON; "" when only the time matters
	}
	spaces := repeat(">=0.1", " ", mb, ",<=2")
	cases := []hcase{
		{"constraint with a megabyte of spaces", nodeCase{"version.constraint", []any{spaces, "numeric"}}, `">=0.1, <=2"`},
		{"constraint with a megabyte of spaces, decimal", nodeCase{"version.constraint", []any{spaces, "decimal"}}, `">=0.1, <=2"`},
		{"match against it", nodeCase{"version.matches", []any{spaces, "1.5", "numeric"}}, `true`},
		{"spaces around a version", nodeCase{"version.trim", []any{repeat("", " \t", mb/2, "1.0")}}, `"1.0"`},
		{"trailing spaces never parse as a version", nodeCase{"version.parse", []any{repeat("1.0", " ", mb, ""), "numeric"}}, `null`},
		{"a megabyte of digits", nodeCase{"version.parse", []any{repeat("1", "0", mb, ""), "numeric"}}, ""},
		{"compare megabyte numbers", nodeCase{"version.compare", []any{repeat("1", "0", mb, "1"), repeat("1", "0", mb, "2"), "numeric"}}, `-1`},
		{"decimal megabyte fractions", nodeCase{"version.compare", []any{repeat("0.", "0", mb, "1"), repeat("0.", "0", mb, "10"), "decimal"}}, `0`},
		{"many commas", nodeCase{"version.constraint", []any{repeat("", ">=1,", mb/4, ">=1"), "numeric"}}, ""},
		{"only commas", nodeCase{"version.constraint", []any{repeat("", ",", mb, ""), "numeric"}}, `null`},
		{"many dots", nodeCase{"version.parse", []any{repeat("", "1.", mb/2, "1"), "decimal"}}, `null`},
		{"many pre-release identifiers", nodeCase{"version.parse", []any{repeat("1.0-", "a.", mb/2, "a"), "numeric"}}, ""},
		{"many hyphens and pluses", nodeCase{"version.parse", []any{repeat("1", "-+", mb/2, ""), "numeric"}}, `null`},
		{"operators only", nodeCase{"version.constraint", []any{repeat("", ">=", mb/2, "1"), "numeric"}}, `null`},
		{"cfg line with a megabyte of spaces", nodeCase{"cfg.parse", []any{repeat("content=a", " ", mb, "b.esp")}}, ""},
		{"cfg line padded on both sides", nodeCase{"cfg.parse", []any{repeat("", " ", mb/2, "content=x.esp")}}, ""},
		{"a megabyte of lines", nodeCase{"cfg.parse", []any{repeat("", "content=a.esp\n", mb/14, "")}}, ""},
		{"a megabyte of equals signs", nodeCase{"cfg.parse", []any{repeat("content", "=", mb, "")}}, ""},
		{"a megabyte of brackets", nodeCase{"cfg.parse", []any{repeat("", "[", mb, "]")}}, ""},
		{"a megabyte of blank lines", nodeCase{"cfg.parse", []any{repeat("", "\r\n", mb/2, "content=z.esp")}}, ""},
		{"a quoted path of escapes", nodeCase{"cfg.unquotePath", []any{repeat("\"", "&", mb, "\"")}}, ""},
		{"fallback with a megabyte of commas", nodeCase{"cfg.parse", []any{repeat("fallback=k", ",", mb, "v")}}, ""},
		{"fold a megabyte of capitals", nodeCase{"cfg.fold", []any{repeat("", "AB", mb/2, "")}}, ""},
		{"bidi isolates", nodeCase{"setup.bidiText", []any{repeat("", "\u2068", mb, "")}}, ""},
		{"bidi overrides", nodeCase{"setup.bidiText", []any{repeat("", "\u202e\u2069", mb/2, "x")}}, `"x"`},
		{"share link of a megabyte", nodeCase{"setup.params", []any{repeat("#cfg=", "A", mb, "&openmw=0.49")}}, ""},
		{"share link of separators", nodeCase{"setup.params", []any{repeat("#", "&", mb, "")}}, ""},
		{"share link of equals signs", nodeCase{"setup.params", []any{repeat("#cfg", "=", mb, "")}}, ""},
		{"share link text round trip", nodeCase{"setup.roundTrip", []any{repeat("content=a", " ", mb, "b.esp\n")}}, `true`},
		{"a folder name of a megabyte of letters", nodeCase{"cfg.folderName", []any{repeat("", "a", mb, ""), "11111111-1111"}}, `"` + strings.Repeat("a", 40) + `-11111111"`},
		{"a folder name of a megabyte of separators", nodeCase{"cfg.folderName", []any{repeat("", "a ", mb/2, ""), "11111111-1111"}}, ""},
		{"a path of a megabyte of slashes", nodeCase{"cfg.dirParts", []any{repeat("", "a/\\", mb/3, "b")}}, fmt.Sprint(mb/3 + 1)},
		{"setup check of a megabyte of folders", nodeCase{"setup.check", []any{hostileFolders(), repeat("data=", "12345678/", mb/9, "core\n"), ""}}, ""},
		{"search query of a megabyte", nodeCase{"find.best", []any{[]string{"Candlelight", "Tallow"}, repeat("", "candle ", mb/7, ""), 20}}, `[0]`},
		{"search over a megabyte name", nodeCase{"find.bestFirst", []any{repeat("", "candel", mb/6, ""), []string{"Tallow"}, "delcan", 20}}, `[0]`},
		{"search query of a megabyte of id", nodeCase{"find.needs", []any{repeat("", "abcd-", mb/5, "")}}, `["ia"]`},
		{"share link that is not base64", nodeCase{"setup.decode", []any{repeat("", "!", mb, "")}}, `null`},
	}
	nc := make([]nodeCase, len(cases))
	for i, c := range cases {
		nc[i] = c.c
	}
	got, ms := runNodeTimed(t, nc, 4*time.Minute)
	slowest := 0
	for i, c := range cases {
		if ms[i] > ms[slowest] {
			slowest = i
		}
		if ms[i] > hostileBoundMs {
			t.Errorf("%s (%s): %.0f ms on a megabyte, more than %d", c.name, c.c.Fn, ms[i], hostileBoundMs)
		}
		if c.want != "" && string(got[i]) != c.want {
			t.Errorf("%s (%s): got %s, want %s", c.name, c.c.Fn, got[i], c.want)
		}
	}
	t.Logf("%d megabyte inputs; the slowest, %s, took %.0f ms", len(cases), cases[slowest].name, ms[slowest])
	// The cfg line keeps its inner spaces and its line number.
	var cfg struct {
		Content []string `json:"content"`
	}
	if err := json.Unmarshal(got[14], &cfg); err != nil || len(cfg.Content) != 1 ||
		!strings.HasPrefix(cfg.Content[0], "1:a   ") || !strings.HasSuffix(cfg.Content[0], "   b.esp") ||
		!strings.Contains(cfg.Content[0], fmt.Sprint(mb+len("ab.esp"))) {
		t.Errorf("the padded content line reads %s", got[14])
	}
}

// hostileFolders is a setup document whose one claim declares a folder named "core" and has
// a project id starting with every segment of the hostile path, so each segment is looked up.
func hostileFolders() map[string]any {
	claims := map[string]any{"12345678-1234-4234-8234-123456789012/s": withDirs(setupClaim("12345678", []string{}, []string{}, nil),
		"12345678-1234-4234-8234-123456789012", []string{"x/core"}, []string{}, []string{}, []string{})}
	doc := setupDocFor(map[string][]string{}, claims)
	doc["groundcover_files"], doc["fallback_archives"] = map[string][]string{}, map[string][]string{}
	doc["data_dirs"] = map[string][]string{"core": {"12345678-1234-4234-8234-123456789012/s"}}
	return doc
}
