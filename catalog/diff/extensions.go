package diff

import (
	"bytes"
	"encoding/json"
	"strings"
)

// decodeExtensions decodes each namespace's value, numbers as written; one that is not JSON
// is kept as its text.
func decodeExtensions(ext map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(ext))
	for ns, raw := range ext {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			v = string(raw)
		}
		out[ns] = v
	}
	return out
}

// openmwFacts are the openmw extension values reported on their own: the Lua API constraint,
// the release's required content, and each component's install data (nil when absent).
type openmwFacts struct {
	luaAPI          any
	requiresContent any
	components      map[string]map[string]any
}

// takeOpenMW removes from ext, and returns, the openmw values reported on their own.
func takeOpenMW(ext map[string]any) openmwFacts {
	f := openmwFacts{components: map[string]map[string]any{}}
	o, ok := ext["openmw"].(map[string]any)
	if !ok {
		return f
	}
	f.luaAPI, f.requiresContent = o["lua_api"], o["requires_content"]
	delete(o, "lua_api")
	delete(o, "requires_content")
	if comps, ok := o["components"].(map[string]any); ok {
		for id, c := range comps {
			if cm, ok := c.(map[string]any); ok {
				f.components[id] = cm
				delete(comps, id)
			}
		}
		if len(comps) == 0 {
			delete(o, "components")
		}
	}
	return f
}

// stringList is a decoded list as strings; a value that is not a list is a list of one.
func stringList(v any) []string {
	l, ok := v.([]any)
	if !ok && v != nil {
		return []string{valueText(v)}
	}
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, string(js(x)))
		}
	}
	return out
}

func extensionChanges(b, a map[string]any) []Change {
	var out []Change
	for _, ns := range unionKeys(b, a) {
		bv, inB := b[ns]
		av, inA := a[ns]
		switch {
		case !inB:
			out = append(out, Change{Change: ChangeExtensionAdded, Namespace: ns})
		case !inA:
			out = append(out, Change{Change: ChangeExtensionRemoved, Namespace: ns})
		case !bytes.Equal(js(bv), js(av)):
			out = append(out, Change{Change: ChangeExtensionChanged, Namespace: ns})
		}
	}
	return out
}

// valueText renders a decoded value for a details line: strings as themselves, lists
// comma-separated, nothing as "none", else compact JSON.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case string:
		return x
	case json.Number:
		return x.String()
	case []any:
		if len(x) == 0 {
			return "none"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			if s, ok := e.(string); ok {
				parts[i] = s
			} else {
				parts[i] = string(js(e))
			}
		}
		return strings.Join(parts, ", ")
	}
	return string(js(v))
}

func openmwDetails(b, a map[string]any) []string {
	var out []string
	for _, k := range unionKeys(b, a) {
		if bv, av := b[k], a[k]; !bytes.Equal(js(bv), js(av)) {
			out = append(out, "OpenMW "+k+": "+valueText(bv)+arrow+valueText(av))
		}
	}
	return out
}
