package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run .github/state.sh (the git steps of the network workflow) against local bare
// repositories: no network. The refresh is faked by writing files, since what is tested is the
// branch handling, not the crawl.

type gitEnv struct {
	t      *testing.T
	root   string // temp dir
	remote string // file:// URL of the bare remote
	script string
}

func newGitEnv(t *testing.T) *gitEnv {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("git is required in CI: %v", err)
		}
		t.Skipf("git is not installed (%v): the state script cannot be exercised", err)
	}
	script, err := filepath.Abs("../../.github/state.sh")
	if err != nil {
		t.Fatal(err)
	}
	g := &gitEnv{t: t, root: t.TempDir(), script: script}
	g.remote = "file://" + filepath.Join(g.root, "remote.git")
	g.git(g.root, "init", "-q", "--bare", "-b", "main", "remote.git")
	// main: some code and the .gitignore that keeps state/ out of it, as in this repository.
	work := filepath.Join(g.root, "work")
	g.git(g.root, "init", "-q", "-b", "main", "work")
	g.write(filepath.Join(work, ".gitignore"), "/state/\n/public/\n")
	g.write(filepath.Join(work, "go.mod"), "module example\n")
	g.git(work, "add", ".")
	g.git(work, "commit", "-q", "-m", "code")
	g.git(work, "remote", "add", "origin", g.remote)
	g.git(work, "push", "-q", "origin", "main")
	return g
}

// env isolates git from the user's configuration and names a committer for test commits.
func (g *gitEnv) env(extra ...string) []string {
	env := append(os.Environ(),
		"HOME="+g.root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.invalid",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.invalid")
	return append(env, extra...)
}

