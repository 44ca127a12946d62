package site

import (
	"path"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
)

func TestCapabilityDir(t *testing.T) {
	a, b := paths.CapabilityDir("lua:api"), paths.CapabilityDir("lua-api")
	if a == b {
		t.Errorf("lua:api and lua-api share the directory %s", a)
	}
	if a != paths.CapabilityDir("lua:api") {
		t.Error("not deterministic")
	}
	for _, name := range []string{"lua:api", "dreamweave:dynamic-lights", "../../etc", "日本語", "", "a/b\\c?d#e%f"} {
		d := paths.CapabilityDir(name)
		if d == "" || strings.ContainsAny(d, ":/\\?#%. ") {
			t.Errorf("CapabilityDir(%q) = %q: not a safe path segment", name, d)
		}
	}
	if got := paths.CapabilityDir("dreamweave:dynamic-lights"); !strings.HasPrefix(got, "dreamweave-dynamic-lights-") {
		t.Errorf("CapabilityDir keeps no readable part: %s", got)
	}
}

func TestTagDir(t *testing.T) {
	if paths.TagDir("release") != "release" || paths.TagDir("anomaly") != "anomaly" {
		t.Error("vocabulary tags are not their own directory")
	}
	for _, tag := range []string{"../x", "a/b", "", "Release", "日本"} {
		d := paths.TagDir(tag)
		if d == "" || strings.ContainsAny(d, "/\\.") || d == tag && tag != "" {
			t.Errorf("tagDir(%q) = %q", tag, d)
		}
	}
}

func TestRootOf(t *testing.T) {
	for p, want := range map[string]string{"index.html": "", "projects/index.html": "../", "projects/a/b/index.html": "../../../"} {
		if got := paths.Root(p); got != want {
			t.Errorf("rootOf(%q) = %q, want %q", p, got, want)
		}
	}
	if paths.Dir("projects/a/index.html") != "projects/a/" || paths.Dir("index.html") != "" {
		t.Error("dirURL")
	}
}

// TestNear: Near is the shortest relative link, up to the directory two paths share and down,
// and it names the same file as Rel's link does.
func TestNear(t *testing.T) {
	for _, c := range []struct{ page, target, want string }{
		{"projects/p/index.html", "projects/p/updates.xml", "updates.xml"},
		{"projects/p/index.html", "projects/p/s/index.html", "s/index.html"},
		{"updates/e/index.html", "updates/index.html", "../index.html"},
		{"browse/x/page/2/index.html", "browse/x/page/3/index.html", "../3/index.html"},
		{"browse/x/page/2/index.html", "browse/x/index.html", "../../index.html"},
		{"projects/p/s/index.html", "origins/s/index.html", "../../../origins/s/index.html"},
		{"index.html", "projects/index.html", "projects/index.html"},
		{"projects/index.html", "projects/index.html", "index.html"},
		{"projects/p/index.html", "projects/index.html", "../index.html"},
		{"projects/p/index.html", "", "../../"},
	} {
		p := &render.Page{Path: c.page}
		got := p.Near(c.target)
		if got != c.want {
			t.Errorf("Near from %s to %q = %q, want %q", c.page, c.target, got, c.want)
		}
		if a, b := path.Join(path.Dir(c.page), got), path.Join(path.Dir(c.page), p.Rel(c.target)); a != b {
			t.Errorf("Near from %s to %q names %s, Rel names %s", c.page, c.target, a, b)
		}
	}
	if got := (&render.Page{Path: "x/index.html", Rooted: true, Root: "/r/"}).Near("x/y.html"); got != "/r/x/y.html" {
		t.Errorf("a rooted page's Near = %q, want the root-relative link", got)
	}
}
