package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
)

// TestNoOpenMWOneWording: a release that states no OpenMW constraint reads
// wording.NoOpenMW on the project list, a browse list and its claim page, and the list's
// script takes the words from the page; the phrase is written in one file of the code, and
// the two older wordings in none.
func TestNoOpenMWOneWording(t *testing.T) {
	t.Parallel()
	t.Run("generated", func(t *testing.T) {
		out, _ := catalogState(t) // Brass Gears states no OpenMW constraint
		noOpenMWWording(t, out)
	})
	if _, ok := corpustest.Optional(t, "state/network.json"); ok {
		t.Run("corpus", func(t *testing.T) {
			out, _ := corpusBuild(t)
			noOpenMWWording(t, out)
		})
	}

	// One home: the phrase in wording.go alone; the old wordings nowhere.
	homes := []string{}
	for _, dir := range []string{"../templates", "../assets", "."} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") || !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".html") {
				return err
			}
			b, err := os.ReadFile(p)
			s := string(b)
			if strings.Contains(s, wording.NoOpenMW) {
				homes = append(homes, p)
			}
			for _, old := range []string{"names no OpenMW version", "names no OpenMW constraint"} {
				if strings.Contains(s, old) {
					t.Errorf("%s still says %q", p, old)
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(homes) != 1 || filepath.ToSlash(homes[0]) != "internal/wording/wording.go" {
		t.Errorf("the phrase %q is written in %v", wording.NoOpenMW, homes)
	}
}

// builtSite is a built site a test reads: its name, output directory and the build's result.
type builtSite struct {
	name string
	out  string
	res  *Result
}

// bothBuilds are the built sites a player-page test reads: a synthetic state of 20 claims and
// each corpusCase (a generated network crawled by real refreshes, and the real corpus when
// ../shared holds it).
func bothBuilds(t *testing.T) []builtSite {
	_, res, out := synthBuild(t, 20)
	sites := []builtSite{{"synthetic", out, res}}
	for _, c := range corpusCases(t) {
		sites = append(sites, builtSite{c.name, c.out, c.res})
	}
	return sites
}

// noOpenMWWording checks the built site out: a claim that states no OpenMW constraint is
// said to in wording.NoOpenMW's words on the project list, its page and a browse list.
func noOpenMWWording(t *testing.T, out string) {
	t.Helper()
	var none []string
	for key, r := range findRuntimes(t, out) {
		if r[0] == "any" {
			none = append(none, key)
		}
	}
	if len(none) == 0 {
		t.Fatal("no claim states no OpenMW constraint: the check would prove nothing")
	}
	list := htmlcheck.Parse(t, readOut(t, out, "projects/index.html"))
	if got := htmlcheck.Attr(htmlcheck.One(t, list, "form#filters"), "data-no-openmw"); got != wording.NoOpenMW {
		t.Errorf("the project list gives its script %q", got)
	}
	for _, key := range none {
		entry := `a.result-title[href$="` + key + `/index.html"]`
		var runs []string
		for _, li := range htmlcheck.All(t, list, "#results > li.entry") {
			if htmlcheck.Count(t, li, entry) == 1 {
				runs = htmlcheck.Texts(t, li, ".runs-on")
			}
		}
		if len(runs) != 1 || runs[0] != wording.NoOpenMW {
			t.Errorf("the project list says %q of %s", runs, key)
		}
		claim := htmlcheck.Parse(t, readOut(t, out, "projects/"+key+"/index.html"))
		dts, dds := htmlcheck.Texts(t, claim, "#current dt"), htmlcheck.Texts(t, claim, "#current dd")
		for i, dt := range dts {
			if dt == "Runs on" && dds[i] != wording.NoOpenMW {
				t.Errorf("the claim page of %s says it runs on %q", key, dds[i])
			}
		}
	}
	htmlcheck.Want(t, parsePage(t, out, "browse/recently-released/index.html"), "main ul.brief > li", "· "+wording.NoOpenMW)

}

// scriptNotes are words written for scripts and tests, which no player page shows.
var scriptNotes = []string{"data-plan", "data-pub", "data-kind", "Scripts may", "elements marked", "element marked", "selector", "for the browser test", "for the tests"}

// TestPlayerPagesHoldNoScriptNotes: the pages players read (home, the project list, a browse
// list, every claim page, the plan and setup pages) show no note written for scripts or
// tests; those are in comments and docs (schemas/README.md documents the plan link).
func TestPlayerPagesHoldNoScriptNotes(t *testing.T) {
	t.Parallel()
	for _, b := range bothBuilds(t) {
		t.Run(b.name, func(t *testing.T) { playerPagesHoldNoScriptNotes(t, b.out, b.res) })
	}
}

// playerPagesHoldNoScriptNotes checks the player pages of the built site out.
func playerPagesHoldNoScriptNotes(t *testing.T, out string, res *Result) {
	t.Helper()
	n := 0
	for _, p := range res.Pages {
		if p != "index.html" && p != "projects/index.html" && p != "browse/index.html" && p != plan.PlanPage && p != plan.SetupPage &&
			!(strings.HasPrefix(p, "projects/") && strings.Count(p, "/") == 3) {
			continue
		}
		n++
		htmlcheck.Lacks(t, parsePage(t, out, p), "body", scriptNotes...)
	}
	if n < 10 {
		t.Errorf("only %d player pages checked", n)
	}
}
