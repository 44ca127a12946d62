package diff_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func sp(s string) *string { return &s }

func TestLines(t *testing.T) {
	cases := []struct {
		c    diff.Change
		want []string
	}{
		{diff.Change{Change: "channel-head", Channel: "stable", Before: raw(`"1.1.0"`), After: raw(`"1.2.0"`), Changes: []diff.Change{
			{Change: "runtime", Runtime: "openmw", Before: raw(`">=0.49"`), After: raw(`">=0.50"`)},
			{Change: "relationship-added", Kind: "requires", Target: &diff.Target{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Name: "Tallow"}, Constraint: sp(">=1.0")},
			{Change: "relationship-removed", Kind: "recommends", Target: &diff.Target{Capability: "dreamweave:dynamic-lights", Name: "dreamweave:dynamic-lights"}},
			{Change: "lua-api", Before: raw(`null`), After: raw(`">=60"`)},
		}}, []string{
			"stable 1.1.0 -> 1.2.0",
			"  OpenMW runtime >=0.49 -> >=0.50",
			"  + requires Tallow >=1.0",
			"  - recommends capability dreamweave:dynamic-lights",
			"  OpenMW Lua API (none) -> >=60",
		}},
		{diff.Change{Change: "channel-head", Channel: "beta", Before: raw(`null`), After: raw(`"2.0-beta.1"`)}, []string{"+ channel beta 2.0-beta.1"}},
		{diff.Change{Change: "channel-head", Channel: "beta", Before: raw(`"2.0-beta.1"`), After: raw(`null`)}, []string{"- channel beta (head was 2.0-beta.1)"}},
		{diff.Change{Change: "project-field", Field: "license", Before: raw(`"GPL-3.0-only"`), After: raw(`"MIT OR Apache-2.0"`)},
			[]string{"license GPL-3.0-only -> MIT OR Apache-2.0"}},
		{diff.Change{Change: "project-field", Field: "summary", Before: raw(`""`), After: raw(`"Lights"`)},
			[]string{"summary (empty) -> Lights"}},
		{diff.Change{Change: "project-field", Field: "versioning", Before: raw(`"numeric"`), After: raw(`"decimal"`)},
			[]string{"unusual: versioning numeric -> decimal"}},
		{diff.Change{Change: "tags", Added: []string{"Time"}, Removed: []string{"Lua", "Old"}}, []string{"tags: + Time, - Lua, - Old"}},
		{diff.Change{Change: "maintainers", Added: []string{"Ana"}, Removed: []string{}}, []string{"maintainers: + Ana"}},
		{diff.Change{Change: "credits", Added: []string{}, Removed: []string{"Bo (art)"}}, []string{"credits: - Bo (art)"}},
		{diff.Change{Change: "media", Added: []string{"https://x/a.png"}, Removed: []string{}}, []string{"media: + https://x/a.png"}},
		{diff.Change{Change: "link", Link: "documentation", Before: raw(`"https://x/docs"`), After: raw(`null`)}, []string{"link documentation https://x/docs -> (none)"}},
		{diff.Change{Change: "nexus-mods", Before: raw(`"morrowind/1"`), After: raw(`"morrowind/2"`)}, []string{"Nexus Mods morrowind/1 -> morrowind/2"}},
		{diff.Change{Change: "release-added", Version: "2.0.0", Channel: "stable", Date: sp("2026-10-01"), Status: "yanked",
			Notes: raw(`{"summary":"s","breaking":["A is gone.","B renamed\nto C."],"migration":"Do X.","known_issues":["Y is slow."]}`)},
			[]string{"+ release 2.0.0 (stable, 2026-10-01, yanked)", "  breaking: A is gone.", "  breaking: B renamed", "    to C.",
				"  migration: Do X.", "  known issue: Y is slow."}},
		{diff.Change{Change: "release-added", Version: "0.4.1-dev.0", Channel: "development", Status: "available", Notes: raw(`null`)},
			[]string{"+ release 0.4.1-dev.0 (development)"}},
		{diff.Change{Change: "release-removed", Version: "1.0.0", Channel: "stable"},
			[]string{"unusual: - release 1.0.0 (stable)"}},
		{diff.Change{Change: "release-status", Version: "3.0.1", Channel: "stable", Before: raw(`"available"`), After: raw(`"yanked"`),
			Reason: sp("Broken."), Replacement: sp("3.0.2")},
			[]string{"release 3.0.1 (stable) available -> yanked: Broken. (replacement 3.0.2)"}},
		{diff.Change{Change: "release-status", Version: "1.0.0", Channel: "stable", Before: raw(`"yanked"`), After: raw(`"available"`)},
			[]string{"release 1.0.0 (stable) yanked -> available"}},
		{diff.Change{Change: "release-status", Version: "1.0.0", Channel: "stable", Before: raw(`"yanked"`), After: raw(`"yanked"`), Reason: sp("Worse.")},
			[]string{"release 1.0.0 (stable) yanked notice: Worse."}},
		{diff.Change{Change: "release-channel", Version: "0.4.58", Before: raw(`"stable"`), After: raw(`"beta"`)},
			[]string{"release 0.4.58 channel stable -> beta"}},
		{diff.Change{Change: "release-date", Version: "0.2-dev.4", Before: raw(`"2026-09-29"`), After: raw(`"2026-09-30"`)},
			[]string{"release 0.2-dev.4 date 2026-09-29 -> 2026-09-30"}},
		{diff.Change{Change: "release-notes", Version: "1.0.0"}, []string{"release 1.0.0 notes edited"}},
		{diff.Change{Change: "release-amended", Version: "1.0.0", Channel: "stable", Changes: []diff.Change{
			{Change: "artifact-digest", Artifact: "flat", Before: raw(`"aa"`), After: raw(`"bb"`)},
			{Change: "artifact-size", Artifact: "flat", Before: raw(`1`), After: raw(`2`)},
			{Change: "artifact-file", Artifact: "pm", Details: []string{"platform: linux/aarch64+portmaster → none", "file name: a.zip → b.zip"}},
			{Change: "artifact-source-removed", Artifact: "flat", URL: "https://a/x.zip", Kind: "publisher"},
			{Change: "artifact-source-added", Artifact: "flat", URL: "https://m/x.zip", Kind: "mirror"},
			{Change: "signature-added", Artifact: "flat", Format: "sigstore-bundle", URL: "https://a/x.sig"},
			{Change: "signature-removed", Artifact: "flat", Format: "sigstore-bundle", URL: "https://a/y.sig"},
			{Change: "source-revision", Field: "revision", Before: raw(`"abc"`), After: raw(`"def"`)},
			{Change: "required-content", Added: []string{"TR_Preview.esm"}, Removed: []string{}},
			{Change: "relationship-constraint", Kind: "requires", Target: &diff.Target{Project: "f82752ac-e7f6-43c0-8c2f-d91b7f6b3dda", Name: "dream-net"}, Before: raw(`"=1.0.0"`), After: raw(`"=1.1.0"`)},
			{Change: "relationship-kind", Target: &diff.Target{}, Before: raw(`"recommends"`), After: raw(`"requires"`)},
			{Change: "component-selection", Component: "core", Details: []string{"default: false → true", "rules between components changed"}},
			{Change: "component-added", Component: "flames-8k", Name: "Flames, 8K"},
			{Change: "component-removed", Component: "old", Name: "Old"},
			{Change: "group-selection", Group: "flames", Before: raw(`null`), After: raw(`"exactly-one"`)},
			{Change: "extension-changed", Namespace: "openmw"},
			{Change: "extension-added", Namespace: "org.tes3mp"},
			{Change: "extension-removed", Namespace: "org.x"},
			{Change: "artifact-added", Artifact: "bain", Filename: "b.zip", Size: 1000, SHA256: "ab"},
			{Change: "artifact-removed", Artifact: "fomod", Filename: "f.zip"},
			{Change: "platforms", Added: []string{"linux/aarch64"}, Removed: []string{}},
			{Change: "capability-removed", Capability: "dreamweave:x"},
			{Change: "capability-added", Capability: "dreamweave:y"},
			{Change: "critical-extensions", Added: []string{}, Removed: []string{"openmw"}},
		}}, []string{
			"unusual: release 1.0.0 (stable) amended",
			"  unusual: artifact flat sha256 aa -> bb",
			"  artifact flat size 1 -> 2 bytes",
			"  artifact pm: platform: linux/aarch64+portmaster → none; file name: a.zip → b.zip",
			"  - artifact flat source https://a/x.zip (publisher)",
			"  + artifact flat source https://m/x.zip (mirror)",
			"  + artifact flat signature https://a/x.sig (sigstore-bundle)",
			"  - artifact flat signature https://a/y.sig (sigstore-bundle)",
			"  source revision abc -> def",
			"  required content: + TR_Preview.esm",
			"  requires dream-net =1.0.0 -> =1.1.0",
			"  (nothing named) recommends -> requires",
			"  component core: default: false → true; rules between components changed",
			"  + component flames-8k (Flames, 8K)",
			"  - component old (Old)",
			"  group flames selection (none) -> exactly-one",
			"  extension openmw changed",
			"  + extension org.tes3mp",
			"  - extension org.x",
			"  + artifact bain (b.zip, 1000 bytes)",
			"  - artifact fomod (f.zip)",
			"  platforms: + linux/aarch64",
			"  - provides dreamweave:x",
			"  + provides dreamweave:y",
			"  critical extensions: - openmw",
		}},
		{diff.Change{Change: "release-amended", Version: "1.0.1-dev.0", Channel: "development", Changes: []diff.Change{
			{Change: "artifact-digest", Artifact: "flat", Before: raw(`"aa"`), After: raw(`"bb"`)}}},
			[]string{"release 1.0.1-dev.0 (development) amended", "  artifact flat sha256 aa -> bb"}},
		{diff.Change{Change: "from-a-newer-crawler", Version: "1.0", Before: raw(`1`), After: raw(`2`)}, []string{"from-a-newer-crawler 1.0 1 -> 2"}},
	}
	for _, c := range cases {
		if got := diff.Lines([]diff.Change{c.c}); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.c.Change, strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
		}
	}
}

