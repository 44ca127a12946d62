package site

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
)

// planElements returns every element of the page at rel in out for which keep holds.
func planElements(t *testing.T, out, rel string, keep func(*html.Node) bool) []*html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(readOut(t, out, rel)))
	if err != nil {
		t.Fatal(err)
	}
	var found []*html.Node
	htmlnode.Walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && keep(n) {
			found = append(found, n)
		}
		return true
	})
	return found
}

func hasAttr(key string) func(*html.Node) bool {
	return func(n *html.Node) bool { _, ok := htmlnode.Attr(n, key); return ok }
}

// TestPlanData builds each corpusCase and reads the plan page's data: every listed claim with
// a release is there with its components, groups, openmw lines, settings and artifacts (as
// planWants gives Candlelight's for each case); requirements carry their targets; each claim
// page links to the plan with its claim; the page connects nowhere and says that nothing is
// installed or verified.
func TestPlanData(t *testing.T) {
	for _, c := range corpusCases(t) {
		want := planWants[c.name]
		if _, real := corpustest.Find("fixtures/candlelight.json"); real && c.name == "generated" {
			want = planWants["generated, real fixtures"]
		}
		t.Run(c.name, func(t *testing.T) { planData(t, c.out, want) })
	}
}

// planWant is Candlelight's plan data in one corpusCase: its group's select, its OpenMW and
// Lua API constraints, its settings, its second component's id, content files and required
// content, and the version of Tallow it requires and the claims of Tallow that requirement
// targets (the generated network has two: Tallow is claimed on two sites). The generated
// network publishes the corpus's fixtures when ../shared holds them (corpustest.Fixture).
type planWant struct {
	selects, openmw, luaAPI string
	settings                int
	comp                    string
	content, requires       []string
	version                 string
	targets                 int
}

var planWants = map[string]planWant{
	"generated":                {"at-most-one", ">=0.50", "", 0, "tamriel-rebuilt", []string{"Candlelight-tamriel-rebuilt.omwscripts"}, nil, ">=1.1", 2},
	"generated, real fixtures": {"exactly-one", ">=0.50", ">=60", 1, "tamriel-rebuilt", []string{"Candlelight - TR.omwscripts"}, []string{"TR_Mainland.esm"}, ">=1.1", 2},
	"corpus":                   {"exactly-one", ">=0.49", ">=60", 1, "tamriel-rebuilt", []string{"Candlelight - TR.omwscripts"}, []string{"TR_Mainland.esm"}, ">=1.0", 1},
}

func planData(t *testing.T, out string, want planWant) {
	var doc plan.Doc
	if err := json.Unmarshal(planDataOf(t, out), &doc); err != nil {
		t.Fatal(err)
	}
	var candle, tallow *plan.Claim
	var candleKey string
	for k, c := range doc.Claims {
		switch c.Name {
		case "Candlelight":
			candle, candleKey = c, k
		case "Tallow":
			tallow = c
		}
	}
	if candle == nil || tallow == nil {
		t.Fatalf("the plan data lacks Candlelight or Tallow (%d claims)", len(doc.Claims))
	}
	if len(candle.Groups) != 1 || candle.Groups[0].Select != want.selects || len(candle.Components) != 4 || !candle.Installs ||
		candle.OpenMW != want.openmw || candle.LuaAPI != want.luaAPI || len(candle.Settings) != want.settings || len(candle.Artifacts) == 0 || candle.Artifacts[0].SHA256 == "" {
		t.Errorf("Candlelight's plan data: %+v", candle)
	}
	if c := candle.Components[1]; c.ID != want.comp || !slices.Equal(c.Content, want.content) || !slices.Equal(c.RequiresContent, want.requires) {
		t.Errorf("Candlelight's TR component: %+v", c)
	}
	req := candle.Relationships[0]
	if req.Kind != "requires" || len(req.Targets) != want.targets || !slices.ContainsFunc(req.Targets, func(k string) bool { return doc.Claims[k] == tallow }) || req.Version != want.version {
		t.Errorf("Candlelight's requirement: %+v", req)
	}
	if keys := doc.Projects[candle.Project]; !slices.Equal(keys, []string{candleKey}) {
		t.Errorf("projects[%s] = %v", candle.Project, keys)
	}
	// Every claim page of a listed claim links to the plan with itself.
	page := paths.Claim(candle.Project, candle.Site)
	links := planElements(t, out, page, hasAttr("data-plan-add"))
	if len(links) != 1 {
		t.Fatalf("%s has %d plan links", page, len(links))
	}
	if href, _ := htmlnode.Attr(links[0], "href"); href != "../../../plan/index.html#add="+candle.Project+"@"+candle.Site {
		t.Errorf("the plan link is %q", href)
	}
	// The navigation has the plan.
	nav := planElements(t, out, "index.html", func(n *html.Node) bool {
		h, _ := htmlnode.Attr(n, "href")
		return n.Data == "a" && h == "plan/index.html"
	})
	if len(nav) == 0 {
		t.Error("the home page does not link to the plan")
	}
	metas := planElements(t, out, plan.PlanPage, func(n *html.Node) bool { v, _ := htmlnode.Attr(n, "http-equiv"); return v == "Content-Security-Policy" })
	if csp, _ := htmlnode.Attr(metas[0], "content"); len(metas) != 1 || cspDirectives(csp)["connect-src"] != "'none'" {
		t.Errorf("the plan page's CSP: %q", csp)
	}
	banner := planElements(t, out, plan.PlanPage, func(n *html.Node) bool { c, _ := htmlnode.Attr(n, "class"); return n.Data == "p" && c == "banner" })
	if len(banner) == 0 || banner[0].FirstChild == nil || banner[0].FirstChild.FirstChild == nil || banner[0].FirstChild.FirstChild.Data != "Nothing is installed or verified." {
		t.Error("the plan page does not say first that nothing is installed or verified")
	}
}
