package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnknownCommandIsUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run(&env{stdout: &out, stderr: &errb}, []string{"no-such-command"}); got != 2 {
		t.Fatalf("exit %d, want 2", got)
	}
	if !bytes.Contains(errb.Bytes(), []byte(`unknown command "no-such-command"`)) {
		t.Fatalf("stderr does not name the command: %s", errb.String())
	}
}

func TestNoArgumentsIsUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run(&env{stdout: &out, stderr: &errb}, nil); got != 2 {
		t.Fatalf("exit %d, want 2", got)
	}
}

func TestHelpAskedForGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		var out, errb bytes.Buffer
		if got := run(&env{stdout: &out, stderr: &errb}, args); got != 0 {
			t.Fatalf("%v: exit %d, want 0", args, got)
		}
		if !bytes.Contains(out.Bytes(), []byte("commands:")) || errb.Len() != 0 {
			t.Fatalf("%v: stdout %q, stderr %q", args, out.String(), errb.String())
		}
	}
}

func TestHelpForACommand(t *testing.T) {
	for _, args := range [][]string{{"help", "build"}, {"build", "-h"}} {
		var out, errb bytes.Buffer
		if got := run(&env{stdout: &out, stderr: &errb}, args); got != 0 {
			t.Fatalf("%v: exit %d, want 0 (stderr %q)", args, got, errb.String())
		}
		if !bytes.HasPrefix(out.Bytes(), []byte("usage: ashyams build [flags]\n")) {
			t.Fatalf("%v: stdout does not start with the build usage line: %q", args, out.String())
		}
	}
}

