package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// treeOf lists every path under root with its size, to show nothing was written or removed.
func treeOf(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, fmt.Sprintf("%s %s %d", rel, info.Mode(), info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestBuildRefusesOutOverlappingState (case 3): an --out equal to the state, inside it (also
// through a symlink), or holding it is refused with both paths named, before anything is
// written or deleted.
func TestBuildRefusesOutOverlappingState(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, "st")
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	f.Claim(site, sampleManifest(uuid(1), "One", 1))
	// A previous build whose output holds a copy of the state.
	prev := filepath.Join(root, "prev")
	build(t, state, Options{Out: prev})
	inner := filepath.Join(prev, "state")
	if err := os.CopyFS(inner, os.DirFS(state)); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(state, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, state, out, want string }{
		{"out is the state", state, state, "is the state directory"},
		{"out is the state, spelled differently", state, filepath.Join(root, "x", "..", "st") + "/", "is the state directory"},
		{"out inside the state", state, filepath.Join(state, "public"), "is inside the state directory"},
		{"out deep inside the state", state, filepath.Join(state, "claims", "x"), "is inside the state directory"},
		{"out inside the state through a symlink", state, filepath.Join(link, "public"), "is inside the state directory"},
		{"state inside a previous output", inner, prev, "is inside the output directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := treeOf(t, root)
			_, err := Build(Options{State: tc.state, Out: tc.out})
			if err == nil {
				t.Fatalf("Build(state %s, out %s) succeeded", tc.state, tc.out)
			}
			for _, w := range []string{tc.want, tc.state, tc.out} {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("Build(state %s, out %s) error = %v, want one containing %q and naming both paths", tc.state, tc.out, err, tc.want)
				}
			}
			if after := treeOf(t, root); after != before {
				t.Errorf("the refused build changed the files:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
	// Neighbours that only share a prefix are not overlaps.
	build(t, state, Options{Out: filepath.Join(root, "st-public")})
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		want   bool
	}{{"/a/b", "/a", true}, {"/a", "/a", false}, {"/ab", "/a", false}, {"/a/..b", "/a", true}, {"/", "/a", false}, {"/a/b/c", "/", true}} {
		if got := within(c.p, c.dir); got != c.want {
			t.Errorf("within(%q, %q) = %v, want %v", c.p, c.dir, got, c.want)
		}
	}
}
