package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check --sources and --curation report every problem of each file, each with its line, and
// exit 1; sound files pass; without --state only the files are checked.
func TestCheckConfiguration(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := write("sources.toml", `[[source]]
url = "ftp://example.org/mods/"
added = "2026-10-01"
note = "Not http."

[[source]]
url = "https://example.org/ok/"
added = "yesterday"
note = "A bad date."
`)
	cur := write("curation.toml", `[[migration]]
project = "not-a-uuid"
from = "https://a.example/dreamweave.json"
to = "https://b.example/dreamweave.json"
reason = "moved"
reviewed = "2026-10-01"

[[featured]]
project = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
note = ""
`)
	rc, out, errs := runCmd("check", "--sources", src, "--curation", cur)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if rc != 1 || errs != "ashyams check: 4 configuration problems\n" || len(lines) != 4 {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	for i, want := range []string{src + ": line 2: [[source]] #1: ", src + ": line 7: [[source]] #2: ", cur + ": line 1: [[migration]] #1", cur + ": line 8: [[featured]] #1"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want it to begin %q", i+1, lines[i], want)
		}
	}
	good := write("good.toml", "[[source]]\nurl = \"https://example.org/mods/\"\nadded = \"2026-10-01\"\nnote = \"Fine.\"\n")
	if rc, out, errs := runCmd("check", "--sources", good, "--curation", filepath.Join(dir, "absent.toml")); rc != 0 || out != "check: the configuration has no problem\n" || errs != "" {
		t.Errorf("sound configuration: exit %d %q %q", rc, out, errs)
	}
	// With --state, the state is checked too, and a configuration problem still fails.
	rc, out, errs = runCmd("check", "--state", t.TempDir(), "--sources", src)
	if rc != 1 || !strings.Contains(out, "every invariant holds") || !strings.Contains(errs, "2 configuration problems") {
		t.Errorf("state and configuration: exit %d %q %q", rc, out, errs)
	}
}
