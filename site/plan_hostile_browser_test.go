package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// lineEnds are every line terminator a reader of some kind ends a line at.
var lineEnds = []string{"\n", "\r", "\v", "\f", "\u0085", "\u2028", "\u2029"}

// splitLines splits text at every one of lineEnds.
func splitLines(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(strings.Join(lineEnds, ""), r) })
}

// omwExt is an openmw extension of one component, "main".
type omwExt struct {
	Data, Content, Groundcover, Archives []string
	Fallback                             map[string]string
	Settings                             []map[string]string
}

// withExt gives m's releases one component at path whose openmw extension is x.
func withExt(m *protocol.Manifest, path string, x omwExt) *protocol.Manifest {
	raw, err := json.Marshal(map[string]any{"settings": x.Settings, "requires_content": []string{}, "components": map[string]any{"main": map[string]any{
		"data_directories": x.Data, "content_files": x.Content, "groundcover_files": x.Groundcover, "fallback_archives": x.Archives,
		"fallback_entries": x.Fallback, "config": false, "requires_content": []string{}}}})
	if err != nil {
		panic(err)
	}
	for i := range m.Releases {
		m.Releases[i].Components[0].Path = path
		m.Releases[i].Extensions = map[string]json.RawMessage{"openmw": raw}
		m.Releases[i].CriticalExtensions = []string{"openmw"}
	}
	return m
}

// goodExt is an extension writing one data directory, one content file and a setting.
func goodExt(file string) omwExt {
	return omwExt{Data: []string{"."}, Content: []string{file}, Groundcover: []string{}, Archives: []string{}, Fallback: map[string]string{},
		Settings: []map[string]string{{"category": "Shaders", "key": "clamp lighting", "value": "true"}}}
}

// hostileSite builds a site of one well-behaved claim (project uuid(900)) and, for every
// injection class and line terminator, a claim whose value of that class tries to add the
// line content=EVIL.esp (or a settings section, or a SHA256SUMS line); want maps each
// hostile project id to the field its refusal names ("" for a name, which only a comment
// holds). It returns the output directory.
func hostileSite(t *testing.T) (out string, want map[string]string) {
	state := filepath.Join(t.TempDir(), "state")
	f := statetest.In(t, state)
	site := f.Site("https://hostile.example/dreamweave.json", "Hostile")
	f.Claim(site, withExt(sampleManifest(uuid(900), "Good", 1), ".", goodExt("Good.esp")))
	want = map[string]string{}
	n := 900
	add := func(field string, edit func(m *protocol.Manifest, x *omwExt, evil string), term string) {
		n++
		m, x := sampleManifest(uuid(n), fmt.Sprintf("Mod %d", n), 1), goodExt(fmt.Sprintf("Mod%d.esp", n))
		edit(m, &x, "ok"+term+"content=EVIL.esp")
		path := "."
		if field == "path" {
			path = m.Project.Summary
		}
		f.Claim(site, withExt(m, path, x))
		want[uuid(n)] = field
	}
	for _, term := range lineEnds {
		add("content_files", func(m *protocol.Manifest, x *omwExt, evil string) { x.Content = []string{evil} }, term)
		add("data_directories", func(m *protocol.Manifest, x *omwExt, evil string) { x.Data = []string{evil} }, term)
		add("fallback_archives", func(m *protocol.Manifest, x *omwExt, evil string) { x.Archives = []string{evil} }, term)
		add("groundcover_files", func(m *protocol.Manifest, x *omwExt, evil string) { x.Groundcover = []string{evil} }, term)
		add("fallback_entries", func(m *protocol.Manifest, x *omwExt, evil string) { x.Fallback = map[string]string{evil: "1"} }, term)
		add("fallback_entries", func(m *protocol.Manifest, x *omwExt, evil string) { x.Fallback = map[string]string{"k": evil} }, term)
		add("path", func(m *protocol.Manifest, x *omwExt, evil string) { m.Project.Summary = evil }, term)
		add("settings value", func(m *protocol.Manifest, x *omwExt, evil string) { x.Settings[0]["value"] = "1" + term + "[Evil]" }, term)
		add("filename", func(m *protocol.Manifest, x *omwExt, evil string) {
			m.Releases[0].Artifacts[0].Filename = "a.zip" + term + strings.Repeat("0f", 32) + "  EVIL.zip"
		}, term)
		// A name's letters are in its folder's name: "evil" there is the name, not a line.
		add("", func(m *protocol.Manifest, x *omwExt, evil string) { m.Project.Name += strings.ToLower(evil) }, term)
	}
	add("path", func(m *protocol.Manifest, x *omwExt, evil string) { m.Project.Summary = "../../EVIL" }, "")
	add("data_directories", func(m *protocol.Manifest, x *omwExt, evil string) { x.Data = []string{"/EVIL"} }, "")
	add("content_files", func(m *protocol.Manifest, x *omwExt, evil string) { x.Content = []string{"../EVIL.esp"} }, "")
	out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	return out, want
}

