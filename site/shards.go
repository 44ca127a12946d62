package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// The setup and plan pages carry only what their first screen needs; the data they check
// and plan from is in script files (the claims in plan/data/, which both read, the setup
// check's name indexes in setup/data/), each a part of the whole the page loads when the
// player's file or plan names it. Script files, not JSON
// fetched: the pages' CSP allows scripts from the site itself and no connection, and a
// script file loads from file:// as it does when served, where a fetch does not.
//
// A part is named by what it holds: "c" and the first hex characters of the project ids of
// the claims in it (claimShard), or "n" and a hash of the folded names it indexes
// (nameShard). Its file calls AshyamsData(name, text) with the part's JSON as a string,
// which the page parses: JSON.parse keeps a key such as "__proto__" a key, where a script's
// object literal would not (assets/shards.js).

// shardClaims is the most claims one part of the claims holds, on average: at 10,000 claims
// 256 parts of about 40 claims each (a part is at most about 44 KB, 9 KB compressed).
const shardClaims = 64

// shardNames is the most names (content files, folders) one part of a name index holds on
// average; maxNameShards bounds the number of parts.
const (
	shardNames    = 256
	maxNameShards = 4096
)

// shardPlan is how a page's data is cut: the project id prefix length of its claim parts
// and the number of its name parts (a power of two). The page reads it from its own data.
type shardPlan struct {
	Claims int `json:"claims"`
	Names  int `json:"names"`
}

// claimPrefixLen is the shortest project id prefix (hex characters, at most 3) that cuts n
// claims into parts of at most shardClaims on average.
func claimPrefixLen(n int) int {
	l := 0
	for l < 3 && n > shardClaims<<(4*l) {
		l++
	}
	return l
}

// nameShardCount is the fewest parts (a power of two) that hold n names at most shardNames
// each on average.
func nameShardCount(n int) int {
	s := 1
	for s < maxNameShards && n > shardNames*s {
		s *= 2
	}
	return s
}

// claimShard names the part holding the claims of project id p.
func claimShard(p string, prefix int) string {
	return "c" + p[:min(prefix, len(p))]
}

// fnv1a is the 32-bit FNV-1a hash of s's bytes (UTF-8), as shards.js computes it.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// nameShard names the part of a name index holding the folded name k.
func nameShard(k string, parts int) string {
	return fmt.Sprintf("n%x", fnv1a(k)%uint32(parts))
}

// shardScript is a part's file: AshyamsData('<name>', '<its JSON>'). The pages' scripts draw
// its strings, so they follow the pages' bidi rule (bidiText, each JSON string a stretch of
// its own); the JSON is then written as served JSON is (no raw control or bidi character) and
// quoted as a single-quoted script string (scriptString): JSON's own double quotes stay as
// they are, a tenth of a part's bytes.
func shardScript(name string, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("the data part %s: %w", name, err)
	}
	quoteEnds := func(c byte) bool { return c == '"' }
	text := termtext.JSON(bidiText(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), quoteEnds))
	return []byte("AshyamsData(" + scriptString(name) + "," + scriptString(string(text)) + ");\n"), nil
}

// scriptString is s as a single-quoted JavaScript string literal: a backslash and a single quote
// escaped, and every character a script cannot hold raw in a string (the line terminators,
// and any other control character) as a \u escape.
func scriptString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// allClaimShards lists the name of every claim part a prefix length makes, so each is
// written even when empty: the page may ask for any of them (a folder named like a plan's
// folder names a prefix), and a part that does not load is then a fault, not a gap.
func allClaimShards(prefix int) []string {
	out := []string{""}
	for i := 0; i < prefix; i++ {
		var next []string
		for _, p := range out {
			for _, c := range "0123456789abcdef" {
				next = append(next, p+string(c))
			}
		}
		out = next
	}
	for i, p := range out {
		out[i] = "c" + p
	}
	return out
}

// writeShards writes each part of parts as dir/<name>.js, in name order.
func (b *builder) writeShards(dir string, parts map[string]any) error {
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		js, err := shardScript(n, parts[n])
		if err != nil {
			return err
		}
		if err := b.writeRaw(dir+"/"+n+".js", js); err != nil {
			return err
		}
	}
	return nil
}

