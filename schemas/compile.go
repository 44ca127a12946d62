package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Compile compiles ref (a schema file of fsys, optionally with a fragment) as this index
// validates: draft 2020-12 unless the schema names one, formats asserted. Every *.json of fsys
// is registered under its name for $refs; any other $ref is refused, nothing is fetched. It is
// the one place a schema is compiled.
func Compile(fsys fs.FS, ref string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refuse{})
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		doc, err := Decode(b)
		if err == nil {
			err = c.AddResource(f, doc)
		}
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", f, err)
		}
	}
	s, err := c.Compile(ref)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", ref, err)
	}
	return s, nil
}

// refuse is the loader of every URL no file of the schemas' folder answers.
type refuse struct{}

func (refuse) Load(u string) (any, error) {
	return nil, fmt.Errorf("refusing to load %s: a schema refers only to the files beside it", u)
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
		return nil, errTrailing
	}
	return v, nil
}

var errTrailing = errors.New("not JSON: trailing data after the document")

// token is dec's next token; the end of the input inside a value is unexpected.
func token(dec *json.Decoder, depth int) (json.Token, error) {
	t, err := dec.Token()
	if err == io.EOF && depth > 0 {
		err = io.ErrUnexpectedEOF
	}
	return t, err
}

// Validate decodes doc and validates it against s, in parts (CheckParts). The error says the document is not JSON,
// or names the JSON pointer of the most specific value that does not match
// (`the value at "/records/0/url": does not match pattern ...`; "" is the whole document).
func Validate(s *jsonschema.Schema, doc []byte) error {
	f, err := CheckParts(s, doc)
	if err != nil {
		return err
	}
	if f != nil {
		leaf := f.Deepest()
		return fmt.Errorf("the value at %q: %s (schema %s)", leaf.InstanceLocation, leaf.Message, leaf.KeywordLocation)
	}
	return nil
}

// Failure is a value that does not match a schema, or a group of such failures (Causes).
type Failure struct {
	InstanceLocation        string // RFC 6901 pointer of the value; "" is the whole document
	KeywordLocation         string // the keyword's pointer from the schema checked, through $refs
	AbsoluteKeywordLocation string // the keyword's schema file URL and pointer in it ("url#/$defs/x/pattern")
	Kind                    jsonschema.ErrorKind
	Message                 string // what is wrong, in words
	Causes                  []*Failure
}

// Check validates v (as Decode returns it) against s: nil when it matches.
func Check(s *jsonschema.Schema, v any) *Failure {
	var ve *jsonschema.ValidationError
	switch err := s.Validate(v); {
	case err == nil:
		return nil
	case errors.As(err, &ve):
		return failure(ve, "", "", "")
	default:
		return &Failure{Message: err.Error()}
	}
}

// failure converts the library's tree: each keyword location is its parent's, the part of the
// schema location that the child adds, and the keyword; a $ref with one cause is that cause.
// A property name's failures are at the name (key), as the library locates them at the root.
func failure(e *jsonschema.ValidationError, parentURL, kwLoc, key string) *Failure {
	ref, isRef := e.ErrorKind.(*kind.Reference)
	if parentURL != "" {
		kwLoc += strings.TrimPrefix(e.SchemaURL, parentURL)
	}
	url, abs := e.SchemaURL, e.SchemaURL+pointer(e.ErrorKind.KeywordPath())
	if isRef {
		kwLoc += pointer(ref.KeywordPath())
		url, abs = ref.URL, ref.URL
	}
	if isRef && len(e.Causes) == 1 {
		return failure(e.Causes[0], url, kwLoc, key)
	}
	f := &Failure{InstanceLocation: key + pointer(e.InstanceLocation), KeywordLocation: kwLoc, AbsoluteKeywordLocation: abs, Kind: e.ErrorKind, Message: words(e.ErrorKind)}
	if !isRef {
		f.KeywordLocation += pointer(e.ErrorKind.KeywordPath())
	}
	if p, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		key = f.InstanceLocation + pointer([]string{p.Property})
	}
	for _, c := range e.Causes {
		f.Causes = append(f.Causes, failure(c, url, kwLoc, key))
	}
	return f
}

// pointer is the RFC 6901 pointer of tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + escape(t))
	}
	return b.String()
}

// escape is t as a token of a JSON pointer.
func escape(t string) string { return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1") }

var english = message.NewPrinter(language.English)

// words says what failed, naming the bound and the value found.
func words(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("expected %s, but got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Required:
		return "missing properties: " + quoted(k.Missing...)
	case *kind.AdditionalProperties:
		return "additionalProperties " + quoted(slices.Sorted(slices.Values(k.Properties))...) + " not allowed"
	case *kind.MinLength:
		return fmt.Sprintf("length must be >= %d, but got %d", k.Want, k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("length must be <= %d, but got %d", k.Want, k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("minimum %d items required, but found %d items", k.Want, k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("maximum %d items required, but found %d items", k.Want, k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("must be >= %v but found %v", f64(k.Want), f64(k.Got))
	case *kind.Maximum:
		return fmt.Sprintf("must be <= %v but found %v", f64(k.Want), f64(k.Got))
	case *kind.Pattern:
		return "does not match pattern " + quoted(k.Want)
	case *kind.Format:
		if s, ok := k.Got.(string); ok {
			return quoted(s) + " is not valid " + quoted(k.Want)
		}
	}
	return k.LocalizedString(english)
}

func f64(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// quoted is each of names in single quotes (a quote in a name escaped), comma-separated.
func quoted(names ...string) string {
	q := make([]string, len(names))
	for i, n := range names {
		s := strings.ReplaceAll(strings.ReplaceAll(fmt.Sprintf("%q", n), `\"`, `"`), `'`, `\'`)
		q[i] = "'" + s[1:len(s)-1] + "'"
	}
	return strings.Join(q, ", ")
}

// Deepest returns the leaf cause with the longest instance location: the most specific value
// that failed (the first such, in the validator's order).
func (f *Failure) Deepest() *Failure {
	best := f
	var walk func(e *Failure)
	walk = func(e *Failure) {
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
	walk(f)
	return best
}
