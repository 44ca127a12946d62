package site

import (
	"strings"
	"testing"
)

func TestCapabilityDir(t *testing.T) {
	a, b := CapabilityDir("lua:api"), CapabilityDir("lua-api")
	if a == b {
		t.Errorf("lua:api and lua-api share the directory %s", a)
	}
	if a != CapabilityDir("lua:api") {
		t.Error("not deterministic")
	}
	for _, name := range []string{"lua:api", "dreamweave:dynamic-lights", "../../etc", "日本語", "", "a/b\\c?d#e%f"} {
		d := CapabilityDir(name)
		if d == "" || strings.ContainsAny(d, ":/\\?#%. ") {
			t.Errorf("CapabilityDir(%q) = %q: not a safe path segment", name, d)
		}
	}
	if got := CapabilityDir("dreamweave:dynamic-lights"); !strings.HasPrefix(got, "dreamweave-dynamic-lights-") {
		t.Errorf("CapabilityDir keeps no readable part: %s", got)
	}
}

func TestTagDir(t *testing.T) {
	if tagDir("release") != "release" || tagDir("anomaly") != "anomaly" {
		t.Error("vocabulary tags are not their own directory")
	}
	for _, tag := range []string{"../x", "a/b", "", "Release", "日本"} {
		d := tagDir(tag)
		if d == "" || strings.ContainsAny(d, "/\\.") || d == tag && tag != "" {
			t.Errorf("tagDir(%q) = %q", tag, d)
		}
	}
}

func TestRootOf(t *testing.T) {
	for p, want := range map[string]string{"index.html": "", "projects/index.html": "../", "projects/a/b/index.html": "../../../"} {
		if got := rootOf(p); got != want {
			t.Errorf("rootOf(%q) = %q, want %q", p, got, want)
		}
	}
	if dirURL("projects/a/index.html") != "projects/a/" || dirURL("index.html") != "" {
		t.Error("dirURL")
	}
}
