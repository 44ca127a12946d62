package site

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/browsertest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/names"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

// LookAlikes are the kept inputs of the look-alike campaign: a real site's name and four
// names a reader cannot tell from it (a zero-width space, Cyrillic letters, doubled spaces,
// U+2019 for the apostrophe), each with the index URL it is read at.
var LookAlikes = []struct{ name, indexURL string }{
	{"S3ctor's S3cret St4sh", "https://s3ctor.example/mods/dreamweave.json"},
	{"S3ctor's S3cret\u200b St4sh", "https://spoof-zw.example/dreamweave.json"},
	{"S3ct\u043er's S3cr\u0435t St4sh", "https://spoof-cyr.example/a/dreamweave.json"}, // Cyrillic о, е
	{"S3ctor's  S3cret   St4sh", "https://s3ctor.example/spoof/dreamweave.json"},
	{"S3ctor\u2019s S3cret St4sh", "https://spoof-quote.example/dreamweave.json"},
}

// TestNameKeyFoldsLookAlikes: every look-alike has the real name's key; names that differ
// in a letter do not.
func TestNameKeyFoldsLookAlikes(t *testing.T) {
	want := names.Key(LookAlikes[0].name)
	for _, l := range LookAlikes[1:] {
		if got := names.Key(l.name); got != want {
			t.Errorf("nameKey(%q) = %q, want %q (the real name's)", l.name, got, want)
		}
	}
	for _, other := range []string{"S3ctor's S3cret St4sh 2", "Sector's Stash", "Lanterns"} {
		if names.Key(other) == want {
			t.Errorf("nameKey(%q) is the real name's key", other)
		}
	}
	if names.Key("\u200b \u2066 ") != "" {
		t.Errorf("a name of invisible characters and spaces has a key")
	}
}

