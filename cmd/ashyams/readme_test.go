package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README and the guides in docs/ say every command in them is run by .ci/run or by a test.
// This test keeps that true: each command line of their ```sh blocks must appear in .ci/run as written,
// or be named by a "# README: <command>" line in .ci/run (just above the form .ci/run runs:
// a temporary directory for a fixed path, the corpus replay for a real site), or be listed in
// readmeByTest with the test that runs it.

// readmeByTest maps README commands that no script can run offline to the test that runs them
// (file and test function).
var readmeByTest = map[string][2]string{
	`ashyams add https://someone.github.io/their-mods/ --note "Why this site is enrolled, in one line"`: {
		"add_test.go", "TestAddAppendsEntryKeepingEveryByte"},
	// docs/adoption.md: run against a local bare remote standing for the reference's repository.
	`git remote add reference https://github.com/DreamWeave-MP/AsHyAmS.git`:         {"continuation_test.go", "TestContinueTheReferenceState"},
	`git fetch reference network-state`:                                             {"continuation_test.go", "TestContinueTheReferenceState"},
	`git push origin refs/remotes/reference/network-state:refs/heads/network-state`: {"continuation_test.go", "TestContinueTheReferenceState"},
	`git -C state status --short`:                                                   {"continuation_test.go", "TestContinueTheReferenceState"},
	`git push reference network-state`:                                              {"continuation_test.go", "TestContinueTheReferenceState"},
}

// trailingComment is a shell comment after a command: whitespace, '#', whitespace.
var trailingComment = regexp.MustCompile(`\s+#\s.*$`)

// shellCommands returns the command lines of a README's ```sh blocks: trimmed, without a
// trailing comment, skipping blank and comment-only lines.
func shellCommands(readme string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(readme, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case !in && t == "```sh":
			in = true
		case in && t == "```":
			in = false
		case in && t != "" && !strings.HasPrefix(t, "#"):
			out = append(out, strings.TrimSpace(trailingComment.ReplaceAllString(t, "")))
		}
	}
	return out
}

// ciCovers reports whether the .ci/run text runs cmd as written (in one of its lines, that
// line's own comment removed) or names it in a "# README: cmd" line.
func ciCovers(ci, cmd string) bool {
	for _, line := range strings.Split(ci, "\n") {
		t := strings.TrimSpace(line)
		if t == "# README: "+cmd {
			return true
		}
		if !strings.HasPrefix(t, "#") && strings.Contains(trailingComment.ReplaceAllString(t, ""), cmd) {
			return true
		}
	}
	return false
}

// runbookFiles are the files whose commands .ci/run or a test must run: README.md and docs/*.md.
func runbookFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no guides in docs/")
	}
	return append([]string{"../../README.md"}, docs...)
}

func TestEveryREADMECommandIsRun(t *testing.T) {
	var readme []byte
	for _, f := range runbookFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		readme = append(append(readme, b...), '\n')
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	cmds := shellCommands(string(readme))
	if len(cmds) < 40 {
		t.Fatalf("found only %d commands in the README's sh blocks: %q", len(cmds), cmds)
	}
	for _, c := range cmds {
		if ciCovers(string(ci), c) {
			continue
		}
		if by, ok := readmeByTest[c]; ok {
			src, err := os.ReadFile(by[0])
			if err != nil || !strings.Contains(string(src), "func "+by[1]+"(t *testing.T)") {
				t.Errorf("README command %q is said to be run by %s in %s, which has no such test", c, by[1], by[0])
			}
			continue
		}
		t.Errorf("README command %q is neither in .ci/run nor named there by a \"# README: \" line, nor run by a listed test", c)
	}
	// A "# README:" line must name a command the README still has.
	have := map[string]bool{}
	for _, c := range cmds {
		have[c] = true
	}
	for _, line := range strings.Split(string(ci), "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(line), "# README: "); ok && !have[c] {
			t.Errorf(".ci/run names %q as a README command, but the README has no such command", c)
		}
	}
	for c := range readmeByTest {
		if !have[c] {
			t.Errorf("readmeByTest lists %q, which the README no longer has", c)
		}
	}
}

func TestShellCommandsAndCiCovers(t *testing.T) {
	readme := "text\n```sh\n# only a comment\nashyams check    # the state\n\n  sed \"s#a#b#\" f\n```\n```\nnot sh\n```\n" +
		"  ```sh\n  ashyams inspect URL\n  ```\n"
	got := strings.Join(shellCommands(readme), "|")
	if got != `ashyams check|sed "s#a#b#" f|ashyams inspect URL` {
		t.Fatalf("shellCommands = %q", got)
	}
	ci := "\tashyams check --state x # comment\n# README: ashyams inspect URL\n# ashyams build\n"
	for cmd, want := range map[string]bool{
		"ashyams check":       true,
		"ashyams inspect URL": true,
		"ashyams build":       false, // in a comment only
		"comment":             false, // in a trailing comment only
		"ashyams serve":       false,
	} {
		if ciCovers(ci, cmd) != want {
			t.Errorf("ciCovers(%q) = %v, want %v", cmd, !want, want)
		}
	}
}
