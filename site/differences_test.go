package site

import (
	"os"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
	"golang.org/x/net/html"
)

// TestStatePageListsEveryDifference: the about/state page shows every deliberate difference
// of about.PublishDifferences (what, ours, the reference's and why) and every record field of
// store.Differences (the field and why), names every published path,
// and the About page and docs/reference-operators.md link to it or list the same differences.
func TestStatePageListsEveryDifference(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	f.Site("https://a.example/dreamweave.json", "A")
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, "about/state/index.html")
	// Each difference is a row of the page's tables, its cells in order.
	rows := map[string]bool{}
	for _, tr := range htmlcheck.All(t, doc, "main table tbody tr") {
		rows[strings.Join(htmlcheck.Texts(t, tr, "td"), " | ")] = true
	}
	norm := func(s ...string) string {
		for i := range s {
			s[i] = strings.Join(strings.Fields(s[i]), " ")
		}
		return strings.Join(s, " | ")
	}
	for _, d := range about.PublishDifferences {
		if row := norm(d.Area, d.Ours, d.Reference, d.Why); !rows[row] {
			t.Errorf("the state page has no row %q", row)
		}
	}
	for _, d := range store.Differences {
		if row := norm(d.Field, d.Why); !rows[row] {
			t.Errorf("the state page has no row for the record difference %q", row)
		}
	}
	htmlcheck.Want(t, doc, "main code", "network-data/catalog.json", "network-data/events.json", "network-data/search.json", "network-data/find/",
		"network-data/updates.xml", "schemas/dreamweave-network-catalog-1.schema.json", "network-media/<sha256>.<ext>")
	if htmlcheck.Count(t, parsePage(t, out, "about/index.html"), `main a[href="../about/state/index.html"]`) == 0 {
		t.Error("the About page does not link the state page")
	}
	readme, err := os.ReadFile("../docs/reference-operators.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"`cached` in catalog.json", "network-media/", "TestSchemaSameFormatAsPublished", "feed's author", "U+2028", "without indentation", "search.json are written without indentation"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("docs/reference-operators.md's list of differences lacks %q", w)
		}
	}
	if len(about.PublishDifferences) != 8 {
		t.Errorf("%d publishing differences; docs/reference-operators.md lists 8: update both together", len(about.PublishDifferences))
	}
}

// TestStatePageListsCrawlDifferences: the about/state page's #crawling table has one row per
// about.CrawlDifferences entry, its four cells the entry's area, ours, the reference's and why.
func TestStatePageListsCrawlDifferences(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	f.Site("https://a.example/dreamweave.json", "A")
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, "about/state/index.html")
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var rows [][]string
	var heading *html.Node
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.Data == "h2" {
			if id, _ := attr(n, "id"); id == "crawling" {
				heading = n
			}
		}
		return true
	})
	if heading == nil {
		t.Fatal("the state page has no h2#crawling")
	}
	for n := heading.NextSibling; n != nil; n = n.NextSibling {
		if n.Type != html.ElementNode || n.Data != "table" {
			continue
		}
		walk(n, func(m *html.Node) bool {
			if m.Type == html.ElementNode && m.Data == "tr" && m.Parent != nil && m.Parent.Data == "tbody" {
				var cells []string
				for c := m.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "td" {
						cells = append(cells, norm(textOf(c)))
					}
				}
				rows = append(rows, cells)
			}
			return true
		})
		break
	}
	if len(rows) != len(about.CrawlDifferences) || len(about.CrawlDifferences) == 0 {
		t.Fatalf("%d rows under #crawling; want %d", len(rows), len(about.CrawlDifferences))
	}
	for i, d := range about.CrawlDifferences {
		want := []string{norm(d.Area), norm(d.Ours), norm(d.Reference), norm(d.Why)}
		if strings.Join(rows[i], "|") != strings.Join(want, "|") {
			t.Errorf("row %d = %q; want %q", i, rows[i], want)
		}
	}
}
