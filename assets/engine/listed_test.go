package engine

import (
	"slices"
	"testing"
)

// TestListed: of the plan's lines, those naming a content file, groundcover file or archive
// the player's openmw.cfg lists already, names compared as OpenMW compares them; a name
// under a section, in a comment or dropped by replace= is not listed, and data= never counts.
func TestListed(t *testing.T) {
	player := "content=Morrowind.esm\r\ncontent=Lamp.ESP\r\ngroundcover=Grass.esp\r\n# content=Comment.esp\r\nfallback-archive=Old.bsa\r\nreplace=fallback-archive\r\n[Section]\r\ncontent=InSection.esp\r\n"
	lines := []string{`data="/m/Lamp"`, "content=lamp.esp", "content=Other.esp", "groundcover=grass.esp", "content=InSection.esp",
		"content=Comment.esp", "fallback-archive=Old.bsa", "content=Morrowind.esm"}
	got, err := newEngine(t).Listed(player, lines)
	if err != nil || !slices.Equal(got, []int{1, 3, 7}) {
		t.Errorf("Listed = %v, %v; want [1 3 7]", got, err)
	}
}

// TestInstallViewRequires: a planned claim names the planned claims it requires.
func TestInstallViewRequires(t *testing.T) {
	a, b := goodClaim("Lamp"), goodClaim("Wick")
	a.Relationships = []any{map[string]any{"kind": "requires", "project": id(2), "targets": []string{id(2) + "/s"}}}
	p := plan(t, map[string]*tclaim{id(1): a, id(2): b}, "#add="+id(1)+"&root=/m&set="+id(2)+"%5BShaders%5Dclamp%20lighting")
	if len(p.Claims) != 2 || p.Claims[1].Key != id(1)+"/s" || !slices.Equal(p.Claims[1].Requires, []string{id(2) + "/s"}) || len(p.Claims[0].Requires) != 0 {
		t.Errorf("claims %+v", p.Claims)
	}
}
