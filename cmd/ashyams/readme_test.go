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
	// docs/adoption.md's first refresh: run on the corpus state under realnet.py.
	`git -C state status --short`: {"continuation_test.go", "TestContinueTheReferenceState"},
	// README.md's command for players, run against a loopback index.
	playerInstall: {"install_test.go", "TestPlayersCommands"},
}

// sectionsByTest maps a guide's section ("file#H2" or "file#H2 > H3") to the test that runs
// every command of its sh blocks as written; the most specific heading wins, and an empty
// value leaves a section's commands to .ci/run and readmeByTest.
var sectionsByTest = map[string][2]string{
	"adoption.md#Take over":                        {"handback_test.go", "TestHandBackRunbook"},
	"adoption.md#Take over > 3. The first refresh": {},
	"adoption.md#Hand back":                        {"handback_test.go", "TestHandBackRunbook"},
	"adoption.md#Drop this index's commits":        {"handback_test.go", "TestHandBackRunbook"},
	"players.md#Install a plan in three steps":     {"install_test.go", "TestPlayersCommands"},
}

// docBlock is one ```sh block of a guide: the file's base name, the headings it sits under
// ("H2" or "H2 > H3"), its text and its command lines (as shellCommands gives them).
type docBlock struct {
	file, heading, text string
	cmds                []string
}

// docBlocks returns the ```sh blocks of a guide, in order.
func docBlocks(file, doc string) []docBlock {
	var out []docBlock
	var h2, h3 string
	var cur *docBlock
	other := false // inside a fenced block that is not sh
	for _, line := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(t, "```") && (other || t != "```sh"):
			other = !other
		case other:
		case cur == nil && t == "```sh":
			heading := h2
			if h3 != "" {
				heading += " > " + h3
			}
			cur = &docBlock{file: file, heading: heading}
		case cur != nil && t == "```":
			cur.cmds = shellCommands("```sh\n" + cur.text + "```\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		case strings.HasPrefix(line, "## "):
			h2, h3 = strings.TrimPrefix(line, "## "), ""
		case strings.HasPrefix(line, "### "):
			h3 = strings.TrimPrefix(line, "### ")
		}
	}
	return out
}

// runBy is the test that runs every command of b by its section, or none.
func runBy(b docBlock) [2]string {
	h2, _, _ := strings.Cut(b.heading, " > ")
	if by, ok := sectionsByTest[b.file+"#"+b.heading]; ok {
		return by
	}
	return sectionsByTest[b.file+"#"+h2]
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
	var blocks []docBlock
	for _, f := range runbookFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, docBlocks(filepath.Base(f), string(b))...)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, b := range blocks {
		cmds = append(cmds, b.cmds...)
	}
	if len(cmds) < 40 {
		t.Fatalf("found only %d commands in the README's sh blocks: %q", len(cmds), cmds)
	}
	hasTest := func(by [2]string) bool {
		src, err := os.ReadFile(by[0])
		return err == nil && strings.Contains(string(src), "func "+by[1]+"(t *testing.T)")
	}
	for _, b := range blocks {
		if by := runBy(b); by[1] != "" {
			if !hasTest(by) {
				t.Errorf("%s's section %q is said to be run by %s in %s, which has no such test", b.file, b.heading, by[1], by[0])
			}
			continue
		}
		for _, c := range b.cmds {
			if ciCovers(string(ci), c) {
				continue
			}
			if by, ok := readmeByTest[c]; ok {
				if !hasTest(by) {
					t.Errorf("README command %q is said to be run by %s in %s, which has no such test", c, by[1], by[0])
				}
				continue
			}
			t.Errorf("%s command %q (under %q) is neither in .ci/run nor named there by a \"# README: \" line, nor run by a listed test", b.file, c, b.heading)
		}
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
	sections := map[string]bool{}
	for _, b := range blocks {
		h2, _, _ := strings.Cut(b.heading, " > ")
		sections[b.file+"#"+b.heading], sections[b.file+"#"+h2] = true, true
	}
	for s := range sectionsByTest {
		if !sections[s] {
			t.Errorf("sectionsByTest lists %q, which has no sh block", s)
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

func TestDocBlocksCarryTheirHeadings(t *testing.T) {
	doc := "# Title\n```sh\na\n```\n## Take over\ntext\n```sh\nb # why\n\nc\n```\n### 3. The first refresh\n" +
		"```sh\nd\n```\n```text\n## not a heading\n```\n```sh\nf\n```\n## Other\n  ```sh\n  e\n  ```\n"
	var got []string
	for _, b := range docBlocks("adoption.md", doc) {
		got = append(got, b.heading+"="+strings.Join(b.cmds, ",")+"="+runBy(b)[1])
	}
	want := []string{"=a=", "Take over=b,c=TestHandBackRunbook", "Take over > 3. The first refresh=d=",
		"Take over > 3. The first refresh=f=", "Other=e="}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("docBlocks = %q, want %q", got, want)
	}
}
