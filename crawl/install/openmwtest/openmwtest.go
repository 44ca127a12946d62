// Package openmwtest is test-only: it runs Debian's OpenMW 0.47 (`openmw`) headless on a
// player's config and reports what the engine did, read from its own log, so tests check the
// lines the index writes against the engine itself (SPEC section 8).
//
// What Run relies on, measured with Debian's 0.47.0: it reads $XDG_CONFIG_HOME/openmw/openmw.cfg
// then /etc/openmw/openmw.cfg (no usable data=, no content=) and logs "[hh:mm:ss.mmm L] text"
// lines to openmw.log beside the first: "Adding BSA archive X", "Adding data directory X"
// (its own <resources>/vfs first), "Loading content file X", in order. The stand-in base game
// has no NPC class, so a clean load ends "Error: List of NPC classes is empty!" (Loaded); other
// fatal errors are "Error: ..." or "... Aborting...". Before a fatal error an SDL box blocks
// unless stdin is a terminal: Run gives a pseudo-terminal and an Xvfb display, and temporary
// HOME and XDG dirs. A UTF-8 BOM is part of line 1; content names compare exactly for
// duplicates. A content file needs only a TES3 header (Plugin).
//
// Tests using Run skip under -short, and when openmw or Xvfb is missing unless ASHYAMS_CI is
// set, where they fail.
package openmwtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Result is what the engine did, in the order it logged it.
type Result struct {
	Configs  []string // the openmw.cfg files it read ("Loading config file: X")
	Archives []string // "Adding BSA archive X"
	Data     []string // "Adding data directory X", but the engine's own <resources>/vfs
	Content  []string // "Loading content file X"
	Loaded   bool     // it went past the last content file
	Fatal    string   // the error that stopped it otherwise, lines joined by "\n"
	Log      string   // the whole log
}

// loadedStop is the error the stand-in base game gives once every content file is loaded.
const loadedStop = "Error: List of NPC classes is empty!"

// runLimit bounds one run (one to three seconds on a loaded machine).
const runLimit = 2 * time.Minute

// Binaries returns the paths of openmw and Xvfb, skipping the test under -short or when either
// is missing (failing it under ASHYAMS_CI).
func Binaries(t testing.TB) (openmw, xvfb string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real OpenMW; skipped with -short")
	}
	var missing []string
	find := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		missing = append(missing, names[0])
		return ""
	}
	// Debian installs openmw in /usr/games, which a non-login PATH may lack.
	openmw, xvfb = find("openmw", "/usr/games/openmw"), find("Xvfb")
	if runtime.GOOS != "linux" {
		missing = append(missing, "Linux")
	}
	if len(missing) > 0 {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("ASHYAMS_CI is set and this machine lacks %s (.ci/run installs openmw and xvfb)", strings.Join(missing, ", "))
		}
		t.Skipf("no %s here: the real-engine tests need Debian's openmw and xvfb", strings.Join(missing, ", "))
	}
	return openmw, xvfb
}

// Run runs openmw on cfgDir's openmw.cfg (and settings.cfg) copied into a temporary config dir
// and returns what it did. It fails the test when the engine runs past runLimit or stops with
// neither a fatal error nor a clean load. Safe in parallel tests.
func Run(t testing.TB, cfgDir string) Result {
	t.Helper()
	openmw, xvfb := Binaries(t)
	display, err := startXvfb(xvfb)
	if err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	tmp := t.TempDir()
	conf := filepath.Join(tmp, "config", "openmw")
	for _, d := range []string{conf, filepath.Join(tmp, "data"), filepath.Join(tmp, "cache"), filepath.Join(tmp, "runtime")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"openmw.cfg", "settings.cfg"} {
		b, err := os.ReadFile(filepath.Join(cfgDir, name))
		if err == nil {
			err = os.WriteFile(filepath.Join(conf, name), b, 0o600)
		}
		if err != nil && (name == "openmw.cfg" || !os.IsNotExist(err)) {
			t.Fatal(err)
		}
	}
	ptm, pts, err := openPTY()
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, openmw, "--no-sound")
	cmd.Dir, cmd.Stdin = tmp, pts
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "DISPLAY=" + display, "HOME=" + tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"), "XDG_DATA_HOME=" + filepath.Join(tmp, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"), "XDG_RUNTIME_DIR=" + filepath.Join(tmp, "runtime")}
	runErr := cmd.Run()
	log, err := os.ReadFile(filepath.Join(conf, "openmw.log"))
	if err != nil {
		t.Fatalf("openmw (%v) left no log: %v\n%s", runErr, err, stderr.Bytes())
	}
	r := parseLog(string(log))
	switch {
	case ctx.Err() != nil:
		t.Fatalf("openmw still ran after %v; its log:\n%s", runLimit, log)
	case !r.Loaded && r.Fatal == "":
		t.Fatalf("openmw stopped (%v) with neither a fatal error nor a clean load; its log:\n%s\nstderr:\n%s", runErr, log, stderr.Bytes())
	}
	return r
}

// parseLog reads an openmw.log into a Result.
func parseLog(log string) Result {
	r := Result{Log: log}
	fatal := -1 // the index in lines of the last fatal error's first line
	var lines []string
	for _, line := range strings.Split(log, "\n") {
		i := strings.Index(line, "] ")
		if !strings.HasPrefix(line, "[") || i < 0 {
			continue
		}
		level, text := line[i-1], line[i+2:]
		lines = append(lines, text)
		if level == 'E' && (strings.HasPrefix(text, "Error: ") || strings.HasSuffix(text, "Aborting...")) {
			fatal = len(lines) - 1
		}
		for _, f := range []struct {
			prefix string
			to     *[]string
		}{{"Loading config file: ", &r.Configs}, {"Adding BSA archive ", &r.Archives}, {"Adding data directory ", &r.Data}, {"Loading content file ", &r.Content}} {
			if v, ok := strings.CutPrefix(text, f.prefix); ok {
				*f.to = append(*f.to, v)
			}
		}
	}
	if len(r.Data) > 0 && strings.HasSuffix(r.Data[0], "/vfs") {
		r.Data = r.Data[1:]
	}
	if fatal >= 0 {
		r.Fatal = strings.Join(lines[fatal:], "\n")
	}
	if r.Fatal == loadedStop {
		r.Loaded, r.Fatal = true, ""
	}
	return r
}
