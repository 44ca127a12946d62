package schemacheck

import (
	"bytes"
	"encoding/json"
	"math/big"
	"unicode/utf8"
)

// Valid reports whether doc is one JSON value (surrounding white space allowed) that the
// schema accepts, with the library's meaning of every keyword. False means only "not shown
// valid": a refused document, an unsupported schema, or a property named twice whose first
// value is refused (the library keeps only the last); the caller then runs the library's
// validator for the verdict.
func (c *Checker) Valid(doc []byte) bool {
	if c.root == nil || !json.Valid(doc) {
		return false
	}
	w := walk{doc: doc}
	_, ok := w.check(c.root, w.space(0))
	return ok
}

// walk evaluates nodes over a document already known to be valid JSON, so every position it
// reaches starts a well-formed value.
type walk struct {
	doc []byte
}

func (w *walk) space(i int) int {
	for i < len(w.doc) {
		switch w.doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// typeAt is the JSON type of the value starting at i (typeNumber for any number).
func (w *walk) typeAt(i int) uint8 {
	switch w.doc[i] {
	case '{':
		return typeObject
	case '[':
		return typeArray
	case '"':
		return typeString
	case 't', 'f':
		return typeBoolean
	case 'n':
		return typeNull
	}
	return typeNumber
}

// check evaluates n on the value starting at i; on success it returns the position after it.
func (w *walk) check(n *node, i int) (int, bool) {
	if n.never {
		return 0, false
	}
	t := w.typeAt(i)
	if n.types != 0 && !w.typeOK(n.types, t, i) {
		return 0, false
	}
	if (n.isConst || n.isEnum) && !w.scalarsOK(n, t, i) {
		return 0, false
	}
	var end int
	var ok bool
	switch t {
	case typeObject:
		end, ok = w.object(n, i)
	case typeArray:
		end, ok = w.array(n, i)
	case typeString:
		end, ok = w.str(n, i)
	default:
		end, ok = w.skip(i), true
	}
	if !ok {
		return 0, false
	}
	return end, w.applied(n, i)
}

// applied evaluates the keywords that apply other schemas to the value at i.
func (w *walk) applied(n *node, i int) bool {
	for _, m := range n.all {
		if _, ok := w.check(m, i); !ok {
			return false
		}
	}
	if len(n.any) > 0 {
		matched := false
		for _, m := range n.any {
			if _, ok := w.check(m, i); ok {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	if len(n.one) > 0 {
		matched := 0
		for _, m := range n.one {
			if _, ok := w.check(m, i); ok {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	if n.not != nil {
		if _, ok := w.check(n.not, i); ok {
			return false
		}
	}
	return true
}

func (w *walk) typeOK(types, t uint8, i int) bool {
	if types&t != 0 {
		return true
	}
	if t == typeNumber && types&typeInteger != 0 {
		r, ok := w.number(i)
		return ok && r.IsInt()
	}
	return false
}

// number is the number at i as the library reads it (a big.Rat of its text).
func (w *walk) number(i int) (*big.Rat, bool) {
	return new(big.Rat).SetString(string(w.doc[i:w.skip(i)]))
}

// scalarsOK evaluates const and enum on the value at i of type t. Only scalars are compiled,
// so an array or object value never equals one.
func (w *walk) scalarsOK(n *node, t uint8, i int) bool {
	if n.isConst && !w.equalsAny(n.consts, t, i) {
		return false
	}
	return !n.isEnum || w.equalsAny(n.enum, t, i)
}

func (w *walk) equalsAny(vs []scalar, t uint8, i int) bool {
	for _, s := range vs {
		if s.kind != t {
			continue
		}
		switch t {
		case typeNull:
			return true
		case typeBoolean:
			if s.b == (w.doc[i] == 't') {
				return true
			}
		case typeString:
			b, _, ok := w.stringAt(i)
			if ok && string(b) == s.str {
				return true
			}
		case typeNumber:
			if r, ok := w.number(i); ok && r.Cmp(s.num) == 0 {
				return true
			}
		}
	}
	return false
}

// object evaluates the object keywords on the object at i.
func (w *walk) object(n *node, i int) (int, bool) {
	var seen uint64
	i = w.space(i + 1)
	if w.doc[i] == '}' {
		return i + 1, n.nRequired == 0
	}
	for {
		key, end, ok := w.stringAt(i)
		if !ok {
			return 0, false
		}
		i = w.space(w.space(end) + 1) // past ':'
		if bit, req := n.required[string(key)]; req {
			seen |= 1 << bit
		}
		sub, named := n.props[string(key)]
		switch {
		case named:
		case n.extra != nil:
			sub = n.extra
		case n.closed:
			return 0, false
		}
		if sub != nil {
			i, ok = w.check(sub, i)
			if !ok {
				return 0, false
			}
		} else {
			i = w.skip(i)
		}
		i = w.space(i)
		if w.doc[i] == '}' {
			return i + 1, seen == 1<<n.nRequired-1
		}
		i = w.space(i + 1) // past ','
	}
}

// array evaluates the array keywords on the array at i.
func (w *walk) array(n *node, i int) (int, bool) {
	count := 0
	var u *uniques // only for uniqueItems, so other arrays allocate nothing
	if n.unique {
		u = &uniques{}
	}
	i = w.space(i + 1)
	if w.doc[i] != ']' {
		for {
			count++
			if n.unique {
				if w.doc[i] != '"' {
					return 0, false // items accepts only strings
				}
				s, _, ok := w.stringAt(i)
				if !ok || !u.add(s) {
					return 0, false
				}
			}
			if n.items != nil {
				var ok bool
				if i, ok = w.check(n.items, i); !ok {
					return 0, false
				}
			} else {
				i = w.skip(i)
			}
			i = w.space(i)
			if w.doc[i] == ']' {
				break
			}
			i = w.space(i + 1)
		}
	}
	if (n.minItems >= 0 && count < n.minItems) || (n.maxItems >= 0 && count > n.maxItems) {
		return 0, false
	}
	return i + 1, true
}

// uniques are the decoded strings of an array so far, for uniqueItems: compared one by one
// while few, then by a set.
type uniques struct {
	first [16][]byte
	list  [][]byte
	set   map[string]bool
}

// add reports whether s is new, and adds it.
func (u *uniques) add(s []byte) bool {
	if u.set != nil {
		if u.set[string(s)] {
			return false
		}
		u.set[string(s)] = true
		return true
	}
	for _, t := range u.list {
		if bytes.Equal(s, t) {
			return false
		}
	}
	if u.list == nil {
		u.list = u.first[:0]
	}
	if u.list = append(u.list, s); len(u.list) == len(u.first) {
		u.set = map[string]bool{}
		for _, t := range u.list {
			u.set[string(t)] = true
		}
	}
	return true
}

// str evaluates the string keywords on the string at i.
func (w *walk) str(n *node, i int) (int, bool) {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil {
		return w.skip(i), true
	}
	b, end, ok := w.stringAt(i)
	if !ok {
		return 0, false
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(b)
		if (n.minLen >= 0 && l < n.minLen) || (n.maxLen >= 0 && l > n.maxLen) {
			return 0, false
		}
	}
	if n.pattern != nil && !n.pattern.Match(b) {
		return 0, false
	}
	return end, true
}

// stringAt is the decoded value of the string at i and the position after it. A string with
// no escape and valid UTF-8 is its own bytes; any other is decoded by encoding/json, which
// turns invalid UTF-8 and lone surrogates into U+FFFD as the library's input would hold them.
func (w *walk) stringAt(i int) ([]byte, int, bool) {
	j := i + 1
	plain := true
	for ; w.doc[j] != '"'; j++ {
		switch c := w.doc[j]; {
		case c == '\\':
			plain = false
			j++
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	raw := w.doc[i+1 : j]
	if plain || (bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw)) {
		return raw, j + 1, true
	}
	var s string
	if err := json.Unmarshal(w.doc[i:j+1], &s); err != nil {
		return nil, 0, false
	}
	return []byte(s), j + 1, true
}

// skip is the position after the value starting at i.
func (w *walk) skip(i int) int {
	switch w.doc[i] {
	case '"':
		j := i + 1
		for w.doc[j] != '"' {
			if w.doc[j] == '\\' {
				j++
			}
			j++
		}
		return j + 1
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch w.doc[j] {
			case '"':
				j = w.skip(j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	j := i
	for j < len(w.doc) && bytes.IndexByte([]byte("+-0123456789.eE"), w.doc[j]) >= 0 {
		j++
	}
	return j
}

// Member is the encoded value of the member named key in the object doc is (the last one,
// when the name appears twice, as encoding/json keeps it; names compared decoded). ok is false
// when doc is not one JSON object or has no such member.
func Member(doc []byte, key string) (value []byte, ok bool) {
	if !json.Valid(doc) {
		return nil, false
	}
	w := walk{doc: doc}
	i := w.space(0)
	if w.doc[i] != '{' {
		return nil, false
	}
	i = w.space(i + 1)
	for w.doc[i] != '}' {
		name, end, good := w.stringAt(i)
		if !good {
			return nil, false
		}
		i = w.space(w.space(end) + 1)
		end = w.skip(i)
		if string(name) == key {
			value, ok = doc[i:end], true
		}
		i = w.space(end)
		if w.doc[i] == ',' {
			i = w.space(i + 1)
		}
	}
	return value, ok
}
