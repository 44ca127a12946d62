package site

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// planCandlelight is Candlelight's project id in the corpus, and Tallow's, which it requires.
const (
	planCandlelight = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	planTallow      = "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14"
)

// openPlan loads the plan page at u and waits until the planner has shown its outputs.
func (b *setupBrowser) openPlan(u string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u)); err != nil {
		b.t.Fatalf("load %s: %v", u, err)
	}
	b.wait(`document.readyState === "complete" && !!window.AshyamsPlan && !document.getElementById("plan-form").hidden && !!document.querySelector('[data-plan-output="openmw.cfg"]') && !document.getElementById("plan-results").hasAttribute("data-plan-loading")`, u)
}

// planOutputs are the plan page's three texts, its findings ("kind|key") and its entries.
type planOutputs struct {
	CFG      string   `json:"cfg"`
	Base     string   `json:"base"`
	Settings string   `json:"settings"`
	Sums     string   `json:"sums"`
	Findings []string `json:"findings"`
	Entries  []string `json:"entries"`
	Hash     string   `json:"hash"`
}

func (b *setupBrowser) planOutputs() planOutputs {
	b.t.Helper()
	b.wait(`!document.getElementById("plan-results").hasAttribute("data-plan-loading")`, "the plan's data")
	var o planOutputs
	b.eval(`(() => { const t = n => (document.querySelector('[data-plan-output="' + n + '"]') || {}).textContent || "";
		return {cfg: t("openmw.cfg"), base: t("base"), settings: t("settings.cfg"), sums: t("sha256sums"), hash: location.hash,
		findings: Array.from(document.querySelectorAll("[data-plan-finding]")).map(li => li.dataset.planFinding + "|" + (li.dataset.key || "")).sort(),
		entries: Array.from(document.querySelectorAll(".plan-projects > li[data-key]")).map(li => li.dataset.key)} })()`, &o)
	return o
}

// hasLine reports whether one of text's lines is line.
func hasLine(text, line string) bool { return slices.Contains(strings.Split(text, "\n"), line) }

// hasLineEnding reports whether one of text's lines ends with end.
func hasLineEnding(text, end string) bool {
	return slices.ContainsFunc(strings.Split(text, "\n"), func(l string) bool { return strings.HasSuffix(l, end) })
}

// contentLines are the content= values of an openmw.cfg text, in order.
func contentLines(cfg string) []string {
	var out []string
	for _, l := range strings.Split(cfg, "\n") {
		if v, ok := strings.CutPrefix(l, "content="); ok {
			out = append(out, v)
		}
	}
	return out
}

// TestPlanCorpusInChromium plans Candlelight in Chromium, served and from file://, at 1280 and
// 390 px, on the Mod Template's projects crawled from loopback (modTemplateBuild) and on the
// corpus when present: Tallow is pulled in, each group has at most or exactly one choice as it
// says, Tallow's content loads before Candlelight's, OpenMW 0.48 is outside Candlelight's
// constraint; the plan's openmw.cfg given to the setup check has no finding of a missing
// requirement or an order; a component changed through the page's controls is in the link,
// and the link opened again shows the same plan; nothing is fetched from outside the site.
// The files, folders and settings expected are those of each build's plan data (planFactsOf).
func TestPlanCorpusInChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a browser test")
	}
	outs := []string{modTemplateBuild(t)}
	if _, ok := corpustest.Optional(t, "state/network.json"); ok {
		out, _ := corpusBuild(t)
		outs = append(outs, out)
	}
	for i, out := range outs {
		t.Run([]string{"generated", "corpus"}[i], func(t *testing.T) { planInChromium(t, out) })
	}
}

// planFacts are what Candlelight's plan writes, read from a build's plan data: Tallow's and
// Candlelight's first content files, Candlelight's OpenMW constraint, its first component's
// folder, its first artifact's file name, its first setting ("" for none), the folders of
// the first two components of its group, and the second's id.
type planFacts struct {
	tallowContent, candleContent, openmw, core, file, setting, flameOn, flameOff, flameID string
}