func TestUnknownFlagUsageGoesToStderr(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run(&env{stdout: &out, stderr: &errb}, []string{"build", "--no-such-flag"}); got != 2 {
		t.Fatalf("exit %d, want 2", got)
	}
	if out.Len() != 0 || !bytes.Contains(errb.Bytes(), []byte("usage: ashyams build [flags]")) {
		t.Fatalf("stdout %q, stderr %q", out.String(), errb.String())
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run(&env{stdout: &out, stderr: &errb}, []string{"version"}); got != 0 {
		t.Fatalf("exit %d", got)
	}
	if !bytes.Contains(out.Bytes(), []byte("AsHyAmS/0.1.0 (+https://github.com/DreamWeave-MP/AsHyAmS)")) {
		t.Fatalf("version output lacks the user agent: %q", out.String())
	}
}

func TestDidYouMean(t *testing.T) {
	cases := map[string]string{"biuld": "build", "refesh": "refresh", "chek": "check", "inspec": "inspect", "check-sit": "check-site"}
	for typo, want := range cases {
		var out, errb bytes.Buffer
		if got := run(&env{stdout: &out, stderr: &errb}, []string{typo}); got != 2 {
			t.Fatalf("%s: exit %d, want 2", typo, got)
		}
		if !bytes.Contains(errb.Bytes(), []byte(`did you mean "`+want+`"?`)) {
			t.Errorf("%s: no suggestion of %s in %q", typo, want, errb.String())
		}
	}
	var out, errb bytes.Buffer
	run(&env{stdout: &out, stderr: &errb}, []string{"zzzzzzzz"})
	if bytes.Contains(errb.Bytes(), []byte("did you mean")) {
		t.Errorf("a far-off word got a suggestion: %q", errb.String())
	}
}

func TestNoUsageLineEndsInSpace(t *testing.T) {
	for name := range commands {
		var out, errb bytes.Buffer
		run(&env{stdout: &out, stderr: &errb}, []string{name, "-h"})
		first, _, _ := bytes.Cut(out.Bytes(), []byte("\n"))
		if bytes.HasSuffix(first, []byte(" ")) || !bytes.HasPrefix(first, []byte("usage: ashyams "+name)) {
			t.Errorf("%s -h: first line %q", name, first)
		}
	}
}

// TestHelpAndVersionAreCommands: both are in the list, so `help help`, `help version` and
// their -h work like any command's, the aliases the list names run them, and version takes no
// flag or argument (a usage error, not silently ignored).
func TestHelpAndVersionAreCommands(t *testing.T) {
	for _, c := range []struct {
		args     []string
		rc       int
		stdout   string // prefix of stdout
		stderrRe string // substring of stderr ("" = stderr empty)
	}{
		{[]string{"help", "help"}, 0, "usage: ashyams help [COMMAND]\n", ""},
		{[]string{"help", "-h"}, 0, "usage: ashyams help [COMMAND]\n", ""},
		{[]string{"help", "version"}, 0, "usage: ashyams version\n", ""},
		{[]string{"version", "-h"}, 0, "usage: ashyams version\n", ""},
		{[]string{"--version"}, 0, "ashyams ", ""},
		{[]string{"-version"}, 0, "ashyams ", ""},
		{[]string{"-h", "build"}, 0, "usage: ashyams build [flags]\n", ""},
		{[]string{"version", "--json"}, 2, "", "ashyams version: flag provided but not defined: -json\nusage: ashyams version\n"},
		{[]string{"version", "extra"}, 2, "", "ashyams version: unexpected argument \"extra\"\nusage: ashyams version\n"},
		{[]string{"help", "biuld"}, 2, "", "ashyams help: unknown command \"biuld\"; did you mean \"build\"?\n"},
		{[]string{"help", "build", "check"}, 2, "", "ashyams help: unexpected argument \"check\" (help takes one command)\n"},
	} {
		var out, errb bytes.Buffer
		rc := run(&env{stdout: &out, stderr: &errb}, c.args)
		if rc != c.rc || !strings.HasPrefix(out.String(), c.stdout) ||
			(c.stderrRe == "" && errb.Len() != 0) || !strings.Contains(errb.String(), c.stderrRe) {
			t.Errorf("%q: exit %d (want %d)\nstdout %q (want prefix %q)\nstderr %q (want %q)", c.args, rc, c.rc, out.String(), c.stdout, errb.String(), c.stderrRe)
		}
	}
	var out bytes.Buffer
	run(&env{stdout: &out, stderr: &out}, []string{"help"})
	for _, want := range []string{"\n  help ", "\n  version ", "--version", "--help", "one dash or two"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the command list does not name %q:\n%s", want, out.String())
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		word, want string
	}{
		{0, "project", "0 projects"}, {1, "project", "1 project"}, {2, "project", "2 projects"},
		{1, "identity conflict", "1 identity conflict"}, {3, "identity conflict", "3 identity conflicts"},
		{2, "broken invariant", "2 broken invariants"}, {2, "match", "2 matches"}, {2, "address", "2 addresses"},
		{2, "entry", "2 entries"}, {2, "day", "2 days"}, {1, "entry", "1 entry"},
	} {
		if got := plural(c.n, c.word); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}

// TestWithoutPrefixAndStage: a wrapped error's repeated command or stage name is dropped, once
// or several times, with or without "ashyams "; other text (a path that happens to contain the
// name) is kept.
func TestWithoutPrefixAndStage(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"check-site: lstat public: no such file", "lstat public: no such file"},
		{"ashyams check-site: check-site: x", "x"},
		{"lstat check-site: x", "lstat check-site: x"},
		{"x: check-site: y", "x: check-site: y"},
	} {
		if got := withoutPrefix(c.msg, "check-site"); got != c.want {
			t.Errorf("withoutPrefix(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	if got := stage("demo", "build", errors.New("build: output x is not empty")); got != "build: output x is not empty" {
		t.Errorf("stage = %q", got)
	}
	if got := stage("demo", "refresh 2", errors.New("refresh: state: x")); got != "refresh 2: state: x" {
		t.Errorf("stage = %q", got)
	}
	var errb bytes.Buffer
	(&env{stderr: &errb}).errorf("demo", "%s", stage("demo", "build", errors.New("demo: build: build: two\nlines")))
	if errb.String() != "ashyams demo: build: two\nashyams demo: lines\n" {
		t.Errorf("errorf printed %q", errb.String())
	}
}

// TestEveryErrorLineHasThePrefixOnce runs every command with a flag it does not define, an
// argument it does not take, and a path that is not there (a state, a built site, a source
// list; inspect: a URL it refuses). Every error line on stderr, up to the usage that follows a
// usage error, starts with "ashyams <command>: " exactly once, and no label is repeated after
// it ("build: build: ..."); a missing state is said in noStateMessage's words.
func TestEveryErrorLineHasThePrefixOnce(t *testing.T) {
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "missing")
	foreign := filepath.Join(tmp, "foreign") // not empty, not a build
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	type cse struct {
		args  []string
		rc    int
		want  string // a substring of the error lines ("" = any)
		quiet bool   // the command reports on stdout; stderr stays empty
	}
	noState := noStateMessage(missing)
	cases := map[string][]cse{
		"add": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"https://a.example/", "--note", "x", "extra"}, rc: 2},
			{args: []string{"https://a.example/", "--note", "x", "--state", missing}, rc: 1, want: noState}},
		"build": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--state", missing, "--out", filepath.Join(tmp, "public")}, rc: 1, want: noState}},
		"check": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--state", missing}, rc: 1, want: noState}},
		"check-site": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--out", missing}, rc: 1, want: missing}},
		"demo": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--out", foreign}, rc: 1, want: foreign + " is not empty"}},
		"diff": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--state", missing}, rc: 1, want: noState}},
		"inspect": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"https://a.example/", "extra"}, rc: 2},
			{args: []string{"ftp://a.example/"}, rc: 1, want: "ftp://a.example/"}},
		"refresh": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--sources", missing, "--state", filepath.Join(tmp, "state")}, rc: 1, want: missing}},
		"serve": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--out", missing, "--addr", "127.0.0.1:0"}, rc: 1, want: missing}},
		"validate": {{args: []string{"--bogus"}, rc: 2}, {args: nil, rc: 2},
			{args: []string{missing}, rc: 1, quiet: true}},
		"install": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"a", "b", "--mods", missing}, rc: 2},
			{args: []string{missing, "--mods", missing}, rc: 1, want: missing}},
		"update": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"extra"}, rc: 2},
			{args: []string{"--mods", missing}, rc: 1, want: missing}},
		"uninstall": {{args: []string{"--bogus"}, rc: 2}, {args: []string{"x"}, rc: 2},
			{args: []string{"--mods", missing}, rc: 1, want: missing}},
		"help":    {{args: []string{"--bogus"}, rc: 2}, {args: []string{"no-such-command"}, rc: 2}},
		"version": {{args: []string{"--json"}, rc: 2}, {args: []string{"extra"}, rc: 2}},
	}
	for name := range commands {
		if _, ok := cases[name]; !ok {
			t.Errorf("command %s has no cases here: add its bad flag, bad argument and missing path", name)
		}
	}
	t.Setenv("TMPDIR", t.TempDir()) // demo's work directory
	for name, cs := range cases {
		for _, c := range cs {
			var out, errb bytes.Buffer
			args := append([]string{name}, c.args...)
			rc := run(&env{stdout: &out, stderr: &errb}, args)
			if rc != c.rc {
				t.Errorf("%q: exit %d, want %d\nstdout %q\nstderr %q", args, rc, c.rc, out.String(), errb.String())
			}
			if c.quiet {
				if errb.Len() != 0 {
					t.Errorf("%q: stderr %q, want none (the report is on stdout)", args, errb.String())
				}
				continue
			}
			prefix := "ashyams " + name + ": "
			var errLines []string
			inUsage := false
			for _, l := range strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n") {
				switch {
				case strings.HasPrefix(l, "usage: ashyams "): // the command's, or the list after an unknown one
					inUsage = true
				case inUsage && strings.HasPrefix(l, "ashyams"):
					t.Errorf("%q: an error line after the usage: %q", args, l)
				case !inUsage && l != "" && !strings.HasPrefix(l, "  "):
					errLines = append(errLines, l)
				}
			}
			if len(errLines) == 0 {
				t.Errorf("%q: no error line on stderr: %q", args, errb.String())
			}
			if c.rc == 2 && !inUsage {
				t.Errorf("%q: a usage error without the usage: %q", args, errb.String())
			}
			for _, l := range errLines {
				rest, ok := strings.CutPrefix(l, prefix)
				if !ok || strings.Contains(rest, "ashyams "+name+":") || strings.HasPrefix(rest, name+": ") {
					t.Errorf("%q: %q does not start with %q exactly once", args, l, prefix)
					continue
				}
				seg := strings.Split(rest, ": ")
				for i := 1; i < len(seg); i++ {
					if seg[i] == seg[i-1] {
						t.Errorf("%q: %q repeats %q", args, l, seg[i])
					}
				}
			}
			if c.want != "" && !strings.Contains(strings.Join(errLines, "\n"), c.want) {
				t.Errorf("%q: error lines %q do not say %q", args, errLines, c.want)
			}
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a command created %s: %v", missing, err)
	}
	if ents, _ := os.ReadDir(foreign); len(ents) != 1 {
		t.Errorf("demo wrote into %s: %v", foreign, ents)
	}
}
