package render

import (
	"strconv"
	"strings"
)

// PageSize is how many entries one page of a list holds: the first page a player opens stays
// the same size whatever the network's, and the rest are a page number away.
const PageSize = 50

// pager is where one page of a paged list stands among its pages: printed as page links at
// the list's foot and as rel=prev/next links in the head.
type Pager struct {
	// N is this page's number (1 for the first) of Of pages.
	N, Of int
	// From and To are the 1-based numbers of the first and last entry shown, of Total.
	From, To, Total int
	// Prev and Next are the neighbouring pages' paths ("" at either end).
	Prev, Next string
	// Links are the page numbers shown: the first, the last and those around this one, with
	// a gap where numbers are left out.
	Links []pageLink
}

// pageLink is one page number of a pager; Gap marks left-out numbers between two links.
type pageLink struct {
	N       int
	Path    string
	Current bool
	Gap     bool
}

// PagePath is the path of page k of a list whose first page is at first: page 1 stays at
// first, so links and the sitemap that name a list keep working as it grows; page k > 1 is
// at page/k/ beside it ("projects/index.html", 2 gives "projects/page/2/index.html").
// Directories beside a list's first page hold the pages of single claims, sites, tags and
// events, none of which can be named "page": project ids are UUIDs, site ids end in a hex
// digest, event ids are hex and tags are this index's vocabulary or prefixed "tag-". A state
// that breaks that fails the build (a path written twice), it never overwrites a page.
func PagePath(first string, k int) string {
	if k <= 1 {
		return first
	}
	return strings.TrimSuffix(first, "index.html") + "page/" + strconv.Itoa(k) + "/index.html"
}

// PageCount is how many pages a list of n entries takes; an empty list still has its first.
func PageCount(n int) int {
	if n <= PageSize {
		return 1
	}
	return (n + PageSize - 1) / PageSize
}

// pageBounds are the indexes of the entries page k (1-based) of n entries shows.
func pageBounds(n, k int) (lo, hi int) {
	lo = (k - 1) * PageSize
	hi = min(lo+PageSize, n)
	return min(lo, n), hi
}

// NewPager is page k of a list of n entries whose first page is at first; nil when the list
// fits one page, which then shows no page links.
func NewPager(first string, n, k int) *Pager {
	of := PageCount(n)
	if of == 1 {
		return nil
	}
	lo, hi := pageBounds(n, k)
	p := &Pager{N: k, Of: of, From: lo + 1, To: hi, Total: n}
	if k > 1 {
		p.Prev = PagePath(first, k-1)
	}
	if k < of {
		p.Next = PagePath(first, k+1)
	}
	last := 0
	for i := 1; i <= of; i++ {
		if i != 1 && i != of && (i < k-2 || i > k+2) {
			continue
		}
		if last != 0 && i > last+1 {
			p.Links = append(p.Links, pageLink{Gap: true})
		}
		p.Links = append(p.Links, pageLink{N: i, Path: PagePath(first, i), Current: i == k})
		last = i
	}
	return p
}

// pagedTitle is a list page's title: the list's on its first page, with the page number on
// the others, so every page's title is its own.
func pagedTitle(title string, pg *Pager) string {
	if pg == nil || pg.N == 1 {
		return title
	}
	return title + ", page " + strconv.Itoa(pg.N) + " of " + strconv.Itoa(pg.Of)
}

// pagedList queues every page of a list of n entries: first is the first page (its Path,
// Title and the rest); each further page is a copy at PagePath with its title numbered.
// data gives the page's Data for the entries [lo, hi) and its pager, and runs on the
// render's worker.
func (b *Site) PagedList(kind string, first *Page, n int, data func(lo, hi int, pg *Pager) any) error {
	for k := 1; k <= PageCount(n); k++ {
		p := *first
		pg := NewPager(first.Path, n, k)
		p.Path, p.Pager, p.Title = PagePath(first.Path, k), pg, pagedTitle(first.Title, pg)
		lo, hi := pageBounds(n, k)
		if err := b.Page(kind, &p, func() any { return data(lo, hi, pg) }); err != nil {
			return err
		}
	}
	return nil
}
