package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// browserSession is a headless Chromium reading the built site from a loopback server (root
// is the site's address there) or from its files.
type browserSession struct {
	t    *testing.T
	ctx  context.Context
	log  *browserLog
	root string
	out  string
}

// newBrowserSession starts Chromium on bc's site; everything stops when the test ends.
func newBrowserSession(t *testing.T, bc browserCase) *browserSession {
	t.Helper()
	return newBrowserSessionOn(t, bc, preview.Handler(bc.out))
}

// newBrowserSessionOn is newBrowserSession with the site served by h.
func newBrowserSessionOn(t *testing.T, bc browserCase, h http.Handler) *browserSession {
	t.Helper()
	browsertest.Path(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	su, _ := url.Parse(srv.URL)
	bl := &browserLog{host: su.Host, files: filepath.ToSlash(bc.out) + "/"}
	ctx := browsertest.Start(t, bl.listen)
	return &browserSession{t: t, ctx: ctx, log: bl, root: srv.URL + BasePath(DefaultBaseURL), out: bc.out}
}

// open loads the page at address u and waits for its footer.
func (s *browserSession) open(u string) {
	s.t.Helper()
	navigate(s.t, s.ctx, u, "body > footer")
}

// fileURL is the address of the built page rel opened from its file.
func (s *browserSession) fileURL(rel string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(s.out) + "/" + rel}).String()
}

// eval evaluates a JavaScript expression into T.
func eval[T any](s *browserSession, expr string) T {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("evaluate %.60q: %v", expr, err)
	}
	return v
}

// listEntry is an entry of the project list: its key, dates and whether it is hidden as the
// page holds them, and what its current release says of OpenMW (runtime: "constraint", "any"
// or "none", and the constraint) as the search index's rows publish it (findRuntimes).
type listEntry struct {
	Key     string `json:"key"`
	Runtime string `json:"runtime"`
	OpenMW  string `json:"openmw"`
	Updated string `json:"updated"`
	First   string `json:"first"`
	Hidden  bool   `json:"hidden"`
}

func listEntries(s *browserSession) []listEntry {
	s.t.Helper()
	raw := eval[string](s, `JSON.stringify(Array.from(document.querySelectorAll("#results > li")).map(li => ({key: `+jsEntryKey+`(li),
		updated: li.dataset.updated || "", first: li.dataset.first || "", hidden: li.hidden})))`)
	var es []listEntry
	if err := json.Unmarshal([]byte(raw), &es); err != nil {
		s.t.Fatal(err)
	}
	rt := findRuntimes(s.t, s.out)
	for i := range es {
		r, ok := rt[es[i].Key]
		if !ok {
			s.t.Fatalf("the entry %s has no row in the search index", es[i].Key)
		}
		es[i].Runtime, es[i].OpenMW = r[0], r[1]
	}
	return es
}

// findRuntimes reads the runtime and openmw columns of every row of the search index's row
// parts (network-data/find/r*.js) under out, by key.
func findRuntimes(t *testing.T, out string) map[string][2]string {
	t.Helper()
	m := map[string][2]string{}
	for name, b := range dataParts(t, out, find.Dir) {
		if !strings.HasPrefix(name, "r") {
			continue
		}
		var part struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		}
		if err := json.Unmarshal(b, &part); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		col := map[string]int{}
		for i, c := range part.Columns {
			col[c] = i
		}
		for _, r := range part.Rows {
			key, _ := r[col["key"]].(string)
			runtime, _ := r[col["runtime"]].(string)
			openmw, _ := r[col["openmw"]].(string)
			m[key] = [2]string{runtime, openmw}
		}
	}
	return m
}

// worksWithGo is what the OpenMW filter must keep, computed with catalog/version: a release
// with no constraint (unless declared: only declared support counts), or one whose
// constraint holds for v under the numeric scheme.
func worksWithGo(e listEntry, v version.Version, declared bool) bool {
	switch e.Runtime {
	case "any":
		return !declared
	case "constraint":
		c, err := version.ParseConstraintIn(e.OpenMW, version.Numeric)
		return err == nil && c.Match(v)
	}
	return false
}

