// Package schemacheck answers whether an encoded JSON document satisfies a compiled JSON Schema
// (github.com/santhosh-tekuri/jsonschema/v5) by walking the document's bytes, without decoding
// it into Go values and without building errors along the way. A build validates every
// machine-readable file it writes; decoding those files back and running the general validator
// costs several times their size in allocations, and the verdict is all a valid file needs.
//
// The checker evaluates the keywords this index's own schemas use (type, const, enum, $ref,
// allOf, anyOf, oneOf, not, required, properties, additionalProperties, items, minItems,
// maxItems, uniqueItems over strings, minLength, maxLength, pattern) with the library's
// meaning. A schema using any other assertion compiles to an unsupported checker, whose Valid
// is always false. False never settles anything: the caller then runs the library's
// validator, which has the final word and names what is wrong. True settles a file, so the
// walk must never be laxer than the library: the tests compare both verdicts on generated,
// mutated and fuzzed documents (FuzzWalkNeverLaxer).
package schemacheck

import (
	"fmt"
	"math/big"
	"reflect"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Checker is a compiled schema the byte walk evaluates.
type Checker struct {
	root *node // nil when the schema uses a keyword the walk does not evaluate
	why  string
}

// JSON types as a bit set; typeInteger is a number with an integral value.
const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]uint8{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// scalar is a const or enum value: JSON null, a boolean, a number or a string.
type scalar struct {
	kind uint8 // typeNull, typeBoolean, typeNumber or typeString
	b    bool
	num  *big.Rat
	str  string
}

// node is one compiled schema.
type node struct {
	never   bool  // the false schema
	types   uint8 // 0: any type
	consts  []scalar
	isConst bool // consts holds the const value (one)
	enum    []scalar
	isEnum  bool
	all     []*node // $ref and allOf: every one must hold
	any     []*node
	one     []*node
	not     *node

	props     map[string]*node
	required  map[string]uint // required property name to its bit
	nRequired int
	closed    bool  // additionalProperties false
	extra     *node // additionalProperties schema; nil with closed false: anything

	items              *node
	unique             bool // uniqueItems, compiled only where every valid item is a string
	minItems, maxItems int  // -1: none
	minLen, maxLen     int  // -1: none
	pattern            *regexp.Regexp
}

// Compile compiles s for the byte walk. It never fails: a schema using a keyword the walk does
// not evaluate gives a Checker whose Valid is always false (Unsupported says why).
func Compile(s *jsonschema.Schema) *Checker {
	c := compiler{seen: map[*jsonschema.Schema]*node{}}
	root, err := c.node(s)
	if err != nil {
		return &Checker{why: err.Error()}
	}
	return &Checker{root: root}
}

// Unsupported is "" when the walk evaluates the whole schema, else the keyword that stops it.
func (c *Checker) Unsupported() string { return c.why }

type compiler struct {
	seen map[*jsonschema.Schema]*node
}

// ignored are the Schema fields that assert nothing, or nothing without a field the walk
// refuses (dynamicAnchors matter only with DynamicRef; Format only with its format function).
var ignored = map[string]bool{
	"Location": true, "Draft": true, "meta": true, "vocab": true, "dynamicAnchors": true,
	"DynamicAnchor": true, "RecursiveAnchor": true, "Format": true, "enumError": true,
	"Title": true, "Description": true, "Default": true, "Comment": true, "ReadOnly": true,
	"WriteOnly": true, "Examples": true, "Deprecated": true,
	"MinContains": true, "ContainsEval": true, // nothing without Contains, which is refused
}

// handled are the Schema fields the walk evaluates.
var handled = map[string]bool{
	"Always": true, "Ref": true, "Types": true, "Constant": true, "Enum": true, "Not": true,
	"AllOf": true, "AnyOf": true, "OneOf": true, "Required": true, "Properties": true,
	"AdditionalProperties": true, "Items": true, "Items2020": true, "MinItems": true,
	"MaxItems": true, "UniqueItems": true, "MinLength": true, "MaxLength": true, "Pattern": true,
}

// unset are the values of the -1-means-none fields when absent.
var unset = map[string]int64{"MinProperties": -1, "MaxProperties": -1, "MaxContains": -1}

// supported refuses a schema with any field set that the walk neither evaluates nor ignores.
// Every field of the library's Schema is looked at, so a keyword added to the library is
// refused until the walk learns it.
func supported(s *jsonschema.Schema) error {
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		name, f := v.Type().Field(i).Name, v.Field(i)
		if ignored[name] || handled[name] {
			continue
		}
		if want, ok := unset[name]; ok && f.Kind() == reflect.Int && f.Int() == want {
			continue
		}
		if !f.IsZero() {
			return fmt.Errorf("%s uses %s", s.Location, name)
		}
	}
	return nil
}

