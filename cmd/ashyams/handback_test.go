package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The hand-back runbook (docs/adoption.md), run as written against bare repositories: this
// repository ("ours", its main holding .github/state.sh) and the reference's, whose
// network-state holds a state the demo crawled. Both indexes' schedules are simulated and
// run after every step of the runbook unless their workflow is disabled; gh is a stand-in
// that records which workflow is disabled, and the test binary stands in for ashyams.

// referenceURL is the reference's repository as the runbook names it; the test replaces it
// with the local bare repository.
const referenceURL = "https://github.com/DreamWeave-MP/AsHyAmS.git"

// Workflows as the runbook's gh commands name them (--repo).
const (
	refRepo  = "DreamWeave-MP/AsHyAmS"
	oursRepo = "DreamWeave-MP/ashyams-go"
)

// fakeGH stands in for gh: it accepts only `workflow disable|enable network.yml --repo R` and
// `run list --workflow network.yml --repo R --limit 1`, and keeps a file per disabled
// repository's workflow.
const fakeGH = `#!/bin/sh
[ "$4" = --repo ] || [ "$1 $2" = "run list" ] || { echo "gh (test): unexpected: $*" >&2; exit 2; }
case "$1 $2 $3" in
"workflow disable network.yml") touch "$GH_STATE/$(echo "$5" | tr / _)" ;;
"workflow enable network.yml") rm -f "$GH_STATE/$(echo "$5" | tr / _)" ;;
"run list --workflow")
	[ "$4 $5 $7 $8" = "network.yml --repo --limit 1" ] || { echo "gh (test): unexpected: $*" >&2; exit 2; }
	printf 'completed\tsuccess\trefresh\tnetwork\tmain\tschedule\t1\t1m\t1h\n' ;;
*) echo "gh (test): unexpected: $*" >&2; exit 2 ;;
esac
`

type handback struct {
	t      *testing.T
	g      *gitEnv
	ours   string // this repository, bare
	ref    string // the reference's repository, bare
	refDir string // the reference's runner: a clone where its schedule commits
	runner string // this repository's runner: a clone where its schedule commits
	op     string // the operator's clone, where the runbook runs
	env    []string
	ghDir  string
	hour   int // the simulated clock: every refresh is one hour later
	blocks []docBlock
	ran    func(block int) // marks a block of blocks as run
}