// TestPlanHostileValuesInChromium plans, on the plan page in Chromium, a well-behaved claim
// beside a claim for every injection class and line terminator: no line of the page's
// openmw.cfg, base game block, settings.cfg or SHA256SUMS, split at any terminator, is one the
// plan did not mean (each is a comment or has the shape of its file's lines, and none names
// EVIL or a section [Evil]); each hostile claim's refusal is a finding naming the claim, the
// field and the value, escaped; the well-behaved claim is planned. Then links over the
// bounds: a root adding replace=data, a megabyte root, an unknown part: each a finding, the
// plan shown.
func TestPlanHostileValuesInChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a browser test")
	}
	out, want := hostileSite(t)
	b := newSetupBrowser(t, "127.0.0.1", filepath.ToSlash(out)+"/")
	page := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.PlanPage}).String()
	ids := []string{uuid(900)}
	for id := range want {
		ids = append(ids, id)
	}
	b.openPlan(page + "#add=" + strings.Join(ids, ",") + "&root=/m")
	o := b.planOutputs()
	good := fmt.Sprintf(`data="/m/Good-%s"`, uuid(900)[:8])
	shapes := []string{"# ", `data="/m/`, "content=Mod", "content=Good.esp", "[Shaders]", "clamp lighting = true"}
	for what, text := range map[string]string{"openmw.cfg": o.CFG, "base": o.Base, "settings.cfg": o.Settings, "SHA256SUMS": o.Sums} {
		for _, l := range splitLines(text) {
			shaped := false
			for _, s := range shapes {
				shaped = shaped || strings.HasPrefix(l, s)
			}
			if what == "base" {
				shaped = strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "content=") && strings.HasSuffix(l, ".esm") || strings.HasPrefix(l, "fallback-archive=") && strings.HasSuffix(l, ".bsa")
			}
			if what == "SHA256SUMS" {
				shaped = strings.HasPrefix(l, "# ") || len(l) > 66 && l[64:66] == "  " && !strings.ContainsAny(l[66:], "/\\")
			}
			if !shaped || !strings.HasPrefix(l, "# ") && (strings.Contains(l, "EVIL") || strings.Contains(l, "[Evil")) {
				t.Errorf("%s holds the line %q", what, l)
			}
		}
	}
	cfg := strings.Split(o.CFG, "\n")
	if i := slices.Index(cfg, good); i < 0 || i+1 >= len(cfg) || cfg[i+1] != "content=Good.esp" {
		t.Errorf("the well-behaved claim is not planned:\n%s", o.CFG)
	}
	var refused map[string]string // key -> the finding's text
	b.eval(`Object.fromEntries(Array.from(document.querySelectorAll('[data-plan-finding="refused"][data-key]')).map(li => [li.dataset.key, li.textContent]))`, &refused)
	for id, field := range want {
		var text string
		for k, v := range refused {
			if strings.HasPrefix(k, id+"/") {
				text = v
			}
		}
		switch {
		case field == "" && text != "":
			t.Errorf("%s, a hostile name, is refused: %s", id, text)
		case field != "" && (!strings.Contains(text, field) || strings.ContainsAny(text, strings.Join(lineEnds, "")) || !strings.Contains(strings.ToUpper(text), "EVIL")):
			t.Errorf("%s: the refusal of its %s reads %q", id, field, text)
		}
	}
	b.clean("hostile values")

	for _, link := range []struct{ name, fragment, field string }{
		{"a root adding replace=data", "&root=/m%0Areplace%3Ddata", "root"},
		{"a megabyte root", "&root=/" + strings.Repeat("a", 1<<20), "root"},
		{"an unknown part", "&replace=data", "replace"},
	} {
		b.openPlan(page + "#add=" + uuid(900) + link.fragment)
		o := b.planOutputs()
		var found string
		b.eval(`Array.from(document.querySelectorAll('[data-plan-finding="link"][data-field=`+jsString(link.field)+`], [data-plan-finding="refused"][data-field=`+jsString(link.field)+`]')).map(li => li.textContent).join("\n")`, &found)
		if found == "" || strings.ContainsAny(found, strings.Join(lineEnds, "")) || !hasLine(o.CFG, "content=Good.esp") || strings.Contains(o.CFG, "replace") || len(o.CFG) > 2000 {
			t.Errorf("%s: findings %q, openmw.cfg\n%.2000s", link.name, found, o.CFG)
		}
		b.clean(link.name)
	}
}

