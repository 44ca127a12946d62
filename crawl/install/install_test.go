package install

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
)

// The player's base game lines, as the OpenMW launcher writes them.
const launcherCfg = "data=\"/games/Morrowind/Data Files\"\r\ncontent=Morrowind.esm\r\ncontent=Tribunal.esm\r\ncontent=Bloodmoon.esm\r\n"

var (
	alpha = installtest.Project{ID: installtest.ID(1), Name: "Alpha Lib", Version: "1.0"}
	beta  = installtest.Project{ID: installtest.ID(2), Name: "Beta Mod", Version: "1.0", Requires: []string{installtest.ID(1)},
		Components: []installtest.Component{
			{ID: "core", Path: "00 Core", Files: map[string]string{"Beta.esp": "TES3 beta", "Textures/b.dds": "b", "Textures/old.dds": "old"}, Content: []string{"Beta.esp"}},
			{ID: "extra", Path: "01 Extra", Optional: true, Files: map[string]string{"BetaExtra.esp": "TES3 extra"}, Content: []string{"BetaExtra.esp"}},
		}}
	gamma = installtest.Project{ID: installtest.ID(3), Name: "Gamma", Version: "2.0"}
)

// Each project's folder in the mods folder.
const (
	alphaDir = "Alpha-Lib-00000000"
	betaDir  = "Beta-Mod-00000000"
	gammaDir = "Gamma-00000000"
)

// player is a player's machine: a mods folder (deep enough that "../.." stays inside root)
// holding a folder of the player's own, an openmw.cfg listing the base game, a cache.
type player struct {
	root, mods, cfg, cache string
}

func newPlayer(t *testing.T) *player {
	root := t.TempDir()
	p := &player{root: root, mods: filepath.Join(root, "games", "Mod Folder & \"Quotes\" #1 @home"),
		cfg: filepath.Join(root, "openmw.cfg"), cache: filepath.Join(t.TempDir(), "cache")}
	writeFile(t, p.cfg, launcherCfg)
	writeFile(t, filepath.Join(p.mods, "Mine", "mine.esp"), "the player's own")
	return p
}

func (p *player) options() Options {
	return Options{Mods: p.mods, OpenMWCfg: p.cfg, Cache: p.cache, AllowLoopback: true}
}

// file reads a file under the mods folder; "" when absent.
func (p *player) file(rel string) string {
	b, _ := os.ReadFile(filepath.Join(p.mods, filepath.FromSlash(rel)))
	return string(b)
}

func (p *player) snap(t *testing.T) map[string]string { return snapshot(t, p.root) }

func install(t *testing.T, p *player, link string) []string {
	t.Helper()
	c, err := Install(context.Background(), link, p.options())
	if err != nil {
		t.Fatal(err)
	}
	notes, err := c.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return notes
}

func states(c *Change) string {
	var out []string
	for _, cl := range c.Claims {
		out = append(out, cl.Name+" "+cl.Version+" "+cl.State)
	}
	return strings.Join(out, ", ")
}

