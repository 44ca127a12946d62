package site

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNothingFromCrawl: the render stage builds from the state alone, so neither site
// (nor its link checker and preview server below it) nor anything they import is a package of
// the crawl stage (crawl/...). What both stages need
// (the product identity, the state's records) lives under catalog/.
func TestImportsNothingFromCrawl(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	const module = "github.com/DreamWeave-MP/ashyams-go/"
	deps := strings.Fields(string(out))
	var self bool
	for _, p := range deps {
		self = self || p == module+"site"
		if p == module+"crawl" || strings.HasPrefix(p, module+"crawl/") {
			t.Errorf("site/... imports %s (directly or through its imports)", p)
		}
	}
	if !self {
		t.Fatalf("go list -deps did not list site itself; the list is not this package's: %q", deps)
	}
}
