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
