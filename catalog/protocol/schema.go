package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

var (
	schemaOnce    sync.Once
	indexSchema   *jsonschema.Schema
	projectSchema *jsonschema.Schema
	schemaErr     error
)

func ourSchemas() (index, project *jsonschema.Schema, err error) {
	schemaOnce.Do(func() {
		indexSchema, schemaErr = schemas.Compile(schemas.FS, schemas.Index)
		if schemaErr == nil {
			projectSchema, schemaErr = schemas.Compile(schemas.FS, schemas.Project)
		}
	})
	return indexSchema, projectSchema, schemaErr
}

// SchemaFindings validates v (as parseStrict returns it) against s: one finding per missing
// required field and per unknown field; oneOf/anyOf failures collapse into one.
func SchemaFindings(s *jsonschema.Schema, v any) []Finding {
	f := schemas.Check(s, v)
	if f == nil {
		return nil
	}
	if f.Kind == nil {
		return printableFindings([]Finding{{Rule: RuleInternal, Message: "schema validation failed: " + f.Message}})
	}
	var out []Finding
	collect(f, &out, v)
	return printableFindings(sortFindings(out))
}

// collect turns one validation failure of the document v into findings.
func collect(ve *schemas.Failure, out *[]Finding, v any) {
	kw := keyword(ve.KeywordLocation)
	ptr := ve.InstanceLocation
	if (kw == "oneOf" || kw == "anyOf") && len(ve.Causes) > 0 {
		var leaves []Finding
		for _, c := range ve.Causes {
			collect(c, &leaves, v)
		}
		format, args := "%s matches none of the allowed forms: ", []any{fieldLabel(ptr)}
		for i, l := range leaves {
			if i > 0 {
				format += "; "
			}
			format += "%s"
			args = append(args, leafPhrase(l))
		}
		*out = append(*out, found(ptr, kw, format, args...))
		return
	}
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collect(c, out, v)
		}
		return
	}
	switch k := ve.Kind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			msg := fmt.Sprintf("required field %q is missing", name)
			if strings.Contains(ve.KeywordLocation, "/then/") {
				msg += " (required by the value of another field here, such as format binary)"
			}
			*out = append(*out, Finding{Pointer: ptr + "/" + escapeToken(name), Rule: kw, Message: msg})
		}
		return
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			*out = append(*out, found(ptr+"/"+escapeToken(name), kw,
				"unknown field %q is not allowed here (core fields are frozen; new data goes in namespaced extensions)", pub(name)))
		}
		return
	}
	msg := phrase{"%s", []any{ve.Message}}
	switch kw {
	case "pattern":
		msg.args[0] = patternWords(ve.AbsoluteKeywordLocation)
	case "format":
		if s, ok := valueAt(v, ptr).(string); ok { // the library's message quotes the value
			msg = libQuoting(ve.Message, s)
			if w, ok := schemaForms[formLocation(ve.AbsoluteKeywordLocation)]; ok {
				msg = phrase{"%q is not in the form this field takes: %s", []any{pub(s), w}}
			}
		}
	}
	if strings.Contains(ve.KeywordLocation, "/propertyNames/") {
		kw = "propertyNames"
		*out = append(*out, found(ptr, kw, "key %q is not an allowed name here: %s", pub(lastToken(ptr)), msg))
		return
	}
	*out = append(*out, found(ptr, kw, "%s: %s", fieldLabel(ptr), msg))
}

// schemaForms says in words what each pattern or format of the protocol schemas asks for, by
// keyword location, so a publisher never reads a regular expression.
var schemaForms = map[string]string{
	"/$defs/url/format":                                            "an absolute URL such as https://example.org/mods/, without spaces",
	"/$defs/date/format":                                           "a date is written YYYY-MM-DD, such as 2026-09-30",
	"/$defs/uuid/pattern":                                          "an id must be a lowercase UUID: 8-4-4-4-12 hexadecimal digits 0-9 and a-f, such as 0e7eb278-83f7-48e6-b938-25d306e84c41",
	"/$defs/version/pattern":                                       "a DreamWeave version is a number without leading zeros, then at most five .number parts, then optionally a -pre-release and a +build label of letters, digits and hyphens, such as 1.2.0 or 2.0-beta.1",
	"/$defs/token/pattern":                                         "a token is lowercase letters, digits and hyphens, starting with a letter or digit",
	"/$defs/url/pattern":                                           "a URL here must start with http:// or https://",
	"/$defs/sha256/pattern":                                        "a SHA-256 digest is 64 lowercase hexadecimal digits",
	"/$defs/constraint/pattern":                                    "a DreamWeave constraint is * or one or more comparisons separated by commas, each an operator (>=, <=, !=, =, > or <) and a DreamWeave version, such as >=1.0, <2.0",
	"/$defs/capability/pattern":                                    "a capability is lowercase letters, digits, dots and hyphens, starting with a letter or digit, optionally followed by a colon and a second such name",
	"/$defs/component/properties/path/pattern":                     "a component path is . or a relative path of names separated by /, with no empty name and no backslash",
	"/$defs/extensions/propertyNames/pattern":                      "an extension namespace is openmw or a dotted name of lowercase letters, digits and hyphens, such as org.tes3mp",
	"/$defs/artifact/properties/filename/pattern":                  "a file name has no / and no backslash",
	"/$defs/release/properties/source/properties/revision/pattern": "a revision is a commit id of 40 or 64 lowercase hexadecimal digits",
}

func patternWords(loc string) string {
	if w, ok := schemaForms[formLocation(loc)]; ok {
		return "not in the form this field takes: " + w
	}
	return "not in the form this field takes (see the protocol's schema for this field)"
}

func formLocation(loc string) string {
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		return loc[i+1:]
	}
	return loc
}

func fieldLabel(ptr string) phrase {
	if ptr == "" {
		return phrase{format: "the document"}
	}
	name := lastToken(ptr)
	if _, err := strconv.Atoi(name); err == nil {
		return phrase{"item %s of %q (%s)", []any{name, pub(lastToken(ptr[:strings.LastIndexByte(ptr, '/')])), pub(Printable(ptr))}}
	}
	return phrase{"field %q (%s)", []any{pub(name), pub(Printable(ptr))}}
}

func keyword(loc string) string {
	if i := strings.LastIndexByte(loc, '/'); i >= 0 {
		return loc[i+1:]
	}
	return loc
}
