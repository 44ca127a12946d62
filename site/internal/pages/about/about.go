// Package about renders the index's own pages (about, for publishers, join, not found) and the
// setup check and planner pages, whose data site/plan and site/find compute.
package about

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
)

// publishersData is the page for publishers: the user agent this build's crawler sends, what
// the state recorded, and where the index's repository is.
type publishersData struct {
	UserAgent  string
	Crawler    string
	ObservedAt string
	Repository string
}

// handWritten are the hand-written pages, each with its template,
// path, title and description.
var handWritten = []struct{ kind, path, title, desc string }{
	{"about", "about/index.html", "About this index", "How this index works."},
	{"about-trust", "about/trust/index.html", "What this index says, and what it never says", "The words this index uses about projects, and why."},
	{"about-digests", "about/digests/index.html", "What a digest proves", "What a SHA-256 digest in a DreamWeave document proves and what it does not."},
	{"about-listing", "about/listing/index.html", "What being listed means", "What it means for a site to be read by this index."},
	{"about-updates", "about/updates/index.html", "The updates vocabulary", "The tags and change kinds on the updates pages."},
	{"about-publishers", paths.Publishers, "If you publish a DreamWeave site", "For publishers: when changes show, how to check files before deploying, how to be added or removed, and the crawler's user agent."},
	{"about-state", "about/state/index.html", "The state, and the reference index", "Where the state and the published files follow the reference index, and every deliberate difference, with why."},
}

func About(b *render.Site) error {
	pub := &publishersData{UserAgent: product.UserAgent, Repository: b.Repo}
	if s := b.N.State; s != nil {
		pub.Crawler, pub.ObservedAt = s.Crawler, s.ObservedAt
	}
	for _, a := range handWritten {
		var data any = b.N
		switch a.kind {
		case "about-publishers":
			data = pub
		case "about-state":
			data = stateDifferences{Publish: PublishDifferences, Crawl: CrawlDifferences, Records: store.Differences}
		}
		if err := b.Page(a.kind, &render.Page{Path: a.path, Title: a.title, Section: "about", Desc: a.desc, Data: data}); err != nil {
			return err
		}
	}
	return nil
}

func NotFound(b *render.Site) error {
	return b.Page("notfound", &render.Page{Path: sitedir.NotFoundPage, Title: "Page not found", Rooted: true,
		Desc: "This page does not exist."})
}

func Join(b *render.Site) error {
	return b.Page("join", &render.Page{Path: paths.Join, Title: "Join", Section: "join",
		Desc: "How to publish a DreamWeave site, check it with ashyams validate and inspect, and ask for it to be read; what review means and what it does not.",
		Data: &publishersData{Repository: b.Repo}})
}
