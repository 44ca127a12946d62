package site

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// Corpus projects with a build per platform: S3LightFixes and dream-ini.
const (
	planS3LightFixes = "55e873c9-1ddc-4b13-b59a-0eb790bb2565"
	planDreamIni     = "b3efde19-438b-4325-bf94-fae56bf1d458"
)

// planPlatforms are the platforms (plan.js platformOf's tokens) of the builds of claims keys,
// in first-seen order, skipping a variant the page does not know.
func planPlatforms(doc plan.Doc, keys ...string) []string {
	var out []string
	for _, k := range keys {
		for _, a := range doc.Claims[k].Artifacts {
			if tok := platformToken(a); tok != "" && !slices.Contains(out, tok) {
				out = append(out, tok)
			}
		}
	}
	return out
}

// platformToken is a's platform as plan.js's platformOf writes it, "" for an artifact of every
// platform or of a variant the page does not know.
func platformToken(a plan.Artifact) string {
	p := a.Platform
	if p == nil || p.Variant != "" && p.Variant != "portmaster" && p.Variant != "muos" {
		return ""
	}
	if p.Variant != "" {
		return p.OS + "-" + p.Arch + "-" + p.Variant
	}
	return p.OS + "-" + p.Arch
}

// uriComponent is s as JavaScript's encodeURIComponent writes it, as a plan link holds it.
func uriComponent(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// shellWords is what a POSIX shell makes of the words in s (sh, run here, prints them).
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `for a in `+s+`; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatalf("sh reading %q: %v", s, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// TestPlanPolishInChromium plans Candlelight (a declared conflict with no target, and its
// reason), S3LightFixes and dream-ini (tools with a build per platform) on the corpus when
// present, and Wick Trimmer and Ember Ini on a generated build (polishBuild), served and from
// file://, with a mods folder holding a quote, a space and "&":
//   - the declared conflict is listed with its reason;
//   - the platform choice offers exactly the platforms of the builds the page knows; a choice
//     lists only that platform's builds and digests, is in the link, and a tool with no such
//     build is a finding;
//   - each download is one line at 1280 px (its name, version, file, size and sources) and at
//     390 px no line of it holds punctuation alone;
//   - each of the five output blocks has a copy button, which copies the block's text through
//     the Clipboard API (the real clipboard, when served), and else selects it and copies;
//   - the command names this plan's link and the mods folder as a POSIX shell reads them, and
//     the page links the release binaries and docs/players.md;
//   - "Save plan file" saves a file the plan file schema accepts, naming the planned claims,
//     whose link opens the same plan;
//   - screenshots at 390 and 1280 px, axe-core at both widths, nothing fetched from outside.
func TestPlanPolishInChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a browser test")
	}
	t.Run("generated", func(t *testing.T) { planPolishInChromium(t, polishBuild(t), polishWick, polishEmber, false) })
	if _, ok := corpustest.Optional(t, "state/network.json"); ok {
		t.Run("corpus", func(t *testing.T) {
			out, _ := corpusBuild(t)
			planPolishInChromium(t, out, planS3LightFixes, planDreamIni, true)
		})
	}
}

// Generated tools with a build per platform: Wick Trimmer (Linux, Windows and macOS; OpenMW
// 0.51 on) and Ember Ini (Linux, Windows and muOS); and Dusk Horizon, a mod declaring
// polishHorizonFile with no runtime constraint.
const (
	polishWick        = "5ea1c0de-0000-4000-8000-00000000a11c"
	polishEmber       = "5ea1c0de-0000-4000-8000-00000000e3be"
	polishHorizon     = "5ea1c0de-0000-4000-8000-0000000d05c0"
	polishHorizonFile = "DuskHorizon.esp"
	polishSiteName    = "Ember Hollow Mods"
)

var (
	polishOnce sync.Once
	polishOut  string
)

// polishBuild is the site built from Candlelight (its conflict with a reason, Morrowind.esm
// required, its Tamriel Rebuilt component requiring TR_Mainland.esm), Tallow, Dusk Horizon
// and the two generated tools published on one loopback site named polishSiteName and crawled
// by a real refresh, once per test binary.
func polishBuild(t *testing.T) string {
	t.Helper()
	polishOnce.Do(func() {
		dir, err := sharedTempDir("ashyams-polish-")
		if err != nil {
			t.Fatal(err)
		}
		net := rt.New(t)
		net.State = filepath.Join(dir, "state")
		candle := corpustest.Generated(t, "candlelight.json")
		for _, r := range candle["releases"].([]any) {
			openmw := r.(map[string]any)["extensions"].(map[string]any)["openmw"].(map[string]any)
			openmw["requires_content"] = []any{"Morrowind.esm"}
			openmw["components"].(map[string]any)["tamriel-rebuilt"].(map[string]any)["requires_content"] = []any{"TR_Mainland.esm"}
			for _, rel := range r.(map[string]any)["relationships"].([]any) {
				if rel := rel.(map[string]any); rel["kind"] == "conflicts" {
					rel["reason"] = "Two wicks on one candle: pick one."
				}
			}
		}
		tool := func(id, name string, platforms ...string) map[string]any {
			var m map[string]any
			doc := corpustest.Manifest(corpustest.Project{ID: id, Name: name, Type: "tool", Summary: name + " for lights.",
				Page: "https://tools.example/" + id + "/", Versions: []string{"2.0.1-dev.0", "2.0.0"}, Platforms: platforms})
			if err := json.Unmarshal(rt.Pretty(t, doc), &m); err != nil {
				t.Fatal(err)
			}
			for _, r := range m["releases"].([]any) {
				for _, a := range r.(map[string]any)["artifacts"].([]any) {
					a.(map[string]any)["filename"] = strings.ToLower(strings.ReplaceAll(name, " ", "-")) + "-" + a.(map[string]any)["filename"].(string)
				}
			}
			return m
		}
		ember := tool(polishEmber, "Ember Ini", "linux/x86_64", "windows/x86_64", "linux/aarch64")
		for _, r := range ember["releases"].([]any) {
			for _, a := range r.(map[string]any)["artifacts"].([]any) {
				if a := a.(map[string]any); a["id"] == "linux-aarch64" {
					a["platform"].(map[string]any)["variant"] = "muos"
					a["filename"] = strings.Replace(a["filename"].(string), ".zip", ".muxapp", 1)
				}
			}
		}
		site := net.Site("/polish/")
		wick, horizon := tool(polishWick, "Wick Trimmer", "linux/x86_64", "windows/x86_64", "macos/aarch64"), tool(polishHorizon, "Dusk Horizon")
		horizon["project"].(map[string]any)["type"] = "mod"
		for _, r := range wick["releases"].([]any) {
			r.(map[string]any)["runtimes"] = map[string]any{"openmw": ">=0.51"}
		}
		for _, r := range horizon["releases"].([]any) {
			r.(map[string]any)["runtimes"] = map[string]any{"openmw": "*"}
			r.(map[string]any)["extensions"].(map[string]any)["openmw"].(map[string]any)["components"].(map[string]any)["main"].(map[string]any)["content_files"] = []any{polishHorizonFile}
		}
		ms := []map[string]any{candle, corpustest.Generated(t, "tallow.json"), horizon, wick, ember}
		for i, m := range ms { // sizes a player reads in KiB and MiB
			for _, r := range m["releases"].([]any) {
				for _, a := range r.(map[string]any)["artifacts"].([]any) {
					a.(map[string]any)["size"] = 48_000 << (i * 3)
				}
			}
		}
		site.Publish(ms...)
		var entries []map[string]any
		for _, m := range ms {
			entries = append(entries, site.Entry(m, site.Bytes(m)))
		}
		net.Serve(site.Base+"dreamweave.json", "application/json", rt.Pretty(t, map[string]any{"schema_version": "2", "document": "index",
			"generator": "fixture", "site": map[string]any{"name": polishSiteName, "url": site.URL("")}, "projects": entries}))
		net.Refresh(site.URL(""))
		_, out := build(t, net.State, Options{Out: filepath.Join(dir, "public")})
		polishOut = out
	})
	if polishOut == "" {
		t.Fatal("the polish site was not made (its first build stopped)")
	}
	return polishOut
}

// platformFiles are the file names of claim k's artifacts for platform token p (plan.js's
// platformOf), with those for every platform.
func platformFiles(doc plan.Doc, k, p string) []string {
	var out []string
	for _, a := range doc.Claims[k].Artifacts {
		if a.Platform == nil || platformToken(a) == p {
			out = append(out, a.Filename)
		}
	}
	return out
}

// planPolishInChromium is TestPlanPolishInChromium on the built site out, planning Candlelight
// and the tools s3ID and iniID (with a build per platform, iniID's for muOS too).
func planPolishInChromium(t *testing.T, out, s3ID, iniID string, corpus bool) {
	var doc plan.Doc
	if err := json.Unmarshal(planDataOf(t, out), &doc); err != nil {
		t.Fatal(err)
	}
	key := func(id string) string { return doc.Projects[id][0] }
	candle, s3, ini := key(planCandlelight), key(s3ID), key(iniID)
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	siteRoot := srv.URL + BasePath(DefaultBaseURL)
	b := newSetupBrowser(t, su.Host, filepath.ToSlash(out)+"/")
	fileRoot := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String()
	downloads := t.TempDir()
	bctx := chromedp.FromContext(b.ctx).BrowserContextID
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: bctx, DownloadPath: downloads}); err != nil {
		t.Fatal(err)
	}
	for _, perm := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{Permission: &browser.PermissionDescriptor{Name: perm},
			Setting: browser.PermissionSettingGranted, Origin: srv.URL, BrowserContextID: bctx}); err != nil {
			t.Fatal(err)
		}
	}
	const root = "/home/o'neil/Mods & more"
	gesture := func(p *runtime.EvaluateParams) { yes := true; p.UserGesture = &yes }

	for _, from := range []struct{ how, root string }{{"served", siteRoot}, {"file://", fileRoot}} {
		link := from.root + plan.PlanPage + "#add=" + strings.Join([]string{planCandlelight, s3ID, iniID}, ",") + "&root=" + uriComponent(root)
		b.openPlan(link)

		// The declared conflict, with its reason.
		dom := b.dom()
		conflicts := htmlcheck.All(t, dom, "#plan-results [data-plan-conflict]")
		if len(conflicts) != 1 || htmlcheck.Attr(conflicts[0], "data-plan-conflict") != candle {
			t.Errorf("%s: the declared conflicts are %q", from.how, htmlcheck.Texts(t, dom, "#plan-results [data-plan-conflict]"))
		}
		for _, r := range doc.Claims[candle].Relationships {
			if r.Kind == "conflicts" {
				htmlcheck.Want(t, dom, "#plan-results [data-plan-conflict]", "conflicts with "+r.Name+" (“"+r.Reason+"”).")
			}
		}
		if corpus {
			htmlcheck.Want(t, dom, "#plan-results [data-plan-conflict]", "conflicts with Other mods that script vanilla light records (“Two scripts animating the same light fight every frame. Pick one.”).")
		}

		// The platform choice.
		var offered []string
		b.eval(`document.getElementById("plan-platform-box").hidden ? [] : Array.from(document.querySelectorAll("#plan-platform option")).map(o => o.value)`, &offered)
		if want := append([]string{""}, planPlatforms(doc, candle, s3, ini)...); !slices.Equal(offered, want) || len(want) < 5 {
			t.Errorf("%s: the platforms offered are %q, want %q", from.how, offered, want)
		}
		choose := func(p string) planOutputs {
			t.Helper()
			b.eval(`(() => { const s = document.getElementById("plan-platform"); s.value = `+jsString(p)+`; s.dispatchEvent(new Event("change")); return true })()`, new(bool))
			b.wait(`location.hash.indexOf("platform=`+p+`") >= 0`, "the platform in the link")
			return b.planOutputs()
		}
		files := func(k string) []string {
			var f []string
			b.eval(`Array.from(document.querySelectorAll('ul.downloads > li[data-key="`+k+`"] .file')).map(s => s.textContent)`, &f)
			return f
		}
		const muos, linux = "linux-aarch64-muos", "linux-x86_64"
		o := choose(muos)
		if f := files(ini); len(f) == 0 || !slices.Equal(f, platformFiles(doc, ini, muos)) || len(platformFiles(doc, s3, muos)) != 0 || len(files(s3)) != 0 ||
			!slices.Contains(o.Findings, "platform|"+s3) || slices.Contains(o.Findings, "platform|"+ini) || corpus && !slices.Equal(f, []string{"dream-ini-Portmaster-ARM64.muxapp"}) {
			t.Errorf("%s: for muOS the downloads are %v and %v; findings %v", from.how, f, files(s3), o.Findings)
		}
		o = choose(linux)
		var sums []string // the files planned for linux x86_64, Tallow's among them
		for _, k := range append([]string{key(planTallow)}, candle, s3, ini) {
			want := platformFiles(doc, k, linux)
			if got := files(k); len(want) != 1 || !slices.Equal(got, want) {
				t.Errorf("%s: for linux x86_64 %s downloads %v, want %v", from.how, k, got, want)
			}
			sums = append(sums, want...)
		}
		if corpus && (!slices.Equal(files(s3), []string{"s3lightfixes-Linux-X64.zip"}) || !slices.Equal(files(ini), []string{"dream-ini-Linux-X64.zip"}) || !slices.Equal(files(candle), []string{"candlelight.zip"})) {
			t.Errorf("%s: for linux x86_64 the downloads are %v, %v, %v", from.how, files(s3), files(ini), files(candle))
		}
		for _, l := range strings.Split(strings.TrimSpace(o.Sums), "\n") {
			if _, f, _ := strings.Cut(l, "  "); !strings.HasPrefix(l, "#") && !slices.Contains(sums, f) {
				t.Errorf("%s: for linux x86_64 SHA256SUMS holds %q", from.how, l)
			}
		}
		if slices.ContainsFunc(o.Findings, func(f string) bool { return strings.HasPrefix(f, "platform|") }) {
			t.Errorf("%s: for linux x86_64 the findings are %v", from.how, o.Findings)
		}

		// Each download one line at 1280 px; no line of punctuation alone at 390 px.
		type line struct {
			Text  string
			Rows  int
			Links int
			Alone []string
		}
		lines := func() []line {
			var ls []line
			b.eval(`Array.from(document.querySelectorAll("ul.downloads > li")).map(li => {
				const boxes = Array.from(li.children).map(c => c.getBoundingClientRect());
				const rows = new Map(), walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT), r = document.createRange();
				for (let n = walk.nextNode(); n; n = walk.nextNode()) {
					for (let i = 0; i < n.data.length; i++) {
						r.setStart(n, i); r.setEnd(n, i + 1);
						const rect = r.getClientRects()[0];
						if (!rect || !n.data[i].trim()) continue;
						const y = Math.round(rect.top);
						rows.set(y, (rows.get(y) || "") + n.data[i]);
					}
				}
				return {Text: li.textContent, Rows: Math.max(...boxes.map(r => r.top)) < Math.min(...boxes.map(r => r.bottom)) ? 1 : 2, Links: li.querySelectorAll(".sources a.download[href^='https://']").length,
					Alone: Array.from(rows.values()).filter(s => !/[\p{L}\p{N}]/u.test(s))};
			})`, &ls)
			return ls
		}
		ls := lines()
		sized := regexp.MustCompile(`\d [KM]iB`)
		if len(ls) < 4 {
			t.Fatalf("%s: %d downloads", from.how, len(ls))
		}
		for _, l := range ls {
			if l.Rows != 1 || l.Links == 0 || !sized.MatchString(l.Text) {
				t.Errorf("%s: at 1280 px the download %q is on %d lines, with %d source links", from.how, l.Text, l.Rows, l.Links)
			}
		}
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
			t.Fatal(err)
		}
		for _, l := range lines() {
			if len(l.Alone) > 0 {
				t.Errorf("%s: at 390 px the download %q has lines of punctuation alone: %q", from.how, l.Text, l.Alone)
			}
		}
		for _, w := range []int64{1280, 390} {
			b.narrow(w, "plan-polish-"+strings.TrimSuffix(from.how, "://")+"-"+map[int64]string{1280: "1280", 390: "390"}[w])
		}
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
			t.Fatal(err)
		}
		b.axe(from.how + " plan at 390 px")
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		b.axe(from.how + " plan at 1280 px")

		// The command, and the links beside it.
		var cmd struct{ Text, Link, Releases, Players string }
		b.eval(`({Text: document.getElementById("out-command-text").textContent,
			Link: (location.protocol === "file:" ? `+jsString(DefaultBaseURL+"plan/")+` : location.origin + location.pathname) + AshyamsPlan.fragment(AshyamsPlan.parseFragment(location.hash)),
			Releases: document.querySelector('#plan-install a[href="https://github.com/DreamWeave-MP/ashyams-go/releases/latest"]') ? "yes" : "",
			Players: document.querySelector('#plan-install a[href="https://github.com/DreamWeave-MP/ashyams-go/blob/main/docs/players.md"]') ? "yes" : ""})`, &cmd)
		if !strings.HasPrefix(cmd.Link, map[string]string{"served": siteRoot + "plan/", "file://": DefaultBaseURL + "plan/#"}[from.how]) {
			t.Errorf("%s: the plan's link is %q", from.how, cmd.Link)
		}
		words, ok := strings.CutPrefix(strings.TrimSuffix(cmd.Text, "\n"), "ashyams install ")
		u, err := url.Parse(cmd.Link)
		if err != nil {
			t.Fatal(err)
		}
		plat, _ := url.ParseQuery(u.Fragment)
		if got := shellWords(t, words); !ok || !slices.Equal(got, []string{strings.ReplaceAll(cmd.Link, "'", "%27"), "--mods", root}) || plat.Get("platform") != "linux-x86_64" {
			t.Errorf("%s: the command %q reads as %q; the link is %q", from.how, cmd.Text, got, cmd.Link)
		}
		if cmd.Releases == "" || cmd.Players == "" {
			t.Errorf("%s: the page does not link the release binaries (%q) or docs/players.md (%q)", from.how, cmd.Releases, cmd.Players)
		}

		// Copy buttons: one for each output block, copying its text.
		var blocks []string
		b.eval(`Array.from(document.querySelectorAll("pre[data-plan-output]")).filter(p => document.querySelector('button[data-copy="' + p.id + '"]')).map(p => p.dataset.planOutput)`, &blocks)
		if want := []string{"openmw.cfg", "base", "settings.cfg", "sha256sums", "command"}; !slices.Equal(blocks, want) {
			t.Errorf("%s: the blocks with a copy button are %v, want %v", from.how, blocks, want)
		}
		if from.how == "served" {
			// The real clipboard, after a click the browser counts as the player's.
			for _, id := range []string{"out-command-text", "out-openmw-cfg-text"} {
				if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(document.querySelector('button[data-copy="`+id+`"]').click(), true)`, gesture)); err != nil {
					t.Fatal(err)
				}
				b.wait(`document.querySelector('button[data-copy="`+id+`"]').textContent !== "Copy"`, "the copy")
				var got, want string
				b.eval(`document.getElementById("`+id+`").textContent`, &want)
				got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise, gesture))
				if err != nil || got != want || want == "" {
					t.Errorf("%s: after copying %s the clipboard holds %q (%v), want %q", from.how, id, got, err, want)
				}
			}
		}
		// Where the page has the Clipboard API, each button writes its block's text.
		var copied []bool
		b.eval(`(() => { const was = navigator.clipboard.writeText, got = [];
			navigator.clipboard.writeText = t => (got.push(t), Promise.resolve());
			const ok = Array.from(document.querySelectorAll("button[data-copy]")).map(bt => { bt.click(); return got[got.length - 1] === document.getElementById(bt.dataset.copy).textContent; });
			navigator.clipboard.writeText = was; return ok })()`, &copied)
		if len(copied) != 5 || slices.Contains(copied, false) {
			t.Errorf("%s: through the Clipboard API the buttons copy their blocks: %v", from.how, copied)
		}
		// Without it, the button selects the block and asks the browser to copy.
		var fallback struct {
			Selected bool
			Copy     bool
			Said     string
		}
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { Object.defineProperty(navigator, "clipboard", {value: undefined, configurable: true});
			const ex = document.execCommand.bind(document); window.copyCalls = [];
			document.execCommand = c => (window.copyCalls.push(c), ex(c));
			document.querySelector('button[data-copy="out-sha256sums-text"]').click(); return true })()`, gesture)); err != nil {
			t.Fatal(err)
		}
		b.eval(`({Selected: getSelection().toString().trim() === document.getElementById("out-sha256sums-text").textContent.trim() && getSelection().toString().trim() !== "",
			Copy: window.copyCalls.includes("copy"), Said: document.querySelector('button[data-copy="out-sha256sums-text"]').textContent})`, &fallback)
		if !fallback.Selected || !fallback.Copy || fallback.Said != "Copied" && fallback.Said != "Selected: copy it now" {
			t.Errorf("%s: without the Clipboard API the copy button: %+v", from.how, fallback)
		}

		// Save plan file.
		before := b.planOutputs()
		b.click("#plan-save")
		var saved []byte
		for i := 0; saved == nil; i++ {
			if b, err := os.ReadFile(filepath.Join(downloads, "plan.ashyams.json")); err == nil && len(b) > 0 && json.Valid(b) {
				saved = b
			} else if i > 3000 {
				t.Fatalf("%s: no plan file was saved in %s", from.how, downloads)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err := os.Remove(filepath.Join(downloads, "plan.ashyams.json")); err != nil {
			t.Fatal(err)
		}
		s, err := schemas.Compile(schemas.FS, schemas.PlanFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(s, saved); err != nil {
			t.Errorf("%s: the saved plan file is refused by its schema: %v\n%s", from.how, err, saved)
		}
		var file struct {
			Link    string `json:"link"`
			Planned []struct{ Project, Site, Version string }
		}
		if err := json.Unmarshal(saved, &file); err != nil {
			t.Fatal(err)
		}
		var planned []string
		for _, p := range file.Planned {
			planned = append(planned, p.Project+"/"+p.Site)
			if c := doc.Claims[p.Project+"/"+p.Site]; c == nil || c.Release.Version != p.Version {
				t.Errorf("%s: the plan file names %+v", from.how, p)
			}
		}
		if !slices.Equal(planned, before.Entries) || file.Link != cmd.Link {
			t.Errorf("%s: the plan file names %v at %s; the page plans %v at %s", from.how, planned, file.Link, before.Entries, cmd.Link)
		}
		b.openPlan(strings.Replace(file.Link, DefaultBaseURL+"plan/#", fileRoot+plan.PlanPage+"#", 1))
		if again := b.planOutputs(); again.CFG != before.CFG || again.Sums != before.Sums || again.Settings != before.Settings || again.Base != before.Base ||
			!slices.Equal(again.Entries, before.Entries) || !slices.Equal(again.Findings, before.Findings) {
			t.Errorf("%s: the plan file's link plans\n%+v\nnot\n%+v", from.how, again, before)
		}
		var shown string
		b.eval(`document.body.innerText`, &shown)
		for _, w := range scriptNotes {
			if strings.Contains(shown, w) {
				t.Errorf("%s: the plan page shows %q", from.how, w)
			}
		}
		b.clean(from.how + " plan polish")
		for _, r := range b.takeRequests() {
			if !strings.HasPrefix(r, siteRoot) && !strings.HasPrefix(r, fileRoot) && !strings.HasPrefix(r, "blob:") && r != "about:blank" {
				t.Errorf("%s: the page requested %s", from.how, r)
			}
		}
	}

	// A Windows mods folder: PowerShell's quoting, every kind of single quote doubled.
	b.openPlan(fileRoot + plan.PlanPage + "#add=" + planCandlelight + "&root=" + uriComponent(`C:\Games\O'Neil’s Mods`))
	var win string
	b.eval(`document.getElementById("out-command-text").textContent`, &win)
	if !strings.HasSuffix(win, ` --mods 'C:\Games\O''Neil’’s Mods'`+"\n") || !strings.HasPrefix(win, "ashyams install '"+DefaultBaseURL+"plan/#add=") {
		t.Errorf("with a Windows folder the command is %q", win)
	}
}

