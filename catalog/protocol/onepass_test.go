package protocol

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// regexpMarks are what a regular expression from a schema looks like in a message; no finding
// may show one to a publisher.
var regexpMarks = []string{"(?:", "^", "$", "[0-9", "{0,", `\.`, "pattern '"}

func assertNoRegexp(t *testing.T, f Finding) {
	t.Helper()
	for _, m := range regexpMarks {
		if strings.Contains(f.Message, m) {
			t.Errorf("finding at %s shows a regular expression (%q): %s", f.Pointer, m, f.Message)
		}
	}
}

// TestEveryPatternHasWords: every pattern and format of the two protocol schemas has its form
// in words (schemaForms), so a new one without words fails here rather than in front of a
// publisher.
func TestEveryPatternHasWords(t *testing.T) {
	for _, name := range []string{schemas.Index, schemas.Project} {
		b, err := schemas.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		var walk func(x any, loc string)
		n := 0
		walk = func(x any, loc string) {
			switch x := x.(type) {
			case map[string]any:
				for k, y := range x {
					if _, ok := y.(string); ok && (k == "pattern" || k == "format") {
						n++
						if _, ok := schemaForms[loc+"/"+k]; !ok {
							t.Errorf("%s: the %s at %s has no words in schemaForms", name, k, loc)
						}
						continue
					}
					walk(y, loc+"/"+escapeToken(k))
				}
			case []any:
				for i, y := range x {
					walk(y, loc+Pointer(i))
				}
			}
		}
		walk(v, "")
		if n == 0 {
			t.Fatalf("%s: no pattern found; the walk is wrong", name)
		}
	}
}

// TestPatternFailuresSaidInWords: a bad version, constraint and id each give a pattern
// finding that names the form in words and shows no regular expression.
func TestPatternFailuresSaidInWords(t *testing.T) {
	eachTree(t, candlelight, func(t *testing.T, v any) {
		obj(v, "/releases/1")["version"] = "01.1"
		obj(v, "/releases/0/runtimes")["openmw"] = "~0.49"
		obj(v, "/project")["id"] = "NOT-A-UUID"
		_, fs := ValidateManifest(encode(nil, v), "")
		words := map[string]string{
			"/releases/1/version":         "DreamWeave version",
			"/releases/0/runtimes/openmw": "DreamWeave constraint",
			"/project/id":                 "lowercase UUID",
		}
		for ptr, w := range words {
			found := false
			for _, f := range fs {
				if f.Pointer == ptr && f.Rule == "pattern" {
					found = true
					if !strings.Contains(f.Message, w) {
						t.Errorf("%s: the pattern finding does not say %q: %s", ptr, w, f.Message)
					}
				}
			}
			if !found {
				t.Errorf("no pattern finding at %s in %v", ptr, fs)
			}
		}
		for _, f := range fs {
			assertNoRegexp(t, f)
		}
	})
}

// TestOnePassAllFindings: a manifest with an unknown field, a bad version and a wrong digest
// gets all three findings from one ValidateForEntry, and a protocol rule broken beside a
// schema finding (a yanked notice on an available release) is reported in the same run.
func TestOnePassAllFindings(t *testing.T) {
	eachTree(t, candlelight, func(t *testing.T, v any) {
		obj(v, "/project")["homepage"] = "https://example.org/"
		obj(v, "/releases/2")["version"] = "1.0.0.0.0.0.0"
		obj(v, "/releases/2")["deprecated"] = map[string]any{"reason": "old"}
		b := encode(nil, v)
		entry := IndexEntry{ID: "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90", Manifest: "projects/x.json", ManifestSHA256: strings.Repeat("0", 64)}
		m, fs := ValidateForEntry(b, entry, "")
		if m != nil {
			t.Error("a schema-invalid manifest came back as a typed model")
		}
		for _, w := range []struct{ ptr, rule string }{
			{"/project/homepage", "additionalProperties"},
			{"/releases/2/version", "pattern"},
			{"", RuleManifestSHA256},
			{"/releases/2/deprecated", RuleStatusNotice},
		} {
			want(t, fs, w.ptr, w.rule)
		}
		for _, f := range fs {
			assertNoRegexp(t, f)
			if f.Pointer == "/releases/2/version" && f.Rule != "pattern" {
				t.Errorf("the bad version is reported twice: %v", f)
			}
		}
	})
}

// TestHeadsNotCheckedSaysWhy: when a release's status is at fault, the channel heads cannot
// be recomputed; the run says so, naming the value, instead of reporting wrong heads.
func TestHeadsNotCheckedSaysWhy(t *testing.T) {
	eachTree(t, candlelight, func(t *testing.T, v any) {
		obj(v, "/releases/1")["status"] = json.Number("7")
		_, fs := ValidateManifest(encode(nil, v), "")
		want(t, fs, "/releases/1/status", "type", "enum")
		var note *Finding
		for i, f := range fs {
			if f.Rule == RuleChannelHeads {
				t.Errorf("channel heads reported from a release that could not be read: %v", f)
			}
			if f.Rule == RuleNotChecked {
				note = &fs[i]
			}
		}
		if note == nil || note.Pointer != "/channels" || !strings.Contains(note.Message, "/releases/1/status") {
			t.Errorf("want a not-checked finding at /channels naming /releases/1/status, got %v", fs)
		}
	})
}

// TestRulesRunBesideSchemaOnIndex: an index with an unknown field and two entries out of
// order gets both findings in one run.
func TestRulesRunBesideSchemaOnIndex(t *testing.T) {
	eachTree(t, stashIndex, func(t *testing.T, v any) {
		p := arr(v, "/projects")
		p[0], p[1] = p[1], p[0]
		v.(map[string]any)["mirror"] = "x"
		_, fs := ValidateIndex(encode(nil, v))
		want(t, fs, "/mirror", "additionalProperties")
		want(t, fs, "/projects/1/id", RuleIndexOrder)
	})
}
