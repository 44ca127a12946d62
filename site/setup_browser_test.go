package site

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// setupBrowser is headless Chromium on the setup page, recording every request it makes and
// every console error, warning, failed load or request outside the site (browserLog).
type setupBrowser struct {
	t   *testing.T
	ctx context.Context
	bl  *browserLog
	art string

	mu       sync.Mutex
	requests []string
}

func newSetupBrowser(t *testing.T, host, files string) *setupBrowser {
	t.Helper()
	b := &setupBrowser{t: t, bl: &browserLog{host: host, files: files}, art: artifactDir(t)}
	ctx := browsertest.Start(t, func(ev any) {
		if r, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.requests = append(b.requests, r.Request.URL)
			b.mu.Unlock()
		}
		b.bl.listen(ev)
	})
	b.ctx = ctx
	return b
}

// takeRequests returns the URLs requested since the last call.
func (b *setupBrowser) takeRequests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.requests
	b.requests = nil
	return r
}

// open loads u and waits until the setup script has run.
func (b *setupBrowser) open(u string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u)); err != nil {
		b.t.Fatalf("load %s: %v", u, err)
	}
	b.wait(`document.readyState === "complete" && !!window.AshyamsSetup && !document.getElementById("setup-form").hidden`, u)
}

// wait waits until the JavaScript condition cond holds (browsertest.Until: no deadline); what
// names the page for the reader of the test.
func (b *setupBrowser) wait(cond, what string) {
	b.t.Helper()
	browsertest.Until(b.t, b.ctx, cond)
}

func (b *setupBrowser) eval(expr string, out any) {
	b.t.Helper()
	var raw string
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.stringify(`+expr+`)`))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(raw), out); err != nil {
		b.t.Fatalf("%s: %v (%s)", expr, err, raw)
	}
}

// click clicks the element sel selects once it is in the page, by its click(): the handlers
// run as for a player's click, and no layout still settling (a part loading, a list drawn)
// can move the element from under a mouse event sent at its coordinates.
func (b *setupBrowser) click(sel string) {
	b.t.Helper()
	b.wait(`!!document.querySelector(`+jsString(sel)+`)`, sel)
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(document.querySelector(`+jsString(sel)+`).click(), true)`)); err != nil {
		b.t.Fatalf("click %s: %v", sel, err)
	}
}

// paste puts text (and the OpenMW version) in the form and presses Check.
func (b *setupBrowser) paste(text, openmw string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { document.getElementById("cfg-text").value = %s; document.getElementById("cfg-openmw").value = %s;
		document.getElementById("setup-results").textContent = ""; document.getElementById("cfg-check").click(); return true })()`, jsString(text), jsString(openmw))
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js)); err != nil {
		b.t.Fatal(err)
	}
	b.waitDone("paste")
}

// waitDone waits until the check has loaded its data and shown its findings, or said why it
// could not.
func (b *setupBrowser) waitDone(what string) {
	b.t.Helper()
	b.wait(`(() => { const s = document.getElementById("setup-status").textContent;
		return s.indexOf("Reading this index") !== 0 && (!!document.getElementById("setup-summary") || s !== "") })()`, what)
}

// findings are the check's findings on the page, each "kind|file|claim key|project|other",
// sorted, and the summary line.
func (b *setupBrowser) findings() ([]string, string) {
	b.t.Helper()
	var f []string
	b.eval(`Array.from(document.querySelectorAll("#setup-results li[data-kind]")).map(li =>
		[li.dataset.kind, li.dataset.file || "", li.dataset.key || "", li.dataset.project || "", li.dataset.other || ""].join("|")).sort()`, &f)
	var s string
	b.eval(`(document.getElementById("setup-summary") || {}).textContent || ""`, &s)
	return f, s
}

// dom is the page as the browser holds it now, parsed, for the tests to read by selector.
func (b *setupBrowser) dom() *html.Node {
	b.t.Helper()
	var s string
	b.eval(`"<!DOCTYPE html>" + document.documentElement.outerHTML`, &s)
	return htmlcheck.Parse(b.t, []byte(s))
}

// wantFinding fails the test unless a finding #setup-results li[data-kind=kind] whose attr
// (data-file or data-key) is id says want.
func (b *setupBrowser) wantFinding(kind, attr, id, want string) {
	b.t.Helper()
	var lis []*html.Node
	for _, li := range htmlcheck.All(b.t, b.dom(), `#setup-results li[data-kind="`+kind+`"]`) {
		if htmlcheck.Attr(li, attr) == id {
			lis = append(lis, li)
		}
	}
	for _, li := range lis {
		if htmlcheck.Has(b.t, li, "li", want) {
			return
		}
	}
	b.t.Errorf("no %s finding with %s %q says %q (%d such findings)", kind, attr, id, want, len(lis))
}

// text is the text of the finding li[data-kind=kind] whose data-file (or data-key) is id.
func (b *setupBrowser) text(kind, attr, id string) string {
	b.t.Helper()
	var s string
	b.eval(fmt.Sprintf(`Array.from(document.querySelectorAll('#setup-results li[data-kind=%q]')).filter(li => li.getAttribute(%q) === %s).map(li => li.textContent).join("\n")`, kind, attr, jsString(id)), &s)
	return s
}

