package openmwtest_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/DreamWeave-MP/ashyams-go/assets"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/openmwtest"
)

// setupRead is what the setup page reads in an openmw.cfg: openmwcfg.js parse (the data
// folders and content files OpenMW uses, the lines it refuses) and setupcheck.js check (the
// content files where the page says OpenMW stops), run in goja as assets/engine runs the
// page's scripts.
type setupRead struct {
	Data, Content []string
	Refused       int  // lines that are not a setting
	Stops         bool // the page shows "OpenMW stops here"
}

func readAsSetup(t *testing.T, text string) setupRead {
	t.Helper()
	rt := goja.New()
	if _, err := rt.RunString("var window = this;"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"version.js", "openmwcfg.js", "setupcheck.js"} {
		src, err := fs.ReadFile(assets.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rt.RunScript(name, string(src)); err != nil {
			t.Fatalf("loading %s: %v", name, err)
		}
	}
	rt.Set("text", text)
	v, err := rt.RunString(`(function () {
  var p = OpenMWCfg.parse(text), none = { claims: {}, data_dirs: {}, content_files: {}, groundcover_files: {}, fallback_archives: {} };
  var c = AshyamsSetupCheck.check(none, p, "");
  function values(l) { return l.map(function (e) { return e.value; }); }
  return JSON.stringify({ Data: values(p.data), Content: values(p.content), Refused: p.ignored.length, Stops: c.duplicates.length > 0 });
})()`)
	if err != nil {
		t.Fatal(err)
	}
	var r setupRead
	if err := json.Unmarshal([]byte(v.String()), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSetupReadsCfgAsTheEngine (issue 33): the setup page's reader agrees with OpenMW 0.47 on
// an unquoted path with a space, a byte-order mark and a repeated content= line: the data
// folders and content files the engine uses are those the page reads, a line the engine
// refuses is one the page says it refuses, and the page says "OpenMW stops here" exactly
// where the engine aborts on a repeat.
func TestSetupReadsCfgAsTheEngine(t *testing.T) {
	openmwtest.Binaries(t)
	root := t.TempDir()
	base := filepath.Join(root, "Morrowind", "Data Files")
	launcher := openmwtest.BaseGame(t, base)
	for _, d := range []string{"00", "00 Core", "d1"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"00 Core/P.esp", "d1/A.esp"} {
		if err := os.WriteFile(filepath.Join(root, f), openmwtest.Plugin(filepath.Base(f), "Morrowind.esm"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d1, core := filepath.Join(root, "d1"), filepath.Join(root, "00 Core")
	for _, c := range []struct{ name, cfg string }{
		{"an unquoted path with a space", launcher + "data=" + core + "\n"},
		{"an unquoted path with a tab", launcher + "data=" + strings.Replace(core, " ", "\t", 1) + "\n"},
		{"a quoted path with a space", launcher + `data="` + core + "\"\ncontent=P.esp\n"},
		{"a byte-order mark before a setting", "\ufeffdata=" + d1 + "\n" + launcher},
		{"a repeated content line", launcher + "data=" + d1 + "\ncontent=A.esp\ncontent=A.esp\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			page, r := readAsSetup(t, c.cfg), openmwtest.Run(t, writeCfg(t, c.cfg, ""))
			invalid := strings.Contains(r.Fatal, "contains an invalid line")
			repeat := strings.HasPrefix(r.Fatal, "Content file specified more than once")
			agree := page.Stops == repeat && (page.Refused > 0) == invalid
			if r.Loaded {
				// The engine logs a content file by its name on disk; the page reads what the line says.
				agree = agree && slices.Equal(page.Data, r.Data) && slices.EqualFunc(page.Content, r.Content, strings.EqualFold)
			}
			if !agree {
				t.Errorf("the setup page reads data %q, content %q, %d refused lines, stops %v;\nOpenMW 0.47 added %q, loaded %q, fatal %q\ncfg:\n%s",
					page.Data, page.Content, page.Refused, page.Stops, r.Data, r.Content, r.Fatal, c.cfg)
			}
		})
	}
}
