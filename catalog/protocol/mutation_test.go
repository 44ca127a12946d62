package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// Mutation kinds of the generated suite (issue 2, "What must be shown").
const (
	mutDrop    = "drop-required" // delete a field the object's schema requires
	mutUnknown = "unknown-field" // add a field the object's schema does not define
	mutEnum    = "break-enum"    // set an enum/const field to a value outside it
	mutType    = "wrong-type"    // give a field (or array item, or map entry) a value of another JSON type
)

// unknownField is the name the unknown-field mutation adds.
const unknownField = "x-mutation-unknown"

// mutation is one change to one document. ptr is the RFC 6901 pointer of the broken field:
// a finding must name it. parent and key locate the change.
type mutation struct {
	kind   string
	ptr    string
	parent string
	key    string
	val    any // the new value (nil for a drop)
}

// mutationDoc is one document with its decoded tree and the mutations generated for it.
type mutationDoc struct {
	corpusDoc
	tree any
	muts []mutation
}

var (
	mutOnce sync.Once
	mutDocs []*mutationDoc
	mutErr  error
)

// generatedMutations walks every unique document of each corpus (docSets) together with our schema for its kind
// and generates: for every object, a drop of each required field present and one unknown field
// where the schema closes the object; for every field, array item and map entry, a wrong JSON
// type; for every enum/const field, a value outside it. Built once per test binary.
func generatedMutations(t *testing.T) []*mutationDoc {
	t.Helper()
	var docs []corpusDoc
	for _, set := range docSets(t) {
		docs = append(docs, uniqueDocs(set.docs)...)
	}
	mutOnce.Do(func() {
		sch := map[string]map[string]any{}
		for kind, name := range map[string]string{DocIndex: schemas.Index, DocProject: schemas.Project} {
			b, err := schemas.FS.ReadFile(name)
			if err != nil {
				mutErr = err
				return
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				mutErr = err
				return
			}
			sch[kind] = m
		}
		for _, d := range docs {
			tree, fs := parseStrict(d.b)
			if fs != nil {
				mutErr = fmt.Errorf("%s: %v", d.path, fs)
				return
			}
			g := &generator{root: sch[d.kind]}
			g.walk(sch[d.kind], tree, "")
			mutDocs = append(mutDocs, &mutationDoc{corpusDoc: d, tree: tree, muts: g.muts})
		}
	})
	if mutErr != nil {
		t.Fatal(mutErr)
	}
	return mutDocs
}

type generator struct {
	root map[string]any
	muts []mutation
}

// resolve follows local $refs ("#/$defs/name").
func (g *generator) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		s = g.root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	}
}

func (g *generator) walk(s map[string]any, v any, ptr string) {
	s = g.resolve(s)
	switch x := v.(type) {
	case map[string]any:
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				name := r.(string)
				if _, present := x[name]; present {
					g.muts = append(g.muts, mutation{kind: mutDrop, ptr: ptr + "/" + escapeToken(name), parent: ptr, key: name})
				}
			}
		}
		if ap, ok := s["additionalProperties"].(bool); ok && !ap {
			g.muts = append(g.muts, mutation{kind: mutUnknown, ptr: ptr + "/" + unknownField, parent: ptr, key: unknownField, val: "mutation"})
		}
		props, _ := s["properties"].(map[string]any)
		for _, k := range sortedKeys(x) {
			cp := ptr + "/" + escapeToken(k)
			var cs map[string]any
			if p, ok := props[k].(map[string]any); ok {
				cs = p
			} else if ap, ok := s["additionalProperties"].(map[string]any); ok {
				cs = ap
			} else {
				continue // not described by the schema (an unknown field would be refused above)
			}
			g.muts = append(g.muts, mutation{kind: mutType, ptr: cp, parent: ptr, key: k, val: wrongType(x[k])})
			rc := g.resolve(cs)
			if _, ok := rc["enum"]; ok {
				g.muts = append(g.muts, mutation{kind: mutEnum, ptr: cp, parent: ptr, key: k, val: "mutation-outside-the-enum"})
			} else if _, ok := rc["const"]; ok {
				g.muts = append(g.muts, mutation{kind: mutEnum, ptr: cp, parent: ptr, key: k, val: "mutation-outside-the-enum"})
			}
			g.walk(cs, x[k], cp)
		}
	case []any:
		items, ok := s["items"].(map[string]any)
		if !ok {
			return
		}
		for i, e := range x {
			cp := ptr + "/" + strconv.Itoa(i)
			g.muts = append(g.muts, mutation{kind: mutType, ptr: cp, parent: ptr, key: strconv.Itoa(i), val: wrongType(e)})
			g.walk(items, e, cp)
		}
	}
}

// mutationChunk is a slice of one document's mutations: documents are split so the parallel
// subtests stay balanced on 2 cores (one large manifest would otherwise be the whole tail).
type mutationChunk struct {
	name  string
	doc   *mutationDoc
	first bool // the document's first chunk
	muts  []mutation
}

const chunkSize = 300

func mutationChunks(docs []*mutationDoc) []mutationChunk {
	var out []mutationChunk
	for _, d := range docs {
		for i := 0; i == 0 || i < len(d.muts); i += chunkSize {
			out = append(out, mutationChunk{name: fmt.Sprintf("%s#%d", d.path, i/chunkSize), doc: d, first: i == 0, muts: d.muts[i:min(i+chunkSize, len(d.muts))]})
		}
	}
	return out
}

