package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
)

// runIn runs the command with stdin as the terminal's input when terminal is set.
func runIn(stdin string, terminal bool, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin), terminal: terminal}, args)
	return rc, out.String(), errb.String()
}

// files is every file under root with a digest of its bytes, one line each.
func files(t *testing.T, root string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		b, _ := os.ReadFile(p)
		out = append(out, fmt.Sprintf("%s %v %x", filepath.ToSlash(rel), d.IsDir(), sha256.Sum256(b)))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func TestInstallUpdateUninstallCommands(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	n := installtest.New(t)
	lib := installtest.Project{ID: installtest.ID(1), Name: "Alpha Lib", Version: "1.0"}
	mod := installtest.Project{ID: installtest.ID(2), Name: "Beta Mod", Version: "1.0", Requires: []string{lib.ID}}
	n.Publish(lib, mod)
	root := t.TempDir()
	mods, cfg := filepath.Join(root, "mods"), filepath.Join(root, "openmw.cfg")
	os.WriteFile(cfg, []byte("content=Morrowind.esm\ncontent=Tribunal.esm\ncontent=Bloodmoon.esm\n"), 0o644)
	before := files(t, root)
	link := n.Link("add=" + mod.ID)
	args := []string{"install", link, "--mods", mods, "--openmw-cfg", cfg, "--allow-loopback"}
	for _, c := range []struct {
		stdin    string
		terminal bool
		args     []string
		rc       int
		out, err string
	}{
		{"", false, []string{"--dry-run"}, 0, "Dry run: nothing was changed.", ""},
		{"", false, nil, 1, "", "ashyams install: not run in a terminal: add --yes to go ahead; nothing was changed"},
		{"n\n", true, nil, 1, "Go ahead? [y/N] Nothing was changed.", ""},
	} {
		rc, out, errs := runIn(c.stdin, c.terminal, append(args, c.args...)...)
		if rc != c.rc || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d\n%s\n%s", c.args, rc, out, errs)
		}
		for _, want := range []string{"From the index " + n.Index() + ":",
			"  Alpha Lib 1.0 (" + lib.ID + "/mods-example-126c5648): install, in Alpha-Lib-00000000",
			"    components main (.)\n    Alpha-Lib-1.0.zip, ", "The openmw.cfg lines:\n  data=\"" + mods + "/Alpha-Lib-00000000\"\n  content=Alpha Lib.esp\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the plan shown lacks %q:\n%s", c.args, want, out)
			}
		}
		if got := files(t, root); got != before {
			t.Errorf("%v changed the player's files", c.args)
		}
	}
	rc, out, errs := runIn("y\n", true, args...)
	if rc != 0 || !strings.Contains(out, "Done: "+mods+" is as shown above.") || !strings.Contains(errs, "Downloading "+n.URL+"pub/"+lib.ID+"/Alpha-Lib-1.0.zip (") {
		t.Fatalf("install: exit %d\n%s\n%s", rc, out, errs)
	}
	mod.Version = "1.1"
	n.Publish(lib, mod)
	rc, out, errs = runIn("", false, "update", "--mods", mods, "--dry-run", "--allow-loopback")
	if rc != 0 || !strings.Contains(out, "Beta Mod 1.1 ("+mod.ID+"/mods-example-126c5648): update from 1.0") || !strings.Contains(out, "Alpha Lib 1.0 ("+lib.ID+"/mods-example-126c5648): unchanged") {
		t.Errorf("update --dry-run: exit %d\n%s\n%s", rc, out, errs)
	}
	if rc, out, errs = runIn("", false, "update", "--mods", mods, "--yes", "--allow-loopback"); rc != 0 {
		t.Errorf("update: exit %d\n%s\n%s", rc, out, errs)
	}
	mod.Entries = []installtest.Entry{{Name: "readme.txt", Body: "amended"}} // the same version, other bytes
	n.Publish(lib, mod)
	if rc, out, errs = runIn("", false, "update", "--mods", mods, "--dry-run", "--allow-loopback"); rc != 0 || !strings.Contains(out, "Beta Mod 1.1 ("+mod.ID+"/mods-example-126c5648): update: its archive changed without a new version, SHA-256 ") {
		t.Errorf("update --dry-run after an amendment: exit %d\n%s\n%s", rc, out, errs)
	}
	if rc, out, errs = runIn("", false, "uninstall", "--mods", mods, "--yes"); rc != 0 {
		t.Errorf("uninstall: exit %d\n%s\n%s", rc, out, errs)
	}
	os.Remove(cfg + ".ashyams-backup")
	if got := files(t, root); got != before {
		t.Errorf("after uninstall:\n%s\nwant\n%s", got, before)
	}
}

func TestInstallCommandUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		rc   int
		err  string
	}{
		{[]string{"install", "--mods", "m"}, 2, "ashyams install: give one PLAN"},
		{[]string{"install", "a", "b", "--mods", "m"}, 2, "ashyams install: give one PLAN"},
		{[]string{"install", "https://x.example/plan/#add=x"}, 2, "ashyams install: --mods is required"},
		{[]string{"update", "extra", "--mods", "m"}, 2, `ashyams update: unexpected argument "extra"`},
		{[]string{"uninstall", "--mods", t.TempDir(), "--yes"}, 1, " has no ashyams-lock.json: nothing was installed there; nothing was changed"},
		{[]string{"install", "https://x.example/setup/#add=x", "--mods", "m"}, 1, `is not a plan page's address with a plan after "#"`},
	} {
		rc, _, errs := runIn("", false, c.args...)
		if rc != c.rc || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d\n%s", c.args, rc, errs)
		}
	}
	rc, out, _ := runIn("", false, "help", "install")
	for _, want := range []string{"usage: ashyams install [flags] PLAN", "-mods", "-openmw-cfg", "-settings-cfg", "-yes", "-dry-run", "-allow-loopback", "-set PROJECT-ID[CATEGORY]KEY"} {
		if rc != 0 || !strings.Contains(out, want) {
			t.Errorf("help install lacks %q:\n%s", want, out)
		}
	}
}

// The player's commands of README.md and docs/players.md, word for word.
const (
	playerInstall   = `ashyams install 'https://dreamweave-mp.github.io/ashyams-go/plan/#add=1968bc35-2839-4a92-9161-17481e76896d' --mods ~/OpenMW-Mods --openmw-cfg ~/.config/openmw/openmw.cfg`
	playerUpdate    = `ashyams update --mods ~/OpenMW-Mods`
	playerUninstall = `ashyams uninstall --mods ~/OpenMW-Mods`
)

// TestPlayersCommands runs the player's commands as the docs write them, against an index on
// loopback in place of the live one (and --allow-loopback), answering yes on a terminal:
// install, update after a new release, uninstall back to the openmw.cfg as it was.
func TestPlayersCommands(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	n := installtest.New(t)
	p := installtest.Project{ID: "1968bc35-2839-4a92-9161-17481e76896d", Name: "CHIM Climbing", Version: "1.0"}
	n.Publish(p)
	cfg := filepath.Join(home, ".config", "openmw", "openmw.cfg")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	launcher := "data=\"/games/Morrowind/Data Files\"\ncontent=Morrowind.esm\ncontent=Tribunal.esm\ncontent=Bloodmoon.esm\n"
	os.WriteFile(cfg, []byte(launcher), 0o644)
	args := func(cmd string) []string {
		cmd = strings.NewReplacer("https://dreamweave-mp.github.io/ashyams-go/", n.Index(), "~/", home+"/", "'", "").Replace(cmd)
		return append(strings.Fields(cmd)[1:], "--allow-loopback")
	}
	rc, out, errs := runIn("y\n", true, args(playerInstall)...)
	if rc != 0 || !strings.Contains(out, "CHIM Climbing 1.0 ("+p.ID+"/mods-example-126c5648): install, in CHIM-Climbing-1968bc35") {
		t.Fatalf("install: exit %d\n%s\n%s", rc, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "OpenMW-Mods", "CHIM-Climbing-1968bc35", "CHIM Climbing.esp")); string(b) != "TES3 CHIM Climbing" {
		t.Errorf("installed: %q", b)
	}
	p.Version = "1.1"
	n.Publish(p)
	if rc, out, errs = runIn("y\n", true, args(playerUpdate)...); rc != 0 || !strings.Contains(out, "CHIM Climbing 1.1 ("+p.ID+"/mods-example-126c5648): update from 1.0") {
		t.Errorf("update: exit %d\n%s\n%s", rc, out, errs)
	}
	uninstall := args(playerUninstall)
	if rc, out, errs = runIn("y\n", true, uninstall[:len(uninstall)-1]...); rc != 0 {
		t.Errorf("uninstall: exit %d\n%s\n%s", rc, out, errs)
	}
	if b, _ := os.ReadFile(cfg); string(b) != launcher {
		t.Errorf("openmw.cfg after uninstall:\n%s", b)
	}
}
