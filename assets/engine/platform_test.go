package engine

import (
	"slices"
	"strings"
	"testing"
)

// TestPlanPlatform: a tool with a build per platform plans every build the client knows
// when the link names no platform (a variant it does not know is skipped), only the chosen
// platform's with platform=, and a finding, with no build, for a platform it has none for;
// an artifact of every platform stays, and the choice survives the link's round trip.
func TestPlanPlatform(t *testing.T) {
	art := func(id, os, arch, variant string) map[string]any {
		a := map[string]any{"id": id, "format": "binary", "filename": id + ".zip", "size": 10, "sha256": sum,
			"sources": []any{map[string]any{"url": "https://example.org/" + id + ".zip", "kind": "publisher"}}}
		if os == "" {
			a["format"] = "flat"
		} else {
			a["platform"] = map[string]any{"os": os, "arch": arch, "variant": variant}
		}
		return a
	}
	tool := map[string]any{"name": "Tool", "site_name": "Site", "scheme": "numeric", "release": map[string]any{"version": "1.0"},
		"artifacts": []any{art("win", "windows", "x86_64", ""), art("lin", "linux", "x86_64", ""),
			art("pm", "linux", "aarch64", "portmaster"), art("ra", "linux", "aarch64", "retroarch"), art("docs", "", "", "")}}
	data := goodClaim("Data")
	for _, c := range []struct {
		platform string
		want     []string
		finding  bool
	}{
		{"", []string{"win", "lin", "pm", "docs"}, false},
		{"linux-x86_64", []string{"lin", "docs"}, false},
		{"linux-aarch64-portmaster", []string{"pm", "docs"}, false},
		{"linux-aarch64-retroarch", []string{"docs"}, true},
		{"macos-aarch64", []string{"docs"}, true},
	} {
		e := newEngine(t)
		if err := e.AddPart("c", part(t, e, "c", map[string]any{id(1) + "/s": tool, id(2) + "/s": data})); err != nil {
			t.Fatal(err)
		}
		frag := "#add=" + id(1) + "," + id(2)
		if c.platform != "" {
			frag += "&platform=" + c.platform
		}
		r, err := e.ParseFragment(frag)
		if err != nil || r.Platform != c.platform {
			t.Fatalf("%s reads as platform %q (%v)", frag, r.Platform, err)
		}
		p, err := e.Compute(r)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, pc := range p.Claims {
			if pc.Key == id(1)+"/s" {
				for _, a := range pc.Artifacts {
					got = append(got, a.ID)
				}
			} else if len(pc.Artifacts) != 1 {
				t.Errorf("platform %q: the data's artifacts are %v", c.platform, pc.Artifacts)
			}
		}
		sums := 0
		for _, l := range p.Sums {
			if l.Key == id(1)+"/s" {
				sums++
			}
		}
		if !slices.Equal(got, c.want) || sums != len(c.want) {
			t.Errorf("platform %q plans %v with %d SHA256SUMS lines, want %v", c.platform, got, sums, c.want)
		}
		found := slices.ContainsFunc(p.Findings, func(f Finding) bool { return f.Kind == "platform" && f.Key == id(1)+"/s" })
		if found != c.finding || slices.ContainsFunc(p.Findings, func(f Finding) bool { return f.Kind == "platform" && f.Key != id(1)+"/s" }) {
			t.Errorf("platform %q: findings %v", c.platform, p.Findings)
		}
		back, err := e.Fragment(r)
		if err != nil || c.platform != "" && !strings.Contains(back, "&platform="+c.platform) {
			t.Errorf("platform %q writes the link %q (%v)", c.platform, back, err)
		}
	}
}