func TestInstall(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha, beta)
	p := newPlayer(t)
	c, err := Install(context.Background(), n.Link("add="+beta.ID), p.options())
	if err != nil {
		t.Fatal(err)
	}
	if got := states(c); got != "Alpha Lib 1.0 new, Beta Mod 1.0 new" {
		t.Errorf("claims: %s", got)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p.file(alphaDir+"/Alpha Lib.esp") != "TES3 Alpha Lib" || p.file(betaDir+"/00 Core/Textures/b.dds") != "b" || p.file("Mine/mine.esp") != "the player's own" {
		t.Error("files not installed")
	}
	if _, err := os.Stat(filepath.Join(p.mods, betaDir, "01 Extra")); err == nil {
		t.Error("the component not selected was extracted")
	}
	cfg, _ := os.ReadFile(p.cfg)
	q := strings.NewReplacer("&", "&&", "\"", "&\"").Replace(p.mods)
	block := "data=\"" + q + "/" + alphaDir + "\"\r\ncontent=Alpha Lib.esp\r\ndata=\"" + q + "/" + betaDir + "/00 Core\"\r\ncontent=Beta.esp\r\n"
	rest, ok := strings.CutPrefix(string(cfg), launcherCfg)
	if !ok || !strings.HasPrefix(rest, "# ashyams ") || !strings.Contains(rest, "\r\n# for the mods folder "+p.mods+"\r\n"+block+"# ashyams ") {
		t.Errorf("openmw.cfg:\n%s", cfg)
	}
	if b, _ := os.ReadFile(p.cfg + ".ashyams-backup"); string(b) != launcherCfg {
		t.Errorf("backup: %q", b)
	}
	l, err := ReadLock(p.mods)
	if err != nil || len(l.Claims) != 2 || l.Claims[1].Key != beta.ID+"/"+l.Claims[1].Key[len(beta.ID)+1:] || len(l.Claims[1].Files) != 3 ||
		l.Claims[1].Artifacts[0].Source == "" || l.OpenMWCfg.Path != p.cfg || len(l.OpenMWCfg.Lines) != 4 || !strings.Contains(l.Link, "root=") {
		t.Errorf("lock: %v %+v", err, l)
	}
	// A second install of the same plan changes and downloads nothing.
	before := p.snap(t)
	n.Requests()
	c, err = Install(context.Background(), n.Link("add="+beta.ID), p.options())
	if err != nil || states(c) != "Alpha Lib 1.0 same, Beta Mod 1.0 same" {
		t.Fatalf("again: %v %s", err, states(c))
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n.Downloads() != 0 {
		t.Errorf("the second install downloaded %v", n.Requests())
	}
	if d := diffSnap(before, p.snap(t)); d != "" {
		t.Errorf("the second install changed %s", d)
	}
	if _, err := Install(context.Background(), n.Link("add="+alpha.ID), p.options()); err == nil || !strings.Contains(err.Error(), "holds an install of another plan") {
		t.Errorf("another plan into the same folder: %v", err)
	}
	// Into another mods folder the cache serves the same artifacts.
	q2 := newPlayer(t)
	q2.cache = p.cache
	n.Requests()
	install(t, q2, n.Link("add="+beta.ID))
	if n.Downloads() != 0 {
		t.Error("the cache was not used")
	}
}

func TestUpdate(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha, beta)
	p := newPlayer(t)
	install(t, p, n.Link("add="+beta.ID))
	writeFile(t, filepath.Join(p.mods, betaDir, "00 Core", "Beta.esp"), "the player's edit")
	writeFile(t, filepath.Join(p.mods, betaDir, "00 Core", "notes.txt"), "the player's notes")
	// 1.1: old.dds gone, c.dds new, Beta.esp changed; alpha is no longer required, gamma is.
	beta2 := beta
	beta2.Version, beta2.Requires = "1.1", []string{gamma.ID}
	beta2.Components = []installtest.Component{{ID: "core", Path: "00 Core", Files: map[string]string{"Beta.esp": "TES3 beta 1.1", "Textures/b.dds": "b", "Textures/c.dds": "c"}, Content: []string{"Beta.esp"}}}
	n.Publish(alpha, beta2, gamma)
	c, err := Update(context.Background(), Options{Mods: p.mods, Cache: p.cache, AllowLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := states(c); got != "Gamma 2.0 new, Beta Mod 1.1 update, Alpha Lib 1.0 remove" {
		t.Errorf("update: %s", got)
	}
	notes, err := c.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, "Beta.esp, which you changed") || !strings.Contains(joined, "notes.txt, which you added") {
		t.Errorf("notes:\n%s", joined)
	}
	want := map[string]string{betaDir + "/00 Core/Beta.esp": "the player's edit", betaDir + "/00 Core/notes.txt": "the player's notes",
		betaDir + "/00 Core/Textures/c.dds": "c", betaDir + "/00 Core/Textures/old.dds": "", gammaDir + "/Gamma.esp": "TES3 Gamma",
		alphaDir + "/Alpha Lib.esp": "", "Mine/mine.esp": "the player's own"}
	for f, body := range want {
		if got := p.file(f); got != body {
			t.Errorf("%s holds %q; want %q", f, got, body)
		}
	}
	cfg, _ := os.ReadFile(p.cfg)
	if strings.Contains(string(cfg), "Alpha") || !strings.Contains(string(cfg), "content=Gamma.esp\r\n") || !strings.HasPrefix(string(cfg), launcherCfg) {
		t.Errorf("openmw.cfg (the lock names it):\n%s", cfg)
	}
	l, _ := ReadLock(p.mods)
	for _, f := range l.Claims[0].Files {
		if strings.HasSuffix(f.Path, "Beta.esp") || strings.HasSuffix(f.Path, "notes.txt") {
			t.Errorf("the lock claims the player's %s", f.Path)
		}
	}
}

func TestUninstall(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha, beta, gamma)
	p := newPlayer(t)
	before := p.snap(t)
	install(t, p, n.Link("add="+beta.ID+","+gamma.ID))
	if _, err := Uninstall(p.options(), []string{alpha.ID}); err == nil || !strings.Contains(err.Error(), "requires "+alpha.ID) {
		t.Errorf("a required project: %v", err)
	}
	if _, err := Uninstall(p.options(), []string{installtest.ID(9)}); err == nil || !strings.Contains(err.Error(), "is not installed") {
		t.Errorf("a project not installed: %v", err)
	}
	c, err := Uninstall(Options{Mods: p.mods}, []string{gamma.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg, _ := os.ReadFile(p.cfg)
	if p.file(gammaDir+"/Gamma.esp") != "" || p.file(betaDir+"/00 Core/Beta.esp") == "" || strings.Contains(string(cfg), "Gamma") || !strings.Contains(string(cfg), "Beta.esp") {
		t.Errorf("after uninstalling Gamma:\n%s", cfg)
	}
	if l, _ := ReadLock(p.mods); len(l.Claims) != 2 || strings.Contains(l.Link, gamma.ID) {
		t.Errorf("lock after uninstalling Gamma: %+v", l)
	}
	c, err = Uninstall(Options{Mods: p.mods}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := p.snap(t)
	delete(after, "openmw.cfg.ashyams-backup")
	if d := diffSnap(before, after); d != "" {
		t.Errorf("after uninstalling everything: %s", d)
	}
	if b, _ := os.ReadFile(p.cfg); string(b) != launcherCfg {
		t.Errorf("openmw.cfg is not as it was: %q", b)
	}
}

func TestUninstallEverythingRemovesWhatInstallCreated(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha)
	root := t.TempDir()
	p := &player{root: root, mods: filepath.Join(root, "mods"), cfg: filepath.Join(root, "openmw.cfg"), cache: t.TempDir()}
	writeFile(t, p.cfg, "content=Morrowind.esm") // no line end at the end
	before := p.snap(t)
	p2 := *p
	settings := filepath.Join(root, "settings.cfg")
	o := p2.options()
	o.SettingsCfg = settings
	c, err := Install(context.Background(), n.Link("add="+alpha.ID), o)
	if err == nil {
		_, err = c.Apply(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err = Uninstall(Options{Mods: p.mods}, nil)
	if err == nil {
		_, err = c.Apply(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	after := p.snap(t)
	delete(after, "openmw.cfg.ashyams-backup")
	if d := diffSnap(before, after); d != "" {
		t.Errorf("after uninstalling everything: %s", d)
	}
}

func TestTamperedPublisherGoodMirror(t *testing.T) {
	n := installtest.New(t)
	a := alpha
	a.Tamper, a.Mirror = true, true
	n.Publish(a)
	p := newPlayer(t)
	notes := strings.Join(install(t, p, n.Link("add="+a.ID)), "\n")
	for _, want := range []string{"Alpha Lib 1.0 (" + a.ID, "/pub/" + a.ID, "was not used: its SHA-256 is ", "installed from " + n.URL + "mirror/", "(mirror)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if p.file(alphaDir+"/Alpha Lib.esp") != "TES3 Alpha Lib" {
		t.Error("not installed from the mirror")
	}
	if l, _ := ReadLock(p.mods); !strings.Contains(l.Claims[0].Artifacts[0].Source, "/mirror/") {
		t.Errorf("the lock's source: %+v", l.Claims[0].Artifacts)
	}
}

// refused runs install of the projects and wants it refused with every phrase in want, and
// nothing of the player's changed.
func refused(t *testing.T, want []string, limits func(*Options), ps ...installtest.Project) {
	t.Helper()
	n := installtest.New(t)
	n.Publish(ps...)
	p := newPlayer(t)
	before := p.snap(t)
	o := p.options()
	if limits != nil {
		limits(&o)
	}
	c, err := Install(context.Background(), n.Link("add="+ps[len(ps)-1].ID), o)
	if err == nil {
		_, err = c.Apply(context.Background())
	}
	if err == nil {
		t.Fatal("installed")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error lacks %q:\n%v", w, err)
		}
	}
	if d := diffSnap(before, p.snap(t)); d != "" {
		t.Errorf("changed: %s", d)
	}
}

func TestEverySourceBad(t *testing.T) {
	a := alpha
	a.Tamper, a.Mirror = true, true
	a.Broken = true // the mirror serves nothing either
	b := gamma
	b.Requires = []string{a.ID}
	refused(t, []string{"Alpha Lib 1.0 (" + a.ID, "the artifact main (Alpha-Lib-1.0.zip)", "/mirror/" + a.ID + "/Alpha-Lib-1.0.zip (mirror): HTTP 404", "/pub/" + a.ID + "/Alpha-Lib-1.0.zip (publisher): HTTP 404"}, nil, a, b)
}

func TestHostileArchivesRefused(t *testing.T) {
	bomb := strings.Repeat("\x00", 32<<20)
	small := func(o *Options) { o.Limits.MaxBytes, o.Limits.MaxEntries = 8<<20, 100 }
	for name, c := range map[string]struct {
		e    installtest.Entry
		lim  func(*Options)
		want string
	}{
		"dotdot":   {installtest.Entry{Name: "../../evil.esp", Body: "x"}, nil, `entry "../../evil.esp" has a ".." segment`},
		"absolute": {installtest.Entry{Name: "/tmp/evil.esp", Body: "x"}, nil, `entry "/tmp/evil.esp" is an absolute path`},
		"symlink":  {installtest.Entry{Name: "link", Body: "/etc", Mode: fs.ModeSymlink | 0o777}, nil, `entry "link" is a symbolic link`},
		"case":     {installtest.Entry{Name: "alpha lib.esp", Body: "x"}, nil, `collides with "Alpha Lib.esp"`},
		"reserved": {installtest.Entry{Name: "Textures/NUL.dds", Body: "x"}, nil, "Windows reserves for a device (NUL.dds)"},
		"bomb":     {installtest.Entry{Name: "bomb.bsa", Body: bomb, Deflate: true}, small, "announce more than the limit of 8388608 bytes"},
	} {
		t.Run(name, func(t *testing.T) {
			a := alpha
			a.Entries = []installtest.Entry{c.e}
			refused(t, []string{"Alpha Lib 1.0 (" + a.ID, "the artifact main (Alpha-Lib-1.0.zip) from " + "http://", "/pub/" + a.ID, "the archive is refused: ", c.want}, c.lim, a)
		})
	}
}

func TestInvalidPlanRefused(t *testing.T) {
	refused(t, []string{installtest.ID(7) + ": this index lists no such project"}, nil, installtest.Project{ID: installtest.ID(7), Name: "x", Version: "1", Withdrawn: true})
}

func TestStaleCopyWarned(t *testing.T) {
	n := installtest.New(t)
	a := alpha
	a.Stale = true
	n.Publish(a)
	p := newPlayer(t)
	c, err := Install(context.Background(), n.Link("add="+a.ID), p.options())
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "Alpha Lib 1.0 ("+a.ID) || !strings.Contains(w, "holds only a cached copy of it (health \"manifest-unreachable\")") {
		t.Errorf("warnings:\n%s", w)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l, _ := ReadLock(p.mods); !l.Claims[0].Stale || l.Claims[0].Health != "manifest-unreachable" {
		t.Errorf("lock: %+v", l.Claims[0])
	}
}

func TestLinesThePlayerHasAreLeftOut(t *testing.T) {
	n := installtest.New(t)
	a, b := alpha, gamma
	a.Settings = []protocol.OpenMWSetting{{Category: "Shaders", Key: "force shaders", Value: "true"}, {Category: "Game", Key: "smooth movement", Value: "true"}}
	n.Publish(a, b)
	p := newPlayer(t)
	writeFile(t, p.cfg, launcherCfg+"content=alpha lib.esp\r\n")
	settings := filepath.Join(p.root, "settings.cfg")
	writeFile(t, settings, "[Shaders]\nforce shaders = false\n")
	o := p.options()
	o.SettingsCfg = settings
	c, err := Install(context.Background(), n.Link("add="+a.ID+","+b.ID), o)
	if err != nil {
		t.Fatal(err)
	}
	left := strings.Join(c.Left, "\n")
	if !strings.Contains(left, "content=Alpha Lib.esp: "+p.cfg+" lists it already") || !strings.Contains(left, "[Shaders] force shaders = true: "+settings+" sets it already") {
		t.Errorf("left out:\n%s", left)
	}
	if _, err := c.Apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	s, _ := os.ReadFile(settings)
	if !strings.HasPrefix(string(s), "[Shaders]\nforce shaders = false\n# ashyams ") || !strings.Contains(string(s), "\n[Game]\nsmooth movement = true\n") || strings.Count(string(s), "force shaders") != 1 {
		t.Errorf("settings.cfg:\n%s", s)
	}
	cfg, _ := os.ReadFile(p.cfg)
	if strings.Count(strings.ToLower(string(cfg)), "content=alpha lib.esp") != 1 {
		t.Errorf("openmw.cfg:\n%s", cfg)
	}
}

func TestSettingAskedTwoWays(t *testing.T) {
	n := installtest.New(t)
	a, b := alpha, gamma
	a.Settings = []protocol.OpenMWSetting{{Category: "Game", Key: "smooth movement", Value: "true"}}
	b.Settings = []protocol.OpenMWSetting{{Category: "Game", Key: "smooth movement", Value: "false"}}
	n.Publish(a, b)
	p := newPlayer(t)
	o := p.options()
	o.SettingsCfg = filepath.Join(p.root, "settings.cfg")
	link := n.Link("add=" + a.ID + "," + b.ID)
	if _, err := Install(context.Background(), link, o); err == nil || !strings.Contains(err.Error(), "releases ask different values of the setting [Game] smooth movement") || !strings.Contains(err.Error(), "--set") {
		t.Errorf("no choice: %v", err)
	}
	o.Set = []string{b.ID + "[Game]smooth movement"}
	c, err := Install(context.Background(), link, o)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range c.Settings {
		lines = append(lines, l.Text)
	}
	if strings.Join(lines, "|") != "[Game]|smooth movement = false" {
		t.Errorf("settings: %q", lines)
	}
	asked := ""
	o.Set, o.Choose = nil, func(q string, opts []string) (int, error) {
		asked = q + ": " + strings.Join(opts, "; ")
		return 0, nil
	}
	c, err = Install(context.Background(), link, o)
	if err != nil || !strings.Contains(asked, "Alpha Lib 1.0 ("+a.ID) || !strings.Contains(asked, " asks true") || c.Settings[1].Text != "smooth movement = true" {
		t.Errorf("asked %q: %v", asked, err)
	}
}

func TestPlanFile(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha)
	p := newPlayer(t)
	file := filepath.Join(p.root, "plan.json")
	l, _ := ReadLock(p.mods)
	_ = l
	writeFile(t, file, `{"format": "ashyams-plan-1", "link": "`+n.Link("add="+alpha.ID)+`", "planned": [{"project": "`+alpha.ID+`", "site": "mods-example-126c5648", "version": "0.9"}]}`)
	c, err := Install(context.Background(), file, p.options())
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "the plan file planned "+alpha.ID+"/mods-example-126c5648 at 0.9; it is at 1.0 now") {
		t.Errorf("warnings:\n%s", w)
	}
	writeFile(t, file, `{"format": "ashyams-plan-1", "link": "`+n.Link("add="+alpha.ID)+`", "extra": 1}`)
	if _, err := Install(context.Background(), file, p.options()); err == nil || !strings.Contains(err.Error(), "the plan "+file+" is refused") {
		t.Errorf("a bad plan file: %v", err)
	}
	for _, link := range []string{"https://x.example/ix/setup/#add=" + alpha.ID, strings.Replace(n.Link("add=x"), "/plan/", "/", 1)} {
		if _, err := Install(context.Background(), link, p.options()); err == nil || !strings.Contains(err.Error(), "is not a plan page's address") {
			t.Errorf("%s: %v", link, err)
		}
	}
	o := p.options()
	o.AllowLoopback = false
	if _, err := Install(context.Background(), n.Link("add="+alpha.ID), o); err == nil || !strings.Contains(err.Error(), "is not https") {
		t.Errorf("http without --allow-loopback: %v", err)
	}
}

func TestLockRefusedWhenItNamesPathsOutside(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha)
	p := newPlayer(t)
	install(t, p, n.Link("add="+alpha.ID))
	path := filepath.Join(p.mods, LockName)
	b, _ := os.ReadFile(path)
	for from, to := range map[string]string{`"path": "` + alphaDir + `/`: `"path": "../`, `"folder": "` + alphaDir: `"folder": "Mine`} {
		writeFile(t, path, strings.Replace(string(b), from, to, 1))
		if _, err := ReadLock(p.mods); err == nil || !strings.Contains(err.Error(), "is refused") {
			t.Errorf("%s: %v", to, err)
		}
	}
	if _, err := Uninstall(Options{Mods: p.mods}, nil); err == nil {
		t.Error("uninstall trusted a bad lock")
	}
	var none *Lock
	if l, err := ReadLock(t.TempDir()); l != none || err != nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no lock: %v %v", l, err)
	}
}

// TestCriticalExtensionRefused: a planned claim whose release names a critical extension other
// than openmw is refused with its name; openmw alone is installed.
func TestCriticalExtensionRefused(t *testing.T) {
	c := &Change{}
	pc := engine.Claim{Key: alpha.ID + "/s", Name: "Alpha Lib", Version: "1.0", Installs: true, Valid: true, Folder: alphaDir,
		Critical:  []string{"openmw", "org.tes3mp"},
		Artifacts: []engine.Artifact{{ID: "main", Format: "flat", Filename: "a.zip", Size: 1, SHA256: strings.Repeat("0", 64)}}}
	if why := c.add(pc, health{Health: "current"}); why != `its release names the critical extension "org.tes3mp", which this program does not apply (it applies openmw)` || len(c.Claims) != 0 {
		t.Errorf("refusal %q, claims %+v", why, c.Claims)
	}
	pc.Critical = []string{"openmw"}
	if why := c.add(pc, health{Health: "current"}); why != "" || len(c.Claims) != 1 {
		t.Errorf("openmw alone: %q", why)
	}
}

// TestUpdateIntoAnotherCfg: an update given another openmw.cfg moves the block there and
// takes it out of the one the lock names, which is as it was before the install.
func TestUpdateIntoAnotherCfg(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha)
	p := newPlayer(t)
	install(t, p, n.Link("add="+alpha.ID))
	other := filepath.Join(p.root, "other.cfg")
	writeFile(t, other, "content=Morrowind.esm\n")
	c, err := Update(context.Background(), Options{Mods: p.mods, OpenMWCfg: other, Cache: p.cache, AllowLoopback: true})
	if err == nil {
		_, err = c.Apply(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p.cfg); string(b) != launcherCfg {
		t.Errorf("the first openmw.cfg keeps %q", b)
	}
	if b, _ := os.ReadFile(other); !strings.Contains(string(b), "content=Alpha Lib.esp") {
		t.Errorf("the other one: %q", b)
	}
	if l, _ := ReadLock(p.mods); l.OpenMWCfg.Path != other {
		t.Errorf("the lock names %s", l.OpenMWCfg.Path)
	}
}

// TestCriticalExtensionRefusedFromTheIndex: the index's data carries a release's
// critical_extensions, and one naming an extension other than openmw is refused.
func TestCriticalExtensionRefusedFromTheIndex(t *testing.T) {
	a := alpha
	a.Critical = []string{"openmw", "org.tes3mp"}
	refused(t, []string{"Alpha Lib 1.0 (" + a.ID, `its release names the critical extension "org.tes3mp", which this program does not apply`}, nil, a)
}
