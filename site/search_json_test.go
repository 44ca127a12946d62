package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

// TestSearchJSONHoldsEveryListedClaim: the build writes network-data/search.json, the
// reference's search file, valid against its schema (schemas/dreamweave-network-search-1),
// unindented with one final newline; it holds one project record for every listed claim
// and none for a claim out of the catalog, one record per capability, per site and per
// hand-written page, each url a built page; a project record's fields are the reference's,
// lowercase, and its text the lowercase join of its name, summary and every value.
func TestSearchJSONHoldsEveryListedClaim(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/dreamweave.json", "Site B")
	lib := sampleManifest(uuid(1), "Lantern Lib", 2)
	lib.Releases[0].Provides = []string{"lights:dynamic"}
	f.Claim(a, lib)
	user := sampleManifest(uuid(2), "Glow Streets", 1)
	user.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(1)}, {Kind: "recommends", Capability: "lights:dynamic"}}
	f.Claim(a, user)
	f.Claim(b, sampleManifest(uuid(3), "Ash Roads", 1))
	res, out := build(t, state, Options{})

	raw := readOut(t, out, about.SearchFile)
	if err := about.ValidateSearch(raw); err != nil {
		t.Fatalf("%s: %v", about.SearchFile, err)
	}
	if strings.Contains(string(raw), "\n  ") || !strings.HasSuffix(string(raw), "}\n") || strings.Count(string(raw), "\n") != 1 {
		t.Errorf("%s is not unindented JSON with one final newline", about.SearchFile)
	}
	var doc about.SearchDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "dreamweave-network-search" || doc.FormatVersion != 1 {
		t.Errorf("format %q version %d", doc.Format, doc.FormatVersion)
	}
	n := res.Network
	byURL := map[string]about.SearchRecord{}
	kinds := map[string]int{}
	for _, r := range doc.Records {
		if _, dup := byURL[r.URL]; dup {
			t.Errorf("two records for %s", r.URL)
		}
		byURL[r.URL] = r
		kinds[r.Kind]++
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(r.URL), "index.html")); err != nil {
			t.Errorf("%s record %q names no built page: %v", r.Kind, r.URL, err)
		}
	}
	for _, c := range n.Listed {
		r, ok := byURL[paths.Dir(paths.ClaimKey(c))]
		if !ok || r.Kind != about.SearchProject || r.Title != c.Name {
			t.Errorf("no project record for %s at %s: %+v", c.Name, c.Site, r)
			continue
		}
		if want := c.Manifest.Project.Summary; r.Summary != want {
			t.Errorf("%s: summary %q, want %q", c.Name, r.Summary, want)
		}
		if want := "mod · active"; r.Badge != want {
			t.Errorf("%s: badge %q, want %q", c.Name, r.Badge, want)
		}
		parts := []string{strings.ToLower(c.Name), strings.ToLower(r.Summary)}
		for _, k := range []string{"type", "status", "game", "tag", "maintainer", "license", "channel", "health", "id", "site",
			"runtime", "lua", "provides", "requires", "recommends", "conflicts", "compatible", "replaces"} {
			vs, ok := r.Fields[k]
			if !ok && k != "lua" {
				t.Errorf("%s: no field %s", c.Name, k)
			}
			for _, v := range vs {
				if v != strings.ToLower(v) {
					t.Errorf("%s: field %s holds %q, not lowercase", c.Name, k, v)
				}
			}
			parts = append(parts, vs...)
		}
		if want := strings.Join(parts, " "); r.Text != want {
			t.Errorf("%s: text %q, want %q", c.Name, r.Text, want)
		}
	}
	if kinds[about.SearchProject] != len(n.Listed) || len(n.Listed) != 3 {
		t.Errorf("%d project records for %d listed claims, want 3", kinds[about.SearchProject], len(n.Listed))
	}
	glow := byURL[paths.Dir(paths.Claim(uuid(2), a))]
	if got := fmt.Sprint(glow.Fields["requires"], glow.Fields["recommends"], glow.Fields["id"], glow.Fields["site"]); got != fmt.Sprintf("[%s] [lights:dynamic] [%s] [site a %s]", uuid(1), uuid(2), a) {
		t.Errorf("Glow Streets' requires, recommends, id and site: %s", got)
	}
	if kinds[about.SearchCapability] != len(n.Capabilities) || kinds[about.SearchSite] != len(n.Origins) || kinds[about.SearchPage] == 0 {
		t.Errorf("records by kind %v; want %d capabilities, %d sites and the hand-written pages", kinds, len(n.Capabilities), len(n.Origins))
	}
	if r := byURL[paths.Dir(paths.Capability("lights:dynamic"))]; r.Summary != "1 provider · 1 reference" || r.Badge != "capability" || len(r.Fields) != 0 {
		t.Errorf("the capability's record: %+v", r)
	}
	if r := byURL[paths.Dir(paths.Origin(b))]; r.Kind != about.SearchSite || !strings.HasPrefix(r.Badge, "site · ") {
		t.Errorf("site B's record: %+v", r)
	}
}

// TestValidateSearch: search.json's schema accepts a good document and refuses each bad one,
// the library's error naming where.
func TestValidateSearch(t *testing.T) {
	good := `{"format":"dreamweave-network-search","format_version":1,"records":[` +
		`{"title":"Candlelight","url":"projects/4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90/a-1234abcd/","kind":"project","summary":"s","badge":"mod · active","text":"candlelight s mod","fields":{"type":["mod"],"status":[],"game":[],"tag":[],"maintainer":[],"license":[],"channel":[],"health":[],"id":[],"site":[]}},` +
		`{"title":"About this index","url":"about/","kind":"page","summary":"How.","badge":"documentation","text":"about this index how.","fields":{}}]}`
	if err := about.ValidateSearch([]byte(good)); err != nil {
		t.Fatalf("a good search.json: %v", err)
	}
	for _, bad := range []string{
		`{"format":"dreamweave-network-search","format_version":2,"records":[]}`,
		`{"format":"ashyams-search","format_version":1,"records":[]}`,
		`{"format":"dreamweave-network-search","format_version":1,"records":[{}]}`,
		strings.Replace(good, `"url":"projects/`, `"url":"javascript:projects/`, 1),
		strings.Replace(good, `"url":"about/"`, `"url":"/about/"`, 1),
		strings.Replace(good, `"kind":"page"`, `"kind":"pages"`, 1),
		strings.Replace(good, `"tag":[]`, `"tag":[1]`, 1),
		strings.Replace(good, `"tag":[],`, ``, 1),
		strings.Replace(good, `"tag":[]`, `"tag":[],"colour":[]`, 1),
		strings.Replace(good, `"fields":{}`, `"fields":{"type":["x"]}`, 1),
		strings.Replace(good, `"fields":{}`, `"fields":{},"extra":1`, 1),
		strings.Replace(good, `"badge":"documentation",`, ``, 1),
		strings.Replace(good, `"badge":"documentation"`, `"badge":"capability"`, 1),
		`not json`,
	} {
		if err := about.ValidateSearch([]byte(bad)); err == nil {
			t.Errorf("ValidateSearch accepts %s", bad)
		}
	}
}
