package site

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// TestBrowserOneSiteProjectPage: in Chromium, the project page of an id one site lists takes
// the player to its claim's page, from the loopback server and from the files. Held on it (the
// claim page answers 204 No Content, which leaves a browser where it is), the page fits 1280
// and 390 px and axe-core finds no violation on it, nor on a project page two sites list
// (the corpus, which TestBrowserEveryPageKind reads, has no such project).
func TestBrowserOneSiteProjectPage(t *testing.T) {
	t.Parallel()
	browsertest.Path(t)
	axe := axeScript(t)
	state, _, a, _ := oneAndTwoSiteProjects(t)
	_, out := build(t, state, Options{})
	bc := browserCase{out: out}
	one, claim, two := paths.Project(uuid(1)), paths.Claim(uuid(1), a), paths.Project(uuid(2))

	s := newBrowserSession(t, bc)
	for _, u := range []string{s.root + one, s.fileURL(one)} {
		s.open(u) // waits for a footer, which only the claim page has
		// The server answers at the directory.
		if got := eval[string](s, `location.href`); !strings.HasSuffix(strings.TrimSuffix(got, "index.html"), "/"+paths.Dir(claim)) {
			t.Errorf("%s leads to %s, want its claim page %s", u, got, claim)
		}
	}
	for _, p := range s.log.take() {
		t.Errorf("following the one-site project page: %s", p)
	}

	site := preview.Handler(out)
	held := newBrowserSessionOn(t, bc, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "index.html"), "/"+paths.Dir(claim)) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		site.ServeHTTP(w, r)
	}))
	art := filepath.Join(artifactDir(t), "pages")
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 390} {
		if err := chromedp.Do(held.ctx, chromedp.EmulateViewport(int64(width), 900)); err != nil {
			t.Fatal(err)
		}
		for _, pg := range [][2]string{{"project-one", one}, {"project-two", two}} {
			kind, rel := pg[0], pg[1]
			navigate(t, held.ctx, held.root+rel, "main h1")
			eval[bool](held, `new Promise(r => setTimeout(() => r(true), 300))`) // the refresh's time to be answered
			if got := eval[string](held, `location.href`); got != held.root+paths.Dir(rel) {
				t.Fatalf("%s: the browser is at %s, want it held on the page", kind, got)
			}
			refreshed := false
			for _, p := range held.log.take() {
				if kind == "project-one" && strings.HasPrefix(p, "request failed: net::ERR_ABORTED") { // the refresh, held
					refreshed = true
					continue
				}
				t.Errorf("%s (%s): %s", kind, rel, p)
			}
			if kind == "project-one" && !refreshed {
				t.Errorf("%s (%s): the page did not refresh to its claim's", kind, rel)
			}
			if w := eval[int](held, `document.documentElement.scrollWidth`); w > width {
				t.Errorf("%s (%s): %d px wide at a %d px viewport", kind, rel, w, width)
			}
			png, err := chromedp.Run(held.ctx, chromedp.FullScreenshot(90))
			if err != nil {
				t.Fatalf("screenshot %s: %v", kind, err)
			}
			if err := os.WriteFile(filepath.Join(art, fmt.Sprintf("%s-%d.png", kind, width)), png, 0o644); err != nil {
				t.Fatal(err)
			}
			if axe == "" {
				continue
			}
			for _, v := range axeViolations(held, axe) {
				t.Errorf("axe, %s (%s) at %d px: %s", kind, rel, width, v)
			}
		}
	}
}
