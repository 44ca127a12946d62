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

// layers ranks every package under site/: a package imports only packages of lower rank
// (data flows one way, from the leaf helpers up to site, the orchestrator). A new package is
// given its rank here.
var layers = map[string]int{
	"site/internal/sitedir": 0, "site/internal/htmlnode": 0, "site/internal/pubtext": 0, "site/internal/sitetest": 0,
	"site/internal/wording": 0, "site/internal/markdown": 0, "site/internal/paths": 0, "site/browsertest": 0,
	"site/htmlcheck": 1, "site/linkcheck": 1, "site/preview": 1,
	"site/shards": 1, "site/internal/names": 1, "site/internal/health": 1,
	"site/internal/cards": 2, "site/plan": 2, "site/find": 2,
	"site/internal/view":   3,
	"site/internal/render": 4,
	"site/internal/graph":  5, "site/internal/feed": 5,
	"site/internal/pages/claim": 6, "site/internal/pages/lists": 6, "site/internal/pages/sites": 6, "site/internal/pages/about": 6,
	"site": 9,
}

// TestLayers: every import from one package under site/ to another runs down the layers, and
// no package under site/ is missing from them.
func TestLayers(t *testing.T) {
	const module = "github.com/DreamWeave-MP/ashyams-go/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		rank, ok := layers[pkg]
		if !ok {
			t.Errorf("%s has no rank in layers", pkg)
			continue
		}
		seen++
		for _, imp := range f[1:] {
			imp = strings.TrimPrefix(imp, module)
			if r, ok := layers[imp]; ok && r >= rank {
				t.Errorf("%s (rank %d) imports %s (rank %d): imports run down the layers", pkg, rank, imp, r)
			}
		}
	}
	if seen != len(layers) {
		t.Errorf("go list named %d of the %d ranked packages; a ranked package is gone", seen, len(layers))
	}
}
