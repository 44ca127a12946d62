package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const minimalManifest = `{"schema_version":"2","document":"project","project":{"id":"7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73","name":"N","type":"mod","status":"active","game":"morrowind","tags":[],"maintainers":[],"links":{"page":"https://a.example/","source":"https://a.example/s","issues":"https://a.example/i"},"integrations":{},"media":[],"credits":[]},"channels":{},"releases":[]}`

const minimalIndex = `{"schema_version":"2","document":"index","site":{"name":"S","url":"https://a.example/"},"projects":[]}`

func TestMinimalDocumentsValid(t *testing.T) {
	if m, fs := ValidateManifest([]byte(minimalManifest), "7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73"); len(fs) != 0 || m == nil || m.Project.Name != "N" {
		t.Fatalf("minimal manifest: %v %v", m, fs)
	}
	if ix, fs := ValidateIndex([]byte(minimalIndex)); len(fs) != 0 || ix == nil || ix.Site.Name != "S" {
		t.Fatalf("minimal index: %v %v", ix, fs)
	}
	d, fs := Decode([]byte(minimalIndex))
	if len(fs) != 0 || d.Kind != DocIndex || d.Index == nil || d.Manifest != nil {
		t.Fatalf("Decode(index) = %+v, %v", d, fs)
	}
	d, fs = Decode([]byte(minimalManifest))
	if len(fs) != 0 || d.Kind != DocProject || d.Manifest == nil || d.Index != nil {
		t.Fatalf("Decode(manifest) = %+v, %v", d, fs)
	}
}