// TestPlanConflictsInChromium: every conflict a planned release declares is listed with its
// reason, whatever it names: a project (with the claim in the plan), a capability, or
// neither; a reason holding markup and a bidi override shows as text, and runs nothing.
func TestPlanConflictsInChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a browser test")
	}
	root := t.TempDir()
	f := statetest.In(t, filepath.Join(root, "state"))
	site := f.Site("https://x.plan.example/dreamweave.json", "Site X")
	id := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", 0xc0f1c700+i, i) }
	hostile := `<img src=x onerror="window.pwned=1"> it` + "\u202e" + `s <b>bold</b> & said`
	lamp := sampleManifest(id(1), "Lamp", 1)
	lamp.Releases[0].Relationships = []protocol.Relationship{
		{Kind: protocol.KindConflicts, Project: id(2), Reason: hostile},
		{Kind: protocol.KindConflicts, Capability: "light-source", Reason: "Two <script>window.pwned=2</script> lights"},
		{Kind: protocol.KindConflicts, Name: "Other mods that script vanilla light records", Reason: "Pick one."}}
	torch := sampleManifest(id(3), "Torch", 1)
	torch.Releases[0].Provides = []string{"light-source"}
	for _, m := range []*protocol.Manifest{lamp, sampleManifest(id(2), "Rival", 1), torch} {
		f.Claim(site, m)
	}
	out := filepath.Join(root, "public")
	if _, err := Build(Options{State: filepath.Join(root, "state"), Out: out}); err != nil {
		t.Fatal(err)
	}
	b := newSetupBrowser(t, "127.0.0.1", filepath.ToSlash(out)+"/")
	b.openPlan((&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.PlanPage}).String() + "#add=" + id(1) + "," + id(2))
	var got struct {
		Items  []string
		Marked int
		Rival  bool
		Pwned  bool
	}
	b.eval(`({Items: Array.from(document.querySelectorAll("#plan-results [data-plan-conflict]")).map(li => li.dataset.planConflict + "|" + li.textContent),
		Marked: document.querySelectorAll("[data-plan-conflict] img, [data-plan-conflict] b, [data-plan-conflict] script").length,
		Rival: !!document.querySelector('[data-plan-conflict] a[href$="/`+id(2)+`/`+site+`/index.html"]'), Pwned: !!window.pwned})`, &got)
	lampKey := id(1) + "/" + site
	want := []string{
		lampKey + "|Lamp 1.0.0 from Site X conflicts with the project " + id(2) + ": Rival 1.0.0 from Site X, in this plan (“" + strings.ReplaceAll(hostile, "\u202e", "") + "”).",
		lampKey + "|Lamp 1.0.0 from Site X conflicts with the capability light-source (“Two <script>window.pwned=2</script> lights”).",
		lampKey + "|Lamp 1.0.0 from Site X conflicts with Other mods that script vanilla light records (“Pick one.”).",
	}
	if !slices.Equal(got.Items, want) || got.Marked != 0 || !got.Rival || got.Pwned {
		t.Errorf("the declared conflicts are\n%q\nwant\n%q\n(%d elements made of the reasons, a link to the rival: %v, a script ran: %v)", got.Items, want, got.Marked, got.Rival, got.Pwned)
	}
	b.axe("declared conflicts")
	b.clean("declared conflicts")
}
