package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckParts is Check of doc, holding one item of a large list at a time where s allows it
// exactly: when doc is an object and s looks at its members only through properties, each
// member whose property schema is an array of items and nothing else has every item checked
// against the items schema as it is read, then dropped; the object is checked with that array
// empty. The error says doc is not JSON.
func CheckParts(s *jsonschema.Schema, doc []byte) (*Failure, error) {
	whole := func() (*Failure, error) {
		v, err := Decode(doc)
		if err != nil {
			return nil, err
		}
		return Check(s, v), nil
	}
	if !byProperties(s) || !bytes.HasPrefix(bytes.TrimLeft(doc, " \t\r\n"), []byte("{")) {
		return whole()
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	obj, fails := map[string]any{}, &Failure{}
	_, err := token(dec, 0) // the '{'
	for err == nil && dec.More() {
		var k json.Token
		if k, err = token(dec, 1); err != nil {
			break
		}
		key, items := k.(string), itemsOnly(s.Properties[k.(string)])
		if _, dup := obj[key]; dup { // the last one counts, as in Decode
			return whole()
		}
		if items == nil || !bytes.HasPrefix(bytes.TrimLeft(doc[dec.InputOffset():], " \t\r\n:"), []byte("[")) {
			var v any
			err = dec.Decode(&v)
			obj[key] = v
			continue
		}
		obj[key] = []any{}
		token(dec, 1) // the '['
		for i := 0; err == nil && dec.More(); i++ {
			var v any
			if err = dec.Decode(&v); err == nil {
				if f := Check(items, v); f != nil {
					fails.Causes = append(fails.Causes, under(f, "/"+escape(key)+"/"+strconv.Itoa(i), "/properties/"+escape(key)+"/items"))
				}
			}
		}
		if err == nil {
			_, err = token(dec, 1) // the ']'
		}
	}
	if err == nil {
		_, err = token(dec, 1) // the '}'
	}
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailing
	}
	if f := Check(s, obj); f != nil {
		fails.Causes = append([]*Failure{f}, fails.Causes...)
	}
	if len(fails.Causes) == 0 {
		return nil, nil
	}
	return fails, nil
}

// byProperties reports whether s applies to an object's members only through properties (and
// additionalProperties, for the members properties does not name).
func byProperties(s *jsonschema.Schema) bool {
	return s.Ref == nil && s.DynamicRef == nil && s.RecursiveRef == nil && s.Enum == nil && s.Const == nil && s.Not == nil &&
		s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil && s.If == nil && len(s.PatternProperties) == 0 &&
		s.Dependencies == nil && s.DependentSchemas == nil && s.UnevaluatedProperties == nil && len(s.Extensions) == 0
}

// itemsOnly is p's items schema when p asks nothing of an array but that each item match it.
func itemsOnly(p *jsonschema.Schema) *jsonschema.Schema {
	if p == nil || !byProperties(p) || p.MinItems != nil || p.MaxItems != nil || p.UniqueItems || p.Contains != nil ||
		p.PrefixItems != nil || p.UnevaluatedItems != nil {
		return nil
	}
	return p.Items2020
}

// under moves f and its causes to the instance at ptr and the keyword at kw.
func under(f *Failure, ptr, kw string) *Failure {
	f.InstanceLocation, f.KeywordLocation = ptr+f.InstanceLocation, kw+f.KeywordLocation
	for _, c := range f.Causes {
		under(c, ptr, kw)
	}
	return f
}
