package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/lists"
)

// TestProjectListBounded: the project list's first page holds the same number of elements at
// any size: the tag filter suggests only the most used tags (41 tags here: "Lua" and 40
// themes), and the list of claims out of the catalog names lists.WithdrawnShown of them (12 here)
// and links the health page for the rest.
func TestProjectListBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a synthetic site of 1,200 claims: not under -short")
	}
	t.Parallel()
	_, _, out := synthBuild(t, 1200)
	doc := htmlcheck.Parse(t, readOut(t, out, "projects/index.html"))
	opts := htmlcheck.All(t, doc, "#tag-list option")
	if len(opts) != lists.SuggestedTags {
		t.Errorf("the tag filter suggests %d tags, want %d", len(opts), lists.SuggestedTags)
	}
	for _, o := range opts {
		if v := htmlcheck.Attr(o, "value"); v != "Lua" && !strings.HasPrefix(v, "Theme ") {
			t.Errorf("the tag filter suggests %q, no tag of the catalog", v)
		}
	}
	if n := htmlcheck.Count(t, doc, "main ul.list > li"); n != lists.WithdrawnShown {
		t.Errorf("the project list names %d claims out of the catalog, want %d", n, lists.WithdrawnShown)
	}
	if n := htmlcheck.Count(t, doc, `main p a[href$="health/index.html#claims"]`); n != 1 {
		t.Errorf("%d links to the health page for the rest, want 1", n)
	}
}
