package openmwtest

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cfgDir writes openmw.cfg (and settings.cfg, when not empty) into a new directory.
func cfgDir(t testing.TB, cfg, settings string) string {
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

// writeFile writes b at path, making its folder.
func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

var baseContent = []string{"Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm"}

// TestEngineReadsCfgAsSpecSays pins SPEC section 8's facts on how OpenMW 0.47 reads
// openmw.cfg and settings.cfg against the real engine, and shows that Run reports the data
// folders, archives and content files it loaded, in order, and the error that stopped it.
func TestEngineReadsCfgAsSpecSays(t *testing.T) {
	Binaries(t)
	root := t.TempDir()
	base := filepath.Join(root, "Morrowind", "Data Files")
	launcher := BaseGame(t, base) // the lines a launcher wrote: the player's base game
	d1, d2, odd := filepath.Join(root, "d1"), filepath.Join(root, "d2"), filepath.Join(root, `Q & "q" #1`)
	writeFile(t, filepath.Join(d1, "A.esp"), Plugin("A.esp", "Morrowind.esm"))
	writeFile(t, filepath.Join(d1, "C.esp"), Plugin("C.esp", "Morrowind.esm", "A.esp"))
	writeFile(t, filepath.Join(d1, "sub", "S.esp"), Plugin("S.esp", "Morrowind.esm"))
	writeFile(t, filepath.Join(d2, "B.esp"), Plugin("B.esp", "Morrowind.esm"))
	writeFile(t, filepath.Join(root, "00 Core", "P.esp"), Plugin("P.esp", "Morrowind.esm"))
	writeFile(t, filepath.Join(odd, "Q.esp"), Plugin("Q.esp", "Morrowind.esm"))
	writeFile(t, filepath.Join(d2, "x.omwscripts"), []byte("PLAYER: scripts/x.lua\n"))
	writeFile(t, filepath.Join(root, "cfg", "openmw.cfg"), []byte("data="+d2+"\ncontent=B.esp\n")) // for config=
	if err := os.Mkdir(filepath.Join(root, "00"), 0o755); err != nil {
		t.Fatal(err)
	}
	archives := []string{filepath.Join(base, "Morrowind.bsa"), filepath.Join(base, "Tribunal.bsa"), filepath.Join(base, "Bloodmoon.bsa")}
	loaded := func(data []string, content ...string) func(*testing.T, Result) {
		return func(t *testing.T, r Result) {
			want := Result{Archives: archives, Data: append([]string{base}, data...), Content: append(slices.Clone(baseContent), content...), Loaded: true}
			if !r.Loaded || r.Fatal != "" || !slices.Equal(r.Archives, want.Archives) || !slices.Equal(r.Data, want.Data) || !slices.Equal(r.Content, want.Content) {
				t.Errorf("got archives %q, data %q, content %q, loaded %v, fatal %q;\nwant archives %q, data %q, content %q, loaded\nlog:\n%s",
					r.Archives, r.Data, r.Content, r.Loaded, r.Fatal, want.Archives, want.Data, want.Content, r.Log)
			}
		}
	}
	stopped := func(fatal string, data []string, content ...string) func(*testing.T, Result) {
		return func(t *testing.T, r Result) {
			if r.Loaded || !strings.Contains(r.Fatal, fatal) || !slices.Equal(r.Data, data) || !slices.Equal(r.Content, content) {
				t.Errorf("got data %q, content %q, loaded %v, fatal %q;\nwant data %q, content %q, fatal with %q\nlog:\n%s",
					r.Data, r.Content, r.Loaded, r.Fatal, data, content, fatal, r.Log)
			}
		}
	}
	baseData, all := []string{base}, append(slices.Clone(baseContent), "A.esp")
	for _, c := range []struct {
		name, cfg, settings string
		check               func(*testing.T, Result)
	}{
		{"two folders and three plugins in order", launcher + "data=" + d1 + "\ndata=" + d2 + "\ncontent=B.esp\ncontent=A.esp\ncontent=C.esp\n", "",
			loaded([]string{d1, d2}, "B.esp", "A.esp", "C.esp")},
		{"a plugin before its master", launcher + "data=" + d1 + "\ncontent=C.esp\ncontent=A.esp\n", "",
			stopped("asks for parent file A.esp, but it has not been loaded yet", []string{base, d1}, append(slices.Clone(baseContent), "C.esp")...)},
		{"a repeated content line", launcher + "data=" + d1 + "\ncontent=A.esp\ncontent=Morrowind.esm\n", "",
			stopped("Content file specified more than once: Morrowind.esm. Aborting...", nil)},
		{"an unquoted path is cut at the space", launcher + "data=" + filepath.Join(root, "00 Core") + "\ncontent=P.esp\n", "",
			stopped("Error: Failed loading P.esp: the content file does not exist", []string{base, filepath.Join(root, "00")}, baseContent...)},
		{"a quoted path keeps its space, & escapes and #; the rest of the line is dropped",
			launcher + `data="` + strings.ReplaceAll(strings.ReplaceAll(odd, "&", "&&"), `"`, `&"`) + `" ignored` + "\ncontent=Q.esp\n", "",
			loaded([]string{odd}, "Q.esp")},
		{"a byte-order mark loses the first line", "\ufeffdata=" + d1 + "\n" + launcher + "content=A.esp\n", "",
			stopped("Error: Failed loading A.esp: the content file does not exist", baseData, baseContent...)},
		{"a byte-order mark before a comment makes line 1 invalid", "\ufeff# launcher\n" + launcher, "",
			stopped("Error: the options configuration file contains an invalid line '\ufeff@h launcher'", nil)},
		{"a repeat differing in case loads the file twice", launcher + "content=morrowind.ESM\n", "",
			loaded(nil, "Morrowind.esm")},
		{"an unquoted path is cut at a tab", launcher + "data=" + filepath.Join(root, "00") + "\tCore\n", "",
			loaded([]string{filepath.Join(root, "00")})},
		{"the same cfg without the byte-order mark", "data=" + d1 + "\n" + launcher + "content=A.esp\n", "",
			func(t *testing.T, r Result) {
				// d1 comes first: the engine adds data folders in the order the lines give them.
				if !r.Loaded || !slices.Equal(r.Data, []string{d1, base}) || !slices.Equal(r.Content, all) {
					t.Errorf("got data %q, content %q, fatal %q; want data [d1 base], content %q\n%s", r.Data, r.Content, r.Fatal, all, r.Log)
				}
			}},
		{"a duplicate setting", launcher, "[Video]\nresolution x = 800\nresolution x = 640\n",
			stopped("duplicate setting: [Video] resolution x", nil)},
		{"unknown settings and sections", launcher, "[Video]\nresolution x = 800\nno such key = 1\n[No Such Section]\nfoo = 1\n",
			loaded(nil)},
		{"config=, unknown keys and keys under a section are ignored; a missing folder is dropped",
			launcher + "data=" + d1 + "\ndata=" + filepath.Join(root, "missing") + "\nconfig=" + filepath.Join(root, "cfg") + "\nno-such-key=1\ncontent=a.ESP\n[Section]\ncontent=Ghost.esp\n", "",
			loaded([]string{d1}, "A.esp")},
		{"a # after a value is part of it", launcher + "data=" + d1 + "\ncontent=A.esp # mine\n", "",
			stopped("Error: Failed loading A.esp # mine: the content file does not exist", []string{base, d1}, baseContent...)},
		{"a quoted content name is literal", launcher + "data=" + d1 + "\ncontent=\"A.esp\"\n", "",
			stopped(`Error: Failed loading "A.esp": the content file does not exist`, []string{base, d1}, baseContent...)},
		{"content only at a folder's top level", launcher + "data=" + d1 + "\ncontent=S.esp\n", "",
			stopped("Error: Failed loading S.esp: the content file does not exist", []string{base, d1}, baseContent...)},
		{"a line without =", launcher + "data " + d1 + "\n", "",
			stopped("Error: the options configuration file contains an invalid line 'data "+d1+"'", nil)},
		{"an archive not found", launcher + "fallback-archive=Nope.bsa\n", "",
			stopped("Error: Archive 'Nope.bsa' not found", nil)},
		{"an .omwscripts file on 0.47", launcher + "data=" + d2 + "\ncontent=x.omwscripts\n", "",
			stopped("Error: Cannot load file: "+filepath.Join(d2, "x.omwscripts"), []string{base, d2}, baseContent...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.check(t, Run(t, cfgDir(t, c.cfg, c.settings)))
		})
	}
}

// TestEngineReadsTheGlobalCfgAfterTheUsers pins the order Run's engine reads its cfg files in:
// the user's, then Debian's global one, which it only reads.
func TestEngineReadsTheGlobalCfgAfterTheUsers(t *testing.T) {
	Binaries(t)
	before, err := os.ReadFile("/etc/openmw/openmw.cfg")
	if err != nil {
		t.Fatalf("Debian's openmw installs /etc/openmw/openmw.cfg: %v", err)
	}
	r := Run(t, cfgDir(t, BaseGame(t, t.TempDir()), ""))
	if len(r.Configs) != 2 || filepath.Base(r.Configs[0]) != "openmw.cfg" || r.Configs[0] == r.Configs[1] || r.Configs[1] != "/etc/openmw/openmw.cfg" {
		t.Errorf("read %q, want the user's openmw.cfg, then /etc/openmw/openmw.cfg", r.Configs)
	}
	if !r.Loaded {
		t.Errorf("the base game alone did not load: %s\n%s", r.Fatal, r.Log)
	}
	after, err := os.ReadFile("/etc/openmw/openmw.cfg")
	if err != nil || string(after) != string(before) {
		t.Errorf("/etc/openmw/openmw.cfg changed (%v)", err)
	}
}

// TestParseLog reads a log as 0.47 writes it: the engine's own vfs folder left out, a
// fatal error of several lines kept whole, errors that do not stop it ignored.
func TestParseLog(t *testing.T) {
	log := `[03:45:41.958 I] Loading config file: /h/openmw/openmw.cfg
[03:45:41.967 I] Loading config file: /etc/openmw/openmw.cfg
[03:45:42.100 I] Adding BSA archive /g/Morrowind.bsa
[03:45:42.419 I] Adding data directory /usr/share/games/openmw/resources/vfs
[03:45:42.419 I] Adding data directory /g
[03:45:42.420 I] Adding data directory /m/d1
[03:45:42.500 E] Failed to open image: Resource 'textures/target.dds' not found
[03:45:42.620 I] Loading content file A.esp
[03:45:42.639 E] Error: ESM Error: File /m/d1/A.esp asks for parent file Morrowind.esm, but it has not been loaded yet. Please check your load order.
[03:45:42.639 E]   File: /m/d1/A.esp
`
	r := parseLog(log)
	want := "Error: ESM Error: File /m/d1/A.esp asks for parent file Morrowind.esm, but it has not been loaded yet. Please check your load order.\n  File: /m/d1/A.esp\n"
	if !slices.Equal(r.Configs, []string{"/h/openmw/openmw.cfg", "/etc/openmw/openmw.cfg"}) || !slices.Equal(r.Archives, []string{"/g/Morrowind.bsa"}) ||
		!slices.Equal(r.Data, []string{"/g", "/m/d1"}) || !slices.Equal(r.Content, []string{"A.esp"}) || r.Loaded || r.Fatal+"\n" != want {
		t.Errorf("parsed %+v", r)
	}
	r = parseLog("[03:45:42.620 I] Loading content file A.esp\n[03:45:42.700 E] " + loadedStop + "\n")
	if !r.Loaded || r.Fatal != "" || !slices.Equal(r.Content, []string{"A.esp"}) {
		t.Errorf("the stand-in base game's stop read as %+v", r)
	}
	r = parseLog("[03:44:14.540 E] Content file specified more than once: Morrowind.esm. Aborting...\n")
	if r.Loaded || r.Fatal != "Content file specified more than once: Morrowind.esm. Aborting..." {
		t.Errorf("an abort read as %+v", r)
	}
}

// TestPlugin checks the TES3 layout Plugin writes: the record's size, the master flag and the
// masters in order.
func TestPlugin(t *testing.T) {
	b := Plugin("X.esp", "Morrowind.esm", "A.esp")
	if string(b[:4]) != "TES3" || int(binary.LittleEndian.Uint32(b[4:])) != len(b)-16 || string(b[16:20]) != "HEDR" || binary.LittleEndian.Uint32(b[20:]) != 300 {
		t.Fatalf("bad record header % x", b[:24])
	}
	if flag := binary.LittleEndian.Uint32(b[28:]); flag != 0 {
		t.Errorf("an .esp has the master flag %d", flag)
	}
	if flag := binary.LittleEndian.Uint32(Plugin("X.ESM")[28:]); flag != 1 {
		t.Errorf("an .esm has the master flag %d", flag)
	}
	rest := string(b[24+300:])
	want := "MAST\x0e\x00\x00\x00Morrowind.esm\x00DATA\x08\x00\x00\x00" + strings.Repeat("\x00", 8) + "MAST\x06\x00\x00\x00A.esp\x00DATA\x08\x00\x00\x00" + strings.Repeat("\x00", 8)
	if rest != want {
		t.Errorf("masters written as %q, want %q", rest, want)
	}
}
