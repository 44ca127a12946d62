package site

import (
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// TestHostileTextKeepsPagesWorking keeps two inputs that once froze a player's tab: a valid
// manifest whose runtimes.openmw is ">=0.1", 200,000 spaces and ",<=2" (the schema allows the
// whitespace), and a 133 KB share link whose one content= line holds 100,000 spaces. The
// projects page filters by OpenMW version through that constraint, and the setup page checks
// the shared file against it; both answer, and what they answer is right. The time each took
// is logged (docs/developers.md gives the figures), never asserted.
func TestHostileTextKeepsPagesWorking(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skips with -short or without a browser, before the build
	spaced := hostileOpenMW
	m := withOpenMW(sampleManifest(uuid(1), "Spaced Out", 2), []component{{id: "main", files: []string{"Spaced.esp"}}}, nil, nil)
	for i := range m.Releases {
		m.Releases[i].Runtimes["openmw"] = spaced
	}
	m.Project.Tags = append(m.Project.Tags, strings.Repeat("longtag", 30))
	state := longListState(t, m)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	su, _ := url.Parse(srv.URL)
	root := srv.URL + BasePath(DefaultBaseURL)
	b := newSetupBrowser(t, su.Host, filepath.ToSlash(out)+"/")

	// The projects page, filtered by OpenMW versions inside and outside the constraint.
	for _, c := range []struct {
		openmw string
		listed bool
	}{{"1.0", true}, {"3.0", false}} {
		start := time.Now()
		if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatal(err)
		}
		navigate(t, b.ctx, root+"projects/index.html?openmw="+c.openmw, "body > footer")
		settled(t, b.ctx)
		t.Logf("projects page with the 200 KB constraint, ?openmw=%s: answered in %v", c.openmw, time.Since(start))
		var titles []string
		b.eval(`Array.from(document.querySelectorAll("#results > li .result-title")).map(a => a.textContent)`, &titles)
		found := false
		for _, title := range titles {
			found = found || strings.Contains(title, "Spaced Out")
		}
		if found != c.listed {
			t.Errorf("?openmw=%s: Spaced Out listed %v, want %v (results %q)", c.openmw, found, c.listed, titles)
		}
	}

	// On a 390 px phone a 210-character tag wraps inside the page instead of running past it.
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	navigate(t, b.ctx, root+"projects/index.html", "body > footer")
	var overflow float64
	b.eval(`Math.max(0, ...Array.from(document.querySelectorAll(".badge")).filter(e => e.textContent.includes("longtaglongtag")).map(e => e.getBoundingClientRect().right - innerWidth))`, &overflow)
	var seen bool
	b.eval(`Array.from(document.querySelectorAll(".badge")).some(e => e.textContent.includes("longtaglongtag"))`, &seen)
	if !seen || overflow > 0 {
		t.Errorf("at 390 px the long tag's badge is shown %v and runs %v px past the page", seen, overflow)
	}

	// The setup page, opened from the 133 KB link, with an OpenMW version the constraint refuses.
	link := root + plan.SetupPage + "#cfg=" + b64url(hostileCfg) + "&openmw=3.0"
	if len(link) < 133000 {
		t.Fatalf("the share link is %d bytes, want the kept 133 KB input", len(link))
	}
	start := time.Now()
	b.open(link)
	b.waitDone("the 133 KB share link")
	t.Logf("setup page from a %d-byte share link: checked in %v", len(link), time.Since(start))
	findings, summary := b.findings()
	if summary == "" {
		t.Fatalf("the setup check gave no summary for the share link; findings %q", findings)
	}
	outside := false
	for _, f := range findings {
		fields := strings.Split(f, "|") // kind, file, key, project, other
		outside = outside || fields[0] == "runtime" && strings.HasPrefix(fields[2], uuid(1)+"/")
	}
	if !outside {
		t.Errorf("OpenMW 3.0 is outside >=0.1,<=2, but no runtime finding names Spaced Out's claim (%d findings; summary %q)", len(findings), summary)
	}
}
