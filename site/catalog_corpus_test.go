package site

import (
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

// TestCorpusClaimFirstScreen builds each corpusCase and reads its first-screen claim (the
// generated network's Candlelight, the corpus's S3LightFixes) in document order: its first
// download link is an artifact of the current stable release, and it comes before any link to
// a development artifact and before the index's digests of the manifest.
func TestCorpusClaimFirstScreen(t *testing.T) {
	for _, c := range corpusCases(t) {
		t.Run(c.name, func(t *testing.T) { claimFirstScreen(t, c) })
	}
}

func claimFirstScreen(t *testing.T, c corpusCase) {
	out, project, site := c.out, c.project, c.site
	d := store.Open(c.state)
	var rec store.Claim
	if err := d.ReadJSON(store.ClaimPath(project, site), &rec); err != nil {
		t.Fatal(err)
	}
	var m protocol.Manifest
	if err := d.ReadJSON(filepath.ToSlash(filepath.Join(filepath.Dir(store.ClaimPath(project, site)), "manifest.json")), &m); err != nil {
		t.Fatal(err)
	}
	stable, dev := map[string]bool{}, map[string]bool{}
	for _, r := range m.Releases {
		for _, a := range r.Artifacts {
			for _, s := range a.Sources {
				switch {
				case r.Version == c.stable:
					stable[s.URL] = true
				case r.Channel == "development":
					dev[s.URL] = true
				}
			}
		}
	}
	if len(stable) == 0 || len(dev) == 0 {
		t.Fatalf("the manifest has %d stable %s and %d development artifact addresses: the test would prove nothing", len(stable), c.stable, len(dev))
	}
	doc := parsePage(t, out, paths.Claim(project, site))
	pos, firstDownload, firstDev, digest := 0, -1, -1, -1
	var downloadHref string
	code, download := htmlcheck.MustCompile(t, "code"), htmlcheck.MustCompile(t, "a.download")
	walk(doc, func(n *html.Node) bool {
		pos++
		if digest < 0 && code.Match(n) && htmlcheck.Text(n) == rec.Ingested() {
			digest = pos
		}
		if n.Type != html.ElementNode || n.DataAtom != atom.A {
			return true
		}
		href, _ := attr(n, "href")
		if firstDownload < 0 && download.Match(n) {
			firstDownload, downloadHref = pos, href
		}
		if firstDev < 0 && dev[href] {
			firstDev = pos
		}
		return true
	})
	if firstDownload < 0 {
		t.Fatal("the claim page has no download link")
	}
	if !stable[downloadHref] {
		t.Errorf("the first download link is %q, not an artifact of the stable release %s", downloadHref, c.stable)
	}
	if firstDev < 0 || digest < 0 {
		t.Fatalf("the page shows no development artifact (%d) or no held digest (%d)", firstDev, digest)
	}
	if firstDownload > firstDev {
		t.Errorf("a development artifact (node %d) comes before the first download link (node %d)", firstDev, firstDownload)
	}
	if firstDownload > digest {
		t.Errorf("the held digest (node %d) comes before the first download link (node %d)", digest, firstDownload)
	}
}
