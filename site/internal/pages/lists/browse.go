package lists

import (
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// BrowseDir is a browse list's directory for a publisher's word (a type, status or tag): its
// slug when the word is one already, else the slug with a digest, so no word can name a
// path outside browse/ and words whose slugs coincide keep apart.
func BrowseDir(prefix, word string) string {
	if s := store.Slug(word); s != "" && s == word {
		return prefix + s
	}
	return prefix + paths.CapabilityDir(word)
}

// browseLink is one list on the browse index: its words, where it is, how many it holds.
type browseLink struct {
	Label, Path string
	N           int
}

// browseIndex is one page of the browse index: the lists by type, status and tag, paged
// one section after the other (render.Cut), and on the first page the dated lists.
type browseIndex struct {
	Types, Statuses, Tags []browseLink
	Foundations           int
	// First: the first page, which has the dated lists. Show says which of the sections by
	// type, status and tag the page prints.
	First bool
	Show  [3]bool
}

// browseList is one browse page: a heading, what the list holds, and its entries in order.
type browseList struct {
	// Heading is this index's words; Label, after it, the publisher's word the list is of.
	Heading, Label, Intro string
	// Entries are this page's entries of the list's Total.
	Entries []*view.ClaimSummary
	Total   int
	// Date names the date each entry shows: "released" (its current release's publisher's
	// date), "updated" (when this index last saw its manifest change), or "".
	Date string
	// Capped: the list shows its first RecentShown entries of Total and links the page that
	// lists every one in the same order (releases/, updates/, the projects others require)
	// instead of paging them all.
	Capped bool
	// Shown is how many entries the list's pages show together (Total unless capped).
	Shown int
	// Whole: the list holds every claim of the catalog, more than a page of them, so it is
	// the project list itself, which pages the same claims in the same order (name order):
	// its one page says so and links there instead of paging every claim a second time.
	Whole bool
}

// RecentShown is how many entries a capped browse list shows (two pages): the others are on
// the list it restates (the releases by date, the updates, the projects others require, whose
// claims and order are the foundations'), so the browse lists do not page them a second time.
const RecentShown = 2 * paths.PageSize

// browsePages writes browse/ and its lists: by type, status and tag (case folded), the
// foundations (claims other claims' current releases require), recently released and
// recently updated. Every list is in name order but the dated ones.
func Browse(b *render.Site) error {
	var all []*view.ClaimSummary
	for _, c := range view.ByName(b.N.Listed) {
		all = append(all, b.Summarize(c))
	}
	idx := &browseIndex{}
	if err := browseByWord(b, all, idx); err != nil {
		return err
	}
	if err := browseDated(b, all, idx); err != nil {
		return err
	}
	return b.PagedList("browse", &render.Page{Path: paths.Browse, Title: "Browse projects", Section: "browse",
		Desc: "Lists of the projects in the catalog by type, status and tag, and by date, that need no script."}, len(idx.Types)+len(idx.Statuses)+len(idx.Tags),
		func(lo, hi int, pg *render.Pager) any {
			parts := render.Cut(lo, hi, len(idx.Types), len(idx.Statuses), len(idx.Tags))
			return &browseIndex{Types: idx.Types[parts[0].A:parts[0].B], Statuses: idx.Statuses[parts[1].A:parts[1].B], Tags: idx.Tags[parts[2].A:parts[2].B],
				Foundations: idx.Foundations, First: pg == nil || pg.N == 1, Show: [3]bool{parts[0].Show, parts[1].Show, parts[2].Show}}
		})
}

// browseByWord writes the lists of the projects by type, status and tag, and links them from
// idx.
func browseByWord(b *render.Site, all []*view.ClaimSummary, idx *browseIndex) error {
	type group struct {
		label   string
		entries []*view.ClaimSummary
	}
	collect := func(words func(*view.ClaimSummary) []string) ([]string, map[string]*group) {
		m := map[string]*group{}
		for _, s := range all {
			seen := map[string]bool{}
			for _, w := range words(s) {
				k := strings.ToLower(strings.TrimSpace(w))
				if k == "" || seen[k] {
					continue
				}
				seen[k] = true
				if m[k] == nil {
					m[k] = &group{label: w}
				}
				m[k].entries = append(m[k].entries, s)
			}
		}
		return view.Keys(boolKeys(m)), m
	}
	lists := []struct {
		kind, prefix, noun string
		words              func(*view.ClaimSummary) []string
		out                *[]browseLink
	}{
		{"type", "type-", "Projects of type", func(s *view.ClaimSummary) []string { return []string{s.Type} }, &idx.Types},
		{"status", "status-", "Projects with status", func(s *view.ClaimSummary) []string { return []string{s.Status} }, &idx.Statuses},
		{"tag", "tag-", "Projects tagged", func(s *view.ClaimSummary) []string { return s.Tags }, &idx.Tags},
	}
	for _, l := range lists {
		ks, m := collect(l.words)
		for _, k := range ks {
			g := m[k]
			path := "browse/" + BrowseDir(l.prefix, k) + "/index.html"
			*l.out = append(*l.out, browseLink{Label: g.label, Path: path, N: len(g.entries)})
			d := &browseList{Heading: l.noun, Label: g.label,
				Intro: "The " + l.kind + " is the publisher's own word for each project. In name order."}
			entries := g.entries
			if len(entries) == len(all) && len(all) > paths.PageSize {
				d.Whole, d.Total, entries = true, len(all), nil
			}
			if err := writeBrowseList(b, &render.Page{Path: path, Title: d.Heading + " " + pubtext.Plain(g.label), Section: "browse",
				Desc: "Projects in the catalog by " + l.kind + ", in name order."}, d, entries); err != nil {
				return err
			}
		}
	}
	return nil
}

// browseDated writes the foundations and the recently released and updated lists.
func browseDated(b *render.Site, all []*view.ClaimSummary, idx *browseIndex) error {
	var found []*view.ClaimSummary
	for _, s := range all {
		if len(s.C.UsedBy) > 0 {
			found = append(found, s)
		}
	}
	idx.Foundations = len(found)
	released := dated(all, func(s *view.ClaimSummary) string { return s.Released })
	updated := dated(all, func(s *view.ClaimSummary) string { return s.Updated })
	for _, l := range []struct {
		path string
		d    *browseList
	}{
		{"browse/foundations/index.html", &browseList{Heading: "Foundations", Entries: found, Capped: true,
			Intro: "Projects that the current release of another project in the catalog requires, by project id or through a capability. In name order; not a ranking."}},
		{"browse/recently-released/index.html", &browseList{Heading: "Recently released", Entries: released, Date: "released", Capped: true,
			Intro: "Projects by their current release's date, newest first. The date is the publisher's."}},
		{"browse/recently-updated/index.html", &browseList{Heading: "Recently updated", Entries: updated, Date: "updated", Capped: true,
			Intro: "Projects by when this index last saw their manifest change (or first saw it), newest first."}},
	} {
		entries := l.d.Entries
		if l.d.Capped && len(entries) > RecentShown {
			l.d.Total, entries = len(entries), entries[:RecentShown]
		}
		if err := writeBrowseList(b, &render.Page{Path: l.path, Title: l.d.Heading, Section: "browse",
			Desc: l.d.Heading + ": projects in the catalog."}, l.d, entries); err != nil {
			return err
		}
	}
	return nil
}

// browseList queues the pages of one browse list of entries: d is its heading and words
// (its Total, when capped, the whole list's), first its first page.
func writeBrowseList(b *render.Site, first *render.Page, d *browseList, entries []*view.ClaimSummary) error {
	return b.PagedList("browse-list", first, len(entries), func(lo, hi int, pg *render.Pager) any {
		pd := *d
		pd.Entries, pd.Shown = entries[lo:hi], len(entries)
		if pd.Total < len(entries) {
			pd.Total = len(entries)
		}
		return &pd
	})
}

// boolKeys is the set of m's keys.
func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// dated orders the entries with a date newest first (equal dates keep name order); entries
// without one are left out.
func dated(all []*view.ClaimSummary, date func(*view.ClaimSummary) string) []*view.ClaimSummary {
	var out []*view.ClaimSummary
	for _, s := range all {
		if date(s) != "" {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return date(out[i]) > date(out[j]) })
	return out
}
