package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
)

// No line any command or .github/*.sh script prints is a GitHub Actions workflow command,
// whatever publishers, pull requests or the command line put into it: every output is scanned
// at every line break a runner splits at (termtext.WorkflowCommand).

// hostileTexts are what publishers put where a name, a key or a URL goes: every line break a
// runner splits at, each followed by a workflow command, and the legacy "##[" form.
var hostileTexts = []string{
	"::error::x\n##[add-mask]x", // a manifest property name that validate once printed raw
	"a\r::error::cr",
	"a\v::error::vt",
	"a\f::error::ff",
	"a\u0085::error::nel",
	"a\u2028::error::ls",
	"a\u2029::error::ps",
	" \u00a0::warning::lead ##[error]legacy",
}

// hostileName is all of hostileTexts in one string.
var hostileName = strings.Join(hostileTexts, " ")

// TestMain lets the test binary stand in for ashyams when a script under test runs it, and
// removes builtCommand's binary after the tests.
func TestMain(m *testing.M) {
	if os.Getenv("ASHYAMS_TEST_AS_COMMAND") == "1" {
		os.Exit(run(&env{stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
	}
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// hostileSite serves, on loopback, lanterns.example's site index and manifests with hostile
// text in the site's name, a project's name (valid, digest right: it is recorded and built)
// and a property name of another manifest (invalid: findings quote it).
func hostileSite(t *testing.T) string {
	t.Helper()
	web := example.Web()
	read := func(p string) map[string]any {
		b, err := fs.ReadFile(web, p)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	var srv *httptest.Server
	files := map[string][]byte{}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/hostile/"
	retarget := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.ReplaceAll(string(b), "http://lanterns.example/", base))
	}
	index := read("lanterns.example/dreamweave.json")
	index["site"].(map[string]any)["name"] = hostileName
	for i, e := range index["projects"].([]any) {
		entry := e.(map[string]any)
		id := entry["id"].(string)
		m := read("lanterns.example/projects/" + id + ".json")
		switch i {
		case 0:
			m["project"].(map[string]any)["name"] = hostileName
			entry["name"] = hostileName
		case 1:
			for _, s := range hostileTexts {
				m["project"].(map[string]any)[s] = s
			}
		}
		body := retarget(m)
		files["/hostile/projects/"+id+".json"] = body
		sum := sha256.Sum256(body)
		entry["manifest_sha256"] = hex.EncodeToString(sum[:])
	}
	files["/hostile/dreamweave.json"] = retarget(index)
	return base
}

// assertNoWorkflowCommand fails when a line of out, split as a runner splits, is a workflow
// command.
func assertNoWorkflowCommand(t *testing.T, what, out string) {
	t.Helper()
	if cmd := termtext.WorkflowCommand(out); cmd != "" {
		t.Errorf("%s printed a workflow command: %q\nin:\n%s", what, cmd, out)
	}
	// hostileTexts[0] has an LF after "::error::x": a line ending there printed it raw.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "::error::x") {
			t.Errorf("%s printed the LF inside a value raw: %q", what, line)
		}
	}
}

func TestNoCommandPrintsAWorkflowCommand(t *testing.T) {
	site := hostileSite(t)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "public")
	// The pull request's URL with a TOML \r escape (inspect-added.sh printed it raw), and the
	// hostile site.
	sources := writeFile(t, dir, "sources.toml", "[[source]]\nurl = \""+site+"\"\nadded = \"2026-09-28\"\nnote = \"hostile\"\n")
	crSources := writeFile(t, dir, "cr.toml", "[[source]]\nurl = \"http://127.0.0.1:1/a\\r::error::x\"\nadded = \"2026-09-28\"\nnote = \"cr\"\n")
	manifest := writeFile(t, dir, "manifest.json", `{"schema_version":"2","document":"project","project":{`+
		func() string {
			var kv []string
			for _, s := range hostileTexts {
				k, _ := json.Marshal(s)
				kv = append(kv, string(k)+":"+string(k))
			}
			return strings.Join(kv, ",")
		}()+`}}`)
	hostileArg := strings.Join(hostileTexts, "")
	type step struct {
		args []string
		json bool // stdout is one JSON document
	}
	steps := []step{
		{args: []string{"validate", manifest}},
		{args: []string{"validate", "--json", manifest}, json: true},
		{args: []string{"validate", "--allow-loopback", site + "dreamweave.json"}},
		{args: []string{"validate", "--json", "--allow-loopback", site + "dreamweave.json"}, json: true},
		{args: []string{"validate", hostileArg}},
		{args: []string{"inspect", "--allow-loopback", site}},
		{args: []string{"inspect", "--allow-loopback", "http://127.0.0.1:1/a\r::error::x"}},
		{args: []string{"refresh", "--sources", sources, "--state", state, "--curation", filepath.Join(dir, "none.toml"), "--allow-loopback"}},
		{args: []string{"refresh", "--sources", crSources, "--state", filepath.Join(dir, "cr"), "--curation", filepath.Join(dir, "none.toml"), "--allow-loopback"}},
		{args: []string{"check", "--state", state}},
		{args: []string{"diff", "--state", state}},
		{args: []string{"build", "--state", state, "--out", out}},
		{args: []string{"check-site", "--out", out}},
		{args: []string{"add", site, "--note", hostileArg, "--sources", sources, "--state", state, "--allow-loopback"}},
		{args: []string{"add", "http://127.0.0.1:1/" + hostileArg, "--note", "n", "--sources", sources, "--state", state, "--allow-loopback"}},
		{args: []string{"check", "--state", hostileArg}},
		{args: []string{"build", "--state", hostileArg, "--out", filepath.Join(dir, "o")}},
		{args: []string{hostileArg}},
		{args: []string{"help", hostileArg}},
		{args: []string{"refresh", "--" + hostileArg}},
		{args: []string{"version"}},
		{args: []string{"demo", "--out", filepath.Join(dir, "demo")}},
	}
	if testing.Short() {
		steps = steps[:len(steps)-1] // the demo builds the whole example network
	}
	for _, s := range steps {
		rc, stdout, stderr := runCmd(s.args...)
		what := termtext.Quote(strings.Join(s.args, " "))
		if stdout+stderr == "" {
			t.Errorf("%s: exit %d and printed nothing", what, rc)
		}
		assertNoWorkflowCommand(t, what+" stdout", stdout)
		assertNoWorkflowCommand(t, what+" stderr", stderr)
		if s.json {
			// The same JSON: every hostile key is still in it, as it was.
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Errorf("%s: stdout is not JSON (%v):\n%s", what, err, stdout)
			}
		}
	}
	// The hostile text reached the outputs: the checks above saw it.
	_, stdout, _ := runCmd("validate", "--json", manifest)
	if !strings.Contains(stdout, `##\u005badd-mask]x`) {
		t.Errorf("validate --json does not quote the hostile key:\n%s", stdout)
	}
	_, stdout, _ = runCmd("validate", manifest)
	if !strings.Contains(stdout, `##\x5badd-mask]x`) {
		t.Errorf("validate does not quote the hostile key:\n%s", stdout)
	}
}

