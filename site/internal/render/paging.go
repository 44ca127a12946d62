package render

import (
	"strconv"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

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

// PageCount is how many pages a list of n entries takes; an empty list still has its first.
func PageCount(n int) int {
	if n <= paths.PageSize {
		return 1
	}
	return (n + paths.PageSize - 1) / paths.PageSize
}

// pageBounds are the indexes of the entries page k (1-based) of n entries shows.
func pageBounds(n, k int) (lo, hi int) {
	lo = (k - 1) * paths.PageSize
	hi = min(lo+paths.PageSize, n)
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
		p.Prev = paths.Page(first, k-1)
	}
	if k < of {
		p.Next = paths.Page(first, k+1)
	}
	last := 0
	for i := 1; i <= of; i++ {
		if i != 1 && i != of && (i < k-2 || i > k+2) {
			continue
		}
		if last != 0 && i > last+1 {
			p.Links = append(p.Links, pageLink{Gap: true})
		}
		p.Links = append(p.Links, pageLink{N: i, Path: paths.Page(first, i), Current: i == k})
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
		p.Path, p.Pager, p.Title = paths.Page(first.Path, k), pg, pagedTitle(first.Title, pg)
		lo, hi := pageBounds(n, k)
		if err := b.Page(kind, &p, func() any { return data(lo, hi, pg) }); err != nil {
			return err
		}
	}
	return nil
}

// Part is what one page of a list made of sections, one after the other, shows of one
// section: its entries [A, B), and Show, whether the page prints the section at all (it
// shows some of its entries, or the section is empty and the page is where it would begin,
// so its "none" is said once).
type Part struct {
	A, B int
	Show bool
}

// Cut is, for each section of the given lengths, the Part that the page showing entries
// [lo, hi) of the whole list prints.
func Cut(lo, hi int, lens ...int) []Part {
	total := 0
	for _, n := range lens {
		total += n
	}
	out := make([]Part, len(lens))
	off := 0
	for i, n := range lens {
		a, b := min(max(lo-off, 0), n), min(max(hi-off, 0), n)
		out[i] = Part{a, b, a < b || n == 0 && lo <= off && (off < hi || hi == total)}
		off += n
	}
	return out
}