// wrongType returns a value of a different JSON type than v.
func wrongType(v any) any {
	switch v.(type) {
	case string:
		return json.Number("42")
	case json.Number:
		return "42"
	case bool:
		return "true"
	case []any:
		return map[string]any{}
	case map[string]any:
		return []any{}
	}
	return json.Number("42") // null
}

// lookup returns the container a pointer names.
func lookup(root any, ptr string) any {
	if ptr == "" {
		return root
	}
	cur := root
	for _, t := range strings.Split(ptr[1:], "/") {
		t = unescapeToken(t)
		switch c := cur.(type) {
		case map[string]any:
			cur = c[t]
		case []any:
			i, _ := strconv.Atoi(t)
			cur = c[i]
		}
	}
	return cur
}

// apply makes the mutation in tree and returns the function that undoes it.
func (m mutation) apply(tree any) (undo func()) {
	switch c := lookup(tree, m.parent).(type) {
	case map[string]any:
		old, had := c[m.key]
		if m.kind == mutDrop {
			delete(c, m.key)
		} else {
			c[m.key] = m.val
		}
		return func() {
			if had {
				c[m.key] = old
			} else {
				delete(c, m.key)
			}
		}
	case []any:
		i, _ := strconv.Atoi(m.key)
		old := c[i]
		c[i] = m.val
		return func() { c[i] = old }
	}
	panic("mutation parent is not a container: " + m.parent)
}

// validateAs runs the full pipeline (bytes in) for the document's kind.
func validateAs(kind string, b []byte) []Finding {
	if kind == DocIndex {
		_, fs := ValidateIndex(b)
		return fs
	}
	_, fs := ValidateManifest(b, "")
	return fs
}

func TestMutationsRejectedNamingTheField(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of generated mutations (about 2 minutes on 2 cores); skipped with -short")
	}
	docs := generatedMutations(t)
	counts := map[string]int{}
	var mu sync.Mutex
	total := 0
	t.Run("docs", func(t *testing.T) {
		for _, c := range mutationChunks(docs) {
			d := c.doc
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				tree := deepCopy(d.tree)
				local := map[string]int{}
				var buf []byte
				for _, m := range c.muts {
					undo := m.apply(tree)
					b := encode(buf[:0], tree)
					undo()
					fs := validateAs(d.kind, b)
					local[m.kind]++
					if len(fs) == 0 {
						t.Errorf("%s at %s: accepted", m.kind, m.ptr)
						continue
					}
					for _, f := range fs {
						checkWords(t, f)
					}
					if !namesField(fs, m.ptr) {
						t.Errorf("%s at %s: rejected, but no finding at %s names field %q: %v", m.kind, m.ptr, m.ptr, fieldName(m.ptr), fs)
					}
				}
				mu.Lock()
				for k, n := range local {
					counts[k] += n
					total += n
				}
				mu.Unlock()
			})
		}
	})
	summary := fmt.Sprintf("mutation suite: %d generated mutations over %d documents, each rejected with a finding naming the field (%s)", total, len(docs), countList(counts))
	t.Log(summary)
	fmt.Println(summary)
	want := 4000 // the generated corpus gives over 4000
	for _, d := range docs {
		if !strings.HasPrefix(d.path, "www/gen.example/") {
			want = 14000 // and the real one well over 10000 more
		}
	}
	if total < want {
		t.Errorf("only %d mutations generated; want %d or more", total, want)
	}
}

// namesField reports whether a finding has exactly that pointer and a message naming the field.
func namesField(fs []Finding, ptr string) bool {
	for _, f := range fs {
		if f.Pointer == ptr && strings.Contains(f.Message, fieldName(ptr)) {
			return true
		}
	}
	return false
}

func countList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// encode writes v as JSON with sorted keys: json.Marshal without reflection, for speed.
func encode(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case json.Number:
		return append(b, x...)
	case string:
		b = append(b, '"')
		for i := 0; i < len(x); i++ {
			switch c := x[i]; {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = fmt.Appendf(b, "\\u%04x", c)
			default:
				b = append(b, c)
			}
		}
		return append(b, '"')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = encode(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = encode(b, k)
			b = append(b, ':')
			b = encode(b, x[k])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("encode: %T", v))
}

// TestEncodeRoundTrip guards the suite's encoder: every document, decoded and encoded
// again, decodes to the same tree and is still valid.
func TestEncodeRoundTrip(t *testing.T) {
	for _, d := range generatedMutations(t) {
		b := encode(nil, d.tree)
		v, fs := parseStrict(b)
		if fs != nil {
			t.Fatalf("%s: re-encoded document does not parse: %v", d.path, fs)
		}
		if !reflect.DeepEqual(v, d.tree) {
			t.Fatalf("%s: re-encoded document differs", d.path)
		}
		if fs := validateAs(d.kind, b); len(fs) != 0 {
			t.Fatalf("%s: re-encoded document has findings: %v", d.path, fs)
		}
	}
}

func jsonNumber(s string) json.Number { return json.Number(s) }