// openedTTI opens u, from the tab of ctx (on a page of the same site, its CPU slowed rate
// times), in a window of its own and returns when ready(d), a JS expression over that window's
// document d, first held, on the window's clock (ms from its navigation's start). The window
// is not one DevTools instruments: a page DevTools attaches to serializes its address into
// event after event (the DOM and CSS domains chromedp enables), which with a megabyte
// address costs tens of seconds no player pays.
func openedTTI(b *testing.B, ctx context.Context, u, ready string) float64 {
	b.Helper()
	js := `new Promise((r, x) => { const w = window.open(` + jsString(u) + `); if (!w) { x(new Error("no window")); return; }
		const f = () => { let ok = false; try { const d = w.document; ok = d.readyState === "complete" && (` + ready + `); } catch (e) {}
		ok ? w.setTimeout(() => { const t = w.performance.now(); w.close(); r(t); }, 0) : setTimeout(f, 5); }; f(); })`
	t, err := chromedp.Run(ctx, chromedp.Evaluate[float64](js, chromedp.EvalAwaitPromise, func(p *runtime.EvaluateParams) { p.UserGesture = ptrBool(true) }))
	if err != nil {
		b.Fatalf("%.80s: %v", u, err)
	}
	return t
}

func ptrBool(v bool) *bool { return &v }

// BenchmarkPlanLongLink measures how long the plan page takes to show the plan of a
// one-claim site on a phone (the CPU slowed 4x, as BenchmarkPlayerPages has it; openedTTI)
// from links of a megabyte, beside a short one: a megabyte root, a megabyte of escapes in the
// root, a megabyte list of projects, a megabyte of separators; and the about page with a
// megabyte fragment, what the browser itself pays for such an address. Each is opened five
// times; it prints the median and the worst and reports the medians (ms). A measurement, not
// a test: the bound is a second.
//
//	ASHYAMS_BROWSER=/usr/bin/chromium go test ./site -run '^$' -bench BenchmarkPlanLongLink -benchtime 1x
func BenchmarkPlanLongLink(b *testing.B) {
	state := filepath.Join(b.TempDir(), "state")
	f := statetest.In(b, state)
	f.Claim(f.Site("https://good.example/dreamweave.json", "Good"), withExt(sampleManifest(uuid(900), "Good", 1), ".", goodExt("Good.esp")))
	out := filepath.Join(b.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	root := srv.URL + BasePath(DefaultBaseURL)
	page := root + strings.TrimSuffix(plan.PlanPage, "index.html") + "#add=" + uuid(900)
	const mb = 1 << 20
	const shown = `!!d.querySelector('[data-plan-output="openmw.cfg"]') && !d.getElementById("plan-results").hasAttribute("data-plan-loading") && d.getElementById("plan-results").textContent.indexOf("Good.esp") >= 0`
	cases := []struct{ name, url, ready, metric string }{
		{"short link", page + "&root=/m", shown, "plan-short-ms"},
		{"a megabyte root", page + "&root=/" + strings.Repeat("a", mb), shown, "plan-1mb-root-ms"},
		{"a megabyte of escapes in the root", page + "&root=" + strings.Repeat("%0A", mb/3), shown, "plan-1mb-escapes-ms"},
		{"a megabyte list of projects", page + "," + strings.Repeat("x,", mb/2), shown, "plan-1mb-add-ms"},
		{"a megabyte of separators", page + strings.Repeat("&", mb), shown, "plan-1mb-parts-ms"},
		{"the about page, a megabyte fragment", root + "about/#" + strings.Repeat("a", mb), `!!d.querySelector("main")`, "about-1mb-ms"},
	}
	ctx := browsertest.Start(b, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(root+"about/"), func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4})
		return chromedp.Void{}, err
	}); err != nil {
		b.Fatal(err)
	}
	const runs = 5
	var rows []string
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows = rows[:0]
		for _, c := range cases {
			var ttis []float64
			for r := 0; r < runs; r++ {
				ttis = append(ttis, openedTTI(b, ctx, c.url, c.ready))
			}
			slices.Sort(ttis)
			rows = append(rows, fmt.Sprintf("| %s | %d | %.0f | %.0f |", c.name, len(c.url), ttis[runs/2], ttis[runs-1]))
			b.ReportMetric(ttis[runs/2], c.metric)
		}
	}
	b.StopTimer()
	fmt.Println("| link | address bytes | shown, median ms | worst ms |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
}
