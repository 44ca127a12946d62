package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The network workflow's decision after a refresh (commit and deploy, or stop) is tested here
// by running the workflow's own Refresh step, as written in network.yml, with a stand-in for
// ashyams that exits with each status, then applying GitHub's step and job conditions to the
// steps after it: no network, no runner.

// workflow is the part of a workflow file these tests read.
type workflow struct {
	Jobs map[string]struct {
		Needs any    `yaml:"needs"`
		If    string `yaml:"if"`
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

func readWorkflow(t *testing.T, name string) workflow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return w
}

// runsAfterFailure is whether a step (or a job that needs a failed one) with condition cond
// runs once an earlier step failed, as GitHub decides it: no condition is success(). Only the
// forms this repository uses are known; any other fails the test, so a new condition is
// decided here deliberately.
func runsAfterFailure(t *testing.T, where, cond string) bool {
	t.Helper()
	c := strings.TrimSpace(cond)
	c = strings.TrimSuffix(strings.TrimPrefix(c, "${{"), "}}")
	switch strings.TrimSpace(c) {
	case "", "success()":
		return false
	case "!cancelled()", "always()", "failure()":
		return true
	}
	t.Fatalf("%s: condition %q is not one this test knows; add it to runsAfterFailure", where, cond)
	return false
}

// fakeAshyams writes a stand-in for ashyams that records its arguments, prints a summary line
// and a progress line, and exits with status.
func fakeAshyams(t *testing.T, dir string, status int) string {
	t.Helper()
	p := filepath.Join(dir, "ashyams")
	script := "#!/bin/sh\necho \"$@\" > \"" + filepath.Join(dir, "args") + "\"\necho 'Refreshed 2 sources.'\necho 'refresh: progress' >&2\nexit " + strconv.Itoa(status) + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runStep runs a step's shell as GitHub's default bash does (bash -e -o pipefail), from the
// repository's root, and returns its output and exit status.
func runStep(t *testing.T, s step, env ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("bash is not installed: %v", err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// TestNetworkWorkflowSkipsCommitWhenNoSourceReached: a refresh that reached no source (exit 4)
// fails the workflow's Refresh step with an error naming the runner's network, so neither the
// step that commits and pushes the state nor the upload and the deploy job run. Exit 0, and 3
// (the deadline: a sound state saying it was interrupted), go on to the commit.
func TestNetworkWorkflowSkipsCommitWhenNoSourceReached(t *testing.T) {
	w := readWorkflow(t, "network.yml")
	job, ok := w.Jobs["refresh"]
	if !ok {
		t.Fatal("network.yml has no refresh job")
	}
	at, commit := -1, -1
	for i, s := range job.Steps {
		switch {
		case s.Name == "Refresh":
			at = i
		case strings.Contains(s.Run, "state.sh push"):
			commit = i
		}
	}
	if at < 0 || commit < 0 || commit < at {
		t.Fatalf("network.yml: Refresh step at %d, the step that pushes the state at %d; want both, the push after", at, commit)
	}
	for _, tc := range []struct {
		status, step int
		goesOn       bool
		says         string
	}{
		{0, 0, true, ""},
		{3, 0, true, "::warning title=Refresh interrupted::"},
		{4, 4, false, "::error title=No source reached::"},
		{1, 1, false, "::error title=Refresh failed::"},
	} {
		dir := t.TempDir()
		out, rc := runStep(t, job.Steps[at], "ASHYAMS="+fakeAshyams(t, dir, tc.status), "RUNNER_TEMP="+dir)
		if rc != tc.step {
			t.Errorf("ashyams exiting %d: the Refresh step exits %d; want %d\n%s", tc.status, rc, tc.step, out)
		}
		if tc.says != "" && !strings.Contains(out, "\n"+tc.says) {
			t.Errorf("ashyams exiting %d: the step's log lacks %q:\n%s", tc.status, tc.says, out)
		}
		if tc.status == 4 && !strings.Contains(out, "runner's own network") {
			t.Errorf("exit 4: the error does not name the likely cause (the runner's own network):\n%s", out)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "summary.txt")); err != nil || string(b) != "Refreshed 2 sources.\n" {
			t.Errorf("ashyams exiting %d: summary.txt = %q, %v; want the refresh's stdout", tc.status, b, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "args")); !strings.HasPrefix(string(b), "refresh ") || !strings.Contains(string(b), "--state state") {
			t.Errorf("the step ran ashyams %q; want refresh ... --state state", b)
		}
		if tc.goesOn {
			continue
		}
		// The step failed: what runs after it is what GitHub runs after a failure.
		for _, s := range job.Steps[at+1:] {
			if runsAfterFailure(t, "refresh step "+s.Name, s.If) && (strings.Contains(s.Run, "state.sh") || s.Uses != "" && strings.Contains(s.Uses, "upload-pages-artifact")) {
				t.Errorf("ashyams exiting %d: step %q still runs (if: %q): it commits or publishes", tc.status, s.Name, s.If)
			}
		}
		for name, j := range w.Jobs {
			if name == "refresh" || !needs(j.Needs, "refresh") {
				continue
			}
			if runsAfterFailure(t, "job "+name, j.If) {
				t.Errorf("job %s runs after the refresh job failed (if: %q)", name, j.If)
			}
		}
	}
}

// needs reports whether a job's needs (a name or a list of names) include name.
func needs(v any, name string) bool {
	switch n := v.(type) {
	case string:
		return n == name
	case []any:
		for _, x := range n {
			if x == name {
				return true
			}
		}
	}
	return false
}

// TestWorkflowsHardened: every action in every workflow is pinned to a full commit SHA with its
// version in a comment, every checkout keeps no credential (persist-credentials: false: each
// job here reads publisher data or a pull request's code), and the job's token appears in two
// steps only, the one that pushes the state and the one that attaches a release's programs.
func TestWorkflowsHardened(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", ".github", "workflows", "*.yml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("workflows: %q %v", files, err)
	}
	pinned := regexp.MustCompile(`^\s*(?:-\s+)?uses:\s+[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(?:\.\d+){0,2}$`)
	token := regexp.MustCompile(`github\.token|secrets\.GITHUB_TOKEN`)
	var tokenSteps []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "uses:") && !strings.HasPrefix(strings.TrimSpace(line), "#") && !pinned.MatchString(line) {
				t.Errorf("%s:%d: %q is not pinned to a full commit SHA with a # vX comment", filepath.Base(f), i+1, strings.TrimSpace(line))
			}
		}
		w := readWorkflow(t, filepath.Base(f))
		for name, job := range w.Jobs {
			for _, s := range job.Steps {
				if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["persist-credentials"] != "false" {
					t.Errorf("%s job %s: checkout %q keeps its credentials (persist-credentials: %q)", filepath.Base(f), name, s.Name, s.With["persist-credentials"])
				}
				text := s.Run + s.If
				for k, v := range s.Env {
					text += k + v
				}
				for k, v := range s.With {
					text += k + v
				}
				if token.MatchString(text) {
					tokenSteps = append(tokenSteps, filepath.Base(f)+" "+name+" "+s.Name)
					if !strings.Contains(s.Run, "state.sh push") && !strings.Contains(s.Run, "gh release upload") {
						t.Errorf("%s job %s: step %q holds the token but neither pushes nor attaches a release", filepath.Base(f), name, s.Name)
					}
				}
			}
		}
	}
	if len(tokenSteps) != 2 {
		t.Errorf("steps holding the token: %q; want exactly the one that pushes and the one that attaches a release", tokenSteps)
	}
}

// TestReleaseWorkflowBuildsEveryPlatform: the release workflow builds ashyams for Linux,
// Windows and macOS on amd64 and arm64, as .ci/run's cross-builds do, and attaches the
// programs with their SHA256SUMS.
func TestReleaseWorkflowBuildsEveryPlatform(t *testing.T) {
	const targets = "linux/amd64 linux/arm64 windows/amd64 windows/arm64 darwin/amd64 darwin/arm64"
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"release.yml": string(b), ".ci/run": string(ci)} {
		if !strings.Contains(text, "for target in "+targets+"; do") {
			t.Errorf("%s does not build for %s", name, targets)
		}
	}
	for _, want := range []string{"tags: [\"v*\"]", "sha256sum -- * > SHA256SUMS", "gh release upload \"$TAG\"", "./cmd/ashyams"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("release.yml lacks %q", want)
		}
	}
}