// Every .github/*.sh script, run on a pull request adding hostile URLs to sources.toml (a TOML
// \r escape, every other line break, "##["), with the test binary as ashyams: no line it prints
// is a workflow command but the fences inspect-added.sh writes itself.
func TestNoScriptPrintsAWorkflowCommand(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	site := hostileSite(t)
	github, err := filepath.Abs("../../.github")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Glob(filepath.Join(github, "*.sh"))
	if err != nil || len(scripts) < 3 {
		t.Fatalf("scripts: %q %v", scripts, err)
	}
	c := g.clone("c")
	if err := os.CopyFS(filepath.Join(c, ".github"), os.DirFS(github)); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(c, "network", "sources.toml")
	g.write(src, "[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n")
	g.git(c, "add", ".")
	g.git(c, "commit", "-q", "-m", "sources")
	base := g.git(c, "rev-parse", "HEAD")
	toml := "[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n\n" +
		"[[source]]\nurl = \"" + site + "\"\nadded = \"2026-10-02\"\nnote = \"h\"\n\n"
	for i, esc := range []string{`\r`, `\n`, `\u000b`, `\f`, `\u0085`, `\u2028`, `\u2029`, ``} {
		toml += fmt.Sprintf("[[source]]\nurl = \"http://127.0.0.1:1/%d%s::error::x##[add-mask]y\"\nadded = \"2026-10-02\"\nnote = \"n\"\n\n", i, esc)
	}
	g.write(src, toml)

	runScript := func(name string, args ...string) string {
		cmd := exec.Command("bash", append([]string{filepath.Join(c, ".github", name)}, args...)...)
		cmd.Dir = c
		cmd.Env = g.env("ASHYAMS="+self, "ASHYAMS_TEST_AS_COMMAND=1",
			"STATE_BRANCH=state"+hostileTexts[1], "STATE_REMOTE=origin")
		b, _ := cmd.CombinedOutput()
		return string(b)
	}
	seen := map[string]bool{}
	check := func(name, out string) {
		t.Helper()
		seen[name] = true
		var own []string
		for _, line := range strings.Split(out, "\n") {
			// inspect-added.sh's own commands: a group, its fence, the fence's end.
			// refresh.sh's own: its verdict on the refresh's exit status.
			if strings.HasPrefix(line, "::group::inspect ") || line == "::endgroup::" ||
				name == "refresh.sh" && (strings.HasPrefix(line, "::error title=") || strings.HasPrefix(line, "::warning title=")) ||
				strings.HasPrefix(line, "::stop-commands::") || (strings.HasPrefix(line, "::") && strings.HasSuffix(line, "::") && len(line) == 36) {
				own = append(own, line)
				line = "-" + line[2:]
			}
			assertNoWorkflowCommand(t, name, line)
		}
		for _, l := range own {
			if strings.Contains(l, "##[") || strings.ContainsAny(l, "\r\v\f\u0085\u2028\u2029") {
				t.Errorf("%s: its own command line carries a hostile text: %q", name, l)
			}
		}
	}
	out := runScript("added-sources.sh", base)
	if n := strings.Count(out, "\n"); n != 9 {
		t.Errorf("added-sources.sh printed %d lines, want 9 (one per added URL):\n%s", n, out)
	}
	check("added-sources.sh", out)
	out = runScript("inspect-added.sh", base)
	if !strings.Contains(out, `\r::error::x##\x5badd-mask]y`) {
		t.Errorf("inspect-added.sh does not name the URL with the CR escaped:\n%s", out)
	}
	check("inspect-added.sh", out)
	check("state.sh", runScript("state.sh", "checkout", "state"+hostileTexts[2]))
	check("state.sh", runScript("state.sh", "commit", filepath.Join(c, "no"+hostileTexts[0])))
	check("state.sh", runScript("state.sh", "push", "state"+hostileTexts[3]))
	check("state.sh", runScript("state.sh", hostileTexts[4]))
	check("refresh.sh", runScript("refresh.sh", filepath.Join(c, "summary"+hostileTexts[0]), "--sources", src,
		"--curation", filepath.Join(c, "none.toml"), "--state", filepath.Join(c, "rstate"), "--allow-loopback"))
	for _, s := range scripts {
		if !seen[filepath.Base(s)] && filepath.Base(s) != "inert.sh" {
			t.Errorf("%s is not run by this test", filepath.Base(s))
		}
	}
}
