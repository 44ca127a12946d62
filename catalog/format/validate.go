package format

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// Schema is a compiled catalog v1 schema: the whole document and its two definitions, so a
// failure is reported inside the definition the file claims to follow.
type Schema struct {
	root, catalog, events *jsonschema.Schema
}

// CompileSchema compiles the catalog v1 JSON Schema file name of fsys, which must define
// $defs/catalog and $defs/events. Nothing is fetched.
func CompileSchema(fsys fs.FS, name string) (*Schema, error) {
	s := &Schema{}
	for _, t := range []struct {
		dst **jsonschema.Schema
		ptr string
	}{{&s.root, ""}, {&s.catalog, "#/$defs/catalog"}, {&s.events, "#/$defs/events"}} {
		sch, err := schemas.Compile(fsys, name+t.ptr)
		if err != nil {
			return nil, fmt.Errorf("catalog schema: %w", err)
		}
		*t.dst = sch
	}
	return s, nil
}

// OurSchema is our embedded schema (schemas.FS, SchemaFile), compiled once.
var OurSchema = sync.OnceValues(func() (*Schema, error) { return CompileSchema(schemas.FS, SchemaFile) })

// Validate checks a generated file against our embedded schema; the error is a
// *ValidationError.
func Validate(name string, doc []byte) error {
	s, err := OurSchema()
	if err != nil {
		return err
	}
	return s.Validate(name, doc)
}

// ValidationError is a generated file that does not match the schema.
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

// Validate checks doc against the definition its format names, else the whole schema, a claim
// or event at a time (schemas.CheckParts). The error is a *ValidationError at the most
// specific failure, or says the file is not JSON.
func (s *Schema) Validate(name string, doc []byte) error {
	var head struct {
		Format any `json:"format"`
	}
	sch := s.root
	if json.Unmarshal(doc, &head) == nil {
		sch = s.byFormat(head.Format)
	}
	f, err := schemas.CheckParts(sch, doc)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f == nil {
		return nil
	}
	leaf := f.Deepest()
	return &ValidationError{File: name, Pointer: leaf.InstanceLocation, Keyword: leaf.KeywordLocation, Message: leaf.Message}
}

func (s *Schema) byFormat(f any) *jsonschema.Schema {
	switch f {
	case CatalogFormat:
		return s.catalog
	case EventsFormat:
		return s.events
	}
	return s.root
}

// Listed is one claim of a published catalog with its site, as a reader of catalog.json needs
// it.
type Listed struct {
	Project     string
	ManifestURL string // the claim's manifest URL
	Health      string // the claim_health token
	SiteName    string // the site's name; "" when the catalog gives none
	IndexURL    string // the site's index URL
	SiteURL     string // the site's URL; "" when the catalog gives none
}

// Read reads a published catalog.json named name, checked against our schema as a catalog
// (the error names the file and the JSON pointer), and returns its claims in order.
func Read(name string, b []byte) ([]Listed, error) {
	if err := Validate(name, b); err != nil {
		return nil, err
	}
	var c catalogJSON
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if c.Format != CatalogFormat {
		return nil, fmt.Errorf("%s: format %q is not a catalog (%q)", name, c.Format, CatalogFormat)
	}
	sites := map[string]originJSON{}
	for _, o := range c.Origins {
		sites[o.ID] = o
	}
	out := make([]Listed, 0, len(c.Claims))
	for _, cl := range c.Claims {
		o := sites[cl.Origin]
		out = append(out, Listed{Project: cl.Project, ManifestURL: cl.ManifestURL, Health: cl.Health,
			SiteName: deref(o.SiteName), IndexURL: o.IndexURL, SiteURL: deref(o.SiteURL)})
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