// clean asserts nothing was logged since the last call: no console error or warning, no
// failed or outside request.
func (b *setupBrowser) clean(what string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 200))`, chromedp.EvalAwaitPromise)); err != nil {
		b.t.Fatal(err)
	}
	for _, p := range b.bl.take() {
		b.t.Errorf("%s: %s", what, p)
	}
}

// narrow checks the page fits width px (no sideways scrolling) and saves a screenshot.
func (b *setupBrowser) narrow(width int64, name string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, 844)); err != nil {
		b.t.Fatal(err)
	}
	w, err := chromedp.Run(b.ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
	if err != nil {
		b.t.Fatal(err)
	}
	if w > width {
		b.t.Errorf("%s: %d px wide at a %d px viewport", name, w, width)
	}
	b.shot(name)
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		b.t.Fatal(err)
	}
}

// shot saves a screenshot of the whole page, put together from screenshots of the
// viewport scrolled down it: Chromium's capture beyond the viewport may leave blank what
// lies below the first screen. The page has no fixed or sticky part to repeat.
func (b *setupBrowser) shot(name string) {
	b.t.Helper()
	var size []int
	b.eval(`[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerHeight]`, &size)
	whole := image.NewRGBA(image.Rect(0, 0, size[0], size[1]))
	for y := 0; y < size[1]; y += size[2] {
		var at int
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`new Promise(r => { scrollTo(0, `+strconv.Itoa(y)+`); requestAnimationFrame(() => requestAnimationFrame(() => r(true))) })`, chromedp.EvalAwaitPromise)); err != nil {
			b.t.Fatal(err)
		}
		b.eval(`scrollY`, &at)
		raw, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			b.t.Fatalf("screenshot %s: %v", name, err)
		}
		part, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			b.t.Fatal(err)
		}
		draw.Draw(whole, part.Bounds().Add(image.Pt(0, at)), part, image.Point{}, draw.Src)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(scrollTo(0, 0), true)`)); err != nil {
		b.t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, whole); err != nil {
		b.t.Fatal(err)
	}
	p := filepath.Join(b.art, name+".png")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", p)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// TestSetupParserInChromium runs assets/openmwcfg.js in Chromium over tricky openmw.cfg
