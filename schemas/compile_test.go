package schemas

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestCompileRefusesRemoteRefs: a $ref to a file beside the schema resolves; one to any other
// address fails to compile, naming the address, and nothing is fetched.
func TestCompileRefusesRemoteRefs(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json":      {Data: []byte(`{"$ref": "b.json"}`)},
		"b.json":      {Data: []byte(`{"type": "string"}`)},
		"remote.json": {Data: []byte(`{"$ref": "http://127.0.0.1:1/c.json"}`)},
	}
	s, err := Compile(fsys, "a.json")
	if err != nil {
		t.Fatalf("a $ref beside the schema: %v", err)
	}
	if err := Validate(s, []byte(`"x"`)); err != nil {
		t.Errorf("a string: %v", err)
	}
	if err := Validate(s, []byte(`1`)); err == nil {
		t.Error("b.json's type is not applied through the $ref")
	}
	if _, err := Compile(fsys, "remote.json"); err == nil || !strings.Contains(err.Error(), "refusing to load http://127.0.0.1:1/c.json") {
		t.Errorf("a remote $ref: %v", err)
	}
}

// TestCompileOurs: every schema in FS compiles with the index's settings, formats asserted.
func TestCompileOurs(t *testing.T) {
	for _, name := range []string{Index, Project, Catalog, Search, FindTerms, FindIDs, FindFilters, FindRows, PlanFile, LockFile} {
		if _, err := Compile(FS, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	s, err := Compile(fstest.MapFS{"d.json": {Data: []byte(`{"format": "date"}`)}}, "d.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(s, []byte(`"yesterday"`)); err == nil {
		t.Error("the date format is not asserted")
	}
}

// TestValidateNamesWhatIsWrong: Validate's error names the most specific value that does not
// match by its pointer, and says when the document is not one JSON value.
func TestValidateNamesWhatIsWrong(t *testing.T) {
	s, err := Compile(fstest.MapFS{"s.json": {Data: []byte(`{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}}}`)}}, "s.json")
	if err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]string{
		`{"a": [1, "x"]}`: `the value at "/a/1": expected integer`,
		`[]`:              `the value at "": expected object`,
		`{"a": [1]} {}`:   "not JSON: trailing data after the document",
		`{"a": [1]`:       "not JSON: unexpected EOF",
		`{"a": [1]} x`:    "not JSON: ",
	} {
		err := Validate(s, []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", doc, err, want)
		}
	}
	if err := Validate(s, []byte(`{"a": [1, 2]}`)); err != nil {
		t.Errorf("a valid document: %v", err)
	}
}
