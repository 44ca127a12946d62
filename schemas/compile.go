package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Compile compiles ref (a schema file of fsys, optionally with a fragment) as this index
// validates: draft 2020-12 unless the schema names one, formats asserted. Every *.json of fsys
// is registered under its name for $refs; any other $ref is refused, nothing is fetched. It is
// the one place a schema is compiled.
func Compile(fsys fs.FS, ref string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("refusing to load %s: a schema refers only to the files beside it", u)
	}
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		if err := c.AddResource(f, bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("schema %s: %w", f, err)
		}
	}
	s, err := c.Compile(ref)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", ref, err)
	}
	return s, nil
}

// Decode reads doc as the validator takes it: one JSON value, numbers kept as written
// (json.Number), nothing after it.
func Decode(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not JSON: trailing data after the document")
	}
	return v, nil
}

// Validate decodes doc and validates it against s. The error says the document is not JSON,
// or names the JSON pointer of the most specific value that does not match
// (`the value at "/records/0/url": does not match pattern ...`; "" is the whole document).
func Validate(s *jsonschema.Schema, doc []byte) error {
	v, err := Decode(doc)
	if err != nil {
		return err
	}
	err = s.Validate(v)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		leaf := Deepest(ve)
		return fmt.Errorf("the value at %q: %s (schema %s)", leaf.InstanceLocation, leaf.Message, leaf.KeywordLocation)
	}
	return err
}

// Deepest returns the leaf cause of ve with the longest instance location: the most specific
// value that failed (the first such, in the validator's order).
func Deepest(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := ve
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if len(e.InstanceLocation) > len(best.InstanceLocation) || len(best.Causes) > 0 {
				best = e
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return best
}
