package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/DreamWeave-MP/ashyams-go/catalog/schemacheck"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// Schema is a compiled catalog v1 schema: the whole document (catalog or events) and its two
// definitions, so a failure is reported inside the definition the file claims to follow; and
// each of the three compiled for schemacheck's walk over the encoded bytes.
type Schema struct {
	root, catalog, events *jsonschema.Schema
	walk                  map[*jsonschema.Schema]*schemacheck.Checker
}

// CompileSchema compiles a catalog v1 JSON Schema document (ours, or the one another index
// publishes). It must define $defs/catalog and $defs/events. Nothing is fetched: a $ref
// outside the document fails to compile.
func CompileSchema(doc []byte) (*Schema, error) {
	var head struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return nil, fmt.Errorf("catalog schema: %w", err)
	}
	id := head.ID
	if id == "" {
		id = "urn:ashyams:catalog-schema"
	}
	c := jsonschema.NewCompiler()
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("catalog schema: refusing to load %s: the schema must be self-contained", u)
	}
	if err := c.AddResource(id, bytes.NewReader(doc)); err != nil {
		return nil, fmt.Errorf("catalog schema: %w", err)
	}
	s := &Schema{}
	for _, t := range []struct {
		dst **jsonschema.Schema
		ptr string
	}{{&s.root, ""}, {&s.catalog, "#/$defs/catalog"}, {&s.events, "#/$defs/events"}} {
		sch, err := c.Compile(id + t.ptr)
		if err != nil {
			return nil, fmt.Errorf("catalog schema: %w", err)
		}
		*t.dst = sch
	}
	s.walk = map[*jsonschema.Schema]*schemacheck.Checker{}
	for _, sch := range []*jsonschema.Schema{s.root, s.catalog, s.events} {
		s.walk[sch] = schemacheck.Compile(sch)
	}
	return s, nil
}

var (
	ourOnce   sync.Once
	ourSchema *Schema
	ourErr    error
)

// OurSchema is our embedded schema (schemas.FS, SchemaFile), compiled once.
func OurSchema() (*Schema, error) {
	ourOnce.Do(func() {
		b, err := schemas.FS.ReadFile(SchemaFile)
		if err != nil {
			ourErr = fmt.Errorf("catalog schema: %w", err)
			return
		}
		ourSchema, ourErr = CompileSchema(b)
	})
	return ourSchema, ourErr
}

// Validate checks a generated file (catalog.json or events.json; name is used in messages)
// against our embedded schema. The error is a *ValidationError naming the JSON pointer.
func Validate(name string, doc []byte) error {
	s, err := OurSchema()
	if err != nil {
		return err
	}
	return s.Validate(name, doc)
}

// ValidationError is a generated file that does not match the schema: the file, the JSON
// pointer of the offending value ("" is the whole document), the schema keyword location and
// what is wrong.
type ValidationError struct {
	File    string // the file name given to Validate
	Pointer string // RFC 6901 pointer of the offending value; "" is the whole document
	Keyword string // the keyword location that failed, relative to the definition checked, e.g. "/required"
	Message string // what is wrong, in the validator's words
}

// Error renders "<file>: <pointer or (document)>: <message> (schema <keyword>)" on one line.
func (e *ValidationError) Error() string {
	ptr := e.Pointer
	if ptr == "" {
		ptr = "(document)"
	}
	return fmt.Sprintf("%s: %s: %s (schema %s)", e.File, ptr, e.Message, e.Keyword)
}

// Validate checks doc against s. A document whose format names the catalog or the events list
// is checked against that definition, anything else against the whole schema. The error names
// the JSON pointer of the most specific failure (*ValidationError), or says the file is not
// JSON. The definition is first evaluated over the bytes (schemacheck), which settles a valid
// document without decoding it; any other goes through the library's validator, which has the
// final word and names what is wrong.
func (s *Schema) Validate(name string, doc []byte) error {
	if s.walk[s.definition(doc)].Valid(doc) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%s: not JSON: %w", name, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: not JSON: trailing data after the document", name)
	}
	sch := s.root
	if m, ok := v.(map[string]any); ok {
		sch = s.byFormat(m["format"])
	}
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%s: %w", name, err)
	}
	leaf := deepest(ve)
	return &ValidationError{File: name, Pointer: leaf.InstanceLocation, Keyword: leaf.KeywordLocation, Message: leaf.Message}
}

// byFormat is the definition a document whose "format" member is f follows.
func (s *Schema) byFormat(f any) *jsonschema.Schema {
	switch f {
	case CatalogFormat:
		return s.catalog
	case EventsFormat:
		return s.events
	}
	return s.root
}

// definition is byFormat for the encoded document doc, read without decoding all of it.
func (s *Schema) definition(doc []byte) *jsonschema.Schema {
	raw, ok := schemacheck.Member(doc, "format")
	if !ok {
		return s.root
	}
	var f any
	if json.Unmarshal(raw, &f) != nil {
		return s.root
	}
	return s.byFormat(f)
}

// deepest returns the leaf cause with the longest instance location: the most specific value
// that failed (the first such, in the validator's order).
func deepest(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
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
