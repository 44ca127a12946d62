package install

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/openmwtest"
)

// TestInstalledTreeLoadsInOpenMW installs a plan beside a launcher-style openmw.cfg (the
// stand-in base game's lines) and runs Debian's OpenMW 0.47 on it: every data folder the plan
// writes is added, in order, after the base game's, and every content file is loaded in the
// planned order after the base game's, with no error. Content files are minimal TES3 plugins
// naming their masters, so a wrong order stops the engine.
func TestInstalledTreeLoadsInOpenMW(t *testing.T) {
	openmwtest.Binaries(t)
	lib := installtest.Project{ID: installtest.ID(11), Name: "Tallow Lib", Version: "1.0", Components: []installtest.Component{
		{ID: "main", Path: ".", Files: map[string]string{"Tallow.esm": string(openmwtest.Plugin("Tallow.esm", "Morrowind.esm"))}, Content: []string{"Tallow.esm"}}}}
	mod := installtest.Project{ID: installtest.ID(12), Name: "Candle & Wick", Version: "2.0", Requires: []string{lib.ID}, Components: []installtest.Component{
		{ID: "core", Path: "00 Core", Files: map[string]string{"Candle.esp": string(openmwtest.Plugin("Candle.esp", "Morrowind.esm", "Tallow.esm"))}, Content: []string{"Candle.esp"}},
		{ID: "meshes", Path: "01 Meshes", Files: map[string]string{"Meshes/c.nif": "nif"}},
		{ID: "extra", Path: "02 Extra", Files: map[string]string{"Wick.esp": string(openmwtest.Plugin("Wick.esp", "Candle.esp"))}, Content: []string{"Wick.esp"}}}}
	n := installtest.New(t)
	n.Publish(lib, mod)
	p := newPlayer(t)
	base := filepath.Join(p.root, "Morrowind", "Data Files")
	writeFile(t, p.cfg, openmwtest.BaseGame(t, base))
	install(t, p, n.Link("add="+mod.ID))
	r := openmwtest.Run(t, filepath.Dir(p.cfg))
	wantData := []string{base, filepath.Join(p.mods, "Tallow-Lib-00000000"), filepath.Join(p.mods, "Candle-Wick-00000000", "00 Core"),
		filepath.Join(p.mods, "Candle-Wick-00000000", "01 Meshes"), filepath.Join(p.mods, "Candle-Wick-00000000", "02 Extra")}
	wantContent := []string{"Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm", "Tallow.esm", "Candle.esp", "Wick.esp"}
	if !r.Loaded || r.Fatal != "" || !slices.Equal(r.Content, wantContent) || !slices.Equal(trimSlash(r.Data), wantData) {
		t.Errorf("OpenMW: loaded %v, fatal %q\ndata %q\nwant %q\ncontent %q\nwant %q\n%s", r.Loaded, r.Fatal, r.Data, wantData, r.Content, wantContent, r.Log)
	}
	// A player whose openmw.cfg lists the library's content file already (in another case):
	// the plan's line is left out, and OpenMW loads it once, where the player has it.
	q := newPlayer(t)
	writeFile(t, q.cfg, openmwtest.BaseGame(t, base)+"content=tallow.ESM\n")
	install(t, q, n.Link("add="+mod.ID))
	if r := openmwtest.Run(t, filepath.Dir(q.cfg)); !r.Loaded || r.Fatal != "" || !slices.Equal(r.Content, wantContent) {
		t.Errorf("OpenMW, the library listed by the player: loaded %v, fatal %q, content %q\n%s", r.Loaded, r.Fatal, r.Content, r.Log)
	}
}

func trimSlash(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = strings.TrimSuffix(d, "/")
	}
	return out
}
