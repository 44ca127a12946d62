package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
)

// The reference index's site test, ported black-box (the mapping of every reference test is
// testdata/reference-tests.md): a fixture network in which every state a page has to show
// occurs, crawled twice on loopback by a real refresh, then built. The render stage still
// reads nothing but the state (TestImportsNothingFromCrawl); only this test crawls to make one.

// fictional is Tallow under another id, name, type and summary.
func fictional(t testing.TB, id, name, typ, summary string) map[string]any {
	m := rt.Tallow(t)
	p := rt.Obj(t, m, "project")
	p["id"], p["name"], p["type"] = id, name, typ
	p["summary"] = summary + " A fixture: this project does not exist."
	return m
}

// candlelightMovedOn is Candlelight a release later: a new stable 1.2.0 with breaking and
// migration notes and a stricter requirement, a new development build, new bytes for 1.1.0
// under its old version (the anomaly) and 1.0.0 yanked.
func candlelightMovedOn(t testing.TB) map[string]any {
	m := rt.Candlelight(t)
	rs := m["releases"].([]any)
	stable := rt.Copy(t, rs[1].(map[string]any))
	stable["version"], stable["date"] = "1.2.0", "2026-09-28"
	rt.Obj(t, stable, "runtimes")["openmw"] = ">=0.50"
	rt.Obj(t, stable, "relationships", 0)["version"] = ">=1.1"
	stable["notes"] = map[string]any{
		"summary":   "Storm lanterns, and Tallow 1.1.",
		"breaking":  []any{"The `candlelight.cfg` schedule format changed; old files are ignored."},
		"migration": "Delete `candlelight.cfg`, start the game once, and set your schedule again.",
		"added":     []any{"Lanterns gutter in ash storms."},
	}
	art := rt.Obj(t, stable, "artifacts", 0)
	rt.Obj(t, art, "digests")["sha256"] = strings.Repeat("1", 64)
	art["size"] = 260001
	rt.Obj(t, art, "sources", 0)["url"] = "https://code.example/candlelight/releases/1.2.0/p.zip"
	dev := rt.Copy(t, rs[0].(map[string]any))
	dev["version"] = "1.2.1-dev.3"
	rt.Obj(t, rs[1], "artifacts", 0, "digests")["sha256"] = strings.Repeat("2", 64)
	old := rs[2].(map[string]any)
	old["status"] = "yanked"
	old["yanked"] = map[string]any{"reason": "Corrupts saves made during an ash storm.", "replacement": "1.1.0"}
	m["releases"] = append([]any{dev, stable}, rs[1:]...)
	m["channels"] = map[string]any{"stable": map[string]any{"version": "1.2.0"}, "development": map[string]any{"version": "1.2.1-dev.3"}}
	return m
}

// The reference port's network: Candlelight (moved on a release, 1.0.0 yanked), Tallow and
// Lantern Forge on the Mod Template site, Tallow claimed again elsewhere, Ashfall Weather
// (requiring Candlelight's capability from another site) on a site that goes down, Lantern
// Glass on a site advertising a version its manifest lacks.
const ashfallID, glassID = "3e7c2d10-8a4b-4f6e-9c1d-5b2a7e9f0c48", "c5a1e8f2-4d3b-4a7c-8e9f-1b2c3d4e5f60"

// referenceNetwork publishes the reference port's network on net and refreshes it twice into
// net.State, the second time with the flaky site down; it returns the Mod Template site and
// the other site claiming Tallow.
func referenceNetwork(t testing.TB, net *rt.Net) (template, elsewhere *rt.Site) {
	t.Helper()
	template, elsewhere, flaky, broken := net.Site("/mod-template/"), net.Site("/elsewhere/"), net.Site("/flaky/"), net.Site("/broken/")
	template.Publish(rt.Candlelight(t), rt.Tallow(t), rt.Program(t))
	impostor := rt.Tallow(t)
	rt.Obj(t, impostor, "project")["name"] = "Tallow (another site's claim)"
	elsewhere.Publish(impostor)
	ashfall := fictional(t, ashfallID, "Ashfall Weather", "mod", "Ash storms that dim every flame they pass.")
	rt.Obj(t, ashfall, "project")["tags"] = []any{"Weather", "OpenMW"}
	for _, r := range ashfall["releases"].([]any) {
		r.(map[string]any)["relationships"] = []any{
			map[string]any{"kind": "requires", "capability": "dreamweave:dynamic-lights", "reason": "Any scheduled-lights mod will do."},
			map[string]any{"kind": "recommends", "name": "Patch for Purists", "url": "https://www.nexusmods.com/morrowind/mods/45096"},
		}
	}
	flaky.Publish(ashfall)
	glass := fictional(t, glassID, "Lantern Glass", "assets", "Stained glass textures for every lantern in Vvardenfell.")
	broken.Publish(glass)
	urls := []string{template.URL(""), elsewhere.URL("dreamweave.json"), flaky.URL(""), broken.URL("")}
	net.Refresh(urls...)

	template.Publish(candlelightMovedOn(t), rt.Tallow(t), rt.Program(t))
	rt.Obj(t, glass, "channels", "stable")["version"] = "9.9.9"
	broken.Publish(glass)
	net.TakeDown("/flaky/")
	if sum := net.Refresh(urls...); sum.Problems["source "+store.SourceUnreachable] != 1 {
		t.Fatalf("problems %v; want one unreachable source", sum.Problems)
	}
	return template, elsewhere
}

