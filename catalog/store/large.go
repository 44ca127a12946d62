package store

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
)

// MarshalLarge is MarshalRecord(v), byte for byte, encoding each long list of a struct (the
// catalog's claims) element by element so that no copy of the whole document is held twice.
// Any v but a struct of plainly tagged exported fields goes through MarshalRecord.
func MarshalLarge(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	names, ok := largeFields(rv)
	if !ok {
		return MarshalRecord(v)
	}
	l := newLargeEncoder()
	l.out = append(l.out, '{')
	for i, name := range names {
		if i > 0 {
			l.out = append(l.out, ',')
		}
		l.out = append(l.out, "\n  \""+name+"\": "...)
		if err := l.field(rv.Field(i)); err != nil {
			return nil, err
		}
	}
	l.out = append(l.out, "\n}\n"...)
	return l.out, nil
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// largeFields are the JSON names of rv's fields, or false when rv is not a struct MarshalLarge
// writes itself.
func largeFields(rv reflect.Value) ([]string, bool) {
	t := rv.Type()
	if rv.Kind() != reflect.Struct || rv.NumField() == 0 || t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return nil, false
	}
	var names []string
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(t) {
		name := f.Tag.Get("json")
		if !f.IsExported() || f.Anonymous || len(f.Index) != 1 || !plainName(name) || seen[name] {
			return nil, false
		}
		seen[name] = true
		names = append(names, name)
	}
	return names, true
}

// plainName is a JSON name encoding/json writes as it is, with no tag option.
func plainName(s string) bool {
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return s != ""
}

// largeEncoder encodes values through one encoder into scratch, appending them to out.
type largeEncoder struct {
	scratch bytes.Buffer
	enc     *json.Encoder
	out     []byte
}

func newLargeEncoder() *largeEncoder {
	l := &largeEncoder{}
	l.enc = json.NewEncoder(&l.scratch)
	l.enc.SetEscapeHTML(false)
	return l
}

// value appends v encoded as MarshalRecord writes it at a nesting of prefix.
func (l *largeEncoder) value(v reflect.Value, prefix string) error {
	l.scratch.Reset()
	l.enc.SetIndent(prefix, "  ")
	if err := l.enc.Encode(v.Interface()); err != nil {
		return err
	}
	b := l.scratch.Bytes()
	l.out = append(l.out, unescapeLineSeparators(b[:len(b)-1])...) // without the newline
	return nil
}

// field appends a top-level field's value: a non-empty list element by element, anything else
// whole.
func (l *largeEncoder) field(f reflect.Value) error {
	if t := f.Type(); f.Kind() != reflect.Slice || f.Len() == 0 || t.Elem().Kind() == reflect.Uint8 ||
		t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return l.value(f, "  ")
	}
	l.out = append(l.out, '[')
	n, smallest := f.Len(), -1
	for j := 0; j < n; j++ {
		if j > 0 {
			l.out = append(l.out, ',')
		}
		at := len(l.out)
		l.out = append(l.out, "\n    "...)
		if err := l.value(f.Index(j).Addr(), "    "); err != nil {
			return err
		}
		if size := len(l.out) - at; smallest < 0 || size < smallest {
			smallest = size
		}
		if k := min(n, 16); j == k-1 && n > k {
			// Size the rest by the smallest first element: one long element must not.
			l.out = slices.Grow(l.out, (smallest+1)*(n-k)*5/4)
		}
	}
	l.out = append(l.out, "\n  ]"...)
	return nil
}
