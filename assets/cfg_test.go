package assets

import (
	"encoding/json"
	"reflect"
	"testing"
)

// cfgResult is run.js's summary of OpenMWCfg.parse: each kept list as "line:value" (a
// fallback entry as "line:value|key|val"), and the counts.
type cfgResult struct {
	Content         []string `json:"content"`
	Groundcover     []string `json:"groundcover"`
	Data            []string `json:"data"`
	Config          []string `json:"config"`
	FallbackArchive []string `json:"fallback-archive"`
	Fallback        []string `json:"fallback"`
	Ignored         int      `json:"ignored"`
	BOM             bool     `json:"bom"`
	Binary          bool     `json:"binary"`
	SawFiles        bool     `json:"sawFiles"`
}

// TestCfgReader checks that openmwcfg.js keeps every kind of line the setup check and the
// plan read, with the line numbers of the file: data=, content=, groundcover=,
// fallback-archive=, fallback= and config=, after replace=; a byte-order mark is dropped and
// said; keys named like Object.prototype's properties are keys like any other.
func TestCfgReader(t *testing.T) {
	cases := []struct {
		name, text string
		want       cfgResult
	}{
		{"every kind of line", "data=\"/mods/A && B\"\ncontent=Morrowind.esm\ngroundcover=Grass.esp\nfallback-archive=Morrowind.bsa\n" +
			"fallback=LightAttenuation_UseConstant,0\nconfig=\"/mods/C\"\nnot a setting\n",
			cfgResult{Content: []string{"2:Morrowind.esm"}, Groundcover: []string{"3:Grass.esp"}, Data: []string{"1:/mods/A & B"},
				Config: []string{"6:/mods/C"}, FallbackArchive: []string{"4:Morrowind.bsa"}, Fallback: []string{"5:LightAttenuation_UseConstant,0|LightAttenuation_UseConstant|0"},
				Ignored: 1, SawFiles: true}},
		{"a byte-order mark is dropped and said", "\ufeffcontent=Morrowind.esm\ncontent=Tribunal.esm\n",
			cfgResult{Content: []string{"1:Morrowind.esm", "2:Tribunal.esm"}, BOM: true, SawFiles: true}},
		{"replace= drops groundcover and archives too", "groundcover=a.esp\nfallback-archive=x.bsa\nreplace=groundcover\nreplace=fallback-archive\ngroundcover=b.esp\n",
			cfgResult{Groundcover: []string{"5:b.esp"}}},
		{"keys named like prototype properties", "constructor=1\n__proto__=2\ncontent=constructor\ncontent=__proto__\nreplace=constructor\nreplace=__proto__\n",
			cfgResult{Content: []string{"3:constructor", "4:__proto__"}, SawFiles: true}},
		{"CRLF keeps line numbers", "\r\n\r\ncontent=C.esp\r\n", cfgResult{Content: []string{"3:C.esp"}, SawFiles: true}},
		{"binary", "x\x00content=a.esp", cfgResult{Binary: true}},
	}
	var nc []nodeCase
	for _, c := range cases {
		nc = append(nc, nodeCase{"cfg.parse", []any{c.text}})
	}
	got := runNode(t, nc)
	for i, c := range cases {
		var r cfgResult
		if err := json.Unmarshal(got[i], &r); err != nil {
			t.Fatal(err)
		}
		norm := func(r *cfgResult) {
			for _, l := range []*[]string{&r.Content, &r.Groundcover, &r.Data, &r.Config, &r.FallbackArchive, &r.Fallback} {
				if len(*l) == 0 {
					*l = nil
				}
			}
		}
		norm(&r)
		norm(&c.want)
		if !reflect.DeepEqual(r, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, r, c.want)
		}
	}
}

// setupDoc is the part of setup.json the check reads, for the node tests.
func setupDocFor(files map[string][]string, claims map[string]any) map[string]any {
	return map[string]any{"format": "ashyams-setup", "format_version": 1, "notice": "", "content_files": files, "claims": claims}
}

func setupClaim(name string, files []string, requires []string, rels []map[string]any) map[string]any {
	cf := []map[string]any{}
	for _, f := range files {
		cf = append(cf, map[string]any{"file": f, "requires_content": []string{}})
	}
	if rels == nil {
		rels = []map[string]any{}
	}
	return map[string]any{"project": name, "site": "s", "site_name": "S", "name": name, "page": "projects/" + name + "/s/",
		"health": "current", "stale": false, "project_status": "active",
		"release":       map[string]any{"version": "1.0", "channel": "stable", "current": true, "status": "available"},
		"content_files": cf, "requires_content": requires, "openmw": ">=0.49", "relationships": rels}
}

// TestSetupCheckNames runs the setup check on names that are properties of every plain
// object ("constructor", "__proto__", "toString") as content files, needs and claim keys, on
// the base game's files, and on a required project that is absent: each is reported by its
// own name and line, and nothing throws.
func TestSetupCheckNames(t *testing.T) {
	claims := map[string]any{
		"p/s": setupClaim("p", []string{"constructor", "P.esp"}, []string{"__proto__", "Morrowind.esm", "toString"},
			[]map[string]any{{"kind": "requires", "project": "q", "targets": []string{"q/s"}}}),
		"q/s": setupClaim("q", []string{"Q.esp"}, []string{}, nil),
	}
	doc := setupDocFor(map[string][]string{"constructor": {"p/s"}, "p.esp": {"p/s"}, "q.esp": {"q/s"}}, claims)
	text := "content=Morrowind.esm\ncontent=constructor\ncontent=__proto__\ncontent=P.esp\ncontent=constructor\n" +
		"fallback-archive=Morrowind.bsa\nfallback-archive=Other.bsa\ncontent=Tribunal.esm\n"
	got := runNode(t, []nodeCase{{"setup.check", []any{doc, text, "0.48"}}})
	var rows [][]any
	if err := json.Unmarshal(got[0], &rows); err != nil {
		t.Fatal(err)
	}
	want := [][]any{
		{"matched", "p/s", "constructor", 2.0},
		{"matched", "p/s", "P.esp", 4.0},
		{"unknown", "", "__proto__", 3.0},
		{"base", "", "Morrowind.esm", 1.0},
		{"base", "", "Tribunal.esm", 8.0},
		{"base-archive", "", "Morrowind.bsa", 6.0},
		{"archive", "", "Other.bsa", 7.0},
		{"duplicate", "", "constructor", 2.0},
		{"missing-content", "p/s", "toString", 0.0},
		{"missing-project", "p/s", "q", 0.0},
		{"order", "p/s", "__proto__", 3.0},
		{"runtime", "p/s", ">=0.49", 0.0},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("findings:\n got %v\nwant %v", rows, want)
	}
}
