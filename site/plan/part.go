package plan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// A claim's part leaves out what the page's script knows without it (assets/shards.js
// claimsOf puts it back): the project, site and page its key says ("<project>/<site>", and
// projects/<key>/index.html), every empty value ("", false, null, []) of the claim and of
// its release, relationships, components, artifacts and content files, and the usual ones
// (Usual), the project id of a relationship's target when it is the relationship's
// project: "/<site>" stands for "<project>/<site>" (a key never starts with "/"); and the
// setup check's content files when they are what its components say (contentOf), as they
// are unless the release's openmw extension describes a component the release does not
// list. Names are written in full: a served part's compression takes out their repeats.
//
// Usual are, by key, the values other than empty ones a part leaves out where they are
// usual: a claim is current and its project active; its release is the claim's current
// one, of the stable channel (the protocol's default) and available. An empty value of these
// keys is written. The other keys name the lists of objects whose empty values are left out
// too; settings and groups are kept as published: a setting's value may be false or "".
var Usual = map[string]map[string]any{
	"":              {"health": "current", "project_status": "active"},
	"release":       {"channel": "stable", "current": true, "status": "available"},
	"relationships": nil, "components": nil, "artifacts": nil, "content_files": nil,
}

// parter writes claims' parts, reusing from one claim to the next the claim (p), its JSON
// (b) and the members sortedJSON holds, outer objects' first (ms).
type parter struct {
	p  InstallClaim
	b  bytes.Buffer
	ms [][]byte
}

// claimPart is c as its part holds it: c's JSON without its key's fields, the empty values
// and the usual ones, each object's keys sorted as a decoded object is written.
func (w *parter) claimPart(c *InstallClaim) (json.RawMessage, error) {
	w.p = *c
	p := &w.p
	p.Project, p.Site, p.Page = "", "", ""   // left out as empty
	p.ContentFiles = orEmpty(c.ContentFiles) // written when none, if the components declare some
	if reflect.DeepEqual(contentOf(c.Components), c.ContentFiles) {
		p.ContentFiles = nil
	}
	p.Relationships = slices.Clone(c.Relationships)
	for i := range p.Relationships {
		r := &p.Relationships[i]
		r.Targets = slices.Clone(r.Targets) // a target of r's project as "/<site>"
		for j, t := range r.Targets {
			if rest, ok := strings.CutPrefix(t, r.Project); ok && r.Project != "" && strings.HasPrefix(rest, "/") {
				r.Targets[j] = rest
			}
		}
	}
	w.b.Reset()
	enc := json.NewEncoder(&w.b)
	enc.SetEscapeHTML(false) // as the part's script is written
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return w.sortedJSON(make([]byte, 0, w.b.Len()), bytes.TrimSpace(w.b.Bytes()), Usual[""], 2), nil
}

// sortedJSON appends the compact JSON value v to out, each object's keys sorted, without
// the members leftOut names of v (depth 2) and of its Usual members' objects (depth 1).
func (w *parter) sortedJSON(out, v []byte, usual map[string]any, depth int) []byte {
	if v[0] != '{' && v[0] != '[' {
		return append(out, v...)
	}
	n := len(w.ms)
	w.ms = split(w.ms, v)
	ms := w.ms[n:]
	if v[0] == '{' {
		slices.SortFunc(ms, bytes.Compare) // by name: '"' sorts before a name's letters
	}
	out = append(out, v[0])
	for _, m := range ms {
		val, u, d := m, usual, depth
		if v[0] == '{' {
			k := string(m[1 : 1+bytes.IndexByte(m[1:], '"')]) // a struct's names need no escapes
			if val, d = m[len(k)+3:], 0; depth > 0 && leftOut(usual, k, val) {
				continue
			}
			var in bool
			if u, in = Usual[k]; in && depth == 2 {
				d = 1
			}
		}
		if out[len(out)-1] != v[0] { // not the first
			out = append(out, ',')
		}
		out = w.sortedJSON(append(out, m[:len(m)-len(val)]...), val, u, d)
	}
	w.ms = w.ms[:n]
	return append(out, v[len(v)-1])
}

// split appends to out the members of the compact JSON object, or the elements of the list, v.
func split(out [][]byte, v []byte) [][]byte {
	depth, start := 0, 1
	for i := 1; i < len(v)-1; i++ {
		switch v[i] {
		case '"':
			for i++; v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out, start = append(out, v[start:i]), i+1
			}
		}
	}
	if len(v) > 2 {
		out = append(out, v[start:len(v)-1])
	}
	return out
}

// leftOut says whether a part leaves out the member k (JSON v) of an object with usual
// values usual: v is usual's for k or, for a key usual does not name, empty. An empty list
// of content files is written (claimPart leaves theirs out as null).
func leftOut(usual map[string]any, k string, v []byte) bool {
	if u, ok := usual[k]; ok {
		b, _ := json.Marshal(u)
		return bytes.Equal(v, b)
	}
	switch string(v) {
	case "null", `""`, "false":
		return true
	case "[]":
		return k != "content_files"
	}
	return false
}

// contentOf is the content files comps declare as the setup check lists them (contentList)
// when the openmw extension describes only listed components, a component id once.
// assets/shards.js contentOf is the same rule.
func contentOf(comps []Component) []Content {
	var pairs [][2][]string
	seen := map[string]bool{}
	for _, comp := range comps {
		if !seen[comp.ID] {
			seen[comp.ID] = true
			pairs = append(pairs, [2][]string{comp.Content, comp.RequiresContent})
		}
	}
	return contentList(pairs)
}