func (c *compiler) node(s *jsonschema.Schema) (*node, error) {
	if n, ok := c.seen[s]; ok {
		return n, nil
	}
	n := &node{minItems: s.MinItems, maxItems: s.MaxItems, minLen: s.MinLength, maxLen: s.MaxLength, pattern: s.Pattern}
	c.seen[s] = n
	if err := supported(s); err != nil {
		return nil, err
	}
	if s.Always != nil && !*s.Always {
		n.never = true
	}
	for _, t := range s.Types {
		n.types |= typeBits[t]
	}
	var err error
	if len(s.Constant) > 0 {
		n.isConst = true
		if n.consts, err = scalars(s, s.Constant[:1]); err != nil {
			return nil, err
		}
	}
	if len(s.Enum) > 0 {
		n.isEnum = true
		if n.enum, err = scalars(s, s.Enum); err != nil {
			return nil, err
		}
	}
	if err := c.subschemas(s, n); err != nil {
		return nil, err
	}
	return n, c.objectAndArray(s, n)
}

// subschemas compiles the keywords that apply other schemas to the same value.
func (c *compiler) subschemas(s *jsonschema.Schema, n *node) error {
	list := func(ss []*jsonschema.Schema) ([]*node, error) {
		var out []*node
		for _, x := range ss {
			m, err := c.node(x)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	}
	all := s.AllOf
	if s.Ref != nil {
		all = append([]*jsonschema.Schema{s.Ref}, all...)
	}
	var err error
	if n.all, err = list(all); err != nil {
		return err
	}
	if n.any, err = list(s.AnyOf); err != nil {
		return err
	}
	if n.one, err = list(s.OneOf); err != nil {
		return err
	}
	if s.Not != nil {
		n.not, err = c.node(s.Not)
	}
	return err
}

// objectAndArray compiles the object and array keywords.
func (c *compiler) objectAndArray(s *jsonschema.Schema, n *node) error {
	if len(s.Required) > 64 {
		return fmt.Errorf("%s requires more than 64 properties", s.Location)
	}
	if len(s.Required) > 0 {
		n.required = map[string]uint{}
		for _, p := range s.Required {
			if _, dup := n.required[p]; !dup {
				n.required[p] = uint(len(n.required))
			}
		}
		n.nRequired = len(n.required)
	}
	if len(s.Properties) > 0 {
		n.props = map[string]*node{}
		for k, ps := range s.Properties {
			m, err := c.node(ps)
			if err != nil {
				return err
			}
			n.props[k] = m
		}
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		n.closed = !a
	case *jsonschema.Schema:
		m, err := c.node(a)
		if err != nil {
			return err
		}
		n.extra = m
	default:
		return fmt.Errorf("%s: additionalProperties of type %T", s.Location, a)
	}
	items := s.Items2020
	switch it := s.Items.(type) {
	case nil:
	case *jsonschema.Schema:
		if items != nil {
			return fmt.Errorf("%s: both items forms", s.Location)
		}
		items = it
	default:
		return fmt.Errorf("%s: items of type %T", s.Location, it)
	}
	if items != nil {
		m, err := c.node(items)
		if err != nil {
			return err
		}
		n.items = m
	}
	if s.UniqueItems {
		if n.unique = stringsOnly(n.items, map[*node]bool{}); !n.unique {
			return fmt.Errorf("%s: uniqueItems on items that may be other than strings", s.Location)
		}
	}
	return nil
}

// stringsOnly reports whether n accepts nothing but strings: its type is string, or a schema
// it applies whole ($ref, allOf) says so. Equal strings are then equal JSON values, which is
// all uniqueItems needs to compare.
func stringsOnly(n *node, seen map[*node]bool) bool {
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	if n.types == typeString {
		return true
	}
	for _, m := range n.all {
		if stringsOnly(m, seen) {
			return true
		}
	}
	return false
}

// scalars converts const or enum values; an array or object value is refused.
func scalars(s *jsonschema.Schema, vs []any) ([]scalar, error) {
	var out []scalar
	for _, v := range vs {
		switch v := v.(type) {
		case nil:
			out = append(out, scalar{kind: typeNull})
		case bool:
			out = append(out, scalar{kind: typeBoolean, b: v})
		case string:
			out = append(out, scalar{kind: typeString, str: v})
		default:
			r, ok := new(big.Rat).SetString(fmt.Sprint(v))
			if !ok {
				return nil, fmt.Errorf("%s: const or enum value %v", s.Location, v)
			}
			out = append(out, scalar{kind: typeNumber, num: r})
		}
	}
	return out, nil
}
