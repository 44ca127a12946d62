package schemas

import (
	"testing"
	"testing/fstest"
)

// TestCheckPartsAsCheck: CheckParts, which checks the items of a plain array member one at a
// time, accepts and rejects what Check of the whole document does and names the same most
// specific failure; an array with a bound of its own, a duplicate key or a document that is
// not an object is checked whole.
func TestCheckPartsAsCheck(t *testing.T) {
	s, err := Compile(fstest.MapFS{"s.json": {Data: []byte(`{"type": "object", "required": ["a"], "additionalProperties": false,
		"properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/x"}}, "b": {"type": "array", "minItems": 1, "items": {"type": "string"}},
			"c": {"type": "string"}},
		"$defs": {"x": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}}`)}}, "s.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		`{"a": [{"id": 1}, {"id": 2}], "b": ["x"], "c": "y"}`, `{"a": [{"id": 1}, {"id": 2}, {"id": "3"}]}`, `{"a": [{"id": 1}, {}]}`,
		`{"a": [], "c": 1}`, `{"a": [], "b": []}`, `{"a": [{}], "a": []}`, `{"a": {"id": 1}}`, `{"b": ["x"]}`, `{"a": [], "d": 1}`,
		`[{"a": []}]`, `{"a": [{"id": 1}]`, `{"a": [{"id": 1}]} []`, `{"a": [1,]}`,
	} {
		v, wantErr := Decode([]byte(doc))
		want := Check(s, v)
		got, err := CheckParts(s, []byte(doc))
		switch {
		case (err != nil) != (wantErr != nil):
			t.Errorf("%s: CheckParts error %v, Decode error %v", doc, err, wantErr)
		case err != nil:
		case (got == nil) != (want == nil):
			t.Errorf("%s: CheckParts %v, Check %v", doc, got, want)
		case got == nil:
		default:
			g, w := got.Deepest(), want.Deepest()
			if g.InstanceLocation == w.InstanceLocation && g.KeywordLocation == w.KeywordLocation && g.Message == w.Message {
				continue
			}
			t.Errorf("%s: CheckParts fails %s %s %s, Check %s %s %s", doc, g.InstanceLocation, g.KeywordLocation, g.Message, w.InstanceLocation, w.KeywordLocation, w.Message)
		}
	}
}
