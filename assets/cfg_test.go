package assets

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
	Lost            string   `json:"lost"`
	Binary          bool     `json:"binary"`
	SawFiles        bool     `json:"sawFiles"`
}

// TestCfgReader checks that openmwcfg.js keeps every kind of line the setup check and the
// plan read, with the line numbers of the file: data=, content=, groundcover=,
// fallback-archive=, fallback= and config=, after replace=; as OpenMW 0.47 reads them, a
// byte-order mark loses line 1 and an unquoted path stops at its first space or tab; keys
// named like Object.prototype's properties are keys like any other.
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
		{"a byte-order mark loses line 1", "\ufeffcontent=Morrowind.esm\ncontent=Tribunal.esm\n",
			cfgResult{Content: []string{"2:Tribunal.esm"}, BOM: true, Lost: "1:content=Morrowind.esm", SawFiles: true}},
		{"a byte-order mark before a comment loses nothing", "\ufeff# launcher\ncontent=Tribunal.esm\n",
			cfgResult{Content: []string{"2:Tribunal.esm"}, BOM: true, SawFiles: true}},
		{"an unquoted path stops at a space", "data=/x/00 Core\ndata=\"/y/00 Core\"\nconfig=/z\tq\ncontent=A B.esp\n",
			cfgResult{Data: []string{"1:/x/00|cut /x/00 Core", "2:/y/00 Core"}, Config: []string{"3:/z|cut /z\tq"}, Content: []string{"4:A B.esp"}, SawFiles: true}},
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

// setupDoc is the part of the setup data the check reads, for the node tests.
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
		{"archive-unknown", "", "Other.bsa", 7.0},
		{"duplicate", "", "constructor", 2.0},
		{"missing-content", "p/s", "toString", 0.0},
		{"missing-project", "p/s", "q", 0.0},
		{"order", "p/s", "__proto__", 3.0},
		{"runtime", "p/s", ">=0.49", 0.0},
	}
	// OpenMW 0.47 stops at a Lua script and ignores config=.
	got = runNode(t, []nodeCase{{"setup.check", []any{doc, "content=A.omwscripts\nconfig=/x\ncontent=B.OMWSCRIPTS\ncontent=C.esp\n", "0.47.0"}},
		{"setup.check", []any{doc, "content=A.omwscripts\nconfig=/x\n", "0.48"}}})
	var old, newer [][]any
	if json.Unmarshal(got[0], &old) != nil || json.Unmarshal(got[1], &newer) != nil {
		t.Fatal(got)
	}
	tooOld := [][]any{{"too-old", "", "/x", 2.0}, {"too-old", "", "A.omwscripts", 1.0}, {"too-old", "", "B.OMWSCRIPTS", 3.0}}
	for _, w := range tooOld {
		if !slices.ContainsFunc(old, func(r []any) bool { return reflect.DeepEqual(r, w) }) {
			t.Errorf("on 0.47, no %v in %v", w, old)
		}
	}
	if slices.ContainsFunc(newer, func(r []any) bool { return r[0] == "too-old" }) || len(old) != 3+4 {
		t.Errorf("on 0.48: %v; on 0.47: %v", newer, old)
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("findings:\n got %v\nwant %v", rows, want)
	}
}

// withDirs adds what a setup claim declares besides content files.
func withDirs(c map[string]any, project string, data, config, groundcover, archives []string) map[string]any {
	c["project"], c["data_dirs"], c["config_dirs"], c["groundcover"], c["archives"] = project, data, config, groundcover, archives
	return c
}

