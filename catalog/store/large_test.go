package store

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

type largeItem struct {
	Name  string            `json:"name"`
	Note  *string           `json:"note"`
	Tags  []string          `json:"tags"`
	Map   map[string]string `json:"map"`
	Inner *largeItem        `json:"inner,omitempty"`
	Bytes []byte            `json:"bytes"`
	N     float64           `json:"n"`
}

// ptrMarshal marshals itself through a pointer receiver: encoding/json applies it to a list's
// elements (addressable), not to a field of a struct passed by value.
type ptrMarshal struct{ V string }

func (p *ptrMarshal) MarshalJSON() ([]byte, error) { return []byte(`{"ptr":"` + p.V + `"}`), nil }

type valMarshal struct{ V string }

func (v valMarshal) MarshalJSON() ([]byte, error) { return []byte(`"val ` + v.V + `"`), nil }

type selfList []string

func (s selfList) MarshalJSON() ([]byte, error) { return []byte(`"` + strings.Join(s, "+") + `"`), nil }

type largeDoc struct {
	Format  string       `json:"format"`
	Version int          `json:"format_version"`
	Items   []largeItem  `json:"items"`
	Ptrs    []*largeItem `json:"ptrs"`
	Empty   []largeItem  `json:"empty"`
	Nil     []largeItem  `json:"nil"`
	Bytes   []byte       `json:"bytes"`
	ByPtr   []ptrMarshal `json:"by_ptr"`
	One     ptrMarshal   `json:"one"`
	Vals    []valMarshal `json:"vals"`
	Self    selfList     `json:"self"`
	Nested  [][]string   `json:"nested"`
	Any     any          `json:"any"`
	Index   struct {
		Name string `json:"name"`
	} `json:"index"`
}

// hostileText are pieces of strings the encoders must agree on: HTML characters, line and
// paragraph separators (escaped by encoding/json, unescaped by MarshalRecord), the text of such
// an escape, C1 and bidi controls, invalid UTF-8, quotes and backslashes.
var hostileText = []string{"a", "<b>&amp;", "\u2028", "\u2029", `\u2028`, "\u0085", "\u202e", "\xff", `"`, `\`, "é", "\x00", "/", "😀", " "}

func hostileString(r *rand.Rand) string {
	var b strings.Builder
	for i := r.Intn(5); i >= 0; i-- {
		b.WriteString(hostileText[r.Intn(len(hostileText))])
	}
	return b.String()
}

func randomItem(r *rand.Rand, depth int) largeItem {
	it := largeItem{Name: hostileString(r), N: float64(r.Intn(1000)) / 8}
	if r.Intn(2) == 0 {
		s := hostileString(r)
		it.Note = &s
	}
	switch r.Intn(3) {
	case 0:
		it.Tags = []string{}
	case 1:
		for i := r.Intn(4); i >= 0; i-- {
			it.Tags = append(it.Tags, hostileString(r))
		}
	}
	if r.Intn(2) == 0 {
		it.Map = map[string]string{hostileString(r): hostileString(r), hostileString(r): "x"}
	}
	if depth > 0 && r.Intn(3) == 0 {
		in := randomItem(r, depth-1)
		it.Inner = &in
	}
	if r.Intn(3) == 0 {
		it.Bytes = []byte(hostileString(r))
	}
	return it
}

func randomDoc(r *rand.Rand) largeDoc {
	d := largeDoc{Format: hostileString(r), Version: r.Intn(3), Empty: []largeItem{}, Bytes: []byte("\x00\xff"),
		One: ptrMarshal{"one"}, Any: map[string]any{"k": []any{1, "<"}}}
	for i := r.Intn(60); i > 0; i-- {
		d.Items = append(d.Items, randomItem(r, 2))
	}
	for i := r.Intn(20); i > 0; i-- {
		if r.Intn(4) == 0 {
			d.Ptrs = append(d.Ptrs, nil)
			continue
		}
		it := randomItem(r, 1)
		d.Ptrs = append(d.Ptrs, &it)
	}
	for i := r.Intn(3); i > 0; i-- {
		d.ByPtr = append(d.ByPtr, ptrMarshal{fmt.Sprint(i)})
		d.Vals = append(d.Vals, valMarshal{fmt.Sprint(i)})
		d.Self = append(d.Self, fmt.Sprint(i))
		d.Nested = append(d.Nested, []string{hostileString(r)}, nil)
	}
	d.Index.Name = hostileString(r)
	return d
}

// TestMarshalLargeIsMarshalRecord: on hundreds of random documents (lists empty, null, short
// and long, elements by pointer, self-marshaling types, hostile strings) MarshalLarge writes
// MarshalRecord's bytes; so does it for values it leaves to MarshalRecord.
func TestMarshalLargeIsMarshalRecord(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		d := randomDoc(r)
		want, err := MarshalRecord(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalLarge(d)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d differs:\nMarshalLarge:  %.400q\nMarshalRecord: %.400q", i, got, want)
		}
	}
	if _, ok := largeFields(reflectValue(randomDoc(r))); !ok {
		t.Fatal("the test document is not one MarshalLarge writes itself")
	}
	for _, v := range []any{
		struct{}{}, 1, "s", []int{1}, &largeDoc{}, valMarshal{"x"},
		struct {
			A []int `json:"a,omitempty"`
		}{},
		struct {
			A []int `json:"-"`
			B int   `json:"b"`
		}{},
		struct {
			A []int
		}{A: []int{1}},
		twiceNamed(),
	} {
		want, _ := MarshalRecord(v)
		got, err := MarshalLarge(v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v: %q, %v; want %q", v, got, err, want)
		}
	}
}

// TestMarshalLargeError: a value encoding/json cannot encode is an error, as MarshalRecord's.
func TestMarshalLargeError(t *testing.T) {
	d := struct {
		A []any `json:"a"`
	}{A: []any{1, func() {}}}
	if _, err := MarshalLarge(d); err == nil {
		t.Fatal("a function value encoded")
	}
}

func reflectValue(v any) reflect.Value { return reflect.ValueOf(v) }

// twiceNamed is a struct value with two fields tagged with one name (built by reflection, as
// vet refuses such a declaration).
func twiceNamed() any {
	f := func(name string) reflect.StructField {
		return reflect.StructField{Name: name, Type: reflect.TypeFor[[]int](), Tag: `json:"x"`}
	}
	v := reflect.New(reflect.StructOf([]reflect.StructField{f("A"), f("B")})).Elem()
	v.Field(0).Set(reflect.ValueOf([]int{1}))
	return v.Interface()
}

// TestMarshalLargeOneLongElement: a list whose first element is long (one publisher's record
// of a million characters) and whose other elements are short is written without reserving
// room for the rest at the long one's size (which would be gigabytes for a long catalog).
func TestMarshalLargeOneLongElement(t *testing.T) {
	d := struct {
		Items []string `json:"items"`
	}{Items: []string{strings.Repeat("x", 1<<20)}}
	for i := 0; i < 20000; i++ {
		d.Items = append(d.Items, "y")
	}
	got, err := MarshalLarge(d)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := MarshalRecord(d); !bytes.Equal(got, want) {
		t.Fatal("MarshalLarge differs from MarshalRecord")
	}
	if cap(got) > 2*len(got) {
		t.Errorf("%d bytes written into %d reserved", len(got), cap(got))
	}
}