// text (OpenMW's rules: comments only at the start of a line, trimming, CRLF, sections,
// repeated keys, quoted paths with & escapes, replace=, lines that are not settings, binary),
// and the page's version comparison against the Go version package on the same constraints.
func TestSetupParserInChromium(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skips under -short or with no browser, before the build
	s := newSetupState(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: s.state, Out: out}); err != nil {
		t.Fatal(err)
	}
	b := newSetupBrowser(t, "", filepath.ToSlash(out)+"/")
	b.open((&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.SetupPage}).String())

	type entry struct {
		Value string `json:"value"`
		Line  int    `json:"line"`
	}
	type result struct {
		Content  []entry `json:"content"`
		Data     []entry `json:"data"`
		Config   []entry `json:"config"`
		Replaced []struct {
			Key     string `json:"key"`
			Line    int    `json:"line"`
			Dropped int    `json:"dropped"`
		} `json:"replaced"`
		Ignored []struct {
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"ignored"`
		SawFiles bool `json:"sawFiles"`
		Binary   bool `json:"binary"`
	}
	values := func(es []entry) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.Value)
		}
		return out
	}
	parse := func(text string) result {
		t.Helper()
		var r result
		b.eval(`OpenMWCfg.parse(`+jsString(text)+`)`, &r)
		return r
	}
	for _, tc := range []struct {
		name, text       string
		content, data    []string
		config           []string
		ignored, replace int
		sawFiles, binary bool
	}{
		{name: "plain", text: "content=Morrowind.esm\ncontent=Tribunal.esm\n", content: []string{"Morrowind.esm", "Tribunal.esm"}, sawFiles: true},
		{name: "spaces around key and value", text: "  content =  Spaced Name.esp  \n\tdata\t=\t/games/mw \n", content: []string{"Spaced Name.esp"}, data: []string{"/games/mw"}, sawFiles: true},
		{name: "CRLF", text: "content=Win.esp\r\ndata=\"C:\\Mods\\A\"\r\n", content: []string{"Win.esp"}, data: []string{`C:\Mods\A`}, sawFiles: true},
		{name: "comments only at the start", text: "#content=Off.esp\n   # content=AlsoOff.esp\ncontent=Name#1.esp\n", content: []string{"Name#1.esp"}, sawFiles: true},
		{name: "content is never unquoted", text: "content=\"Quoted.esp\"\n", content: []string{`"Quoted.esp"`}, sawFiles: true},
		{name: "quoted paths and & escapes", text: "data=\"C:\\Games\\Morrowind\\Data Files\"\ndata=\"C:\\Mods\\Rock && Roll\"\ndata=\"C:\\Mods\\Say &\"Hi&\"\"\ndata=\"C:\\x\" trailing words\ndata=C:\\No Quotes \"here\"\ndata=\"unclosed &&\n",
			data: []string{`C:\Games\Morrowind\Data Files`, `C:\Mods\Rock & Roll`, `C:\Mods\Say "Hi"`, `C:\x`, `C:\No`, `unclosed &`}, sawFiles: true},
		{name: "value holding =", text: "content=a=b.esp\n", content: []string{"a=b.esp"}, sawFiles: true},
		{name: "replace=content drops what is above it", text: "content=Old.esp\ncontent=Older.esp\nreplace=content\ncontent=New.esp\n", content: []string{"New.esp"}, replace: 1, sawFiles: true},
		{name: "replace=data and replace=config", text: "data=/a\nconfig=/etc/openmw\nreplace=data\nreplace=config\ndata=/b\nconfig=/home/me/.config/openmw\n",
			data: []string{"/b"}, config: []string{"/home/me/.config/openmw"}, replace: 2, sawFiles: true},
		{name: "keys in a section are not top-level keys", text: "content=Top.esp\n[Game]\ncontent=InSection.esp\n", content: []string{"Top.esp"}, sawFiles: true},
		{name: "only a section's keys", text: "[Game]\ncontent=InSection.esp\ndata=/x\n"},
		{name: "lines that are not settings", text: "garbage line\ncontent=Kept.esp\n<html>\n", content: []string{"Kept.esp"}, ignored: 2, sawFiles: true},
		{name: "repeated keys keep order and repeats", text: "content=B.esp\ncontent=A.esp\ncontent=B.esp\n", content: []string{"B.esp", "A.esp", "B.esp"}, sawFiles: true},
		{name: "no content and no data", text: "fallback=LightAttenuation_UseConstant,0\nencoding=win1252\n"},
		{name: "binary", text: "PNG\x00\x01\x02content=x.esp", binary: true},
	} {
		r := parse(tc.text)
		if got := values(r.Content); !reflect.DeepEqual(got, nonNil(tc.content)) {
			t.Errorf("%s: content %q, want %q", tc.name, got, tc.content)
		}
		if got := values(r.Data); !reflect.DeepEqual(got, nonNil(tc.data)) {
			t.Errorf("%s: data %q, want %q", tc.name, got, tc.data)
		}
		if got := values(r.Config); !reflect.DeepEqual(got, nonNil(tc.config)) {
			t.Errorf("%s: config %q, want %q", tc.name, got, tc.config)
		}
		if len(r.Ignored) != tc.ignored || len(r.Replaced) != tc.replace || r.SawFiles != tc.sawFiles || r.Binary != tc.binary {
			t.Errorf("%s: %d ignored, %d replace lines, sawFiles %v, binary %v; want %d, %d, %v, %v", tc.name,
				len(r.Ignored), len(r.Replaced), r.SawFiles, r.Binary, tc.ignored, tc.replace, tc.sawFiles, tc.binary)
		}
	}
	// Line numbers and what replace= dropped.
	r := parse("# header\ncontent=A.esp\n\ncontent=B.esp\nreplace=content\ncontent=C.esp\n")
	if len(r.Content) != 1 || r.Content[0].Line != 6 || len(r.Replaced) != 1 || r.Replaced[0].Line != 5 || r.Replaced[0].Dropped != 2 {
		t.Errorf("lines: %+v", r)
	}

	// The page's bidi rule for text it inserts is the site's (pubtext.Text in site/internal/pubtext).
	bidiCases := []string{"plain", "a\u202eb\u202cc", "\u2066x\u2069", "\u2068open", "close\u2069", "\u2068a\u2069\u2069\u2068b", "\u202a\u202b\u202d\u2067y"}
	var bidiGot []string
	b.eval(`(`+mustJSON(t, bidiCases)+`).map(AshyamsSetup.bidiText)`, &bidiGot)
	for i, c := range bidiCases {
		if want := string(pubtext.Text([]byte(c), nil)); bidiGot[i] != want {
			t.Errorf("pubtext.Text(%q) = %q in the page, %q in Go", c, bidiGot[i], want)
		}
	}

	// Runtime constraints under the numeric scheme: the page agrees with catalog/version.
	versions := []string{"0.48", "0.49", "0.49.0", "0.49.1", "0.5", "0.50", "0.50.0-rc1", "0.50.0-rc.2", "0.50.0-rc.10", "1.0", "0.48.0+build.7", "abc", "0.049", "", "1.2.3.4.5.6", "1.2.3.4.5.6.7"}
	constraints := []string{"*", ">=0.49", ">=0.48, <0.51", ">0.49", "<=0.49.0", "=0.49", "!=0.49", " >= 0.49 ,< 0.50 ", ">=0.50.0-rc.2", "^0.49", "~0.49", ">=0.49 || <0.2", "", ">=", ">=0.049", "*, >=1", "<0.50.0-rc.10"}
	var cases [][2]string
	for _, c := range constraints {
		for _, v := range versions {
			cases = append(cases, [2]string{c, v})
		}
	}
	var got []*bool
	b.eval(`(`+mustJSON(t, cases)+`).map(p => AshyamsSetup.matchConstraint(p[0], p[1]))`, &got)
	for i, p := range cases {
		var want *bool
		c, cerr := version.ParseConstraintIn(p[0], version.Numeric)
		v, verr := version.Parse(p[1], version.Numeric)
		if cerr == nil && verr == nil {
			m := c.Match(v)
			want = &m
		}
		if (got[i] == nil) != (want == nil) || (got[i] != nil && *got[i] != *want) {
			t.Errorf("matchConstraint(%q, %q) = %v, Go says %v", p[0], p[1], show(got[i]), show(want))
		}
	}
	b.clean("parser")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func show(b *bool) string {
	if b == nil {
		return "cannot tell"
	}
	return fmt.Sprint(*b)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSetupFindingsInChromium checks a configuration against the setup state in Chromium,
// served: a file two claims declare shows both; a required content file loaded after the
// file needing it; a required project none of whose files is loaded; a declared conflict
// with a loaded claim; a runtime the given OpenMW version is outside; a yanked release with
// its reason; a file listed twice; and hostile text, from publishers and from the file,
// shown as text with no element or script coming from it.
func TestSetupFindingsInChromium(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skips under -short or with no browser, before the build
	s := newSetupState(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: s.state, Out: out}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	b := newSetupBrowser(t, su.Host, "")
	page := srv.URL + BasePath(DefaultBaseURL) + plan.SetupPage
	b.open(page)
	hostileFile := `</script><script>window.__pwned=1</script>.esp`
	cfg := strings.Join([]string{
		"# a player's file", `data="C:\Games\Morrowind\Data Files"`,
		"content=Wick.esp", "content=Base.esm", "content=rival.ESP", "content=Old.esp",
		"content=" + hostileFile,
		`content=<img src=x onerror="window.__pwned=2">.esp`,
		"content=WICK.esp", ""}, "\n")
	b.paste(cfg, "0.49")
	got, _ := b.findings()
	hostileCfg := plan.FoldASCII(`<img src=x onerror="window.__pwned=2">.esp`)
	want := []string{
		"conflict||" + s.wick + "||" + s.rival,
		"conflict||" + s.wickB + "||" + s.rival,
		"data-base||||",
		"duplicate||||",
		"matched|" + plan.FoldASCII(hostileFile) + "|||",
		"matched|old.esp|||",
		"matched|rival.esp|||",
		"matched|wick.esp|||",
		"missing-project||" + s.wick + "|" + s.tallowishID + "|",
		"missing-project||" + s.wickB + "|" + s.tallowishID + "|",
		"order|base.esm|" + s.wick + "||",
		"order|base.esm|" + s.wickB + "||",
		"release-status||" + s.old + "||",
		"runtime||" + s.wick + "||",
		"runtime||" + s.wickB + "||",
		"unknown|base.esm|||",
		"unknown|" + hostileCfg + "|||",
	}
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	htmlcheck.Want(t, b.dom(), "#setup-summary", "7 content files read: 4 declared by projects in this index, 2 not in this index")
	for _, c := range []struct{ kind, attr, id, want string }{
		{"matched", "data-file", "wick.esp", "Two or more claims declare this file"},
		{"matched", "data-file", "wick.esp", "Lantern Works"},
		{"matched", "data-file", "wick.esp", "Other Site"},
		{"matched", "data-file", plan.FoldASCII(hostileFile), hostileFile},
		{"matched", "data-file", plan.FoldASCII(hostileFile), `<img src=x onerror="window.__pwned=1">`},
		{"unknown", "data-file", hostileCfg, `<img src=x onerror="window.__pwned=2">.esp (line 8): not in this index.`},
		{"order", "data-key", s.wick, "Declared by Wick 1.0.1 from Lantern Works: Wick.esp (line 3) needs Base.esm (line 4), which is loaded after it."},
		{"missing-project", "data-key", s.wick, "requires the project Tallowish 1.0.0 from Lantern Works >=1.0. None of the content files it declares is loaded: Tallowish.omwscripts; and no data= line is one of the folders it declares: main."},
		{"conflict", "data-key", s.wick, "conflicts with Rival 1.0.0 from Lantern Works (“Both <b>script</b> the same lamps.”). Both are loaded: Wick.esp (line 3), rival.ESP (line 5)."},
		{"runtime", "data-key", s.wick, "runs on OpenMW >=0.50; 0.49 is outside it."},
		{"release-status", "data-key", s.old, "no release is current; the newest, 1.0.1, is yanked: “Broke saves <script>alert('yank')</script>”. The publisher names 2.0.0 instead."},
	} {
		b.wantFinding(c.kind, c.attr, c.id, c.want)
	}
	// Nothing from the file or the publishers became markup.
	var tags []string
	b.eval(`Array.from(new Set(Array.from(document.querySelectorAll("#setup-results *")).map(e => e.tagName.toLowerCase()))).sort()`, &tags)
	for _, tag := range tags {
		switch tag {
		case "a", "bdi", "code", "h2", "li", "p", "span", "ul":
		default:
			t.Errorf("the findings hold a <%s> element", tag)
		}
	}
	var pwned bool
	b.eval(`window.__pwned !== undefined`, &pwned)
	if pwned {
		t.Error("a script from the file or from a publisher ran")
	}
	// The claim links lead to the claims' pages.
	var hrefs []string
	b.eval(`Array.from(document.querySelectorAll("#setup-results a")).map(a => a.getAttribute("href"))`, &hrefs)
	for _, h := range hrefs {
		if !strings.HasPrefix(h, "../projects/") || !strings.HasSuffix(h, "/index.html") {
			t.Errorf("a finding links to %q", h)
		}
	}
	b.shot("setup-findings")
	b.narrow(390, "setup-findings-390px")
	b.clean("findings")
	for _, r := range b.takeRequests() {
		if !strings.HasPrefix(r, srv.URL+BasePath(DefaultBaseURL)) {
			t.Errorf("request outside the site: %s", r)
		}
	}
}

// TestSetupCorpusInChromium is the check on a generated build (polishBuild) and on the corpus
// build when present; on the corpus: a configuration loading
// Candlelight.omwscripts, Horiz0n.esp and "Unknown Thing.esp" shows Candlelight and Horiz0n
// matched, Tallow missing (a required project), Morrowind.esm missing (required content) and
// Unknown Thing.esp not in this index, and nothing else; the same pasted, from the URL
// fragment, from a file (file input and drag and drop), from the share link, and opened from
// file://; at 390 px it fits. The page fetches nothing but the site's own files and cannot
// connect anywhere (a fetch is refused by its CSP). Also: the player's OpenMW version, a file
// that is not an openmw.cfg, a binary file, a large modded setup, and hostile file names.
func TestSetupCorpusInChromium(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skips under -short or with no browser, before the build
	t.Run("generated", func(t *testing.T) {
		setupCorpusInChromium(t, polishBuild(t), "Candlelight-core.omwscripts", polishHorizonFile, "Tallow-main.omwscripts", false)
	})
	if _, ok := corpustest.Optional(t, "state/network.json"); ok {
		t.Run("corpus", func(t *testing.T) {
			out, _ := corpusBuild(t)
			setupCorpusInChromium(t, out, "Candlelight.omwscripts", "Horiz0n.esp", "Tallow.omwscripts", true)
		})
	}
}

// setupCorpusInChromium is TestSetupCorpusInChromium on the built site out, where candleFile
// is Candlelight's first content file, horizonFile a content file of a project with no
// runtime constraint, and tallowFile Tallow's; the texts expected are read from its setup data.
func setupCorpusInChromium(t *testing.T, out, candleFile, horizonFile, tallowFile string, corpus bool) {
	data := *setupDataOf(t, out)
	keyOf := func(file string) string {
		t.Helper()
		ks := data.ContentFiles[plan.FoldASCII(file)]
		if len(ks) != 1 {
			t.Fatalf("the site has %d claims declaring %s", len(ks), file)
		}
		return ks[0]
	}
	candle, horizon, tallow := keyOf(candleFile), keyOf(horizonFile), keyOf(tallowFile)
	tallowID := strings.SplitN(tallow, "/", 2)[0]
	cc, hc, tc := data.Claims[candle], data.Claims[horizon], data.Claims[tallow]
	if len(cc.RequiresContent) == 0 || len(cc.DataDirs) == 0 || hc.OpenMW != "*" {
		t.Fatalf("Candlelight requires %v in %v; the other project runs on %q", cc.RequiresContent, cc.DataDirs, hc.OpenMW)
	}
	if corpus && (cc.SiteName != "DreamWeave Mod Template" || cc.Release.Version != "1.1.0" || hc.Name != "Horiz0n" || cc.RequiresContent[0] != "Morrowind.esm" || cc.OpenMW != ">=0.49") {
		t.Errorf("the corpus's Candlelight is %s %s from %s, requiring %v, on OpenMW %s; Horiz0n is %s", cc.Name, cc.Release.Version, cc.SiteName, cc.RequiresContent, cc.OpenMW, hc.Name)
	}
	dataDir := strings.ReplaceAll(cc.DataDirs[0], "/", `\`)
	needs := cc.RequiresContent[0]

	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	siteRoot := srv.URL + BasePath(DefaultBaseURL)
	b := newSetupBrowser(t, su.Host, filepath.ToSlash(out)+"/")
	page := siteRoot + plan.SetupPage

	cfg := "# OpenMW user configuration\r\ndata=\"C:\\Games\\Morrowind\\Data Files\"\r\ndata=\"C:\\Mods\\" + cc.Name + `\` + dataDir + "\"\r\n" +
		"content=" + candleFile + "\r\ncontent=" + horizonFile + "\r\ncontent=Unknown Thing.esp\r\n"
	want := []string{
		"data-base||||", // C:\Games\Morrowind\Data Files
		"data-dir||||",  // C:\Mods\Candlelight\00 Core: ends like Candlelight's 00 Core
		"matched|" + plan.FoldASCII(candleFile) + "|||",
		"matched|" + plan.FoldASCII(horizonFile) + "|||",
		"missing-content|" + plan.FoldASCII(needs) + "|" + candle + "||",
		"missing-project||" + candle + "|" + tallowID + "|",
		"unknown|unknown thing.esp|||",
	}
	// expect asserts the findings of cfg, whose content lines start at line first.
	expect := func(how string, first int) {
		t.Helper()
		b.waitDone(how)
		got, _ := b.findings()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: findings\n%s\nwant\n%s", how, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		htmlcheck.Want(t, b.dom(), "#setup-summary", "3 content files read: 2 declared by projects in this index, 1 not in this index")
		for _, c := range []struct{ kind, attr, id, want string }{
			{"matched", "data-file", plan.FoldASCII(candleFile), fmt.Sprintf("%s (line %d): declared by %s %s from %s (%s) current", candleFile, first, cc.Name, cc.Release.Version, cc.SiteName, cc.Release.Channel)},
			{"matched", "data-file", plan.FoldASCII(horizonFile), fmt.Sprintf("%s (line %d): declared by %s", horizonFile, first+1, hc.Name)},
			{"missing-project", "data-key", candle, "Declared by " + cc.Name + " " + cc.Release.Version + " from " + cc.SiteName + ": requires the project " + tc.Name},
			{"missing-project", "data-key", candle, "None of the content files it declares is loaded: " + tallowFile},
			{"missing-content", "data-file", plan.FoldASCII(needs), fmt.Sprintf("%s (line %d) needs %s, which is not loaded.", candleFile, first, needs)},
			{"unknown", "data-file", "unknown thing.esp", fmt.Sprintf("Unknown Thing.esp (line %d): not in this index.", first+2)},
		} {
			b.wantFinding(c.kind, c.attr, c.id, c.want)
		}
		var link string
		b.eval(`document.querySelector('#setup-results li[data-kind="matched"][data-file="`+plan.FoldASCII(horizonFile)+`"] a').getAttribute("href")`, &link)
		if link != "../"+paths.Claim(strings.SplitN(horizon, "/", 2)[0], strings.SplitN(horizon, "/", 2)[1]) {
			t.Errorf("%s: Horiz0n links to %q", how, link)
		}
	}
	onlySite := func(how string) {
		t.Helper()
		allowed := map[string]bool{}
		for _, p := range []string{plan.SetupPage, paths.Dir(plan.SetupPage), "assets/site.css", "assets/version.js", "assets/openmwcfg.js", "assets/shards.js", "assets/setupcheck.js", "assets/setup.js", "assets/icon.svg"} {
			allowed[siteRoot+p] = true
			allowed[(&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + p}).String()] = true
		}
		for _, r := range b.takeRequests() {
			u := strings.SplitN(r, "#", 2)[0]
			part := strings.TrimPrefix(strings.TrimPrefix(u, siteRoot), (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/"}).String())
			if !allowed[u] && r != "about:blank" && !((strings.HasPrefix(part, plan.SetupDataDir+"/") || strings.HasPrefix(part, plan.PlanDataDir+"/")) && strings.HasSuffix(part, ".js") && part != u) {
				t.Errorf("%s: the page requested %s", how, r)
			}
		}
	}

	// Pasted.
	b.open(page)
	b.paste(cfg, "")
	expect("pasted", 4)
	b.shot("setup-corpus")
	b.clean("pasted")
	onlySite("pasted")

	// The page can connect nowhere: its CSP refuses a fetch, even of its own site's file.
	fetched, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch("../network-data/catalog.json").then(() => "fetched", () => "refused")`, chromedp.EvalAwaitPromise))
	if err != nil || fetched != "refused" {
		t.Errorf("a fetch from the setup page was %s (%v)", fetched, err)
	}
	refused := false
	for _, p := range b.bl.take() {
		refused = refused || strings.Contains(p, "connect-src")
	}
	if !refused {
		t.Error("no CSP report of the refused fetch")
	}
	for _, r := range b.takeRequests() {
		t.Errorf("the refused fetch still requested %s", r)
	}

	// From the URL fragment.
	b.open(page + "#cfg=" + b64url(cfg))
	expect("fragment", 4)
	b.clean("fragment")
	onlySite("fragment")

	// From a file, with the file input and by dropping it on the form.
	file := filepath.Join(t.TempDir(), "openmw.cfg")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open(page)
	if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles("#cfg-file", []string{file})); err != nil {
		t.Fatal(err)
	}
	expect("file input", 4)
	b.clean("file input")
	b.open(page)
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const dt = new DataTransfer(); dt.items.add(new File([`+jsString(cfg)+`], "openmw.cfg"));
		document.getElementById("setup-form").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); return true })()`)); err != nil {
		t.Fatal(err)
	}
	expect("dropped file", 4)
	b.clean("dropped file")
	onlySite("file")

	// The share link: made by the button, holding the content= lines only, each on its own
	// line of the file (the others blank), read back with the line numbers of the file.
	b.open(page)
	b.paste(cfg, "0.49")
	b.click("#cfg-share")
	var link string
	b.eval(`document.getElementById("cfg-link").value`, &link)
	var here string
	b.eval(`location.href.split("#")[0]`, &here)
	prefix := here + "#cfg="
	if !strings.HasPrefix(link, prefix) {
		t.Fatalf("the share link is %q", link)
	}
	enc, ver, _ := strings.Cut(strings.TrimPrefix(link, prefix), "&openmw=")
	shared, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || string(shared) != "\n\n\ncontent="+candleFile+"\ncontent="+horizonFile+"\ncontent=Unknown Thing.esp\n" || ver != "0.49" {
		t.Errorf("the share link holds %q (%v) and version %q", shared, err, ver)
	}
	b.open(link)
	all := want
	want = want[2:]         // a link leaves the folders out, so they are not named
	expect("share link", 4) // the link holds the three content= lines only, on lines 4 to 6
	want = all
	b.clean("share link")

	// From file://, at a phone's width.
	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(out) + "/" + plan.SetupPage}).String()
	b.open(fileURL + "#cfg=" + b64url(cfg))
	expect("file://", 4)
	b.narrow(390, "setup-file-390px")
	b.clean("file://")
	onlySite("file://")

	// The player's OpenMW version against runtimes.openmw (Candlelight: >=0.49; Horiz0n: *).
	b.open(page + "#cfg=" + b64url(cfg) + "&openmw=0.48")
	b.waitDone("version")
	got, _ := b.findings()
	if !slices.Contains(got, "runtime||"+candle+"||") || len(got) != len(want)+1 {
		t.Errorf("with OpenMW 0.48: %v", got)
	}
	b.wantFinding("runtime", "data-key", candle, "runs on OpenMW "+cc.OpenMW+"; 0.48 is outside it.")
	b.paste(cfg, "0.49")
	if got, _ := b.findings(); !reflect.DeepEqual(got, want) {
		t.Errorf("with OpenMW 0.49: %v", got)
	}
	b.paste(cfg, "zero point five")
	var bad int
	b.eval(`document.querySelectorAll('[data-kind="bad-version"]').length`, &bad)
	if got, _ := b.findings(); bad != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("an unreadable version: %d notices, findings %v", bad, got)
	}
	b.clean("version")

	// Not an openmw.cfg, and not text at all.
	b.paste("[General]\nName=Morrowind\nVersion=1.6.1820\n", "")
	htmlcheck.Want(t, b.dom(), "#setup-status", "This does not look like an openmw.cfg: it has no content= or data= lines.")
	bin := filepath.Join(t.TempDir(), "save.ess")
	if err := os.WriteFile(bin, append([]byte("TES3\x00\x00\x01"), []byte("content=Candlelight.omwscripts\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open(page)
	if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles("#cfg-file", []string{bin})); err != nil {
		t.Fatal(err)
	}
	b.waitDone("binary")
	htmlcheck.Want(t, b.dom(), "#setup-status", "This is not an openmw.cfg: it holds binary data")
	if got, _ := b.findings(); len(got) != 0 {
		t.Errorf("a binary file shows findings: %v", got)
	}
	b.clean("not a cfg")

	// A large modded setup.
	big, loadedDeclared, unknown := moddedConfig(data)
	b.paste(big, "0.50")
	got, _ = b.findings()
	counts := map[string]int{}
	for _, f := range got {
		counts[strings.SplitN(f, "|", 2)[0]]++
	}
	// Runtimes the OpenMW version given is outside, by catalog/version.
	v050, err := version.Parse("0.50", version.Numeric)
	if err != nil {
		t.Fatal(err)
	}
	var outside []string
	for k, c := range data.Claims {
		if cons, err := version.ParseConstraintIn(c.OpenMW, version.Numeric); err == nil && len(c.ContentFiles) > 0 && !cons.Match(v050) {
			outside = append(outside, k)
		}
	}
	if len(outside) == 0 {
		t.Fatal("no claim of the corpus declares a runtime that excludes OpenMW 0.50: the runtime check below proves nothing")
	}
	for _, k := range outside {
		if !slices.Contains(got, "runtime||"+k+"||") {
			t.Errorf("the modded setup with OpenMW 0.50: no runtime finding for %s (%s)", k, data.Claims[k].OpenMW)
		}
	}
	// The base game's three masters and three archives are the base game's, not unknown.
	// Its mod manager's folders, groundcover and config folder are no project's of this index.
	wantCounts := map[string]int{"matched": loadedDeclared, "unknown": unknown - 3, "base": 3, "base-archive": 3, "order": 1, "replace": 1, "config": 1, "ignored": 1, "runtime": len(outside),
		"data-unknown": strings.Count(big, "\ndata="), "groundcover-unknown": strings.Count(big, "\ngroundcover="), "config-unknown": strings.Count(big, "\nconfig=")}
	if !reflect.DeepEqual(counts, wantCounts) {
		t.Errorf("the modded setup: %v, want %v\n%s", counts, wantCounts, strings.Join(got, "\n"))
	}
	if !slices.Contains(got, "order|tr_mainland.esm|"+candle+"||") {
		t.Errorf("the modded setup loads TR_Mainland.esm after Candlelight - TR.omwscripts, and that is not shown")
	}
	htmlcheck.Want(t, b.dom(), "#setup-summary", fmt.Sprintf("%d content files read: %d declared by projects in this index, 3 of the base game, %d not in this index", loadedDeclared+unknown, loadedDeclared, unknown-3))
	b.shot("setup-modded")
	b.clean("modded")

	// As OpenMW 0.47 reads a file: a byte-order mark loses line 1, a content file listed twice
	// stops it (files named like Object properties), an unquoted path stops at a space, a Lua
	// script and config= need 0.48; and one line that is not a setting.
	b.paste("\ufeffcontent=constructor\ncontent=__proto__\ncontent=constructor\ncontent=__proto__\nnot a setting\n"+
		"data=/x/00 Core\ndata=\"/y/00 Core\"\ncontent=A.omwscripts\nconfig=/c\n", "0.47")
	for sel, want := range map[string]string{
		`[data-kind="bom"]`:                               "The file starts with a byte-order mark (U+FEFF). OpenMW reads it as part of line 1, so it does not use content=constructor; save the file without the mark.",
		`[data-kind="duplicate"]`:                         "__proto__ (line 4) is listed again (first at line 2): OpenMW stops here, with “Content file specified more than once”, and starts with none of these files.",
		`[data-kind="ignored"]`:                           "1 line is not settings and was skipped (line 5).",
		`[data-kind="cut"]`:                               "Line 6, /x/00 Core: a path without quotes stops at its first space, so OpenMW reads /x/00. Put the path in double quotes.",
		`[data-kind="too-old"][data-file="a.omwscripts"]`: "A.omwscripts (line 8): Lua scripts (.omwscripts) load from OpenMW 0.48 on; 0.47 stops at this line.",
		`[data-kind="too-old"][data-file="/c"]`:           "/c (line 9): config= is read from OpenMW 0.48 on; 0.47 ignores it, so the openmw.cfg in that folder is not read.",
	} {
		var txt string
		b.eval(`(document.querySelector('#setup-results li`+sel+`') || {}).textContent || ""`, &txt)
		if txt != want {
			t.Errorf("the note %s says %q, want %q", sel, txt, want)
		}
	}
	var first string
	b.eval(`document.querySelector("#setup-results h2").id`, &first)
	if first != "stops" {
		t.Errorf("the first section is %q, not where OpenMW stops", first)
	}
	b.clean("names")

	// The other kinds of line: each is said to be a project's, the base game's, or nobody's.
	folder := "C:/Mods/" + cc.Name + "-" + candle[:8] + "/" + cc.DataDirs[0]
	b.paste("data=\""+folder+"\"\ndata=/b\ndata=\"C:/Morrowind/Data Files\"\ngroundcover=Grass.esp\nfallback-archive=Morrowind.bsa\nfallback-archive=Other.bsa\ncontent=Morrowind.esm\n", "")
	for _, want := range []struct{ kind, text string }{
		{"data-folder", folder + " (line 1): the folder the plan page names for " + cc.Name},
		{"data-unknown", "/b (line 2): a folder (data=) no project in this index declares or names."},
		{"data-base", "C:/Morrowind/Data Files (line 3): the base game's Data Files (data=)."},
		{"groundcover-unknown", "Grass.esp (line 4): groundcover no project in this index declares."},
		{"archive-unknown", "Other.bsa (line 6): an archive (fallback-archive=) no project in this index declares."},
	} {
		var txt string
		b.eval(`(document.querySelector('#folders + p + ul li[data-kind="`+want.kind+`"]') || {}).textContent || ""`, &txt)
		if !strings.HasPrefix(txt, want.text) {
			t.Errorf("the %s line says %q, want %q", want.kind, txt, want.text)
		}
	}
	b.clean("other lines")

	// Hostile file names are text.
	hostile := []string{`<img src=x onerror="window.__pwned=1">.esp`, `</script><script>window.__pwned=2</script>.omwaddon`,
		`"><svg onload="window.__pwned=3">.esp`, `&lt;b&gt;entity.esp`, "\u202eevil\u202c.esp"}
	var lines []string
	for _, h := range hostile {
		lines = append(lines, "content="+h)
	}
	b.paste(strings.Join(lines, "\n")+"\n", "")
	for i, h := range hostile {
		shown := strings.NewReplacer("\u202e", "", "\u202c", "").Replace(h) // the site's bidi rule drops overrides
		if txt := b.text("unknown", "data-file", plan.FoldASCII(h)); txt != fmt.Sprintf("%s (line %d): not in this index.", shown, i+1) {
			t.Errorf("the hostile name %q shows as %q", h, txt)
		}
	}
	var overrides bool
	b.eval(`/[\u202A-\u202E\u2066\u2067]/.test(document.getElementById("setup-results").textContent)`, &overrides)
	if overrides {
		t.Error("the findings hold a bidi embedding or override")
	}
	var pwned bool
	b.eval(`window.__pwned !== undefined || document.querySelectorAll("#setup-results img, #setup-results svg, #setup-results script").length > 0`, &pwned)
	if pwned {
		t.Error("a hostile file name became markup or ran")
	}
	b.clean("hostile")
	onlySite("the rest")
}

