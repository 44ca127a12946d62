package protocol

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateHostile = flag.Bool("update", false, "rewrite testdata/cfg-hostile-manifest.json from testdata/cfg-hostile.json")

// hostileValue is one entry of testdata/cfg-hostile.json: a value no line of a player's files
// holds safely, the field it is put in, and why it is refused. The plan page's line writer is
// tested against the same file.
type hostileValue struct {
	Field, Value, Why string
}

func hostileValues(t *testing.T) []hostileValue {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cfg-hostile.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []hostileValue
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// emberglow is the example network's Emberglow manifest, decoded for editing: its release 0
// (a development release) has an openmw extension with one component, "core".
func emberglow(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../../crawl/example/www/lanterns.example/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json")
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// placeHostile puts v into release 0 of m as field, n telling it apart from earlier values of
// the same field, and returns the pointer of the value.
func placeHostile(t *testing.T, m map[string]any, field, v string, n int) string {
	t.Helper()
	rel := obj(m, "/releases/0")
	o := obj(m, "/releases/0/extensions/openmw")
	core := obj(m, "/releases/0/extensions/openmw/components/core")
	push := func(into map[string]any, key, at string) string {
		list, _ := into[key].([]any)
		into[key] = append(list, v)
		return fmt.Sprintf("%s/%s/%d", at, key, len(list))
	}
	clone := func(key, id string) map[string]any {
		list := rel[key].([]any)
		var c map[string]any
		b, _ := json.Marshal(list[0])
		json.Unmarshal(b, &c)
		c["id"] = fmt.Sprintf("%s-%d", id, n)
		rel[key] = append(list, c)
		return c
	}
	const op, cp = "/releases/0/extensions/openmw", "/releases/0/extensions/openmw/components/core"
	switch field {
	case "component.path":
		c := clone("components", "h")
		c["required"], c["default"], c["path"] = false, false, v
		return fmt.Sprintf("/releases/0/components/%d/path", len(rel["components"].([]any))-1)
	case "artifact.filename":
		clone("artifacts", "h")["filename"] = v
		return fmt.Sprintf("/releases/0/artifacts/%d/filename", len(rel["artifacts"].([]any))-1)
	case "openmw.requires_content":
		return push(o, "requires_content", op)
	case "openmw.settings.category", "openmw.settings.key", "openmw.settings.value":
		s := map[string]any{"category": "Shaders", "key": fmt.Sprintf("key %d", n), "value": "true"}
		name := strings.TrimPrefix(field, "openmw.settings.")
		s[name] = v
		list, _ := o["settings"].([]any)
		o["settings"] = append(list, s)
		return fmt.Sprintf("%s/settings/%d/%s", op, len(list), name)
	case "openmw.component.fallback_entries.key":
		core["fallback_entries"].(map[string]any)[v] = "1"
		return cp + Pointer("fallback_entries", v)
	case "openmw.component.fallback_entries.value":
		k := fmt.Sprintf("Key_%d", n)
		core["fallback_entries"].(map[string]any)[k] = v
		return cp + Pointer("fallback_entries", k)
	}
	if key, ok := strings.CutPrefix(field, "openmw.component."); ok {
		if _, ok := core[key]; ok {
			return push(core, key, cp)
		}
	}
	t.Fatalf("cfg-hostile.json: unknown field %q", field)
	return ""
}

// TestConfigLineRefusesEveryHostileValue: each value of testdata/cfg-hostile.json, put alone
// into a valid manifest, is refused with a finding at its pointer (config-line, or the
// schema's pattern where the schema already refuses it), naming the project.
func TestConfigLineRefusesEveryHostileValue(t *testing.T) {
	base, _ := json.Marshal(emberglow(t))
	if _, fs := Decode(base); len(fs) != 0 {
		t.Fatalf("the base manifest is not valid: %v", fs)
	}
	vs := hostileValues(t)
	if len(vs) < 200 {
		t.Fatalf("cfg-hostile.json holds %d values", len(vs))
	}
	for i, v := range vs {
		m := emberglow(t)
		ptr := placeHostile(t, m, v.Field, v.Value, i)
		b, _ := json.Marshal(m)
		_, fs := Decode(b)
		var at []Finding
		for _, f := range fs {
			if f.Pointer == ptr {
				at = append(at, f)
			} else {
				t.Errorf("%s %q: a finding elsewhere: %s", v.Field, v.Value, f)
			}
		}
		if len(at) == 0 {
			t.Errorf("%s %q (%s) is not refused at %s", v.Field, v.Value, v.Why, ptr)
		}
		for _, f := range at {
			if f.Rule == RuleConfigLine && !strings.Contains(f.Message, `project "6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c"`) {
				t.Errorf("%s: the finding does not name the project: %s", v.Field, f)
			}
		}
	}
}

// TestConfigLineKeepsSafeValues: values every line holds as they are (spaces, dots inside a
// name, subfolders, punctuation) give no finding.
func TestConfigLineKeepsSafeValues(t *testing.T) {
	for _, c := range []struct {
		field, value string
	}{
		{"component.path", "10 Tamriel Rebuilt/Textures"}, {"openmw.component.data_directories", "."},
		{"openmw.component.data_directories", "00 Core/sub dir"}, {"openmw.component.content_files", "Candlelight - TR.omwscripts"},
		{"openmw.component.content_files", "a..b.esp"}, {"openmw.component.fallback_archives", "Textures.bsa"},
		{"openmw.settings.value", "a = b, #c [d]"}, {"openmw.settings.key", "force per pixel lighting"},
		{"openmw.component.fallback_entries.value", "1,2,3"}, {"artifact.filename", "mod-1.0 (final).zip"},
	} {
		m := emberglow(t)
		placeHostile(t, m, c.field, c.value, 0)
		b, _ := json.Marshal(m)
		if _, fs := Decode(b); len(fs) != 0 {
			t.Errorf("%s %q: %v", c.field, c.value, fs)
		}
	}
}

// TestHostileManifestFile: testdata/cfg-hostile-manifest.json is Emberglow with every value of
// cfg-hostile.json at once (for the refresh and validate tests), and it gets a finding at
// every one of them. go test -update rewrites it.
func TestHostileManifestFile(t *testing.T) {
	m := emberglow(t)
	var want []string
	for i, v := range hostileValues(t) {
		want = append(want, placeHostile(t, m, v.Field, v.Value, i))
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "cfg-hostile-manifest.json")
	if *updateHostile {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("%s is not built from cfg-hostile.json (%v): go test -run TestHostileManifestFile -update ./catalog/protocol", path, err)
	}
	_, fs := Decode(b)
	at := map[string]bool{}
	for _, f := range fs {
		at[f.Pointer] = true
	}
	for _, p := range want {
		if !at[p] {
			t.Errorf("no finding at %s", p)
		}
	}
}

// TestDatesAndVersionsNameTheirForm: a date or a version that fails says which form it takes,
// in the message and in the words, the value quoted apart.
func TestDatesAndVersionsNameTheirForm(t *testing.T) {
	m := emberglow(t)
	obj(m, "/releases/0")["date"] = "30/09/2026"
	obj(m, "/releases/3")["version"] = "2.0.01" // yanked: no channel head moves
	b, _ := json.Marshal(m)
	_, fs := Decode(b)
	want := map[string]string{
		"/releases/0/date":    `"30/09/2026" is not in the form this field takes: a date is written YYYY-MM-DD, such as 2026-09-30`,
		"/releases/3/version": `under numeric versioning a version is one to six release numbers without leading zeros`,
	}
	for _, f := range fs {
		w, ok := want[f.Pointer]
		if !ok {
			t.Errorf("unexpected finding %s", f)
			continue
		}
		delete(want, f.Pointer)
		if !strings.Contains(f.Message, w) {
			t.Errorf("%s: %q does not say %q", f.Pointer, f.Message, w)
		}
		if len(f.Quotes) == 0 || strings.Contains(f.Words, f.Quotes[len(f.Quotes)-1]) || !strings.Contains(f.Words, "such as") {
			t.Errorf("%s: words %q quotes %q", f.Pointer, f.Words, f.Quotes)
		}
	}
	for p := range want {
		t.Errorf("no finding at %s", p)
	}
}