func TestReferencePortEveryStateBuildsASite(t *testing.T) {
	if testing.Short() {
		t.Skip("two refreshes and a full build: not under -short")
	}
	net := rt.New(t)
	template, elsewhere := referenceNetwork(t, net)
	res, out := build(t, net.State, Options{})
	n := res.Network
	if len(n.Conflicts) != 1 || n.Conflicts[0].Project != rt.TallowID {
		t.Fatalf("conflicts %+v; want Tallow's", n.Conflicts)
	}
	health := map[string]string{}
	for _, c := range n.Claims {
		health[c.Project] = c.Health
	}
	for id, want := range map[string]string{rt.CandlelightID: store.ClaimCurrent, ashfallID: store.ClaimOriginUnavailable, glassID: store.ClaimInvalid} {
		if health[id] != want {
			t.Errorf("claim %s is %q; want %q", id, health[id], want)
		}
	}
	if len(res.Pages) <= 50 {
		t.Errorf("%d pages; want more than 50", len(res.Pages))
	}
	for _, p := range []string{"index.html", "conflicts/index.html", "updates/anomaly/index.html", "updates/breaking/index.html",
		"network-data/catalog.json", "network-data/updates.xml", find.Dir + "/terms.js"} {
		readOut(t, out, p)
	}
	// search.json at the reference's path, valid against its schema.
	if err := about.ValidateSearch(readOut(t, out, about.SearchFile)); err != nil {
		t.Errorf("%s: %v", about.SearchFile, err)
	}
	// The conflict page names both of Tallow's sites; the anomaly list holds Candlelight's event.
	conflicts := htmlcheck.Parse(t, readOut(t, out, "conflicts/index.html"))
	for _, s := range []*rt.Site{template, elsewhere} {
		id := store.SiteID(s.URL("dreamweave.json"))
		if htmlcheck.Count(t, conflicts, "main a[href*="+id+"]") == 0 {
			t.Errorf("the conflicts page does not link the claim of site %s", id)
		}
	}
	anomaly := htmlcheck.Parse(t, readOut(t, out, "updates/anomaly/index.html"))
	if got := htmlcheck.Texts(t, anomaly, "main ul.list > li > a > bdi"); len(got) != 1 || !strings.HasPrefix(got[0], "Candlelight ") {
		t.Errorf("the anomaly list holds %q; want Candlelight's event alone", got)
	}
	htmlcheck.Want(t, anomaly, "main ul.list > li > a > bdi", "artifact digest changed under 1.1.0") // its 1.1.0 changed under its version
	var cat struct {
		Claims []struct {
			Project string `json:"project"`
			Cached  bool   `json:"cached"`
		} `json:"claims"`
	}
	if err := json.Unmarshal(readOut(t, out, "network-data/catalog.json"), &cat); err != nil {
		t.Fatal(err)
	}
	cached := map[string]bool{}
	for _, c := range cat.Claims {
		cached[c.Project] = cached[c.Project] || c.Cached
	}
	if !cached[glassID] || cached[rt.CandlelightID] {
		t.Errorf("cached %v; want Lantern Glass's (its site advertises bytes that were refused) and not Candlelight's", cached)
	}
}

// TestReferenceTestsMapped: testdata/reference-tests.md maps each of the reference's 47 tests,
// numbered in order per file, to a test of this index that exists, and every difference it
// names is a row of the about/state page (about.CrawlDifferences or about.PublishDifferences).
func TestReferenceTestsMapped(t *testing.T) {
	b, err := os.ReadFile("testdata/reference-tests.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"fetch.rs": 11, "discovery.rs": 13, "crawl.rs": 16, "network.rs": 5, "catalog.rs": 1, "site.rs": 1}
	areas := map[string]bool{}
	for _, d := range append(append([]about.Difference(nil), about.CrawlDifferences...), about.PublishDifferences...) {
		areas[d.Area] = true
	}
	sources := map[string]string{} // package directory -> its test files, joined
	got := map[string]int{}
	passes, differs := 0, 0
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 5 || !strings.HasSuffix(strings.TrimSpace(cells[0]), ".rs") {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		file, num, test, result := cells[0], cells[1], cells[3], cells[4]
		got[file]++
		if num != strconv.Itoa(got[file]) {
			t.Errorf("%s row %d is numbered %s", file, got[file], num)
		}
		pkg, name, ok := strings.Cut(test, " ")
		if !ok {
			t.Errorf("%s %s: %q is not \"<package> <test>\"", file, num, test)
			continue
		}
		if _, ok := sources[pkg]; !ok {
			dir := filepath.Join("..", filepath.FromSlash(pkg))
			if pkg == "site" {
				dir = "."
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
			var all []byte
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, src...)
			}
			sources[pkg] = string(all)
		}
		if !strings.Contains(sources[pkg], "\nfunc "+name+"(t *testing.T) {") {
			t.Errorf("%s %s: %s has no test %s", file, num, pkg, name)
		}
		switch area, differ := strings.CutPrefix(result, "differs: "); {
		case result == "passes":
			passes++
		case differ && areas[area]:
			differs++
		default:
			t.Errorf("%s %s: result %q is neither passes nor a difference the about/state page lists", file, num, result)
		}
	}
	for f, n := range want {
		if got[f] != n {
			t.Errorf("%s: %d rows; the reference has %d tests there", f, got[f], n)
		}
	}
	if passes+differs != 47 {
		t.Errorf("%d passes and %d differences; want 47 in all", passes, differs)
	}
	doc, err := os.ReadFile("../docs/reference-operators.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, says := range []string{"All 47 of the reference's tests are ported black-box",
		fmt.Sprintf("%d find what the reference expects, and %d assert what this index does instead", passes, differs)} {
		if !strings.Contains(text, says) {
			t.Errorf("docs/reference-operators.md does not say %q", says)
		}
	}
	t.Logf("%d of 47 pass as the reference expects, %d differ on purpose", passes, differs)
}