// TestSetupCheckFolders runs the setup check on every kind of line besides content=: a data=
// folder named as the plan page names a project's folder, one ending like a declared data
// directory (one claim, and two: both named, neither chosen), the base game's Data Files, a
// folder nobody declares, groundcover files and archives declared and not, a config= folder;
// and on requirements a content= line cannot show: a required project that declares only
// data folders is missing when none is in the file, present when its folder is, and one that
// declares neither is said to be uncheckable, never passed in silence; a project present
// only by its folder has its own requirements checked.
func TestSetupCheckFolders(t *testing.T) {
	const (
		lampID = "11111111-1111-4111-8111-111111111111"
		beeID  = "22222222-2222-4222-8222-222222222222"
		seaID  = "33333333-3333-4333-8333-333333333333"
		oneID  = "44444444-4444-4444-8444-444444444444"
		twoID  = "55555555-5555-4555-8555-555555555555"
	)
	rel := func(key string) map[string]any {
		return map[string]any{"kind": "requires", "project": key[:36], "targets": []string{key}}
	}
	claims := map[string]any{
		"lamp/s": withDirs(setupClaim("Lamp Works", []string{"Lamp.esp"}, []string{}, []map[string]any{rel(beeID + "/s"), rel(seaID + "/s"), rel(oneID + "/s")}),
			lampID, []string{"00 Core", "textures/hd"}, []string{"cfg"}, []string{"Lamp Grass.esp"}, []string{"Lamp.bsa"}),
		beeID + "/s": withDirs(setupClaim("Bee", []string{}, []string{}, []map[string]any{rel(seaID + "/s")}), beeID, []string{"B Meshes"}, []string{}, []string{}, []string{}),
		seaID + "/s": withDirs(setupClaim("Sea", []string{}, []string{}, nil), seaID, []string{}, []string{}, []string{}, []string{}),
		oneID + "/s": withDirs(setupClaim("One", []string{}, []string{}, nil), oneID, []string{"Shared"}, []string{}, []string{}, []string{}),
		twoID + "/s": withDirs(setupClaim("Two", []string{}, []string{}, nil), twoID, []string{"y/Shared"}, []string{}, []string{}, []string{}),
	}
	doc := setupDocFor(map[string][]string{"lamp.esp": {"lamp/s"}}, claims)
	doc["groundcover_files"] = map[string][]string{"lamp grass.esp": {"lamp/s"}}
	doc["fallback_archives"] = map[string][]string{"lamp.bsa": {"lamp/s"}}
	doc["data_dirs"] = map[string][]string{"00 core": {"lamp/s"}, "hd": {"lamp/s"}, "cfg": {"lamp/s"}, "b meshes": {beeID + "/s"}, "shared": {oneID + "/s", twoID + "/s"}}
	text := "content=Lamp.esp\ndata=\"/mods/Lamp-Works-11111111/00 Core\"\ndata=/other/Textures/HD\ndata=/y/shared\n" +
		"data=\"C:\\Games\\Morrowind\\Data Files\"\ndata=/nowhere\ngroundcover=Lamp Grass.esp\ngroundcover=Other Grass.esp\n" +
		"fallback-archive=Lamp.bsa\nfallback-archive=Other.bsa\nconfig=\"/mods/Lamp-Works-11111111/cfg\"\n"
	// The same file with Bee's folder: Bee is there, and Sea, which Bee requires, still cannot be seen.
	withBee := text + "data=/mods/Bee-22222222\n"
	got := runNode(t, []nodeCase{{"setup.check", []any{doc, text, ""}}, {"setup.check", []any{doc, withBee, ""}}})
	want := [][][]any{{
		{"matched", "lamp/s", "Lamp.esp", 1.0},
		{"archive", "lamp/s", "Lamp.bsa", 9.0},
		{"archive-unknown", "", "Other.bsa", 10.0},
		{"groundcover", "lamp/s", "Lamp Grass.esp", 7.0},
		{"groundcover-unknown", "", "Other Grass.esp", 8.0},
		{"data-folder", "lamp/s", "/mods/Lamp-Works-11111111/00 Core", 2.0},
		{"data-dir", "lamp/s", "/other/Textures/HD", 3.0},
		{"data-dir", oneID + "/s " + twoID + "/s", "/y/shared", 4.0},
		{"data-base", "", `C:\Games\Morrowind\Data Files`, 5.0},
		{"data-unknown", "", "/nowhere", 6.0},
		{"config-folder", "lamp/s", "/mods/Lamp-Works-11111111/cfg", 11.0},
		{"missing-project", "lamp/s", beeID, 0.0},
		{"requires-unchecked", "lamp/s", seaID, 0.0},
	}}
	want = append(want, append(append([][]any{}, want[0][:10]...),
		[]any{"data-folder", beeID + "/s", "/mods/Bee-22222222", 12.0}, want[0][10],
		[]any{"requires-unchecked", "lamp/s", seaID, 0.0},
		[]any{"requires-unchecked", beeID + "/s", seaID, 0.0}))
	for i := range got {
		var rows [][]any
		if err := json.Unmarshal(got[i], &rows); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rows, want[i]) {
			t.Errorf("case %d:\n got %v\nwant %v", i, rows, want[i])
		}
	}
}

// TestShardNamesAgreeWithGo: shards.js names the data part of a name by the same FNV-1a hash
// the build uses (site/shards.go), over UTF-8 bytes, for ASCII and other names alike, and a
// project's part by its id's start.
func TestShardNamesAgreeWithGo(t *testing.T) {
	fnv := func(s string) uint32 {
		h := uint32(2166136261)
		for i := 0; i < len(s); i++ {
			h ^= uint32(s[i])
			h *= 16777619
		}
		return h
	}
	names := []string{"", "morrowind.esm", "candlelight - tr.omwscripts", "İ ünïcode.esp", "__proto__", "日本語.esp", "\U0001F56F.esp"}
	var nc []nodeCase
	for _, n := range names {
		nc = append(nc, nodeCase{"shards.fnv1a", []any{n}}, nodeCase{"shards.namePart", []any{n, 64}})
	}
	nc = append(nc, nodeCase{"shards.claimPart", []any{"4d0c9f6e-2b1a", 2}}, nodeCase{"shards.claimPart", []any{"4d0c9f6e-2b1a", 0}})
	got := runNode(t, nc)
	for i, n := range names {
		if want := fmt.Sprint(fnv(n)); string(got[2*i]) != want {
			t.Errorf("fnv1a(%q): JS %s, Go %s", n, got[2*i], want)
		}
		if want := fmt.Sprintf(`"n%x"`, fnv(n)%64); string(got[2*i+1]) != want {
			t.Errorf("namePart(%q): JS %s, want %s", n, got[2*i+1], want)
		}
	}
	if string(got[len(got)-2]) != `"c4d"` || string(got[len(got)-1]) != `"c"` {
		t.Errorf("claimPart: %s %s", got[len(got)-2], got[len(got)-1])
	}
}