// lookAlikeState writes the five sites, each listing a copy of the real site's manifest (one
// project id: an identity conflict) and a project of its own whose summary imitates this
// index's "Published by the site ..." line.
func lookAlikeState(t *testing.T) (state string, sites []string) {
	state = filepath.Join(t.TempDir(), "state")
	f := statetest.In(t, state)
	for i, l := range LookAlikes {
		s := f.Site(l.indexURL, l.name)
		sites = append(sites, s)
		for _, m := range []struct {
			id      string
			name    string
			summary string
		}{
			{uuid(1), "Stash Tweaks", "Tweaks for the stash."},
			{uuid(10 + i), fmt.Sprint("Own Project ", i), "Published by the site S3ctor's S3cret St4sh. This index endorses it."},
		} {
			man := sampleManifest(m.id, m.name, 1)
			man.Project.Summary = m.summary
			d := f.Claim(s, man)
			f.Event(store.Event{Kind: store.EventObserved, Project: m.id, Origin: s, Name: m.name, ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
		}
	}
	return state, sites
}

// TestLookAlikeSitesAreToldApart: on the Projects list every row of the five look-alike
// sites shows the site's address with its path (li.entry .site-addr), no two alike; each
// claim page's header (#published-by) names the site with its address; and a summary
// imitating the index's own line is inside the labelled quotation (blockquote.publisher-text).
func TestLookAlikeSitesAreToldApart(t *testing.T) {
	state, sites := lookAlikeState(t)
	_, out := build(t, state, Options{})
	bySite := map[string]string{} // site id -> the address its rows show
	for _, li := range htmlcheck.All(t, parsePage(t, out, "projects/index.html"), "li.entry") {
		parts := strings.Split(htmlcheck.Attr(htmlcheck.One(t, li, "a.result-title"), "href"), "/")
		key, site := strings.Join(parts[len(parts)-3:len(parts)-1], "/"), parts[len(parts)-2]
		addrs := htmlcheck.All(t, li, ".site-addr")
		if len(addrs) != 1 {
			t.Errorf("row %s shows %d site addresses, want 1", key, len(addrs))
			continue
		}
		addr := htmlcheck.Text(addrs[0])
		if !strings.HasSuffix(addr, "/") {
			t.Errorf("row %s shows the address %q without its path, though its name looks like another site's", key, addr)
		}
		if prev, ok := bySite[site]; ok && prev != addr {
			t.Errorf("rows of %s show two addresses, %q and %q", site, prev, addr)
		}
		bySite[site] = addr
	}
	distinct := map[string]bool{}
	for _, a := range bySite {
		distinct[a] = true
	}
	if len(bySite) != len(sites) || len(distinct) != len(sites) {
		t.Errorf("the project list shows the addresses %v, want %d sites with %d different addresses", bySite, len(sites), len(sites))
	}
	for i, s := range sites {
		for _, project := range []string{uuid(1), uuid(10 + i)} {
			doc := parsePage(t, out, paths.Claim(project, s))
			addrs := htmlcheck.Texts(t, doc, "#published-by .site-addr")
			host := strings.TrimPrefix(LookAlikes[i].indexURL, "https://")
			host = host[:strings.LastIndex(host, "/")+1]
			if len(addrs) != 1 || addrs[0] != host {
				t.Errorf("%s: #published-by shows addresses %q, want %q", paths.Claim(project, s), addrs, host)
			}
			if project == uuid(1) {
				continue
			}
			if n := htmlcheck.Count(t, doc, ".publisher-text"); n != 1 {
				t.Errorf("%s: %d .publisher-text, want the summary's alone", paths.Claim(project, s), n)
			}
			q := htmlcheck.One(t, doc, "blockquote.publisher-text")
			if says := htmlcheck.Text(htmlcheck.One(t, q, "p.says")); says != "The site's summary:" {
				t.Errorf("%s: the quotation is labelled %q", paths.Claim(project, s), says)
			}
			htmlcheck.Want(t, q, "p.lede", "Published by the site S3ctor")
		}
	}
}

// TestLookAlikeScreenshots shows the look-alike sites in Chromium at 1280 and 390 px: the
// Projects list and a spoof's claim page (whose summary imitates this index's line), written
// to $ASHYAMS_ARTIFACTS as lookalike-*.png. Each page must show the site addresses on screen
// (a .site-addr box wider than nothing).
func TestLookAlikeScreenshots(t *testing.T) {
	t.Parallel()
	browsertest.Path(t) // skips under -short, or without a browser, before building
	state, sites := lookAlikeState(t)
	_, out := build(t, state, Options{})
	srv := httptest.NewServer(preview.Handler(out))
	defer srv.Close()
	root := srv.URL + BasePath(DefaultBaseURL)
	art := browsertest.ArtifactDir(t)
	ctx := browsertest.Start(t, nil)
	pages := map[string]string{"projects": "projects/", "spoof-claim": path.Dir(paths.Claim(uuid(12), sites[2])) + "/"}
	for _, w := range []int64{1280, 390} {
		for name, rel := range pages {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
				t.Fatalf("%s at %d px: %v", rel, w, err)
			}
			navigate(t, ctx, root+rel, "body > footer")
			shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll(".site-addr")].filter(e => e.getBoundingClientRect().width > 0).length`))
			if err != nil {
				t.Fatal(err)
			}
			if shown == 0 {
				t.Errorf("%s at %d px shows no site address", rel, w)
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(art, fmt.Sprintf("lookalike-%s-%d.png", name, w))
			if err := os.WriteFile(p, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", p)
		}
	}
}

// TestLookAlikeProjectsAreMarked: a claim page names the listed claims of other project ids
// whose name a reader cannot tell from its own (a Cyrillic letter, a zero-width space), in
// div#look-alike with links to their pages and their project ids; a claim for the same
// project id is the identity conflict's, not a look-alike; a name differing in a letter is
// not marked; and a page names at most names.MaxLookAlikes of them and counts the rest.
func TestLookAlikeProjectsAreMarked(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	f := statetest.In(t, state)
	real := f.Site("https://lanterns.example/mods/dreamweave.json", "Lanterns")
	mirror := f.Site("https://mirror.example/mods/dreamweave.json", "Mirror")
	spoof := f.Site("https://spoof.example/dreamweave.json", "Spoof")
	f.Claim(real, sampleManifest(uuid(1), "Candlelight", 1))
	f.Claim(mirror, sampleManifest(uuid(1), "Candlelight", 1)) // the same id: a conflict
	f.Claim(spoof, sampleManifest(uuid(2), "C\u0430ndlelight", 1))
	f.Claim(spoof, sampleManifest(uuid(3), "Candle\u200blight", 1))
	f.Claim(real, sampleManifest(uuid(4), "Candlelight 2", 1))
	copies := names.MaxLookAlikes + 2
	for i := 0; i < copies; i++ {
		f.Claim(spoof, sampleManifest(uuid(100+i), "Wickwork", 1))
	}
	_, out := build(t, state, Options{})

	marked := func(project, site string) (ids []string, more string) {
		t.Helper()
		doc := parsePage(t, out, "projects/"+project+"/"+site+"/index.html")
		for _, li := range htmlcheck.All(t, doc, "div#look-alike li") {
			codes := htmlcheck.All(t, li, "code[data-pub]")
			if len(htmlcheck.All(t, li, "a[href]")) == 0 || len(codes) == 0 {
				more = htmlcheck.Text(li)
				continue
			}
			ids = append(ids, htmlcheck.Text(codes[len(codes)-1])) // the project id follows the claim's link
		}
		return ids, more
	}
	for _, tc := range []struct {
		project, site string
		want          []string
	}{
		{uuid(1), real, []string{uuid(2), uuid(3)}},
		{uuid(1), mirror, []string{uuid(2), uuid(3)}},
		{uuid(2), spoof, []string{uuid(1), uuid(1), uuid(3)}},
		{uuid(4), real, nil},
	} {
		got, _ := marked(tc.project, tc.site)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s/%s marks look-alikes %q, want %q", tc.project, tc.site, got, tc.want)
		}
	}
	got, more := marked(uuid(100), spoof)
	if len(got) != names.MaxLookAlikes || more != fmt.Sprintf("and %d more", copies-1-names.MaxLookAlikes) {
		t.Errorf("a name with %d look-alikes names %d and says %q, want %d and \"and %d more\"",
			copies-1, len(got), more, names.MaxLookAlikes, copies-1-names.MaxLookAlikes)
	}
}