// A claim's part leaves out what the page's script knows without it (assets/shards.js
// claimsOf puts it back): the project, site and page its key says ("<project>/<site>", and
// projects/<key>/index.html), every empty value ("", false, null, []) of the claim and of
// its release, relationships, components, artifacts and content files, and the usual ones
// (partUsual), the project id of a relationship's target when it is the relationship's
// project: "/<site>" stands for "<project>/<site>" (a key never starts with "/"); and the
// setup check's content files when they are what its components say (contentOf), as they
// are unless the release's openmw extension describes a component the release does not
// list. What is left is written with short names (partKeys). The corpus's parts are half the
// bytes of its claims' JSON.
var (
	keyFields = []string{"project", "site", "page"}
	// prunedIn are the keys whose values are objects, or lists of objects, whose empty
	// values are left out too. Settings and groups are kept as published: a setting's
	// value may be false or "".
	prunedIn = []string{"release", "relationships", "components", "artifacts", "content_files"}
	// partUsual are the values, other than empty ones, a part leaves out where they are
	// usual: a claim is current and its project active; its release is the claim's
	// current one, of the stable channel (the protocol's default) and available. An empty
	// value of these keys is written.
	partUsual = map[string]map[string]any{
		"":        {"health": "current", "project_status": "active"},
		"release": {"channel": "stable", "current": true, "status": "available"},
	}
	// partKeys are the JSON names a claim's part writes short: the i-th as partKey(i).
	// They are every name an installClaim's JSON has but its key fields, and
	// assets/shards.js partKeys lists them in this order.
	partKeys = []string{"arch", "archives", "artifacts", "capability", "category", "channel", "components", "config",
		"config_dirs", "conflicts", "content", "content_files", "current", "data", "data_dirs", "default", "description",
		"fallback", "file", "filename", "format", "groundcover", "group", "groups", "health", "id", "installs", "key",
		"kind", "lua_api", "name", "openmw", "os", "path", "platform", "project", "project_status", "provides",
		"reason", "relationships", "release", "replacement", "required", "requires", "requires_content", "scheme",
		"select", "settings", "sha256", "site_name", "size", "sources", "stale", "status", "suggested_with", "targets",
		"url", "value", "variant", "version"}
	partKeyOf = func() map[string]string {
		m := map[string]string{}
		for i, k := range partKeys {
			m[k] = partKey(i)
		}
		return m
	}()
)

// partDigits are the short names: partKey(i) is the i-th, one character (partKeys has at
// most as many names).
const partDigits = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func partKey(i int) string { return partDigits[i : i+1] }

// claimPart is c as its part holds it: c's JSON with keyFields, the empty values and the
// usual ones left out, its names short.
func claimPart(c *installClaim) (map[string]any, error) {
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
	pruneUsual(m, partUsual[""])
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
			pruneUsual(v, partUsual[k])
		case []any:
			for _, e := range v {
				if o, ok := e.(map[string]any); ok {
					pruneUsual(o, partUsual[k])
				}
			}
		}
	}
	s, err := shortKeys(m)
	if err != nil {
		return nil, fmt.Errorf("the claim %s/%s: %w", c.Project, c.Site, err)
	}
	return s.(map[string]any), nil
}

// shortKeys is v with every object's names as partKeyOf writes them.
func shortKeys(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			s, ok := partKeyOf[k]
			if !ok {
				return nil, fmt.Errorf("no short name for %q (partKeys)", k)
			}
			var err error
			if out[s], err = shortKeys(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			var err error
			if out[i], err = shortKeys(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
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
func contentOf(comps []planComponent) []setupContent {
	out := []setupContent{}
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
			k := foldASCII(f)
			if i, ok := at[k]; ok {
				out[i].RequiresContent = common(out[i].RequiresContent, comp.RequiresContent)
				continue
			}
			at[k] = len(out)
			out = append(out, setupContent{File: f, RequiresContent: appendNew([]string{}, comp.RequiresContent...)})
		}
	}
	return out
}
