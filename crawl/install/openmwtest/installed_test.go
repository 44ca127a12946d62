package openmwtest_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/openmwtest"
)

// TestEngineLoadsAnInstalledTree (issues 32 and 33): `ashyams install` (crawl/install) of a
// plan of three mods, from zips served on loopback whose content files are minimal TES3
// plugins, into a mods folder whose name has spaces, quotes, & and #, for a player whose
// openmw.cfg lists the base game and a mod of their own and whose settings.cfg has a [Game]
// section of their own, two mods asking one setting different values and the player
// choosing. OpenMW 0.47 then adds every data folder and loads every content file in the
// planned order, after the player's lines, and accepts settings.cfg (the chosen value once,
// in a second [Game] section).
func TestEngineLoadsAnInstalledTree(t *testing.T) {
	openmwtest.Binaries(t)
	plugin := func(name string) string { return string(openmwtest.Plugin(name, "Morrowind.esm")) }
	setting := func(v string) []protocol.OpenMWSetting {
		return []protocol.OpenMWSetting{{Category: "Game", Key: "best attack", Value: v}}
	}
	alpha := installtest.Project{ID: installtest.ID(1), Name: "Alpha Lib", Version: "1.0", Components: []installtest.Component{
		{ID: "main", Path: ".", Files: map[string]string{"Alpha Lib.esp": plugin("Alpha Lib.esp")}, Content: []string{"Alpha Lib.esp"}}}}
	beta := installtest.Project{ID: installtest.ID(2), Name: "Beta Mod", Version: "1.0", Requires: []string{alpha.ID}, Settings: setting("false"),
		Components: []installtest.Component{
			{ID: "core", Path: "00 Core", Data: []string{".", "Extras #1"}, Content: []string{"Beta.esp", "Beta Extras.esp"},
				Files: map[string]string{"Beta.esp": plugin("Beta.esp"), "Extras #1/Beta Extras.esp": plugin("Beta Extras.esp"), "Textures/b.dds": "b"}},
			{ID: "extra", Path: "01 Extra", Optional: true, Files: map[string]string{"BetaExtra.esp": plugin("BetaExtra.esp")}, Content: []string{"BetaExtra.esp"}}}}
	gamma := installtest.Project{ID: installtest.ID(3), Name: "Gamma", Version: "2.0", Settings: setting("true"), Components: []installtest.Component{
		{ID: "main", Path: ".", Files: map[string]string{"Gamma.esp": plugin("Gamma.esp")}, Content: []string{"Gamma.esp"}}}}
	n := installtest.New(t)
	n.Publish(alpha, beta, gamma)

	home := t.TempDir()
	base, mine := filepath.Join(home, "Morrowind", "Data Files"), filepath.Join(home, "Mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "Mine.esp"), openmwtest.Plugin("Mine.esp", "Morrowind.esm"), 0o644); err != nil {
		t.Fatal(err)
	}
	players := openmwtest.BaseGame(t, base) + "data=" + mine + "\ncontent=Mine.esp\n"
	cfgDir := writeCfg(t, players, "[Video]\nresolution x = 800\n[Game]\nsmooth movement = true\n")
	mods := filepath.Join(home, `Mod Folder & "Quotes" #1 @home`)
	o := install.Options{Mods: mods, OpenMWCfg: filepath.Join(cfgDir, "openmw.cfg"), SettingsCfg: filepath.Join(cfgDir, "settings.cfg"),
		Cache: filepath.Join(home, "cache"), AllowLoopback: true, Set: []string{beta.ID + "[Game]best attack"}}
	c, err := install.Install(context.Background(), n.Link("add="+gamma.ID+","+beta.ID), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg, _ := os.ReadFile(o.OpenMWCfg)
	settings, _ := os.ReadFile(o.SettingsCfg)
	if !strings.HasPrefix(string(cfg), players) || strings.Count(string(settings), "best attack") != 1 || !strings.Contains(string(settings), "\nbest attack = false\n") {
		t.Fatalf("the install did not keep the player's lines first, or did not write the chosen setting once:\n%s\n%s", cfg, settings)
	}

	r := openmwtest.Run(t, cfgDir)
	want := []string{base, mine, filepath.Join(mods, "Gamma-00000000"), filepath.Join(mods, "Alpha-Lib-00000000"),
		filepath.Join(mods, "Beta-Mod-00000000", "00 Core"), filepath.Join(mods, "Beta-Mod-00000000", "00 Core", "Extras #1")}
	wantContent := append(slices.Clone(baseContent), "Mine.esp", "Gamma.esp", "Alpha Lib.esp", "Beta.esp", "Beta Extras.esp")
	if !r.Loaded || r.Fatal != "" || !slices.Equal(r.Data, want) || !slices.Equal(r.Content, wantContent) {
		t.Errorf("got data %q, content %q, fatal %q;\nwant data %q, content %q\nopenmw.cfg:\n%s\nsettings.cfg:\n%s\nlog:\n%s",
			r.Data, r.Content, r.Fatal, want, wantContent, cfg, settings, r.Log)
	}
}