// TestLinesUnusualFirst: the unusual facts of an event come first, in their recorded order,
// each marked; a development build replaced by the next is not unusual, one vanishing with
// nothing in its place is.
func TestLinesUnusualFirst(t *testing.T) {
	cs := []diff.Change{
		{Change: "channel-head", Channel: "stable", Before: raw(`"1.0.0"`), After: raw(`"1.1.0"`), Changes: []diff.Change{}},
		{Change: "release-added", Version: "1.1.0", Channel: "stable", Status: "available", Notes: raw(`null`)},
		{Change: "release-removed", Version: "0.9.0", Channel: "stable"},
		{Change: "project-field", Field: "versioning", Before: raw(`"numeric"`), After: raw(`"decimal"`)},
		{Change: "release-removed", Version: "1.0.1-dev.0", Channel: "development"},
	}
	want := []string{
		"unusual: - release 0.9.0 (stable)",
		"unusual: versioning numeric -> decimal",
		"unusual: - release 1.0.1-dev.0 (development)",
		"stable 1.0.0 -> 1.1.0",
		"+ release 1.1.0 (stable)",
	}
	if got := diff.Lines(cs); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	cs = append(cs, diff.Change{Change: "release-added", Version: "1.1.1-dev.0", Channel: "development", Status: "available", Notes: raw(`null`)})
	if got := diff.Lines(cs); got[2] != "stable 1.0.0 -> 1.1.0" || !strings.Contains(strings.Join(got, "\n"), "\n- release 1.0.1-dev.0 (development)") {
		t.Errorf("a development build replaced by the next is routine: %q", got)
	}
}