// TestDispatch: schema_version and document decide what a document is, never other fields.
func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		name, doc    string
		ptr, rule    string
		newer, notDW bool
		msg          string
	}{
		{"newer schema_version", `{"schema_version":"3","document":"project"}`, "/schema_version", RuleNewerProtocol, true, false, "speaks a newer protocol"},
		{"newer even with every v2 field", strings.Replace(minimalManifest, `"schema_version":"2"`, `"schema_version":"2.1"`, 1), "/schema_version", RuleNewerProtocol, true, false, "speaks a newer protocol"},
		{"older or unknown schema_version", `{"schema_version":"1","document":"index","site":{},"projects":[]}`, "/schema_version", RuleNewerProtocol, true, false, `schema_version "1"`},
		{"unknown document kind under a newer version", `{"schema_version":"3","document":"bundle"}`, "/schema_version", RuleNewerProtocol, true, false, "newer protocol"},
		{"no schema_version nor document", `{"site":{"name":"S","url":"https://a.example/"},"projects":[]}`, "", RuleNotDreamWeave, false, true, "not a DreamWeave document"},
		{"no schema_version", strings.Replace(minimalManifest, `"schema_version":"2",`, "", 1), "/schema_version", RuleNotDreamWeave, false, true, "no schema_version"},
		{"no document", strings.Replace(minimalManifest, `"document":"project",`, "", 1), "/document", RuleNotDreamWeave, false, true, "no document"},
		{"a release payload is not an index or manifest", `{"schema_version":"2","document":"release-payload"}`, "/document", RuleNotDreamWeave, false, true, `"release-payload"`},
		{"top-level array", `[{"schema_version":"2"}]`, "", RuleNotDreamWeave, false, true, "an array"},
		{"top-level string", `"dreamweave"`, "", RuleNotDreamWeave, false, true, "a string"},
		{"schema_version as a number", `{"schema_version":2,"document":"project"}`, "/schema_version", "type", false, false, "must be a string"},
		{"document as a number", `{"schema_version":"2","document":1}`, "/document", "type", false, false, `"document" is a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, fs := Decode([]byte(tc.doc))
			if d != nil {
				t.Errorf("Doc = %+v, want nil", d)
			}
			if len(fs) != 1 || fs[0].Pointer != tc.ptr || fs[0].Rule != tc.rule || !strings.Contains(fs[0].Message, tc.msg) {
				t.Fatalf("findings %v, want one %s at %q containing %q", fs, tc.rule, tc.ptr, tc.msg)
			}
			if IsNewerProtocol(fs) != tc.newer || IsNotDreamWeave(fs) != tc.notDW || IsRefused(fs) {
				t.Errorf("newer=%v notDreamWeave=%v refused=%v", IsNewerProtocol(fs), IsNotDreamWeave(fs), IsRefused(fs))
			}
		})
	}
}

func TestDocumentKindMismatch(t *testing.T) {
	ix, fs := ValidateIndex([]byte(minimalManifest))
	if ix != nil || len(fs) != 1 || fs[0].Rule != RuleDocumentKind || fs[0].Pointer != "/document" || !strings.Contains(fs[0].Message, `expected "index"`) {
		t.Errorf("ValidateIndex(manifest) = %v, %v", ix, fs)
	}
	m, fs := ValidateManifest([]byte(minimalIndex), "")
	if m != nil || len(fs) != 1 || fs[0].Rule != RuleDocumentKind || !strings.Contains(fs[0].Message, `expected "project"`) {
		t.Errorf("ValidateManifest(index) = %v, %v", m, fs)
	}
}

// TestSchemaInvalidGivesNoTypedModel: a document that fails the schema never yields a
// half-filled model, and the rules wait for a schema-valid document.
func TestSchemaInvalidGivesNoTypedModel(t *testing.T) {
	b := strings.Replace(minimalManifest, `"type":"mod"`, `"type":"modlist"`, 1)
	d, fs := Decode([]byte(b))
	if d == nil || d.Kind != DocProject || d.Manifest != nil {
		t.Fatalf("Doc = %+v", d)
	}
	if len(fs) != 1 || fs[0].Pointer != "/project/type" || fs[0].Rule != "enum" {
		t.Fatalf("findings %v", fs)
	}
}

func TestRequiredAndUnknownFindingsNameEachField(t *testing.T) {
	b := strings.Replace(minimalManifest, `"name":"N","type":"mod",`, `"x-a":1,"we\"ird/~key":2,`, 1)
	_, fs := ValidateManifest([]byte(b), "")
	got := map[string]string{}
	for _, f := range fs {
		got[f.Pointer] = f.Rule
	}
	for p, r := range map[string]string{"/project/name": "required", "/project/type": "required", "/project/x-a": "additionalProperties", "/project/we\"ird~1~0key": "additionalProperties"} {
		if got[p] != r {
			t.Errorf("want %s at %s; findings %v", r, p, fs)
		}
	}
}

func TestFindingsSortedAndDeterministic(t *testing.T) {
	b := strings.Replace(minimalManifest, `"tags":[]`, `"tags":[1,2,3,4,5,6,7,8,9,10,11]`, 1)
	_, first := ValidateManifest([]byte(b), "")
	if len(first) != 11 {
		t.Fatalf("want 11 findings, got %v", first)
	}
	for i, f := range first {
		if want := Pointer("project", "tags", i); f.Pointer != want {
			t.Errorf("finding %d at %s, want %s (numeric order)", i, f.Pointer, want)
		}
	}
	for range 5 {
		_, again := ValidateManifest([]byte(b), "")
		a, _ := json.Marshal(again)
		f, _ := json.Marshal(first)
		if !bytes.Equal(a, f) {
			t.Fatal("findings differ between runs")
		}
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{Pointer: "/a", Rule: "type", Message: "m"}
	if f.String() != "/a [type] m" {
		t.Errorf("String() = %q", f.String())
	}
	if (Finding{Rule: RuleSyntax, Message: "m"}).String() != "(document) [json-syntax] m" {
		t.Errorf("root finding string wrong")
	}
}

func TestPointerEscapes(t *testing.T) {
	if p := Pointer("a/b", "c~d", 3); p != "/a~1b/c~0d/3" {
		t.Errorf("Pointer = %q", p)
	}
	if lastToken("/a~1b/c~0d") != "c~d" {
		t.Errorf("lastToken unescape")
	}
}

func TestValidNamespace(t *testing.T) {
	for ns, ok := range map[string]bool{"openmw": true, "org.tes3mp": true, "io.github.x-y.z": true, "tes3mp": false, "Org.Tes3mp": false, "org.": false, ".org": false, "org..x": false, "": false, "openmw.lua": true} {
		if ValidNamespace(ns) != ok {
			t.Errorf("ValidNamespace(%q) = %v", ns, !ok)
		}
	}
}
