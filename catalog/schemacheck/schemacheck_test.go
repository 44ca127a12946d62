package schemacheck_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/schemacheck"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

func compile(t testing.TB, doc, ptr string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("urn:test", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("urn:test" + ptr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// library is the library validator's verdict on doc, decoded as the build decodes it.
func library(s *jsonschema.Schema, doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return false
	}
	return s.Validate(v) == nil
}

func agree(t *testing.T, what string, s *jsonschema.Schema, c *schemacheck.Checker, doc []byte) bool {
	t.Helper()
	lean, lib := c.Valid(doc), library(s, doc)
	if lean != lib {
		t.Errorf("%s: the walk says %v, the library %v, on %.300s", what, lean, lib, doc)
	}
	return lib
}

// instances are values every keyword schema is tried on: each type, edge numbers, strings
// with escapes, invalid UTF-8 and lone surrogates, and objects and arrays near each limit.
var instances = []string{
	`null`, `true`, `false`, `0`, `1`, `-1`, `1.0`, `1.5`, `1e0`, `10e-1`, `2`, `-0`,
	`""`, `"a"`, `"ab"`, `"abc"`, `"é"`, `"\u00e9"`, `"\u0061"`, `"a\"b"`, `"\ud800"`, "\"\xff\"",
	`"mod"`, `"Mod"`, `"m\u006fd"`, `"x/"`, `"ab/"`, `"AB/"`, `"a\nb/"`, `"\u2028"`, `"a b"`,
	`[]`, `[1]`, `[1,2]`, `[1,2,3]`, `["a"]`, `["a","b"]`, `[null]`, `[[]]`, `[{}]`,
	`["a","a"]`, `["a","\u0061"]`, `["b","a","b"]`, `["a",1]`, `["",""]`, `["a",1,1]`,
	`["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","t"]`,
	`["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","a"]`,
	`["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","t","t"]`,
	`{}`, `{"a":1}`, `{"a":"x"}`, `{"b":1}`, `{"a":1,"b":2}`, `{"a":null}`, `{"c":[]}`,
	`{"a":1,"b":2,"c":3}`, `{"\u0061":"x"}`, ` {"a" : [ 1 , "x" ] } `, `{"a":{"b":{"c":null}}}`,
	`{"kind":"x","n":1}`,
}

// twice are instances naming a property twice: the library keeps the last value, the walk
// checks both, so the walk may refuse what the library accepts, never the reverse.
var twice = []string{`{"a":"x","a":1}`, `{"a":1,"a":"x"}`, `{"\u0061":1,"a":"x"}`, `{"kind":"x","kind":"y"}`}

// keywordSchemas use each keyword the walk evaluates, alone and combined.
var keywordSchemas = []string{
	`true`, `false`, `{}`,
	`{"type":"string"}`, `{"type":"integer"}`, `{"type":"number"}`, `{"type":["string","null"]}`,
	`{"type":"boolean"}`, `{"type":"array"}`, `{"type":"object"}`, `{"type":["integer","object"]}`,
	`{"const":1}`, `{"const":"a"}`, `{"const":null}`, `{"const":false}`, `{"const":1.0}`,
	`{"enum":["mod","a",1,null,true]}`, `{"enum":["é","\u2028"]}`,
	`{"minLength":2}`, `{"maxLength":1}`, `{"minLength":1,"maxLength":2}`,
	`{"pattern":"^[a-z0-9][a-z0-9/._-]*/$"}`, `{"pattern":"b"}`,
	`{"items":{"type":"integer"}}`, `{"minItems":1}`, `{"maxItems":1}`, `{"type":"array","items":{"type":"string"},"minItems":2}`,
	`{"required":["a"]}`, `{"required":["a","b"]}`, `{"properties":{"a":{"type":"integer"}}}`,
	`{"properties":{"a":{"type":"string"}},"additionalProperties":false}`,
	`{"additionalProperties":{"type":"integer"}}`, `{"additionalProperties":false}`,
	`{"type":"object","required":["kind"],"properties":{"kind":{"type":"string"}}}`,
	`{"oneOf":[{"type":"integer"},{"type":"number"}]}`, `{"oneOf":[{"type":"string"},{"type":"null"}]}`,
	`{"anyOf":[{"type":"integer"},{"const":"a"}]}`, `{"allOf":[{"type":"string"},{"minLength":2}]}`,
	`{"not":{"type":"null"}}`, `{"$ref":"#/$defs/s","maxLength":2,"$defs":{"s":{"type":"string"}}}`,
	`{"$defs":{"t":{"type":["array","integer"],"items":{"$ref":"#/$defs/t"}}},"$ref":"#/$defs/t"}`,
	`{"properties":{"a":{"properties":{"b":{"required":["c"]}}}}}`,
	`{"uniqueItems":true,"items":{"type":"string"}}`, `{"uniqueItems":true,"items":{"$ref":"#/$defs/s"},"$defs":{"s":{"type":"string","minLength":1}}}`,
}

// TestKeywordsAgree: on every keyword schema and every instance, the walk's verdict is the
// library's.
func TestKeywordsAgree(t *testing.T) {
	for _, sd := range keywordSchemas {
		s := compile(t, sd, "")
		c := schemacheck.Compile(s)
		if why := c.Unsupported(); why != "" {
			t.Fatalf("%s: unsupported: %s", sd, why)
		}
		accepted := 0
		for _, in := range instances {
			if agree(t, sd, s, c, []byte(in)) {
				accepted++
			}
		}
		for _, in := range twice {
			if c.Valid([]byte(in)) && !library(s, []byte(in)) {
				t.Errorf("%s: the walk accepts %s, which the library refuses", sd, in)
			}
		}
		if sd != "false" && accepted == 0 {
			t.Errorf("%s accepts no instance: the table does not exercise it", sd)
		}
	}
}

// TestUnsupportedKeywords: a schema using a keyword the walk does not evaluate compiles to a
// checker that says why and never calls a document valid.
func TestUnsupportedKeywords(t *testing.T) {
	for _, sd := range []string{
		`{"uniqueItems":true}`, `{"uniqueItems":true,"items":{"type":["string","null"]}}`,
		`{"uniqueItems":true,"items":{"anyOf":[{"type":"string"}]}}`, `{"patternProperties":{"^a":{}}}`, `{"minimum":1}`, `{"minProperties":1}`,
		`{"unevaluatedProperties":false}`, `{"if":{"type":"string"},"then":{"minLength":1}}`,
		`{"items":{"uniqueItems":true}}`, `{"prefixItems":[{}]}`, `{"contains":{}}`,
		`{"enum":[[1]]}`, `{"const":{"a":1}}`, `{"propertyNames":{"maxLength":1}}`,
	} {
		c := schemacheck.Compile(compile(t, sd, ""))
		if c.Unsupported() == "" {
			t.Errorf("%s: compiled as supported", sd)
		}
		if c.Valid([]byte(`{}`)) || c.Valid([]byte(`1`)) {
			t.Errorf("%s: an unsupported checker called a document valid", sd)
		}
	}
}

// TestNotJSON: bytes that are not exactly one JSON value are never valid, even for the
// schema that accepts everything.
func TestNotJSON(t *testing.T) {
	c := schemacheck.Compile(compile(t, `true`, ""))
	for _, doc := range []string{``, `{`, `{} {}`, `[1,]`, `"\x"`, "\"a\x01\"", `nul`, `01`} {
		if c.Valid([]byte(doc)) {
			t.Errorf("%q is valid", doc)
		}
	}
	if !c.Valid([]byte(" \n{}\n")) {
		t.Error("white space around a document refused")
	}
}

const corpusState = "../../../shared/corpus/state"

// corpusDocs are the corpus's catalog.json and events.json as a build generates them.
func corpusDocs(t *testing.T) map[string][]byte {
	if _, err := os.Stat(corpusState); err != nil {
		t.Skipf("../shared/corpus is absent: %v", err)
	}
	n, err := network.Load(store.Open(corpusState), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := format.Options{Index: format.Index{Name: "T", URL: "https://index.example/", Repository: "https://example.org/r"}}
	cat, err := format.Catalog(n, o)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := format.Events(n, o)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"#/$defs/catalog": termtext.JSON(cat), "#/$defs/events": termtext.JSON(ev)}
}

// TestMutationsAgree: over the corpus's catalog and events files and thousands of mutations
// of them (a value replaced by another type, a hostile string, a property removed or added),
// each also written with every string character escaped, the walk's verdict is the library's;
// the unmutated files are valid by the walk, so a build takes the walk's path.
func TestMutationsAgree(t *testing.T) {
	sb, err := schemas.FS.ReadFile(format.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	for ptr, doc := range corpusDocs(t) {
		s := compile(t, string(sb), ptr)
		c := schemacheck.Compile(s)
		if why := c.Unsupported(); why != "" {
			t.Fatalf("%s: %s", ptr, why)
		}
		if !c.Valid(doc) || !c.Valid(escapeAll(doc)) {
			t.Fatalf("%s: the generated file is not valid by the walk", ptr)
		}
		r := rand.New(rand.NewSource(1))
		refused := 0
		for i := 0; i < mutations; i++ {
			var v any
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			v = mutate(r, v, 1+r.Intn(3))
			m, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !agree(t, ptr, s, c, m) {
				refused++
			}
			if i%10 == 0 {
				agree(t, ptr+" escaped", s, c, escapeAll(m))
			}
		}
		if refused < mutations/3 {
			t.Errorf("%s: only %d of %d mutations refused: the mutations do not test refusal", ptr, refused, mutations)
		}
	}
}

var hostile = []any{
	nil, true, false, json.Number("0"), json.Number("1"), json.Number("1.5"), json.Number("-3"),
	"", "x", "current", "mod", "withdrawn", "0123abcd-0000-4000-8000-000000000000",
	"2026-01-02T03:04:05Z", "2026-01-02T03:04:05", "https://a.example/", "http:/x",
	"\u202eevil", "a\u0000b", "\ufffd", "line\u2028sep", "<script>&", strings.Repeat("f", 64),
	"site-1234abcd", "SITE", []any{}, []any{"x"}, map[string]any{}, map[string]any{"change": "x"},
	map[string]any{"project": "0123abcd-0000-4000-8000-000000000000", "origin": "a-1"},
}

const mutations = 400

// hostileValue is a fresh copy of a random hostile value (a mutated document holds no value twice).
func hostileValue(r *rand.Rand) any {
	b, _ := json.Marshal(hostile[r.Intn(len(hostile))])
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	return v
}

// mutate applies k random edits to v: replace a random node, drop or add an object member.
func mutate(r *rand.Rand, v any, k int) any {
	for ; k > 0; k-- {
		v = edit(r, v, 1+r.Intn(6))
	}
	return v
}

func edit(r *rand.Rand, v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for key := range x {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		if depth == 0 || len(keys) == 0 {
			return editHere(r, x, keys)
		}
		key := keys[r.Intn(len(keys))]
		x[key] = edit(r, x[key], depth-1)
		return x
	case []any:
		if depth == 0 || len(x) == 0 {
			return hostileValue(r)
		}
		i := r.Intn(len(x))
		x[i] = edit(r, x[i], depth-1)
		return x
	}
	return hostileValue(r)
}

func editHere(r *rand.Rand, x map[string]any, keys []string) any {
	switch r.Intn(3) {
	case 0:
		if len(keys) > 0 {
			delete(x, keys[r.Intn(len(keys))])
			return x
		}
	case 1:
		x[fmt.Sprintf("extra%d", r.Intn(3))] = hostileValue(r)
		return x
	}
	return hostileValue(r)
}

// escapeAll writes every character inside a string of doc (keys included) as a \u escape,
// pairs of surrogates above the BMP, so the walk decodes each string the slow way.
func escapeAll(doc []byte) []byte {
	var out bytes.Buffer
	in := false
	s := string(doc)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case !in:
			if c == '"' {
				in = true
			}
			out.WriteByte(c)
			i++
		case c == '"':
			in = false
			out.WriteByte(c)
			i++
		case c == '\\':
			n := 2
			if s[i+1] == 'u' {
				n = 6
			}
			out.WriteString(s[i : i+n])
			i += n
		default:
			var rr rune
			var size int
			for _, x := range s[i:] {
				rr = x
				break
			}
			size = len(string(rr))
			if rr == '\ufffd' && !strings.HasPrefix(s[i:], "\ufffd") {
				size = 1
			}
			if rr > 0xffff {
				rr -= 0x10000
				fmt.Fprintf(&out, `\u%04x\u%04x`, 0xd800+(rr>>10), 0xdc00+(rr&0x3ff))
			} else {
				fmt.Fprintf(&out, `\u%04x`, rr)
			}
			i += size
		}
	}
	return out.Bytes()
}

// FuzzWalkNeverLaxer: whatever the bytes, a document the walk calls valid against the catalog
// schema's definitions is valid by the library.
func FuzzWalkNeverLaxer(f *testing.F) {
	sb, err := schemas.FS.ReadFile(format.SchemaFile)
	if err != nil {
		f.Fatal(err)
	}
	type pair struct {
		s *jsonschema.Schema
		c *schemacheck.Checker
	}
	var checks []pair
	for _, ptr := range []string{"#/$defs/catalog", "#/$defs/events", "#/$defs/claim", "#/$defs/origin"} {
		s := compile(f, string(sb), ptr)
		checks = append(checks, pair{s, schemacheck.Compile(s)})
	}
	for _, in := range instances {
		f.Add([]byte(in))
	}
	f.Add([]byte(`{"format":"dreamweave-network-events","format_version":1,"notice":"n","index":{"name":"n","url":"https://a","repository":"https://b"},"observed_at":null,"events":[]}`))
	f.Add([]byte(`{"project":"0123abcd-0000-4000-8000-000000000000","origin":"a-1"}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, p := range checks {
			if p.c.Valid(doc) && !library(p.s, doc) {
				t.Fatalf("%s: the walk accepts what the library refuses: %q", p.s.Location, doc)
			}
		}
	})
}

// TestMember: the last member of that name in a top-level object, names compared decoded;
// nothing for a missing name, a nested one, a non-object or bytes that are not JSON.
func TestMember(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"format":"x","b":1}`, `"x"`},
		{` { "a" : {"format":1} , "format" : [1, "}"] } `, `[1, "}"]`},
		{`{"format":1,"\u0066ormat":2}`, `2`},
		{`{"a":{"format":1}}`, ``},
		{`["format"]`, ``},
		{`{"format":1`, ``},
		{`{}`, ``},
	} {
		got, ok := schemacheck.Member([]byte(tc.doc), "format")
		if string(got) != tc.want || ok != (tc.want != "") {
			t.Errorf("Member(%s) = %q, %v; want %q", tc.doc, got, ok, tc.want)
		}
	}
}