// moddedConfig is a large modded openmw.cfg as a mod manager writes one: comments, a
// replace=content line, a config= line, a line that is not a setting, quoted data paths
// (some with & escapes), groundcover and fallback lines, the base game's masters first, then
// hundreds of plugins, among them every content file the index declares (some in other case)
// with Candlelight's Tamriel Rebuilt patch loaded before TR_Mainland.esm. It returns the
// text, how many loaded files the index declares, and how many it does not.
func moddedConfig(data plan.SetupDoc) (string, int, int) {
	var b strings.Builder
	b.WriteString("# This is the user openmw.cfg. Feel free to modify it as you wish.\n# Generated by a mod manager.\nreplace=content\nconfig=\"?userconfig?\"\nencoding=win1252\nfallback-archive=Morrowind.bsa\nfallback-archive=Tribunal.bsa\nfallback-archive=Bloodmoon.bsa\n")
	b.WriteString("[this line is not a setting\n")
	words := []string{"Better", "Bodies", "Clothes", "Heads", "Patch", "for", "Purists", "Vivec", "Balmora", "Expansion", "Lighting", "Fix", "Textures",
		"Mournhold", "Sounds", "Dwemer", "Ruins", "Guards", "Ashlander", "Tents", "Dialogue", "Improved", "Creatures", "Skies", "Water", "Roads", "Signs", "Telvanni", "Redoran", "Hlaalu"}
	exts := []string{".esp", ".esp", ".esp", ".omwaddon", ".omwscripts", ".esm"}
	for i := 0; i < 120; i++ {
		name := words[i%len(words)] + " " + words[(i*7+3)%len(words)]
		if i%5 == 0 {
			fmt.Fprintf(&b, "data=\"C:\\Games\\OpenMW\\Mods\\%s && More %d\"\n", name, i)
		} else {
			fmt.Fprintf(&b, "data=\"C:\\Games\\OpenMW\\Mods\\%s %d\"\n", name, i)
		}
	}
	masters := []string{"Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm", "Tamriel_Data.esm", "OAAB_Data.esm"}
	for _, m := range masters {
		fmt.Fprintf(&b, "content=%s\n", m)
	}
	var declared []string // each file the index declares, as its first claim spells it
	for k, keys := range data.ContentFiles {
		for _, f := range data.Claims[keys[0]].ContentFiles {
			if plan.FoldASCII(f.File) == k {
				declared = append(declared, f.File)
				break
			}
		}
	}
	sort.Strings(declared)
	unknown := len(masters)
	next := 0
	for i := 0; i < 420; i++ {
		if i%14 == 7 && next < len(declared) {
			f := declared[next]
			if next%3 == 1 {
				f = strings.ToUpper(f)
			}
			fmt.Fprintf(&b, "content=%s\n", f)
			next++
			continue
		}
		fmt.Fprintf(&b, "content=%s %s %d%s\n", words[(i*11+5)%len(words)], words[(i*3+1)%len(words)], i, exts[i%len(exts)])
		unknown++
		if i%40 == 0 {
			fmt.Fprintf(&b, "groundcover=Grass %d.esp\n", i)
		}
	}
	for ; next < len(declared); next++ {
		fmt.Fprintf(&b, "content=%s\n", declared[next])
	}
	// TR_Mainland.esm after every declared file: after Candlelight - TR.omwscripts, which needs it.
	b.WriteString("content=TR_Mainland.esm\ncontent=TR_Preview.esm\n")
	unknown += 2
	b.WriteString("fallback=LightAttenuation_UseConstant,0\n")
	return b.String(), len(declared), unknown
}