func planFactsOf(t *testing.T, out string) planFacts {
	t.Helper()
	var doc plan.Doc
	if err := json.Unmarshal(planDataOf(t, out), &doc); err != nil {
		t.Fatal(err)
	}
	claim := func(id string) *plan.Claim {
		if ks := doc.Projects[id]; len(ks) == 1 {
			return doc.Claims[ks[0]]
		}
		t.Fatalf("the plan data has %v claims of %s, want one", doc.Projects[id], id)
		return nil
	}
	candle, tallow := claim(planCandlelight), claim(planTallow)
	folder := func(c plan.Component) string {
		dir := c.Path
		for _, d := range c.Data[:min(1, len(c.Data))] {
			if d != "." {
				dir += "/" + d
			}
		}
		return strings.ReplaceAll(dir, "/", `\`)
	}
	f := planFacts{tallowContent: tallow.Components[0].Content[0], candleContent: candle.Components[0].Content[0], openmw: candle.OpenMW,
		core: folder(candle.Components[0]), file: candle.Artifacts[0].Filename}
	if len(candle.Settings) > 0 {
		f.setting = candle.Settings[0].Key + " = " + candle.Settings[0].Value
	}
	var group []plan.Component
	for _, c := range candle.Components {
		if c.Group != "" {
			group = append(group, c)
		}
	}
	if len(group) < 2 {
		t.Fatalf("Candlelight's plan data has %d components in a group, want two", len(group))
	}
	f.flameOff, f.flameOn, f.flameID = folder(group[0]), folder(group[1]), group[1].ID
	return f
}

var (
	modTemplateOnce sync.Once
	modTemplateOut  string
)

// modTemplateBuild is the site built from the Mod Template's projects (Candlelight, Tallow,
// Lantern Forge) published on one loopback site and crawled by a real refresh, once per test
// binary: Candlelight's plan where nothing else claims what it requires.
func modTemplateBuild(t *testing.T) string {
	t.Helper()
	modTemplateOnce.Do(func() {
		dir, err := sharedTempDir("ashyams-modtemplate-")
		if err != nil {
			t.Fatal(err)
		}
		net := rt.New(t)
		net.State = filepath.Join(dir, "state")
		template := net.Site("/mod-template/")
		template.Publish(rt.Candlelight(t), rt.Tallow(t), rt.Program(t))
		net.Refresh(template.URL(""))
		_, out := build(t, net.State, Options{Out: filepath.Join(dir, "public")})
		modTemplateOut = out
	})
	if modTemplateOut == "" {
		t.Fatal("the Mod Template site was not made (its first build stopped)")
	}
	return modTemplateOut
}

// planInChromium is TestPlanCorpusInChromium on the built site out.
func planInChromium(t *testing.T, out string) {
	facts := planFactsOf(t, out)
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	siteRoot := srv.URL + BasePath(DefaultBaseURL)
	b := newSetupBrowser(t, su.Host, filepath.ToSlash(out)+"/")
	fileRoot := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String()

	for _, from := range []struct{ how, root string }{{"served", siteRoot}, {"file://", fileRoot}} {
		// The project box forgives a typo: "candelight" offers Candlelight, and choosing it
		// starts a plan with it.
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(from.root+plan.PlanPage)); err != nil {
			t.Fatal(err)
		}
		b.wait(`document.readyState === "complete" && !document.getElementById("plan-form").hidden`, "the plan page")
		typeInto(t, b.ctx, "#plan-search", "candelight")
		b.wait(`document.getElementById("plan-matches").getAttribute("data-query") === "candelight"`, "the offers for the whole query")
		var offered []string
		b.eval(`Array.from(document.querySelectorAll("#plan-matches button")).map(x => x.textContent)`, &offered)
		if len(offered) == 0 || !strings.HasPrefix(offered[0], "Add Candlelight") {
			t.Errorf("%s: for \"candelight\" the box offers %v", from.how, offered)
		}
		// The box reads the project list's index, loading its words and the rows it offers: no
		// names list of its own, no filter codes (as resource timing says, served: a page from
		// file:// has none).
		var loaded []string
		b.eval(`performance.getEntriesByType("resource").map(e => e.name).filter(n => n.includes("/data/") || n.includes("/find/")).map(n => n.slice(n.lastIndexOf("/", n.lastIndexOf("/") - 1) + 1))`, &loaded)
		if from.how == "served" && (!slices.Contains(loaded, "find/terms.js") || !slices.Contains(loaded, "find/r0.js") || slices.Contains(loaded, "find/filters.js") || slices.Contains(loaded, "data/names.js")) {
			t.Errorf("%s: the project box loaded %v, want find/terms.js and find/r0.js only of the index", from.how, loaded)
		}
		b.click(`#plan-matches button[data-add^="` + planCandlelight + `@"]`)
		b.wait(`location.hash.indexOf("add=`+planCandlelight+`@") >= 0`, "the chosen project in the link")
		if o := b.planOutputs(); len(o.Entries) != 2 {
			t.Errorf("%s: choosing Candlelight in the box plans %v", from.how, o.Entries)
		}
		b.axe(from.how + " project box")
		// A project id, pasted whole, offers its project (and those requiring it: Candlelight).
		typeInto(t, b.ctx, "#plan-search", planTallow)
		b.wait(`document.getElementById("plan-matches").getAttribute("data-query") === "`+planTallow+`"`, "the offers for the id")
		b.eval(`Array.from(document.querySelectorAll("#plan-matches button")).map(x => x.textContent)`, &offered)
		if !slices.ContainsFunc(offered, func(s string) bool { return strings.HasPrefix(s, "Add Tallow") }) || len(offered) > 2 {
			t.Errorf("%s: for Tallow's project id the box offers %v", from.how, offered)
		}
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("plan-search").value = "", true`)); err != nil {
			t.Fatal(err)
		}

		link := from.root + plan.PlanPage + "#add=" + planCandlelight + "&openmw=0.48&root=C:/Games/Mods"
		b.openPlan(link)
		o := b.planOutputs()
		if len(o.Entries) != 2 || !strings.HasPrefix(o.Entries[0], planTallow+"/") || !strings.HasPrefix(o.Entries[1], planCandlelight+"/") {
			t.Errorf("%s: the plan's projects are %v, want Tallow then Candlelight", from.how, o.Entries)
		}
		candle := o.Entries[len(o.Entries)-1]
		// Exactly one choice in every exactly-one group; at most one in at-most-one.
		var groups map[string]int
		b.eval(`Object.fromEntries(Array.from(document.querySelectorAll("fieldset[data-group]")).map(f => [f.dataset.select + ":" + f.dataset.group, f.querySelectorAll("input[data-component]:checked").length]))`, &groups)
		if len(groups) == 0 {
			t.Errorf("%s: no component group is shown", from.how)
		}
		for g, n := range groups {
			if strings.HasPrefix(g, "exactly-one:") && n != 1 || strings.HasPrefix(g, "at-most-one:") && n > 1 {
				t.Errorf("%s: group %s has %d choices", from.how, g, n)
			}
		}
		content := contentLines(o.CFG)
		ti, ci := slices.Index(content, facts.tallowContent), slices.Index(content, facts.candleContent)
		if ti < 0 || ci < 0 || ti > ci {
			t.Errorf("%s: content lines %v do not load Tallow's before Candlelight's", from.how, content)
		}
		htmlcheck.Want(t, b.dom(), `[data-plan-finding="runtime"][data-key="`+candle+`"]`, facts.openmw, "0.48")
		if !hasLine(o.CFG, `data="C:\Games\Mods\Candlelight-4d0c9f6e\`+facts.core+`"`) || !hasLineEnding(o.Sums, "  "+facts.file) ||
			facts.setting != "" && !hasLine(o.Settings, facts.setting) {
			t.Errorf("%s: outputs\n%s\n%s\n%s", from.how, o.CFG, o.Settings, o.Sums)
		}
		for _, w := range []int64{1280, 390} {
			b.narrow(w, "plan-candlelight-"+strings.TrimSuffix(from.how, "://")+"-"+map[int64]string{1280: "1280", 390: "390"}[w])
		}
		// Each comment and line of the openmw.cfg once: "# The base game's own files" was
		// written before the base game's archives and again before its content.
		seen := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSuffix(o.CFG, "\n"), "\n") {
			if seen[l] {
				t.Errorf("%s: the openmw.cfg writes %q twice:\n%s", from.how, l, o.CFG)
			}
			seen[l] = true
		}
		// On a phone a long content= or data= line wraps inside its box, and the text (what
		// a reader selects and copies) keeps it as one line.
		long := "C:/Games/Morrowind/Mods/A-folder-name-far-too-long-for-a-phone-screen-to-show"
		b.openPlan(from.root + plan.PlanPage + "#add=" + planCandlelight + "&root=" + long)
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(3))); err != nil {
			t.Fatal(err)
		}
		var box struct {
			Scroll, Client int64
			Line           bool
		}
		b.eval(`(() => { const p = document.querySelector('[data-plan-output="openmw.cfg"]');
			return {Scroll: p.scrollWidth, Client: p.clientWidth, Line: p.textContent.split("\n").includes('data="`+strings.ReplaceAll(long, "/", `\\`)+`\\Candlelight-4d0c9f6e\\`+strings.ReplaceAll(facts.core, `\`, `\\`)+`"')} })()`, &box)
		if box.Scroll > box.Client || !box.Line {
			t.Errorf("%s: at 390 px the openmw.cfg box is %d px of text in %d px; the long line kept whole: %v", from.how, box.Scroll, box.Client, box.Line)
		}
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		b.openPlan(link)
		b.axe(from.how + " plan")
		b.clean(from.how + " plan")

		// A component changed through the page: the group's second component (the 4K flames)
		// instead of its first (the 2K).
		b.click(`input[data-component="` + facts.flameID + `"]`)
		b.wait(`location.hash.indexOf("on=") >= 0`, "the changed selection in the link")
		changed := b.planOutputs()
		if !hasLineEnding(changed.CFG, `\`+facts.flameOn+`"`) || hasLineEnding(changed.CFG, `\`+facts.flameOff+`"`) {
			t.Errorf("%s: after choosing the 4K flames the plan writes\n%s", from.how, changed.CFG)
		}
		again := strings.SplitN(link, "#", 2)[0] + changed.Hash
		b.openPlan(again)
		if reopened := b.planOutputs(); reopened.CFG != changed.CFG || reopened.Settings != changed.Settings || reopened.Sums != changed.Sums ||
			!slices.Equal(reopened.Findings, changed.Findings) || !slices.Equal(reopened.Entries, changed.Entries) {
			t.Errorf("%s: the link %s opened again shows another plan:\n%s\nwas\n%s", from.how, changed.Hash, reopened.CFG, changed.CFG)
		}
		b.clean(from.how + " reopened")

		// The round trip: the plan's openmw.cfg, after the base game's block, has no finding in
		// the setup check.
		b.open(from.root + plan.SetupPage)
		b.paste(o.Base+o.CFG, "0.49")
		got, _ := b.findings()
		for _, f := range got {
			kind := strings.SplitN(f, "|", 2)[0]
			if kind == "missing-content" || kind == "missing-project" || kind == "order" || kind == "requires-unresolved" || kind == "conflict" || kind == "runtime" {
				t.Errorf("%s: the setup check finds %s in the plan's openmw.cfg:\n%s", from.how, f, o.CFG)
			}
		}
		htmlcheck.Want(t, b.dom(), "#setup-summary", "2 declared by projects in this index, 3 of the base game, 0 not in this index")
		b.clean(from.how + " round trip")
		for _, r := range b.takeRequests() {
			if !strings.HasPrefix(r, siteRoot) && !strings.HasPrefix(r, fileRoot) && r != "about:blank" {
				t.Errorf("%s: the page requested %s", from.how, r)
			}
		}
	}
}

// axe runs axe-core over the page and reports every violation (skipped without ASHYAMS_AXE,
// failing under ASHYAMS_CI=1).
func (b *setupBrowser) axe(what string) {
	b.t.Helper()
	script := axeScript(b.t)
	if script == "" {
		return
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](script+"\n;true")); err != nil {
		b.t.Fatal(err)
	}
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"], preload: false}).then(r => JSON.stringify(r.violations.map(v => v.id + ": " + v.help + " (" + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join("; ") + ")")))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatal(err)
	}
	var vs []string
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		b.t.Fatal(err)
	}
	for _, v := range vs {
		b.t.Errorf("axe, %s: %s", what, v)
	}
}

// planSelectionValid is the protocol's rule for a component selection, written here so the
// browser test does not trust plan.js: every required component, every group's count, the
// requires of each selected component present and none of its conflicts.
func planSelectionValid(c *plan.Claim, sel []string) error {
	in := map[string]bool{}
	for _, s := range sel {
		in[s] = true
	}
	counts := map[string]int{}
	for _, comp := range c.Components {
		if comp.Required && !in[comp.ID] {
			return fmt.Errorf("required %s left out", comp.ID)
		}
		if !in[comp.ID] {
			continue
		}
		counts[comp.Group]++
		for _, r := range comp.Requires {
			if !in[r] {
				return fmt.Errorf("%s without %s, which it requires", comp.ID, r)
			}
		}
		for _, x := range comp.Conflicts {
			if in[x] {
				return fmt.Errorf("%s with %s, which it conflicts with", comp.ID, x)
			}
		}
	}
	for _, g := range c.Groups {
		n := counts[g.ID]
		if g.Select == "exactly-one" && n != 1 || g.Select == "at-most-one" && n > 1 || g.Select == "at-least-one" && n < 1 {
			return fmt.Errorf("group %s (%s) has %d", g.ID, g.Select, n)
		}
	}
	return nil
}

// TestPlanSyntheticInChromium builds the synthetic network (newPlanSynth: every fact the
// installation page declares) and runs its plan page from file://: every fact is in the
// output or a finding, the player is asked where two claims could fill a need and a choice
// made on the page settles it, and clicking the page's component controls in a random order
// never makes an invalid selection.
func TestPlanSyntheticInChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a browser test")
	}
	p := newPlanSynth(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: p.state, Out: out}); err != nil {
		t.Fatal(err)
	}
	var doc plan.Doc
	if err := json.Unmarshal(planDataOf(t, out), &doc); err != nil {
		t.Fatal(err)
	}
	key := func(n, s string) string { return p.id[n] + "/" + p.site[s] }
	tok := func(n, s string) string { return p.id[n] + "@" + p.site[s] }
	b := newSetupBrowser(t, "127.0.0.1", filepath.ToSlash(out)+"/")
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.PlanPage}).String()

	// Asked, never chosen; then chosen on the page.
	b.openPlan(base + "#add=" + p.id["lamp"] + "&openmw=0.48&lua=50&root=/m")
	var asks []string
	b.eval(`Array.from(document.querySelectorAll("[data-plan-ask]")).map(li => li.dataset.planAsk + ":" + li.querySelectorAll("button[data-choose]").length).sort()`, &asks)
	if !slices.Equal(asks, []string{"capability:2", "identity:2"}) {
		t.Errorf("the page asks %v", asks)
	}
	o := b.planOutputs()
	for _, kind := range []string{"version", "missing", "runtime", "lua"} {
		if !slices.Contains(o.Findings, kind+"|"+key("lamp", "a")) {
			t.Errorf("no finding %s: %v", kind, o.Findings)
		}
	}
	for _, choose := range []string{tok("torch", "a"), tok("dup", "b")} {
		b.click(`button[data-choose="` + choose + `"]`)
		b.wait(`location.hash.indexOf(`+jsString(choose)+`) >= 0`, "the choice in the link")
	}
	o = b.planOutputs()
	if !slices.Contains(o.Entries, key("torch", "a")) || !slices.Contains(o.Entries, key("dup", "b")) || slices.Contains(o.Entries, key("brazier", "a")) || slices.Contains(o.Entries, key("dup", "a")) {
		t.Errorf("after choosing, the plan holds %v", o.Entries)
	}

	// Every declared kind of line, with the choices that need them.
	lampID := p.id["lamp"]
	b.openPlan(base + "#add=" + strings.Join([]string{lampID, tok("torch", "a"), tok("dup", "b"), p.id["trm"], p.id["rival"]}, ",") +
		"&openmw=0.49&lua=60&root=/m&on=" + lampID + ":glow," + lampID + ":grass," + lampID + ":cold")
	o = b.planOutputs()
	folder := "/m/Project-lamp-" + lampID[:8]
	for _, want := range []string{`data="` + folder + `/spark"`, "fallback-archive=Lamp Sparks.bsa", "content=Glow.esp", "content=Lamp - TR.esp",
		"groundcover=Lamp Grass.esp", "fallback=LightAttenuation_UseConstant,0", `config="` + folder + `/grass"`,
		"# Project lamp 1.0.0 from Site a", "# (no manifest declares the order of the next line against the content= line before it)"} {
		if !hasLine(o.CFG, want) {
			t.Errorf("the openmw.cfg lacks %q:\n%s", want, o.CFG)
		}
	}
	settings := strings.Split(o.Settings, "\n")
	if i := slices.Index(settings, "[Shaders]"); i < 0 || !slices.Equal(settings[i+1:min(i+3, len(settings))], []string{"# Project lamp 1.0.0 from Site a", "force per pixel lighting = true"}) ||
		!hasLineEnding(o.Sums, "  lamp.zip") {
		t.Errorf("settings and sums:\n%s\n%s", o.Settings, o.Sums)
	}
	if !slices.Contains(o.Findings, "conflict|"+key("lamp", "a")) {
		t.Errorf("no conflict finding: %v", o.Findings)
	}
	b.axe("synthetic plan")
	b.clean("synthetic plan")

	// The plan's openmw.cfg in the setup check: every project of the plan is recognised by
	// its files and folders, and nothing it requires is missing or out of order; what the
	// plan itself found (the project nobody publishes, lamp's conflict with rival) is found
	// again.
	if !hasLine(o.Base, "content=Morrowind.esm") || strings.Contains(o.CFG, "Morrowind") {
		t.Errorf("the base game's block is\n%s\nand the plan's\n%s", o.Base, o.CFG)
	}
	b.open((&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.SetupPage}).String())
	b.paste(o.Base+o.CFG, "0.49")
	got, _ := b.findings()
	for _, f := range got {
		kind := strings.SplitN(f, "|", 2)[0]
		if kind == "missing-content" || kind == "missing-project" || kind == "order" || kind == "unknown" || kind == "data-unknown" || kind == "runtime" ||
			kind == "requires-unresolved" && !slices.Contains(strings.Split(f, "|"), p.id["nowhere"]) {
			t.Errorf("the setup check finds %s in the synthetic plan's openmw.cfg:\n%s", f, o.CFG)
		}
	}
	folders := 0
	for _, f := range got {
		if strings.HasPrefix(f, "data-folder|") || strings.HasPrefix(f, "config-folder|") {
			folders++
		}
	}
	if n := strings.Count(o.CFG, "\ndata=") + strings.Count(o.CFG, "\nconfig="); folders != n {
		t.Errorf("the setup check names %d of the plan's %d folders as their projects'", folders, n)
	}
	for _, want := range []string{"requires-unresolved||" + key("lamp", "a") + "|" + p.id["nowhere"] + "|", "conflict||" + key("lamp", "a") + "||" + key("rival", "a")} {
		if !slices.Contains(got, want) {
			t.Errorf("the setup check of the synthetic plan lacks %s: %v", want, got)
		}
	}
	b.clean("synthetic round trip")
	b.openPlan(base + "#add=" + strings.Join([]string{lampID, tok("torch", "a"), tok("dup", "b"), p.id["trm"], p.id["rival"]}, ",") +
		"&openmw=0.49&lua=60&root=/m&on=" + lampID + ":glow," + lampID + ":grass," + lampID + ":cold")

	// The controls: 60 clicks on whatever is enabled, each leaving a valid selection.
	lamp := doc.Claims[key("lamp", "a")]
	r := rand.New(rand.NewPCG(20, 20))
	seen := map[string]bool{}
	defer func() { t.Logf("60 clicks made %d distinct selections of lamp's components", len(seen)) }()
	for step := 0; step < 60; step++ {
		var enabled []string
		b.eval(`Array.from(document.querySelectorAll('li[data-key="`+key("lamp", "a")+`"] .components input')).filter(i => !i.disabled).map(i => i.id)`, &enabled)
		if len(enabled) == 0 {
			t.Fatal("no control is enabled")
		}
		id := enabled[r.IntN(len(enabled))]
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { document.getElementById(`+jsString(id)+`).click(); return true })()`)); err != nil {
			t.Fatal(err)
		}
		var sel []string
		b.eval(`Array.from(document.querySelectorAll('li[data-key="`+key("lamp", "a")+`"] input[data-component]:checked')).map(i => i.dataset.component)`, &sel)
		seen[strings.Join(sel, "+")] = true
		if err := planSelectionValid(lamp, sel); err != nil {
			t.Fatalf("step %d, after clicking %s: the page shows the invalid selection %v: %v", step, id, sel, err)
		}
	}
	b.clean("controls")
}
