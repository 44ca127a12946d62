package install

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
)

// TestPageAndCommandAgree: the plan link the lock records (the player's link with the mods
// folder as its root) gives, on the plan page in Chromium, the openmw.cfg lines the command
// wrote, every data= folder of them one the command made.
func TestPageAndCommandAgree(t *testing.T) {
	ctx := browsertest.Start(t, nil)
	n := installtest.New(t)
	n.Publish(alpha, beta, gamma)
	p := newPlayer(t)
	install(t, p, n.Link("add="+beta.ID+","+gamma.ID+"&on="+beta.ID+":extra"))
	l, err := ReadLock(p.mods)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(l.Link)); err != nil {
		t.Fatal(err)
	}
	browsertest.Until(t, ctx, `!!document.querySelector('[data-plan-output="openmw.cfg"]') && !document.getElementById("plan-results").hasAttribute("data-plan-loading")`)
	page, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-plan-output="openmw.cfg"]').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	var pageLines, ours []string
	for _, line := range strings.Split(page, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			pageLines = append(pageLines, line)
		}
	}
	for _, line := range l.OpenMWCfg.Lines {
		ours = append(ours, line.Text)
	}
	if strings.Join(pageLines, "\n") != strings.Join(ours, "\n") || len(ours) != 8 {
		t.Errorf("the page's lines:\n%s\nthe command's:\n%s", strings.Join(pageLines, "\n"), strings.Join(ours, "\n"))
	}
	for _, line := range ours {
		if dir, ok := strings.CutPrefix(line, "data="); ok {
			path := strings.NewReplacer("&&", "&", "&\"", "\"").Replace(dir[1 : len(dir)-1])
			if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
				t.Errorf("%s: not a folder the command made (%v)", line, err)
			}
		}
	}
}