// newHandback makes both repositories: ours with .github/state.sh on main, the reference's
// with network-state holding the demo's state (without this index's own files), committed by
// the reference. seed is that state.
func newHandback(t *testing.T, seed string, blocks []docBlock, ran func(int)) *handback {
	g := newGitEnv(t)
	h := &handback{t: t, g: g, ours: filepath.Join(g.root, "remote.git"), ref: filepath.Join(g.root, "reference.git"),
		blocks: blocks, ran: ran, ghDir: filepath.Join(g.root, "gh")}
	work := filepath.Join(g.root, "work")
	for _, f := range []string{"state.sh", "inert.sh"} {
		b, err := os.ReadFile(filepath.Join("..", "..", ".github", f))
		if err != nil {
			t.Fatal(err)
		}
		g.write(filepath.Join(work, ".github", f), string(b))
		if err := os.Chmod(filepath.Join(work, ".github", f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g.git(work, "add", ".")
	g.git(work, "commit", "-q", "-m", "the state script")
	g.git(work, "push", "-q", "origin", "main")

	bin := filepath.Join(g.root, "bin")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(h.ghDir, 0o755); err != nil {
		t.Fatal(err)
	}
	g.write(filepath.Join(bin, "gh"), fakeGH)
	if err := os.Chmod(filepath.Join(bin, "gh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "ashyams")); err != nil {
		t.Fatal(err)
	}
	h.env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"ASHYAMS_TEST_AS_COMMAND=1", "GH_STATE=" + h.ghDir}

	g.git(g.root, "init", "-q", "--bare", "reference.git")
	h.refDir = filepath.Join(g.root, "reference-runner")
	if err := os.CopyFS(h.refDir, os.DirFS(seed)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(h.refDir, "ashyams-go")); err != nil {
		t.Fatal(err)
	}
	g.git(h.refDir, "init", "-q", "-b", "network-state")
	g.git(h.refDir, "add", ".")
	g.git(h.refDir, "-c", "user.name=reference", "-c", "user.email=reference@example.invalid", "commit", "-q", "-m", "refresh by the reference")
	g.git(h.refDir, "push", "-q", "file://"+h.ref, "network-state")
	h.runner = g.clone("runner")
	h.op = g.clone("operator")
	return h
}

// head is a repository's network-state commit, or "" when it has none.
func (h *handback) head(bare string) string {
	out, err := exec.Command("git", "--git-dir", bare, "rev-parse", "-q", "--verify", "refs/heads/network-state").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func (h *handback) disabled(repo string) bool {
	_, err := os.Stat(filepath.Join(h.ghDir, strings.ReplaceAll(repo, "/", "_")))
	return err == nil
}

// observe rewrites the observation times of the state in dir, as every refresh does.
func (h *handback) observe(dir string) {
	h.hour++
	at := fmt.Sprintf(`"${1}": "2026-11-%02dT%02d:00:00Z"`, 1+h.hour/24, h.hour%24)
	times := regexp.MustCompile(`"(observed_at|last_attempt)": "[^"]*"`)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*", "claim.json"))
	origins, _ := filepath.Glob(filepath.Join(dir, "origins", "*", "origin.json"))
	for _, f := range append(append(append(files, more...), origins...), filepath.Join(dir, "network.json")) {
		if strings.Contains(f, "ashyams-go") || strings.Contains(f, string(filepath.Separator)+"events"+string(filepath.Separator)) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(f, times.ReplaceAll(b, []byte(at)), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

// refRun is one run of the reference's schedule, when its workflow is enabled or late says a
// run started before the pause: fetch, refresh (new times, its README.md; remove drops a
// site's records), commit, push. It returns the commit, or "".
func (h *handback) refRun(late bool, remove string) string {
	if !late && h.disabled(refRepo) {
		return ""
	}
	g := h.g
	g.git(h.refDir, "fetch", "-q", "file://"+h.ref, "network-state")
	g.git(h.refDir, "reset", "-q", "--hard", "FETCH_HEAD")
	h.observe(h.refDir)
	g.write(filepath.Join(h.refDir, "README.md"), "# the reference's state\n")
	if remove != "" {
		for _, p := range []string{"sources/" + remove + "-*.json", "origins/" + remove + "-*", "claims/*/" + remove + "-*"} {
			m, _ := filepath.Glob(filepath.Join(h.refDir, p))
			if len(m) == 0 {
				h.t.Fatalf("the reference's state has no %s", p)
			}
			for _, f := range m {
				if err := os.RemoveAll(f); err != nil {
					h.t.Fatal(err)
				}
			}
		}
	}
	g.git(h.refDir, "add", "-A", ".")
	g.git(h.refDir, "-c", "user.name=reference", "-c", "user.email=reference@example.invalid", "commit", "-q", "-m", "refresh by the reference")
	g.git(h.refDir, "push", "-q", "file://"+h.ref, "network-state")
	return h.head(h.ref)
}

// ourRun is one run of this index's schedule as network.yml runs it on a fresh runner, when
// its workflow is enabled and the branch exists: checkout, refresh (new times, its own
// README), commit, push, with .github/state.sh.
func (h *handback) ourRun() string {
	if h.disabled(oursRepo) || h.head(h.ours) == "" {
		return ""
	}
	g := h.g
	if err := os.RemoveAll(filepath.Join(h.runner, "state")); err != nil {
		h.t.Fatal(err)
	}
	g.git(h.runner, "worktree", "prune")
	h.runnerState("checkout")
	state := filepath.Join(h.runner, "state")
	h.observe(state)
	g.write(filepath.Join(state, "ashyams-go", "README.md"), "# this index's own files\n")
	summary := filepath.Join(g.root, "summary.txt")
	g.write(summary, fmt.Sprintf("refresh %d\n", h.hour))
	h.runnerState("commit", summary)
	h.runnerState("push")
	return h.head(h.ours)
}

// runnerState runs .github/state.sh on this index's runner with the workflow's environment:
// no author set, so its commits carry the author state.sh gives them.
func (h *handback) runnerState(args ...string) {
	h.t.Helper()
	var env []string
	for _, e := range h.g.env() {
		if !strings.HasPrefix(e, "GIT_AUTHOR_") {
			env = append(env, e)
		}
	}
	cmd := exec.Command("bash", append([]string{h.g.script}, args...)...)
	cmd.Dir, cmd.Env = h.runner, env
	if out, err := cmd.CombinedOutput(); err != nil {
		h.t.Fatalf("state.sh %s on the runner: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// tick runs both schedules once, each only when enabled.
func (h *handback) tick() { h.refRun(false, ""); h.ourRun() }

// step runs the i-th sh block under heading in docs/adoption.md, as written but for the
// reference's URL, in the operator's clone, as one bash -e script; then both schedules run.
// It returns what the block printed and whether it succeeded.
func (h *handback) step(heading string, i int) (string, bool) {
	h.t.Helper()
	n := -1
	for k, b := range h.blocks {
		if b.heading != heading {
			continue
		}
		if n++; n != i {
			continue
		}
		h.ran(k)
		script := strings.ReplaceAll(b.text, referenceURL, "file://"+h.ref)
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = h.op
		cmd.Env = h.g.env(h.env...)
		out, err := cmd.CombinedOutput()
		h.tick()
		return string(out), err == nil
	}
	h.t.Fatalf("docs/adoption.md has no sh block %d under %q", i+1, heading)
	return "", false
}

func (h *handback) mustStep(heading string, i int) string {
	h.t.Helper()
	out, ok := h.step(heading, i)
	if !ok {
		h.t.Fatalf("adoption.md, %q, block %d failed:\n%s", heading, i+1, out)
	}
	return out
}

const (
	takeOverPause  = "Take over > 1. Pause both schedules"
	takeOverBring  = "Take over > 2. Bring the reference's branch over"
	takeOverResume = "Take over > 4. Resume this index's schedule"
	handPause      = "Hand back > 1. Pause this index's schedule"
	handPush       = "Hand back > 2. Push the branch to the reference"
	handRecover    = "Hand back > 3. If the push was rejected: rebase or reset"
	handResume     = "Hand back > 4. Resume the reference's schedule"
	dropCommits    = "Drop this index's commits"
)

// takeOver runs "Take over" but its first refresh; remote says the clone lacks the reference
// remote. Then this repository's network-state and the operator's state/ are the reference's.
func (h *handback) takeOver(remote bool) {
	h.t.Helper()
	h.mustStep(takeOverPause, 0)
	if !h.disabled(refRepo) || !h.disabled(oursRepo) {
		h.t.Fatal("step 1 of Take over left a schedule enabled")
	}
	if remote {
		h.mustStep(takeOverBring, 0)
	}
	want := h.head(h.ref)
	h.mustStep(takeOverBring, 1)
	if got := h.head(h.ours); got != want {
		h.t.Fatalf("after Take over, this repository's network-state is %s, want the reference's %s", got, want)
	}
	if got := h.g.git(filepath.Join(h.op, "state"), "rev-parse", "HEAD"); got != want {
		h.t.Fatalf("after Take over, state/ is at %s, want %s", got, want)
	}
	if h.head(h.ref) != want {
		h.t.Fatal("the reference's schedule ran during Take over")
	}
	h.mustStep(takeOverResume, 0)
}

// isAncestor reports whether commit a is an ancestor of b (or b) in repository git-dir bare.
func isAncestor(bare, a, b string) bool {
	return exec.Command("git", "--git-dir", bare, "merge-base", "--is-ancestor", a, b).Run() == nil
}

// treeOf lists commit's files in bare with their blob ids.
func (h *handback) treeOf(bare, commit string) map[string]string {
	out := h.g.git(bare, "ls-tree", "-r", commit)
	m := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		meta, path, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		m[path] = f[2]
	}
	return m
}

func TestHandBackRunbook(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/adoption.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(doc), referenceURL); n != 1 {
		t.Fatalf("adoption.md names %s %d times, want once (git remote add)", referenceURL, n)
	}
	if _, err := os.Stat("../../.github/workflows/network.yml"); err != nil {
		t.Fatalf("the workflow the runbook pauses: %v", err)
	}
	blocks := docBlocks("adoption.md", string(doc))
	var mu sync.Mutex
	ran, done := map[int]bool{}, 0
	mark := func(k int) { mu.Lock(); ran[k] = true; mu.Unlock() }
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	seed := filepath.Join(t.TempDir(), "state")
	demo := exec.Command(self, "demo", "--state", seed, "--out", filepath.Join(t.TempDir(), "public"))
	demo.Env = append(os.Environ(), "ASHYAMS_TEST_AS_COMMAND=1", "TMPDIR="+t.TempDir())
	if out, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range handbackScenarios {
			t.Run(sc.name, func(t *testing.T) {
				if testing.Short() && sc.name != "reference moved, rebase" {
					t.Skip("-short runs one scenario of five (each costs ~10 s of git); the full run, all")
				}
				t.Parallel()
				newHandback(t, seed, blocks, mark).scenario(sc)
				mu.Lock()
				done++
				mu.Unlock()
			})
		}
	})
	// Every block the readme test leaves to this test ran (when every scenario did).
	for k, b := range blocks {
		if done == len(handbackScenarios) && runBy(b)[1] == "TestHandBackRunbook" && !ran[k] {
			t.Errorf("adoption.md's block under %q was not run:\n%s", b.heading, b.text)
		}
	}
}

// handbackScenario is one way a hand-back goes: the reference's branch moved by a late run of
// its schedule (removing a site's records, when remove names one) or not, then recover.
type handbackScenario struct {
	name    string
	late    bool
	remove  string
	recover func(t *testing.T, h *handback, fork, late string)
}

// scenario takes over, lets this index's schedule commit twice, hands back (the reference's
// late run in between when sc.late), recovers, resumes the reference's schedule, which
// commits once, and takes over again.
func (h *handback) scenario(sc handbackScenario) {
	t := h.t
	h.tick() // the reference's schedule, before anything is paused
	h.takeOver(true)
	fork := h.head(h.ref)
	h.tick()
	mine := h.head(h.ours)
	if isAncestor(h.ours, mine, fork) || h.g.git(h.ours, "rev-list", "--count", fork+".."+mine) != "2" {
		t.Fatalf("this index's schedule did not commit on the taken-over branch (%s..%s)", fork, mine)
	}
	h.mustStep(handPause, 0)
	if h.ourRun() != "" {
		t.Fatal("this index's schedule ran after Hand back's step 1")
	}
	late := ""
	if sc.late {
		late = h.refRun(true, sc.remove)
	}
	out, ok := h.step(handPush, 0)
	if !sc.late && (!ok || h.head(h.ref) != mine) {
		t.Fatalf("the hand-back push: ok=%v, reference at %s, want %s\n%s", ok, h.head(h.ref), mine, out)
	}
	if sc.late && (ok || !strings.Contains(out, "[rejected]") || h.head(h.ref) != late) {
		t.Fatalf("the push over a moved reference: ok=%v, reference at %s (want %s unchanged)\n%s", ok, h.head(h.ref), late, out)
	}
	if sc.recover != nil {
		sc.recover(t, h, fork, late)
	}
	before := h.head(h.ref)
	h.mustStep(handResume, 0)
	resumed := h.head(h.ref)
	if resumed == before || !isAncestor(h.ref, before, resumed) || h.head(h.ours) != mine {
		t.Fatalf("after Hand back's step 4: reference %s -> %s, ours %s (want %s)", before, resumed, h.head(h.ours), mine)
	}
	// Take over again, in the same clone: this repository's branch becomes the reference's,
	// whatever the hand-back left in it.
	h.takeOver(false)
	h.tick()
	if again := h.head(h.ours); !isAncestor(h.ours, resumed, again) || again == resumed || h.head(h.ref) != resumed {
		t.Fatalf("after taking over again: ours %s on top of %s? reference %s", again, resumed, h.head(h.ref))
	}
}

var handbackScenarios = []handbackScenario{
	{name: "reference unchanged"},
	{name: "commits dropped after the push", recover: func(t *testing.T, h *handback, fork, _ string) {
		h.mustStep(dropCommits, 0)
		if got := h.head(h.ref); got != fork {
			t.Fatalf("after dropping this index's commits the reference is at %s, want %s (the commit taken over)", got, fork)
		}
		// Nothing of this index's is left: the same commands fail, saying so, and change nothing.
		out, ok := h.step(dropCommits, 0)
		if ok || !strings.Contains(out, "no commit of this index on the branch") || h.head(h.ref) != fork {
			t.Fatalf("dropping again: ok=%v, reference at %s\n%s", ok, h.head(h.ref), out)
		}
	}},
	{name: "reference moved, rebase", late: true, recover: func(t *testing.T, h *handback, _, late string) {
		mine := h.head(h.ours)
		out := h.mustStep(handRecover, 0)
		if !strings.Contains(out, "refresh by the reference") || strings.Count(out, "refresh ") != 3 {
			t.Errorf("the two git log lists: want the reference's late commit and this index's two:\n%s", out)
		}
		h.mustStep(handRecover, 1)
		head := h.head(h.ref)
		if !isAncestor(h.ref, late, head) || h.g.git(h.ref, "rev-list", "--count", late+".."+head) != "2" {
			t.Fatalf("the reference is at %s, want this index's 2 commits on top of %s", head, late)
		}
		if a := h.g.git(h.ref, "log", "--format=%ae", late+".."+head); strings.Count(a, "ashyams-refresh@users.noreply.github.com") != 2 {
			t.Errorf("rebased commits' authors: %q", a)
		}
		// The top is this index's last tree, with the reference's README.md it did not touch.
		got, want := h.treeOf(h.ref, head), h.treeOf(h.ours, mine)
		want["README.md"] = h.treeOf(h.ref, late)["README.md"]
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("the rebased tree differs from this index's last one plus the reference's README.md:\n got %v\nwant %v", keys(got), keys(want))
		}
	}},
	{name: "reference moved, rebase stops, reset", late: true, remove: "broken-example", recover: func(t *testing.T, h *handback, _, late string) {
		mine := h.head(h.ours)
		h.mustStep(handRecover, 0)
		out, ok := h.step(handRecover, 1)
		if ok || !strings.Contains(out, "CONFLICT (modify/delete)") {
			t.Fatalf("the rebase over a deleted site: ok=%v\n%s", ok, out)
		}
		h.mustStep(handRecover, 2) // rebase --abort
		if got := h.g.git(filepath.Join(h.op, "state"), "rev-parse", "HEAD"); got != mine || h.head(h.ref) != late {
			t.Fatalf("after rebase --abort: state/ at %s (want %s), reference at %s (want %s)", got, mine, h.head(h.ref), late)
		}
		reset(t, h, late)
	}},
	{name: "reference moved, reset", late: true, recover: func(t *testing.T, h *handback, _, late string) {
		h.mustStep(handRecover, 0)
		reset(t, h, late)
	}},
}

// reset runs the reset of Hand back's step 3: state/ becomes the reference's late commit,
// which stays the reference's head, and no commit of this index's is in either.
func reset(t *testing.T, h *handback, late string) {
	t.Helper()
	h.mustStep(handRecover, 3)
	state := filepath.Join(h.op, "state")
	if got := h.g.git(state, "rev-parse", "HEAD"); got != late || h.head(h.ref) != late {
		t.Fatalf("after the reset: state/ at %s, reference at %s, want both %s", got, h.head(h.ref), late)
	}
	if s := h.g.git(state, "status", "--porcelain"); s != "" {
		t.Fatalf("state/ after the reset is not the reference's commit:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(state, "ashyams-go")); !os.IsNotExist(err) {
		t.Errorf("state/ keeps this index's own files after the reset: %v", err)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
