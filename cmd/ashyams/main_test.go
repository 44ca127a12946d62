package main

import (
	"bytes"
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
