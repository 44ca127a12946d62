package schemas

import (
	"testing"
	"testing/fstest"
)

// TestValidateWords: each failure names the value by its RFC 6901 pointer (a property name
// that fails propertyNames by its own key), says what failed with the bound and the value
// found, and gives the keyword's location through $refs; unknown properties are listed sorted.
func TestValidateWords(t *testing.T) {
	s, err := Compile(fstest.MapFS{"s.json": {Data: []byte(`{"type": "object", "additionalProperties": false,
		"propertyNames": {"pattern": "^[a-z/~]+$"}, "required": ["a"],
		"properties": {"a": {"$ref": "#/$defs/n"}, "m": {"maximum": 2}, "l": {"minLength": 2}, "i": {"minItems": 1},
			"f": {"format": "date"}, "c/~": {"type": "integer"}},
		"$defs": {"n": {"minimum": 1}}}`)}}, "s.json")
	if err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]string{
		`{"a": 0}`:                 `the value at "/a": must be >= 1 but found 0 (schema /properties/a/$ref/minimum)`,
		`{"a": 1, "m": 2.5}`:       `the value at "/m": must be <= 2 but found 2.5 (schema /properties/m/maximum)`,
		`{"a": 1, "l": "x"}`:       `the value at "/l": length must be >= 2, but got 1 (schema /properties/l/minLength)`,
		`{"a": 1, "i": []}`:        `the value at "/i": minimum 1 items required, but found 0 items (schema /properties/i/minItems)`,
		`{"a": 1, "f": "soon"}`:    `the value at "/f": 'soon' is not valid 'date' (schema /properties/f/format)`,
		`{"a": 1, "c/~": "x"}`:     `the value at "/c~1~0": expected integer, but got string (schema /properties/c~1~0/type)`,
		`{"a": 1, "z": 1, "y": 2}`: `the value at "": additionalProperties 'y', 'z' not allowed (schema /additionalProperties)`,
		`{"a": 1, "Q": 1}`:         `the value at "/Q": does not match pattern '^[a-z/~]+$' (schema /propertyNames/pattern)`,
		`{}`:                       `the value at "": missing properties: 'a' (schema /required)`,
	} {
		if err := Validate(s, []byte(doc)); err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", doc, err, want)
		}
	}
}