// TestBrowserOpenMWAndSort types OpenMW versions into the project list, served and opened from
// its file, and checks that exactly the claims whose current release's runtimes.openmw
// constraint holds (catalog/version's answer, under the numeric scheme) or states none stay
// visible, and with "Declared" chosen only those whose constraint holds; that an entry the
// script draws says what the page says of a release stating none; that a word that is not a version filters nothing and says so; that the sorts put
// the entries newest first by change and by first observation; and that the address holds
// the filter and the sort.
func TestBrowserOpenMWAndSort(t *testing.T) {
	t.Parallel()
	bc := browserSite(t)
	s := newBrowserSession(t, bc)
	for _, where := range []string{"served", "file"} {
		open := func(query string) {
			t.Helper()
			if where == "served" {
				s.open(s.root + "projects/index.html" + query)
			} else {
				s.open(s.fileURL("projects/index.html") + query)
			}
			waitShown(t, s.ctx, "#q")
			// The filters start folded unless the address sets one: unfold them as a player does.
			eval[bool](s, `(() => { const d = document.getElementById("more-filters"); if (!d.open) d.querySelector("summary").click(); return d.open })()`)
			settled(t, s.ctx)
		}
		open("")
		all := listEntries(s)
		for _, typed := range []string{"0.49", "0.50", "0.48.2"} {
			v, err := version.Parse(typed, version.Numeric)
			if err != nil {
				t.Fatal(err)
			}
			var want, declared []string
			for _, e := range all {
				if worksWithGo(e, v, false) {
					want = append(want, e.Key)
				}
				if worksWithGo(e, v, true) {
					declared = append(declared, e.Key)
				}
			}
			if len(want) == 0 || len(want) == len(all) || len(declared) == 0 || len(declared) == len(want) {
				t.Fatalf("%s: OpenMW %s keeps %d of %d claims, %d declared: the check would prove nothing", where, typed, len(want), len(all), len(declared))
			}
			eval[bool](s, `(() => { const q = document.getElementById("f-openmw"); q.value = ""; q.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
			typeInto(t, s.ctx, "#f-openmw", typed)
			settled(t, s.ctx)
			if got := visibleKeys(t, s.ctx); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: works with OpenMW %s shows %v, want %v", where, typed, got, want)
			}
			if where == "served" {
				if q := eval[string](s, `location.search`); q != "?openmw="+url.QueryEscape(typed) {
					t.Errorf("after typing %s the address's query is %q", typed, q)
				}
			}
			eval[bool](s, `(() => { const d = document.getElementById("f-declared"); d.value = "yes"; d.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
			settled(t, s.ctx)
			if got := visibleKeys(t, s.ctx); strings.Join(got, " ") != strings.Join(declared, " ") {
				t.Errorf("%s: declared support for OpenMW %s shows %v, want %v", where, typed, got, declared)
			}
			if where == "served" {
				if q := eval[string](s, `location.search`); q != "?openmw="+url.QueryEscape(typed)+"&declared=yes" {
					t.Errorf("after choosing declared support the address's query is %q", q)
				}
			}
			eval[bool](s, `(() => { const d = document.getElementById("f-declared"); d.value = ""; d.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
		}
		// The address sets the filter, and the entries the script draws say what the page says
		// of a release stating no OpenMW constraint.
		open("?openmw=0.49&declared=yes&q=dream")
		if d := eval[string](s, `document.getElementById("f-declared").value`); d != "yes" {
			t.Errorf("%s: ?declared=yes leaves the control at %q", where, d)
		}
		open("?q=dream")
		runs := eval[[]string](s, `Array.from(document.querySelectorAll("#results > li .runs-on")).map(r => r.textContent)`)
		if !slices.Contains(runs, wording.NoOpenMW) {
			t.Errorf("%s: the drawn entries say %q", where, runs)
		}
		htmlcheck.Lacks(t, liveDoc(t, s.ctx), "#results > li .runs-on", "names no")
		// Not a version: nothing is filtered, and the status line says why.
		eval[bool](s, `(() => { const q = document.getElementById("f-openmw"); q.value = "newest"; q.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
		settled(t, s.ctx)
		if got := visibleKeys(t, s.ctx); len(got) != len(all) {
			t.Errorf("%s: a word that is not a version shows %d of %d claims", where, len(got), len(all))
		}
		htmlcheck.Want(t, liveDoc(t, s.ctx), "#filter-status", "is not a version")

		// Sorting, from the address.
		for _, by := range []string{"updated", "first"} {
			open("?sort=" + by)
			es := listEntries(s)
			want := append([]listEntry(nil), all...)
			sort.SliceStable(want, func(i, j int) bool {
				if by == "updated" {
					return want[i].Updated > want[j].Updated
				}
				return want[i].First > want[j].First
			})
			var got, exp []string
			for i := range es {
				got, exp = append(got, es[i].Key), append(exp, want[i].Key)
			}
			if strings.Join(got, " ") != strings.Join(exp, " ") {
				t.Errorf("%s: sorted by %s the list is %v, want %v", where, by, got, exp)
			}
			if v := eval[string](s, `document.getElementById("f-sort").value`); v != by {
				t.Errorf("%s: ?sort=%s leaves the sort control at %q", where, by, v)
			}
		}
		// Back to name order: the page's own order.
		open("?sort=updated&openmw=0.49")
		eval[bool](s, `(() => { const q = document.getElementById("f-sort"); q.value = ""; q.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
		settled(t, s.ctx)
		// The list holds the entries that work with 0.49, in the page's own order.
		v49, err := version.Parse("0.49", version.Numeric)
		if err != nil {
			t.Fatal(err)
		}
		var inOrder []string
		for _, e := range all {
			if worksWithGo(e, v49, false) {
				inOrder = append(inOrder, e.Key)
			}
		}
		var got []string
		for _, e := range listEntries(s) {
			if !e.Hidden {
				got = append(got, e.Key)
			}
		}
		if strings.Join(got, " ") != strings.Join(inOrder, " ") {
			t.Errorf("%s: back to name order the list is %v, want %v", where, got, inOrder)
		}
		if where == "served" {
			if q := eval[string](s, `location.search`); q != "?openmw=0.49" {
				t.Errorf("name order leaves the query %q, want ?openmw=0.49", q)
			}
		}
	}
	for _, p := range s.log.take() {
		t.Errorf("project list: %s", p)
	}
}

// TestBrowserScriptVersionsAgree evaluates the project list's own constraint check against
// catalog/version for constraints and versions of every shape the numeric scheme allows.
func TestBrowserScriptVersionsAgree(t *testing.T) {
	t.Parallel()
	bc := browserSite(t)
	s := newBrowserSession(t, bc)
	s.open(s.root + "projects/index.html")
	cons := []string{"*", ">=0.49", ">0.49", "<0.49", "<=0.49", "=0.49", "!=0.49", ">=0.48, <0.51", " >= 0.48 ,<0.50.1 ", "=0.49.0", ">=1.0-rc.1", "<1.0-alpha.beta", ">=0.5-2", "^0.49", "0.49", ">=0.049", ">=1.2.3.4.5.6", ">=1.2.3.4.5.6.7"}
	vers := []string{"0.49", "0.49.0", "0.48.9", "0.50", "0.51.0", "1.0", "1.0-rc.1", "1.0-rc.2", "1.0-alpha", "1.0-alpha.1", "0.5-10", "1.2.3.4.5.6", "0.49+build.5"}
	for _, c := range cons {
		for _, v := range vers {
			got := eval[*bool](s, fmt.Sprintf(`window.ashyamsWorksWith(%q, %q)`, c, v))
			var want *bool
			pc, err1 := version.ParseConstraintIn(c, version.Numeric)
			pv, err2 := version.Parse(v, version.Numeric)
			if err1 == nil && err2 == nil {
				m := pc.Match(pv)
				want = &m
			}
			if (got == nil) != (want == nil) || (got != nil && *got != *want) {
				t.Errorf("constraint %q, version %q: the page says %v, catalog/version %v", c, v, showAnswer(got), showAnswer(want))
			}
		}
	}
}

// showAnswer is a constraint check's answer in words.
func showAnswer(b *bool) string {
	if b == nil {
		return "cannot tell"
	}
	return fmt.Sprint(*b)
}

// axeScript is axe-core's axe.min.js: ASHYAMS_AXE names the file, or a directory holding
// node_modules/axe-core/axe.min.js (npm install --prefix DIR axe-core). "" when there is none;
// under ASHYAMS_CI=1 that fails the test.
func axeScript(t *testing.T) string {
	t.Helper()
	p := os.Getenv("ASHYAMS_AXE")
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		p = filepath.Join(p, "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(p)
	if p == "" || err != nil {
		if os.Getenv("ASHYAMS_CI") == "1" {
			t.Fatalf("axe-core is missing (ASHYAMS_AXE=%q: %v): .ci/run installs it with npm", p, err)
		}
		return ""
	}
	return string(b)
}

// axeViolations runs axe-core (the script axe) over the page s shows and says each violation:
// its rule, its help and up to three of its elements.
func axeViolations(s *browserSession, axe string) []string {
	s.t.Helper()
	eval[bool](s, axe+"\n;true")
	raw := eval[string](s, `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))))`)
	var vs []struct {
		ID    string   `json:"id"`
		Help  string   `json:"help"`
		Nodes []string `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s: %s (%s)", v.ID, v.Help, strings.Join(v.Nodes, "; ")))
	}
	return out
}

// pageKinds finds one page of every kind in the built site, by kind.
func pageKinds(t *testing.T, bc browserCase) map[string]string {
	t.Helper()
	first := func(pattern string, keep func(string) bool) string {
		t.Helper()
		ms, _ := filepath.Glob(filepath.Join(bc.out, filepath.FromSlash(pattern)))
		sort.Strings(ms)
		for _, m := range ms {
			rel, _ := filepath.Rel(bc.out, m)
			rel = filepath.ToSlash(rel)
			if keep == nil || keep(rel) {
				return rel
			}
		}
		t.Fatalf("the built site has no page %s", pattern)
		return ""
	}
	isEvent := func(p string) bool { return len(strings.Split(p, "/")[1]) == 20 }
	// A project page of an id several sites list: the one-site ones only lead to their
	// claim's page (TestBrowserOneSiteProjectPage). The corpus has none.
	var project string
	ms, _ := filepath.Glob(filepath.Join(bc.out, "projects", "*", "index.html"))
	sort.Strings(ms)
	for _, m := range ms {
		if claims, _ := filepath.Glob(filepath.Join(filepath.Dir(m), "*", "index.html")); len(claims) > 1 && project == "" {
			project, _ = filepath.Rel(bc.out, m)
			project = filepath.ToSlash(project)
		}
	}
	kinds := map[string]string{
		"home": "index.html", "projects": "projects/index.html", "claim": bc.claim,
		"sites":    "origins/index.html",
		"site":     first("origins/*/index.html", nil),
		"releases": "releases/index.html", "updates": "updates/index.html",
		"updates-tag": first("updates/*/index.html", func(p string) bool { return !isEvent(p) }),
		"event":       first("updates/*/index.html", isEvent),
		"conflicts":   "conflicts/index.html", "capabilities": "capabilities/index.html",
		"capability":   first("capabilities/*/index.html", nil),
		"dependencies": "dependencies/index.html", "used-by": paths.UsedBy, "gaps": "gaps/index.html", "health": "health/index.html",
		"network": paths.Network, "about": "about/index.html", "about-publishers": paths.Publishers,
		"about-trust": "about/trust/index.html", "about-digests": "about/digests/index.html",
		"about-listing": "about/listing/index.html", "about-updates": "about/updates/index.html",
		"browse": paths.Browse, "browse-list": first("browse/type-*/index.html", nil), "join": paths.Join, "setup": plan.SetupPage,
		"plan": plan.PlanPage, "plan-candlelight": plan.PlanPage + "#add=4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90",
		"notfound": "no/such/page/",
	}
	if bc.stale != "" {
		kinds["claim-stale"] = bc.stale
	}
	if project != "" {
		kinds["project"] = project
	}
	return kinds
}

// TestBrowserEveryPageKind loads one page of every kind at 1280 and 390 px wide, writes a
// screenshot of each to $ASHYAMS_ARTIFACTS (else a temp dir), checks the page fits its width
// and loads nothing from outside the site, and runs axe-core in Chromium over it: no
// violations. Without axe-core (ASHYAMS_AXE) the audit is skipped, except under ASHYAMS_CI=1,
// where that fails.
func TestBrowserEveryPageKind(t *testing.T) {
	t.Parallel()
	bc := browserSite(t)
	axe := axeScript(t)
	art := filepath.Join(artifactDir(t), "pages")
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	kinds := pageKinds(t, bc)
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	// One tab per width, the two at once: the pages are the same, the widths independent.
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			s := newBrowserSession(t, bc)
			if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(width), 900)); err != nil {
				t.Fatal(err)
			}
			shots := 0
			for _, kind := range names {
				rel := kinds[kind]
				s.open(s.root + rel)
				eval[bool](s, `new Promise(r => setTimeout(() => r(true), 150))`)
				for _, p := range s.log.take() {
					if kind != "notfound" || !strings.Contains(p, "no/such/page") {
						t.Errorf("%s (%s): %s", kind, rel, p)
					}
				}
				if w := eval[int](s, `document.documentElement.scrollWidth`); w > width {
					t.Errorf("%s (%s): %d px wide at a %d px viewport", kind, rel, w, width)
				}
				if (kind == "sites" || kind == "health") && width == 390 { // a phone reads every row to its health without scrolling
					if d := eval[int](s, `Math.max(0, ...Array.from(document.querySelectorAll(".table-wrap")).map(w => w.scrollWidth - w.clientWidth))`); d > 0 {
						t.Errorf("%s (%s): a table scrolls sideways by %d px at %d px", kind, rel, d, width)
					}
				}
				b, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(90))
				if err != nil {
					t.Fatalf("screenshot %s: %v", kind, err)
				}
				shot := filepath.Join(art, fmt.Sprintf("%s-%d.png", kind, width))
				if err := os.WriteFile(shot, b, 0o644); err != nil {
					t.Fatal(err)
				}
				shots++
				if axe == "" {
					continue
				}
				for _, v := range axeViolations(s, axe) {
					t.Errorf("axe, %s (%s) at %d px: %s", kind, rel, width, v)
				}
			}
			if shots != len(kinds) {
				t.Errorf("%d screenshots of %d page kinds at %d px", shots, len(kinds), width)
			}
			t.Logf("%d screenshots in %s; axe-core %s", shots, art, map[bool]string{true: "ran on every one", false: "not found (ASHYAMS_AXE unset)"}[axe != ""])
		})
	}
}
