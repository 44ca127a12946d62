package main

import (
	"strings"
	"testing"
)

func TestInspectUsageAndBadURL(t *testing.T) {
	if rc, _, _ := runCmd("inspect"); rc != 2 {
		t.Errorf("inspect without a URL: exit %d, want 2", rc)
	}
	if rc, _, _ := runCmd("inspect", "https://a.example/", "https://b.example/"); rc != 2 {
		t.Errorf("two URLs: exit %d, want 2", rc)
	}
	rc, _, errs := runCmd("inspect", "gopher://x/")
	if rc != 1 || !strings.Contains(errs, `url "gopher://x/" is not an absolute http or https URL`) {
		t.Errorf("inspect of a bad URL: exit %d: %s", rc, errs)
	}
	rc, _, errs = runCmd("inspect", "https://me:pw@example.org/")
	if rc != 1 || !strings.Contains(errs, "carries a user name or password") {
		t.Errorf("inspect of a URL with userinfo: exit %d: %s", rc, errs)
	}
}

// Inspect follows the crawler's guard: a literal private address is refused before any
// connection, and the report says so (exit 1: no site index).
func TestInspectRefusesPrivateAddress(t *testing.T) {
	rc, out, _ := runCmd("inspect", "http://10.0.0.1/mods/", "--allow-loopback")
	if rc != 1 || !strings.Contains(out, "10.0.0.1") || !strings.Contains(out, "refused") || !strings.Contains(out, "nothing was written") {
		t.Errorf("exit %d:\n%s", rc, out)
	}
}
