package plan

import (
	"bytes"
	"encoding/json"
	"reflect"
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
var (
	keyFields = []string{"project", "site", "page"}
	// prunedIn are the keys whose values are objects, or lists of objects, whose empty
	// values are left out too. Settings and groups are kept as published: a setting's
	// value may be false or "".
	prunedIn = []string{"release", "relationships", "components", "artifacts", "content_files"}
	// Usual are the values, other than empty ones, a part leaves out where they are
	// usual: a claim is current and its project active; its release is the claim's
	// current one, of the stable channel (the protocol's default) and available. An empty
	// value of these keys is written.
	Usual = map[string]map[string]any{
		"":        {"health": "current", "project_status": "active"},
		"release": {"channel": "stable", "current": true, "status": "available"},
	}
)

// claimPart is c as its part holds it: c's JSON with keyFields, the empty values and the
// usual ones left out.
func claimPart(c *InstallClaim) (map[string]any, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // sizes stay exact
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	for _, k := range keyFields {
		delete(m, k)
	}
	pruneUsual(m, Usual[""])
	if reflect.DeepEqual(contentOf(c.Components), c.ContentFiles) {
		delete(m, "content_files")
	} else if _, ok := m["content_files"]; !ok {
		m["content_files"] = []any{} // none, though the components declare some
	}
	if rels, ok := m["relationships"].([]any); ok {
		for _, r := range rels {
			shortTargets(r.(map[string]any))
		}
	}
	for _, k := range prunedIn {
		switch v := m[k].(type) {
		case map[string]any:
			pruneUsual(v, Usual[k])
		case []any:
			for _, e := range v {
				if o, ok := e.(map[string]any); ok {
					pruneUsual(o, Usual[k])
				}
			}
		}
	}
	return m, nil
}

// pruneUsual deletes the keys of m whose values are usual's for them, or, for a key usual
// does not name, empty: "", false, null or an empty list.
func pruneUsual(m map[string]any, usual map[string]any) {
	for k, v := range m {
		if u, ok := usual[k]; ok {
			if v == u {
				delete(m, k)
			}
			continue
		}
		switch v := v.(type) {
		case nil:
			delete(m, k)
		case string:
			if v == "" {
				delete(m, k)
			}
		case bool:
			if !v {
				delete(m, k)
			}
		case []any:
			if len(v) == 0 {
				delete(m, k)
			}
		}
	}
}

// shortTargets writes the targets of the relationship r that are claims of r's project as
// "/<site>".
func shortTargets(r map[string]any) {
	p, _ := r["project"].(string)
	ts, _ := r["targets"].([]any)
	if p == "" {
		return
	}
	for i, t := range ts {
		if s, ok := t.(string); ok && strings.HasPrefix(s, p+"/") {
			ts[i] = s[len(p):]
		}
	}
}

// contentOf is the content files comps declare as the setup check lists them
// (declaredContent) when the openmw extension describes only listed components: in component
// order (a component id once), each name once (compared folded), with what every component
// declaring it needs. assets/shards.js contentOf is the same rule.
func contentOf(comps []Component) []Content {
	out := []Content{}
	at := map[string]int{}
	seen := map[string]bool{}
	for _, comp := range comps {
		if seen[comp.ID] {
			continue
		}
		seen[comp.ID] = true
		for _, f := range comp.Content {
			if f == "" {
				continue
			}
			k := FoldASCII(f)
			if i, ok := at[k]; ok {
				out[i].RequiresContent = common(out[i].RequiresContent, comp.RequiresContent)
				continue
			}
			at[k] = len(out)
			out = append(out, Content{File: f, RequiresContent: appendNew([]string{}, comp.RequiresContent...)})
		}
	}
	return out
}
