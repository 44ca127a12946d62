package openmwtest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/openmwtest"
	"github.com/DreamWeave-MP/ashyams-go/site"
)

// A mod of the test network: its components (id, path in the archive, data directories,
// content files), the projects it requires and the settings it asks.
type mod struct {
	id, name string
	comps    []comp
	requires []string
	settings []protocol.OpenMWSetting
}

type comp struct {
	id, path string
	data     []string
	content  []string
}

// release is m's one release, 1.0.0, for OpenMW 0.47 and later, needing the base game.
func (m mod) release() protocol.Release {
	var rels []protocol.Relationship
	for _, p := range m.requires {
		rels = append(rels, statetest.Requires(p, ""))
	}
	r := statetest.Release("1.0.0", "stable", nil, rels...)
	r.Runtimes = map[string]string{"openmw": ">=0.47"}
	ext := protocol.OpenMW{Components: map[string]protocol.OpenMWComponent{}, RequiresContent: []string{"Morrowind.esm"}, Settings: m.settings}
	if ext.Settings == nil {
		ext.Settings = []protocol.OpenMWSetting{}
	}
	r.Artifacts[0].Format = "bain"
	for _, c := range m.comps {
		r.Components = append(r.Components, protocol.Component{ID: c.id, Name: c.id, Path: c.path, Required: true, Default: true,
			Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
		ext.Components[c.id] = protocol.OpenMWComponent{DataDirectories: c.data, ContentFiles: c.content, GroundcoverFiles: []string{},
			FallbackArchives: []string{}, FallbackEntries: map[string]string{}, RequiresContent: []string{}}
	}
	b, err := json.Marshal(ext)
	if err != nil {
		panic(err)
	}
	r.Extensions = map[string]json.RawMessage{"openmw": b}
	return r
}

// planOf builds the index's site for mods and plans req over it with the plan page's own
// engine, reading the data parts the site publishes as an installer does.
func planOf(t *testing.T, mods []mod, req engine.Request) *engine.Plan {
	t.Helper()
	s := statetest.New(t)
	origin := s.Origin("https://mods.example.org/dreamweave.json")
	for _, m := range mods {
		s.Claim(origin, statetest.Manifest(m.id, m.name, "", m.release()))
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := site.Build(site.Options{State: s.Dir.Path(""), Out: out}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "plan", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	shards, err := engine.PageShards(page)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.Options{Shards: shards})
	if err != nil {
		t.Fatal(err)
	}
	for {
		names, err := e.Parts(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(names) == 0 {
			break
		}
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(out, "plan", "data", n+".js"))
			if err != nil {
				t.Fatal(err)
			}
			if err := e.AddPart(n, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := e.Compute(req)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// block is text as a block of lines of a file: "" or lines each ending in "\n".
func block(text string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text
}

// layOut lays out what the plan installs under its root as the plan says (each selected
// component in its folder, a minimal plugin for every content file in the component's
// last data directory) and returns the data folders and content files, in the plan's order.
func layOut(t *testing.T, p *engine.Plan, mods []mod) (data, content []string) {
	t.Helper()
	byID := map[string]mod{}
	for _, m := range mods {
		byID[m.id] = m
	}
	for _, c := range p.Claims {
		if !c.Installs || !c.Valid || len(c.Refused) > 0 {
			t.Fatalf("the plan does not install %s: %+v", c.Key, c)
		}
		for _, pc := range c.Components {
			i := slices.IndexFunc(byID[c.Project].comps, func(x comp) bool { return x.id == pc.ID })
			mc := byID[c.Project].comps[i]
			for _, d := range mc.data {
				dir := filepath.Join(p.Root, filepath.FromSlash(pc.Folder), filepath.FromSlash(d))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				data = append(data, filepath.Clean(dir))
			}
			for _, f := range mc.content {
				if err := os.WriteFile(filepath.Join(data[len(data)-1], f), openmwtest.Plugin(f, "Morrowind.esm"), 0o644); err != nil {
					t.Fatal(err)
				}
				content = append(content, f)
			}
		}
	}
	return data, content
}

// The base game's content files, as the launcher lists them.
var baseContent = []string{"Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm"}

// writeCfg writes openmw.cfg (and settings.cfg, when not empty) into a new directory.
func writeCfg(t *testing.T, cfg, settings string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "openmw.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if settings != "" {
		if err := os.WriteFile(filepath.Join(dir, "settings.cfg"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEngineLoadsThePlanAfterTheLaunchersBaseGame (issue 33): the plan's openmw.cfg text as
// the plan page shows it (its comments included), computed by the page's own engine from the
// index's published data, added to a cfg
// where the launcher already lists the base game, load in OpenMW 0.47 with no error: every
// data folder added and every content file loaded, in the planned order, after the base
// game. The base game's block of the plan is what a cfg without it needs, and only that: added
// to the launcher's cfg it makes the engine abort.
func TestEngineLoadsThePlanAfterTheLaunchersBaseGame(t *testing.T) {
	openmwtest.Binaries(t)
	mods := []mod{
		{id: statetest.ID(1), name: "Core Lib", comps: []comp{
			{"core", "00 Core", []string{"."}, []string{"Core Lib.esp"}},
			{"textures", "01 Textures & Meshes", []string{"."}, nil}}},
		{id: statetest.ID(2), name: `Addon & "Friends" #2`, requires: []string{statetest.ID(1)}, comps: []comp{
			{"main", "Data Files", []string{".", "extra #1"}, []string{"Addon.esp", "Addon Extra.esp"}}}},
		{id: statetest.ID(3), name: "Other", comps: []comp{
			{"main", "main", []string{"."}, []string{"Other.esp"}}}},
	}
	root := filepath.Join(t.TempDir(), `Mod Folder & "Quotes" #1 @home`)
	p := planOf(t, mods, engine.Request{Add: []string{statetest.ID(3), statetest.ID(2)}, Root: root, Base: true})
	if p.Root != root || len(p.Claims) != 3 || len(p.Base) == 0 {
		t.Fatalf("planned %d claims under %q with %d base game lines; want 3 under %q, and the base game's block\n%s", len(p.Claims), p.Root, len(p.Base), root, p.Text.CFG)
	}
	data, content := layOut(t, p, mods)
	// Core Lib's folders come before those of Addon, which requires it.
	if i, j := slices.Index(content, "Core Lib.esp"), slices.Index(content, "Addon.esp"); len(data) != 5 || len(content) != 4 || i < 0 || j < i {
		t.Fatalf("the plan installs data %q and content %q; want 5 folders and 4 files, Core Lib's before Addon's", data, content)
	}
	base := filepath.Join(t.TempDir(), "Morrowind", "Data Files")
	launcher := openmwtest.BaseGame(t, base)
	wantData, wantContent := append([]string{base}, data...), append(slices.Clone(baseContent), content...)
	for _, c := range []struct {
		name, cfg string
		check     func(openmwtest.Result) bool
	}{
		{"the launcher's cfg and the plan's lines", launcher + block(p.Text.CFG), func(r openmwtest.Result) bool {
			return r.Loaded && r.Fatal == "" && slices.Equal(r.Data, wantData) && slices.Equal(r.Content, wantContent)
		}},
		{"a cfg without the base game, the base game's folder, its block and the plan's lines",
			"data=\"" + strings.NewReplacer("&", "&&", `"`, `&"`).Replace(base) + "\"\n" + block(p.Text.Base) + block(p.Text.CFG), func(r openmwtest.Result) bool {
				return r.Loaded && r.Fatal == "" && slices.Equal(r.Data, wantData) && slices.Equal(r.Content, wantContent)
			}},
		{"the launcher's cfg with the base game's block too", launcher + block(p.Text.Base) + block(p.Text.CFG), func(r openmwtest.Result) bool {
			return strings.HasPrefix(r.Fatal, "Content file specified more than once: Morrowind.esm") && len(r.Content) == 0
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if r := openmwtest.Run(t, writeCfg(t, c.cfg, "")); !c.check(r) {
				t.Errorf("got data %q, content %q, loaded %v, fatal %q;\nwant data %q, content %q\ncfg:\n%s\nlog:\n%s",
					r.Data, r.Content, r.Loaded, r.Fatal, wantData, wantContent, c.cfg, r.Log)
			}
		})
	}
}

// TestEngineAcceptsThePlansSettingsOnceChosen (issue 33): two mods asking one setting
// different values make the plan ask; with the player's choice made, the plan's settings.cfg
// holds the key once, with the chosen value, and OpenMW 0.47 accepts it.
func TestEngineAcceptsThePlansSettingsOnceChosen(t *testing.T) {
	openmwtest.Binaries(t)
	set := func(v string) []protocol.OpenMWSetting {
		return []protocol.OpenMWSetting{{Category: "Game", Key: "best attack", Value: v}, {Category: "Shadows", Key: "enable shadows", Value: "false"}}
	}
	mods := []mod{
		{id: statetest.ID(4), name: "Fighter", comps: []comp{{"main", "main", []string{"."}, []string{"Fighter.esp"}}}, settings: set("true")},
		{id: statetest.ID(5), name: "Pacifist", comps: []comp{{"main", "main", []string{"."}, []string{"Pacifist.esp"}}}, settings: set("false")},
	}
	req := engine.Request{Add: []string{statetest.ID(4), statetest.ID(5)}, Root: filepath.Join(t.TempDir(), "mods"), Base: true}
	p := planOf(t, mods, req)
	if len(p.Asks) != 1 || p.Asks[0].Kind != "setting" || p.Asks[0].Category != "Game" || p.Asks[0].Setting != "best attack" {
		t.Fatalf("asks %+v; want one, the setting [Game] best attack", p.Asks)
	}
	if strings.Contains(block(p.Text.Settings), "best attack") {
		t.Fatalf("the plan writes a setting the player has not chosen:\n%s", block(p.Text.Settings))
	}
	req.Set = []string{statetest.ID(5) + "[Game]best attack"}
	p = planOf(t, mods, req)
	settings := block(p.Text.Settings)
	if len(p.Asks) != 0 || strings.Count(settings, "best attack") != 1 || !strings.Contains(settings, "best attack = false\n") || strings.Count(settings, "enable shadows") != 1 {
		t.Fatalf("with Pacifist's value chosen: asks %+v, settings.cfg\n%s\nwant no ask, best attack = false once, enable shadows once", p.Asks, settings)
	}
	data, content := layOut(t, p, mods)
	base := filepath.Join(t.TempDir(), "Data Files")
	r := openmwtest.Run(t, writeCfg(t, openmwtest.BaseGame(t, base)+block(p.Text.CFG), settings))
	if !r.Loaded || r.Fatal != "" || !slices.Equal(r.Data, append([]string{base}, data...)) || !slices.Equal(r.Content, append(slices.Clone(baseContent), content...)) {
		t.Errorf("got data %q, content %q, fatal %q; want it loaded\nsettings.cfg:\n%s\nlog:\n%s", r.Data, r.Content, r.Fatal, settings, r.Log)
	}
}
