package diff_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestLines(t *testing.T) {
	cases := []struct {
		c    diff.Change
		want []string
	}{
		{diff.Change{Change: "channel-head", Channel: "stable", Before: raw(`"1.1.0"`), After: raw(`"1.2.0"`), Changes: []diff.Change{
			{Change: "runtime", Field: "openmw", Before: raw(`">=0.49"`), After: raw(`">=0.50"`)},
			{Change: "relationship-added", Kind: "requires", Target: raw(`{"project":"9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14","name":"Tallow"}`),
				After: raw(`{"kind":"requires","project":"9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14","name":"Tallow","version":">=1.0"}`)},
			{Change: "relationship-removed", Kind: "recommends", Target: raw(`{"capability":"dreamweave:dynamic-lights"}`),
				Before: raw(`{"kind":"recommends","capability":"dreamweave:dynamic-lights"}`)},
			{Change: "lua-api", Before: raw(`null`), After: raw(`">=60"`)},
		}}, []string{
			"stable 1.1.0 -> 1.2.0",
			"  OpenMW runtime >=0.49 -> >=0.50",
			"  + requires Tallow >=1.0",
			"  - recommends capability dreamweave:dynamic-lights",
			"  OpenMW Lua API (none) -> >=60",
		}},
		{diff.Change{Change: "project-field", Field: "license", Before: raw(`"GPL-3.0-only"`), After: raw(`"MIT OR Apache-2.0"`)},
			[]string{"license GPL-3.0-only -> MIT OR Apache-2.0"}},
		{diff.Change{Change: "project-field", Field: "tags", Before: raw(`["Lua"]`), After: raw(`[]`)},
			[]string{"tags Lua -> (none)"}},
		{diff.Change{Change: "project-field", Field: "versioning", Before: raw(`"numeric"`), After: raw(`"decimal"`), Unusual: true},
			[]string{"unusual: versioning numeric -> decimal"}},
		{diff.Change{Change: "release-added", Version: "2.0.0", Channel: "stable", Date: "2026-10-01", Status: "yanked",
			Notes: raw(`{"summary":"s","breaking":["A is gone.","B renamed\nto C."],"migration":"Do X.","known_issues":["Y is slow."]}`)},
			[]string{"+ release 2.0.0 (stable, 2026-10-01, yanked)", "  breaking: A is gone.", "  breaking: B renamed", "    to C.",
				"  migration: Do X.", "  known issue: Y is slow."}},
		{diff.Change{Change: "release-added", Version: "0.4.1-dev.0", Channel: "development", Status: "available", Notes: raw(`null`)},
			[]string{"+ release 0.4.1-dev.0 (development)"}},
		{diff.Change{Change: "release-removed", Version: "1.0.0", Channel: "stable", Unusual: true},
			[]string{"unusual: - release 1.0.0 (stable)"}},
		{diff.Change{Change: "release-yanked", Version: "3.0.1", Channel: "stable", Before: raw(`"available"`), After: raw(`"yanked"`),
			Notice: raw(`{"reason":"Broken.","replacement":"3.0.2"}`)},
			[]string{"release 3.0.1 (stable) available -> yanked: Broken. (replacement 3.0.2)"}},
		{diff.Change{Change: "release-date", Version: "0.2-dev.4", Before: raw(`"2026-09-29"`), After: raw(`"2026-09-30"`)},
			[]string{"release 0.2-dev.4 date 2026-09-29 -> 2026-09-30"}},
		{diff.Change{Change: "release-notes", Version: "1.0.0", Channel: "stable", Before: raw(`{"summary":"a"}`), After: raw(`{"summary":"b","breaking":["x"]}`)},
			[]string{"release 1.0.0 (stable) notes edited (summary, breaking)"}},
		{diff.Change{Change: "release-amended", Version: "1.0.0", Channel: "stable", Unusual: true, Changes: []diff.Change{
			{Change: "artifact-digest", Artifact: "flat", Before: raw(`"aa"`), After: raw(`"bb"`), Unusual: true},
			{Change: "artifact-size", Artifact: "flat", Before: raw(`1`), After: raw(`2`)},
			{Change: "artifact-platform", Artifact: "pm", Before: raw(`{"os":"linux","arch":"aarch64","variant":"portmaster"}`), After: raw(`null`)},
			{Change: "artifact-sources", Artifact: "flat", Before: raw(`[{"url":"https://a/x.zip","kind":"publisher"}]`), After: raw(`[]`)},
			{Change: "source-revision", Field: "revision", Before: raw(`"abc"`), After: raw(`"def"`)},
			{Change: "requires-content", Component: "tr", Before: raw(`["TR_Mainland.esm"]`), After: raw(`["TR_Mainland.esm","TR_Preview.esm"]`)},
			{Change: "relationship-constraint", Kind: "requires", Target: raw(`{"project":"f82752ac-e7f6-43c0-8c2f-d91b7f6b3dda","name":"dream-net"}`), Before: raw(`"=1.0.0"`), After: raw(`"=1.1.0"`)},
			{Change: "relationship-kind", Kind: "requires", Target: raw(`{}`), Before: raw(`"recommends"`), After: raw(`"requires"`)},
			{Change: "component-field", Component: "core", Field: "default", Before: raw(`false`), After: raw(`true`)},
			{Change: "group-added", Group: "flames", After: raw(`{"id":"flames","name":"F","select":"exactly-one"}`)},
			{Change: "extension-field", Field: "/openmw/settings", Before: raw(`[{"key":"k"}]`), After: raw(`null`)},
			{Change: "artifact-added", Artifact: "bain", After: raw(`{"id":"bain","format":"bain","size":1000}`)},
			{Change: "platform-added", After: raw(`{"os":"linux","arch":"aarch64"}`)},
			{Change: "provides-removed", Capability: "dreamweave:x"},
		}}, []string{
			"unusual: release 1.0.0 (stable) amended",
			"  unusual: artifact flat sha256 aa -> bb",
			"  artifact flat size 1 -> 2 bytes",
			"  artifact pm platform linux aarch64 portmaster -> (none)",
			"  artifact flat sources https://a/x.zip -> (none)",
			"  source revision abc -> def",
			"  component tr requires content TR_Mainland.esm -> TR_Mainland.esm, TR_Preview.esm",
			"  requires dream-net =1.0.0 -> =1.1.0",
			"  (nothing named) recommends -> requires",
			"  component core default false -> true",
			"  + group flames (exactly-one)",
			`  extension /openmw/settings {"key":"k"} -> (none)`,
			"  + artifact bain (bain, 1000 bytes)",
			"  + platform linux aarch64",
			"  - provides dreamweave:x",
		}},
		{diff.Change{Change: "channel-added", Channel: "beta", Version: "2.0-beta.1"}, []string{"+ channel beta 2.0-beta.1"}},
		{diff.Change{Change: "from-a-newer-crawler", Version: "1.0", Before: raw(`1`), After: raw(`2`)}, []string{"from-a-newer-crawler 1.0 1 -> 2"}},
	}
	for _, c := range cases {
		if got := diff.Lines([]diff.Change{c.c}); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.c.Change, strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
		}
	}
}