func (g *gitEnv) git(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = g.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// state runs the script in dir and returns its combined output and whether it succeeded.
func (g *gitEnv) state(dir string, env []string, args ...string) (string, bool) {
	g.t.Helper()
	cmd := exec.Command("bash", append([]string{g.script}, args...)...)
	cmd.Dir = dir
	cmd.Env = g.env(env...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func (g *gitEnv) mustState(dir string, args ...string) string {
	g.t.Helper()
	out, ok := g.state(dir, nil, args...)
	if !ok {
		g.t.Fatalf("state.sh %s failed:\n%s", strings.Join(args, " "), out)
	}
	return out
}

func (g *gitEnv) write(path, text string) {
	g.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

func (g *gitEnv) clone(name string, args ...string) string {
	g.t.Helper()
	g.git(g.root, append(append([]string{"clone", "-q"}, args...), g.remote, name)...)
	return filepath.Join(g.root, name)
}

// remoteGit runs git against the bare remote.
func (g *gitEnv) remoteGit(args ...string) string {
	g.t.Helper()
	return g.git(filepath.Join(g.root, "remote.git"), args...)
}

func (g *gitEnv) stateCommits() []string {
	g.t.Helper()
	out := g.remoteGit("log", "--format=%H %P|%s", "refs/heads/network-state")
	return strings.Split(out, "\n")
}

// refresh fakes a refresh: it writes the given files into the state directory, then commits
// with a summary and pushes, as the workflow does.
func (g *gitEnv) refresh(clone string, summary string, files map[string]string) string {
	g.t.Helper()
	for p, text := range files {
		g.write(filepath.Join(clone, "state", p), text)
	}
	msg := filepath.Join(g.root, "summary.txt")
	g.write(msg, summary+"\n\nProblems by kind:\n  invalid: 1\n")
	out := g.mustState(clone, "commit", msg)
	return out + g.mustState(clone, "push")
}

func TestStateScriptOneCommitPerRefreshMainUntouched(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	mainBefore := g.remoteGit("rev-parse", "refs/heads/main")

	// First run: the branch does not exist. checkout refuses to start one and says how; start,
	// the explicit first setup, starts it as an orphan, empty.
	c1 := g.clone("c1")
	out, ok := g.state(c1, nil, "checkout")
	if ok || !strings.Contains(out, "origin has no network-state branch, so there is nothing to check out") || !strings.Contains(out, "state.sh start state") {
		t.Fatalf("checkout of a missing branch: ok=%v %s", ok, out)
	}
	if _, err := os.Stat(filepath.Join(c1, "state")); !os.IsNotExist(err) {
		t.Fatalf("a refused checkout made state/ (%v)", err)
	}
	if got := g.git(c1, "branch", "--list", "network-state"); got != "" {
		t.Fatalf("a refused checkout made the branch: %s", got)
	}
	out = g.mustState(c1, "start")
	if !strings.Contains(out, "started it as a new, empty orphan branch in state (first setup)") {
		t.Fatalf("start of a missing branch: %s", out)
	}
	ents, err := os.ReadDir(filepath.Join(c1, "state"))
	if err != nil || len(ents) != 1 || ents[0].Name() != ".git" {
		t.Fatalf("new state directory holds %v (err %v), want only .git: main's files must not leak in", ents, err)
	}
	g.refresh(c1, "refresh 2026-10-10T00:00:00Z: 4 sources", map[string]string{
		"network.json": `{"observed_at":"2026-10-10T00:00:00Z"}`, "sources/a.json": `{"url":"a"}`,
	})
	commits := g.stateCommits()
	if len(commits) != 1 || !strings.HasSuffix(commits[0], "|refresh 2026-10-10T00:00:00Z: 4 sources") {
		t.Fatalf("after one refresh the state branch has %q", commits)
	}
	if parents := strings.Fields(strings.Split(commits[0], "|")[0]); len(parents) != 1 {
		t.Fatalf("the first state commit has parents %v; want an orphan root", parents[1:])
	}
	if tree := g.remoteGit("ls-tree", "-r", "--name-only", "refs/heads/network-state"); tree != "network.json\nsources/a.json" {
		t.Fatalf("state branch tree:\n%s\nwant only the state files", tree)
	}
	body := g.remoteGit("log", "-1", "--format=%B", "refs/heads/network-state")
	if !strings.Contains(body, "Problems by kind:\n  invalid: 1") {
		t.Fatalf("commit message is not the summary: %q", body)
	}

	// Second run, nothing changed: no commit.
	out = g.refresh(c1, "refresh 2026-10-10T06:00:00Z: 4 sources", map[string]string{
		"network.json": `{"observed_at":"2026-10-10T00:00:00Z"}`,
	})
	if !strings.Contains(out, "nothing changed") || len(g.stateCommits()) != 1 {
		t.Fatalf("an unchanged state was committed: %s\n%v", out, g.stateCommits())
	}

	// Third run, a change: exactly one more commit, on top of the first.
	g.refresh(c1, "refresh 2026-10-10T12:00:00Z: 4 sources", map[string]string{
		"network.json": `{"observed_at":"2026-10-10T12:00:00Z"}`,
	})
	commits = g.stateCommits()
	if len(commits) != 2 || !strings.Contains(commits[0], " "+strings.Fields(commits[1])[0]+"|") {
		t.Fatalf("after a changed refresh: %q (want 2 commits, the newest on top of the first)", commits)
	}

	// main's history is untouched, on the remote and in the clone, and the clone is clean.
	if got := g.remoteGit("rev-parse", "refs/heads/main"); got != mainBefore {
		t.Fatalf("main moved from %s to %s", mainBefore, got)
	}
	if n := g.git(c1, "rev-list", "--count", "main"); n != "1" {
		t.Fatalf("main has %s commits, want 1", n)
	}
	if st := g.git(c1, "status", "--porcelain"); st != "" {
		t.Fatalf("main's working tree is not clean:\n%s", st)
	}

	// A later workflow run starts from a new shallow clone: checkout finds the branch.
	c2 := g.clone("c2", "--depth", "1")
	out, ok = g.state(c2, []string{"STATE_FETCH_DEPTH=1"}, "checkout")
	if !ok || !strings.Contains(out, "checked out origin/network-state") {
		t.Fatalf("checkout of the existing branch: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(c2, "state", "sources", "a.json")); err != nil || string(b) != `{"url":"a"}` {
		t.Fatalf("state not checked out: %q %v", b, err)
	}
	g.refresh(c2, "refresh 2026-10-10T18:00:00Z: 4 sources", map[string]string{"sources/b.json": `{"url":"b"}`})
	if commits := g.stateCommits(); len(commits) != 3 {
		t.Fatalf("after the run from a new clone: %q", commits)
	}
	if got := g.remoteGit("rev-parse", "refs/heads/main"); got != mainBefore {
		t.Fatalf("main moved")
	}

	// start refuses a branch that exists, changing nothing.
	if out, ok := g.state(c2, nil, "start", "other"); ok || !strings.Contains(out, "origin already has network-state; check it out instead") {
		t.Fatalf("start over an existing branch: ok=%v %s", ok, out)
	}
	if _, err := os.Stat(filepath.Join(c2, "other")); !os.IsNotExist(err) {
		t.Fatalf("a refused start made other/ (%v)", err)
	}

	// The first clone catches up when it checks out again.
	g.mustState(c1, "checkout")
	if _, err := os.Stat(filepath.Join(c1, "state", "sources", "b.json")); err != nil {
		t.Fatalf("re-running checkout did not bring the new commit: %v", err)
	}
}

func TestStateScriptRecoveryFromADeletedBranch(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	c1 := g.clone("c1")
	g.mustState(c1, "start")
	g.refresh(c1, "refresh one", map[string]string{"network.json": "1"})
	g.refresh(c1, "refresh two", map[string]string{"network.json": "2"})
	// The branch is corrupt or gone: delete it (seeds/state.txt, "Recovery").
	g.git(c1, "push", "-q", "origin", "--delete", "network-state")
	c2 := g.clone("c2")
	if out, ok := g.state(c2, nil, "checkout"); ok || !strings.Contains(out, "state.sh start") {
		t.Fatalf("checkout after deletion: ok=%v %s", ok, out)
	}
	if out := g.mustState(c2, "start"); !strings.Contains(out, "orphan") {
		t.Fatalf("start after deletion: %s", out)
	}
	g.refresh(c2, "refresh from nothing", map[string]string{"network.json": "3"})
	if commits := g.stateCommits(); len(commits) != 1 || !strings.HasSuffix(commits[0], "|refresh from nothing") {
		t.Fatalf("recovered branch: %q", commits)
	}
}

// A push goes only over what checkout saw: a run whose remote branch moved meanwhile (another
// run pushed) or was deleted and restarted (a recovery) pushes nothing, says why, and never
// resurrects the old history (b6 case 7: a plain push undid a recovery in progress).
func TestStateScriptPushOnlyOverWhatCheckoutSaw(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	c1 := g.clone("c1")
	g.mustState(c1, "start")
	g.refresh(c1, "refresh one", map[string]string{"network.json": "1"})

	// c2 checks out, then c1 pushes another refresh: c2's push is refused.
	c2 := g.clone("c2")
	g.mustState(c2, "checkout")
	g.refresh(c1, "refresh two", map[string]string{"network.json": "2"})
	g.write(filepath.Join(c2, "state", "network.json"), "late")
	msg := filepath.Join(g.root, "late.txt")
	g.write(msg, "late refresh\n")
	g.mustState(c2, "commit", msg)
	if out, ok := g.state(c2, nil, "push"); ok || !strings.Contains(out, "is no longer what checkout saw") {
		t.Fatalf("push over a moved branch: ok=%v %s", ok, out)
	}

	// c3 checks out; meanwhile the branch is deleted and restarted from nothing (recovery).
	c3 := g.clone("c3")
	g.mustState(c3, "checkout")
	g.git(c1, "push", "-q", "origin", "--delete", "network-state")
	g.write(filepath.Join(c3, "state", "network.json"), "old history")
	g.mustState(c3, "commit", msg)
	if out, ok := g.state(c3, nil, "push"); ok || !strings.Contains(out, "is no longer what checkout saw") {
		t.Fatalf("push over a deleted branch: ok=%v %s", ok, out)
	}
	if got := g.remoteGit("for-each-ref", "--format=%(refname)", "refs/heads/network-state"); got != "" {
		t.Fatalf("a deleted branch was resurrected: %s", got)
	}
	c4 := g.clone("c4")
	g.mustState(c4, "start")
	g.refresh(c4, "refresh from nothing", map[string]string{"network.json": "3"})
	if out, ok := g.state(c3, nil, "push"); ok || !strings.Contains(out, "is no longer what checkout saw") {
		t.Fatalf("push over a restarted branch: ok=%v %s", ok, out)
	}
	if commits := g.stateCommits(); len(commits) != 1 || !strings.HasSuffix(commits[0], "|refresh from nothing") {
		t.Fatalf("the recovered branch was changed: %q", commits)
	}
}

func TestStateScriptRefusesWhatItDoesNotOwn(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	c := g.clone("c")
	// A state directory that is not the worktree is never overwritten.
	g.write(filepath.Join(c, "state", "keep.txt"), "mine")
	out, ok := g.state(c, nil, "checkout")
	if ok || !strings.Contains(out, "state exists and is not the network-state worktree") {
		t.Fatalf("checkout over a foreign directory: ok=%v %s", ok, out)
	}
	if b, _ := os.ReadFile(filepath.Join(c, "state", "keep.txt")); string(b) != "mine" {
		t.Fatal("the foreign directory was changed")
	}
	msg := filepath.Join(g.root, "m.txt")
	g.write(msg, "summary\n")
	if out, ok := g.state(c, nil, "commit", msg); ok || !strings.Contains(out, "is not the network-state worktree") {
		t.Fatalf("commit outside the worktree: ok=%v %s", ok, out)
	}
	if out, ok := g.state(c, nil, "push"); ok || !strings.Contains(out, "is not the network-state worktree") {
		t.Fatalf("push outside the worktree: ok=%v %s", ok, out)
	}
	if err := os.RemoveAll(filepath.Join(c, "state")); err != nil {
		t.Fatal(err)
	}
	g.mustState(c, "start")
	if out, ok := g.state(c, nil, "commit", filepath.Join(g.root, "absent.txt")); ok || !strings.Contains(out, "missing or empty") {
		t.Fatalf("commit with no message: ok=%v %s", ok, out)
	}
	// An empty orphan has nothing to commit or push.
	if out := g.mustState(c, "commit", msg); !strings.Contains(out, "empty; no commit") {
		t.Fatalf("commit of an empty state: %s", out)
	}
	if out := g.mustState(c, "push"); !strings.Contains(out, "nothing to push") {
		t.Fatalf("push of an unborn branch: %s", out)
	}
	if out, ok := g.state(c, nil, "frobnicate"); ok || !strings.Contains(out, "state.sh checkout") {
		t.Fatalf("unknown subcommand: ok=%v %s", ok, out)
	}
	if got := g.remoteGit("for-each-ref", "--format=%(refname)"); got != "refs/heads/main" {
		t.Fatalf("remote refs after refused operations: %s", got)
	}
}

// A refresh run before `state.sh checkout` leaves a plain state/ that no commit can take:
// commit, push and checkout all refuse it, changing nothing, and say exactly what to do; doing
// it gives the state branch its commit.
func TestStateScriptExplainsAStateWrittenBeforeCheckout(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	c := g.clone("c")
	g.write(filepath.Join(c, "state", "network.json"), `{"observed_at":"2026-10-10T00:00:00Z"}`)
	msg := filepath.Join(g.root, "summary.txt")
	g.write(msg, "refresh 2026-10-10T00:00:00Z\n")
	want := []string{"state is a state written by a refresh, but not the network-state worktree",
		"mv state state.unbranched", "checkout state", "start state", "commit summary.txt state"}
	for _, args := range [][]string{{"commit", msg}, {"push"}, {"checkout"}} {
		out, ok := g.state(c, nil, args...)
		if ok {
			t.Fatalf("state.sh %v accepted a plain state directory:\n%s", args, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("state.sh %v does not say %q:\n%s", args, w, out)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(c, "state", "network.json")); !strings.Contains(string(b), "2026-10-10") {
		t.Fatal("the refused state was changed")
	}
	if got := g.remoteGit("for-each-ref", "--format=%(refname)"); got != "refs/heads/main" {
		t.Fatalf("remote refs after refusals: %s", got)
	}
	if out, ok := g.state(c, nil, "commit", msg, "nowhere"); ok || !strings.Contains(out, "nowhere does not exist; run:") {
		t.Fatalf("commit into a missing directory: ok=%v %s", ok, out)
	}

	// Following the instructions (the refresh faked by writing the file again).
	if err := os.Rename(filepath.Join(c, "state"), filepath.Join(c, "state.unbranched")); err != nil {
		t.Fatal(err)
	}
	g.mustState(c, "start", "state") // the remote has no network-state yet: first setup
	g.write(filepath.Join(c, "state", "network.json"), `{"observed_at":"2026-10-10T00:00:00Z"}`)
	g.mustState(c, "commit", msg, "state")
	g.mustState(c, "push", "state")
	if commits := g.stateCommits(); len(commits) != 1 {
		t.Fatalf("after following the instructions the state branch has %q", commits)
	}
}

// .github/added-sources.sh lists exactly the URLs a change adds to sources.toml: not the ones
// whose note changed or that moved.
func TestAddedSourcesListsOnlyNewURLs(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	script, err := filepath.Abs("../../.github/added-sources.sh")
	if err != nil {
		t.Fatal(err)
	}
	c := g.clone("c")
	src := filepath.Join(c, "network", "sources.toml")
	g.write(src, "# sites\n\n[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n\n"+
		"[[source]]\nurl = \"https://b.example/\"\nadded = \"2026-10-01\"\nnote = \"b\"\n")
	g.git(c, "add", ".")
	g.git(c, "commit", "-q", "-m", "sources")
	base := g.git(c, "rev-parse", "HEAD")
	g.write(src, "# sites\n\n[[source]]\nurl = \"https://b.example/\"\nadded = \"2026-10-01\"\nnote = \"b, note edited\"\n\n"+
		"[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n\n"+
		"[[source]]\nurl = \"https://c.example/mods/\"\nadded = \"2026-10-02\"\nnote = \"c\"\n\n"+
		"[[source]]\n  url   =   \"https://d.example/dreamweave.json\"  # indented\nadded = \"2026-10-02\"\nnote = \"d\"\n\n"+
		// Other spellings TOML allows, which refresh reads as well (b6 case 1: they skipped inspect).
		"[[source]]\nurl = 'https://e.example/'\nadded = \"2026-10-02\"\nnote = \"e\"\n\n"+
		"[[source]]\n\"url\" = \"https://f.example/\"\nadded = \"2026-10-02\"\nnote = \"f\"\n")
	run := func(args ...string) (string, bool) {
		cmd := exec.Command("bash", append([]string{script}, args...)...)
		cmd.Dir = c
		cmd.Env = g.env()
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	out, ok := run(base)
	if !ok || out != "https://c.example/mods/\nhttps://d.example/dreamweave.json\nhttps://e.example/\nhttps://f.example/\n" {
		t.Fatalf("added URLs: ok=%v %q", ok, out)
	}
	// A base without the file: everything is added.
	first := g.git(c, "rev-list", "--max-parents=0", "HEAD")
	if out, ok := run(first); !ok || strings.Count(out, "\n") != 6 {
		t.Fatalf("against a base without the file: ok=%v %q", ok, out)
	}
	if out, ok := run("no-such-revision"); ok || !strings.Contains(out, "unknown revision no-such-revision") {
		t.Fatalf("bad base: ok=%v %q", ok, out)
	}
	// A list that is not TOML fails the check instead of reading as "no sources added".
	g.write(src, "[[source\nurl = \"https://g.example/\"\n")
	if out, ok := run(base); ok || !strings.Contains(out, "is not a TOML source list") {
		t.Fatalf("broken list: ok=%v %q", ok, out)
	}
}

// .github/inspect-added.sh runs inspect on each added URL for the pull-request check, and no
// line of what inspect prints (publisher text) can become a GitHub Actions workflow command:
// each report is fenced by ::stop-commands:: and every line starting with "::" is neutralized.
// A failed inspect fails the script, after the other URLs were inspected too.
func TestInspectAddedFencesPublisherText(t *testing.T) {
	t.Parallel()
	g := newGitEnv(t)
	script, err := filepath.Abs("../../.github/inspect-added.sh")
	if err != nil {
		t.Fatal(err)
	}
	c := g.clone("c")
	if err := os.CopyFS(filepath.Join(c, ".github"), os.DirFS(filepath.Dir(script))); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(c, "network", "sources.toml")
	g.write(src, "[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n")
	g.git(c, "add", ".")
	g.git(c, "commit", "-q", "-m", "sources")
	base := g.git(c, "rev-parse", "HEAD")

	// A fake ashyams whose inspect prints what a hostile site could make it print, and fails
	// for bad.example.
	fake := filepath.Join(g.root, "fake-ashyams")
	g.write(fake, "#!/bin/sh\n"+
		"echo \"inspect $2\"\n"+
		"echo '::error file=x::pwned'\n"+
		"echo '   ::add-mask::secret'\n"+
		"echo 'name: ##[error]legacy'\n"+
		"echo '::stop-commands::guess' >&2\n"+
		"case $2 in *bad*) exit 1;; esac\n")
	if err := os.Chmod(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() (string, bool) {
		cmd := exec.Command("bash", filepath.Join(c, ".github", "inspect-added.sh"), base)
		cmd.Dir = c
		cmd.Env = g.env("ASHYAMS=" + fake)
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	if out, ok := run(); !ok || strings.TrimSpace(out) != "No sources added." {
		t.Fatalf("nothing added: ok=%v %q", ok, out)
	}

	g.write(src, "[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-01\"\nnote = \"a\"\n\n"+
		"[[source]]\nurl = \"https://bad.example/\"\nadded = \"2026-10-02\"\nnote = \"b\"\n\n"+
		"[[source]]\nurl = \"https://c.example/\"\nadded = \"2026-10-02\"\nnote = \"c\"\n")
	out, ok := run()
	if ok {
		t.Fatalf("a failed inspect did not fail the script:\n%s", out)
	}
	var token string
	fenced := false
	reports := 0
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		cmdLine := strings.HasPrefix(strings.TrimLeft(line, " \t"), "::")
		switch {
		case strings.HasPrefix(line, "::stop-commands::"):
			if fenced {
				t.Errorf("nested fence: %q", line)
			}
			token, fenced = strings.TrimPrefix(line, "::stop-commands::"), true
			if len(token) != 32 {
				t.Errorf("fence token %q is not 128 random bits in hex", token)
			}
		case fenced && line == "::"+token+"::":
			fenced = false
		case fenced:
			if cmdLine || strings.Contains(line, "##[") {
				t.Errorf("publisher text left as a workflow command: %q", line)
			}
			if strings.HasPrefix(line, "inspect ") {
				reports++
			}
		case line == "::endgroup::" || strings.HasPrefix(line, "::group::inspect https://"):
		case cmdLine:
			t.Errorf("unexpected workflow command outside the fences: %q", line)
		}
	}
	if fenced || reports != 2 {
		t.Errorf("fences unbalanced (%v) or %d reports, want 2 (bad.example and c.example):\n%s", fenced, reports, out)
	}
	for _, want := range []string{`\x3a:error file=x::pwned`, `   \x3a:add-mask::secret`, `##\x5berror]legacy`,
		"inspect found no readable site index, or a claim that would not be current, at: https://bad.example/"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "would not be current, at: https://c.example/") {
		t.Errorf("a passing inspect was reported as failed:\n%s", out)
	}
}
