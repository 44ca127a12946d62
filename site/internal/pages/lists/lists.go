// Package lists renders the pages that list the network for players: the home page, the
// project list, the browse lists, the releases, the updates and the network page.
package lists

import (
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// recentEvents is how many events the home page and the updates index show.
const (
	RecentHome = 10
)

type homeData struct {
	N        *network.Network
	Featured []*featuredView
	Recent   []*recentItem
	More     bool
	// ObservedPath is the updates page of first observations, which a grouped line links.
	ObservedPath string
	// Stale counts the claims in the catalog whose data is cached; Never the claims no
	// manifest of which passed every check yet.
	Stale, Never int
}

type featuredView struct {
	F      *network.Featured
	Claims []*view.ClaimSummary
}

func Home(b *render.Site) error {
	d := &homeData{N: b.N, ObservedPath: paths.Tag(tags.Observed)}
	for _, c := range b.N.Claims {
		switch health.StalenessOf(c) {
		case health.StaleCached:
			d.Stale++
		case health.StaleNever:
			d.Never++
		}
	}
	for _, f := range b.N.Featured {
		fv := &featuredView{F: f}
		for _, c := range f.Claims {
			fv.Claims = append(fv.Claims, b.Summarize(c))
		}
		d.Featured = append(d.Featured, fv)
	}
	d.Recent, d.More = RecentItems(b.Derived.Events, RecentHome)
	return b.Page("home", &render.Page{Path: "index.html", Title: "DreamWeave mods: projects, updates and sites", Section: "home",
		Desc: "An independent index of the DreamWeave mod network: what each site published, what changed, and how the projects relate.", Data: d})
}

type projectsData struct {
	// Entries are this page's claims of the list (all of them in name order: Total).
	Entries []*view.ClaimSummary
	Total   int
	// Projects counts the distinct project ids of the whole list.
	Projects               int
	Types, Statuses, Games []string
	// Tags are the tag filter's suggestions: the SuggestedTags most used, by name (the filter
	// takes any tag; the browse page lists every one).
	Tags []string
	// Withdrawn are the first WithdrawnShown claims out of the catalog, shown on the first
	// page only; WithdrawnMore counts the rest, which the health page lists with the others.
	Withdrawn     []*network.Claim
	WithdrawnMore int
	Pager         *render.Pager
}

// WithdrawnShown is how many claims out of the catalog the project list names.
const WithdrawnShown = 10

func Projects(b *render.Site) error {
	d := &projectsData{}
	types, statuses, tagUse, games := map[string]bool{}, map[string]bool{}, map[string]int{}, map[string]bool{}
	ids := map[string]bool{}
	var all []*view.ClaimSummary
	for _, c := range view.ByName(b.N.Listed) {
		s := b.Summarize(c)
		all = append(all, s)
		ids[c.Project] = true
		types[s.Type], statuses[s.Status], games[s.Game] = true, true, true
		for _, t := range s.Tags {
			tagUse[t]++
		}
	}
	for _, c := range b.N.Claims {
		if !c.Listed {
			d.Withdrawn = append(d.Withdrawn, c)
		}
	}
	if len(d.Withdrawn) > WithdrawnShown { // bounded: the list's first page costs the same at any size
		d.Withdrawn, d.WithdrawnMore = d.Withdrawn[:WithdrawnShown], len(d.Withdrawn)-WithdrawnShown
	}
	d.Types, d.Statuses, d.Tags, d.Games = view.Keys(types), view.Keys(statuses), topTags(tagUse), view.Keys(games)
	d.Projects, d.Total = len(ids), len(all)
	first := &render.Page{Path: "projects/index.html", Title: "Projects", Section: "projects", Script: true,
		Desc: "Every project claim in the catalog, with search and filters by type, status, tag and game."}
	if err := b.PagedList("projects", first, len(all), func(lo, hi int, pg *render.Pager) any {
		pd := *d
		pd.Entries, pd.Pager = all[lo:hi], pg
		if pg != nil && pg.N > 1 {
			pd.Withdrawn = nil
		}
		return &pd
	}); err != nil {
		return err
	}
	return nil
}

// SuggestedTags is how many tags the project list's tag filter suggests: a bound, as a
// catalog's tags grow with it.
const SuggestedTags = 30

// topTags is the SuggestedTags tags of use most used (ties by name), sorted by name.
func topTags(use map[string]int) []string {
	var all []string
	for t := range use {
		all = append(all, t)
	}
	sort.Slice(all, func(i, j int) bool {
		if use[all[i]] != use[all[j]] {
			return use[all[i]] > use[all[j]]
		}
		return all[i] < all[j]
	})
	all = all[:min(len(all), SuggestedTags)]
	sort.Strings(all)
	return all
}

// releaseRow is a claim in the releases list: its current release with the channel it heads
// and its publisher's date, and the heads of its other channels.
type releaseRow struct {
	C       *network.Claim
	Current *network.Release
	// Channel is the channel Current heads; Others are the heads that are not Current.
	Channel string
	Others  []network.Head
	Date    string
}

func Releases(b *render.Site) error {
	var rows []*releaseRow
	for _, c := range b.N.Listed {
		r := &releaseRow{C: c, Current: c.Current, Channel: c.CurrentChannel}
		if c.Current != nil {
			r.Date = c.Current.Date
		}
		for _, h := range c.Heads {
			if h.Release != c.Current {
				r.Others = append(r.Others, h)
			}
		}
		rows = append(rows, r)
	}
	// Newest publisher date first; then by name and key, so equal dates keep a fixed order.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Date != rows[j].Date {
			return rows[i].Date > rows[j].Date
		}
		a, b := strings.ToLower(rows[i].C.Name), strings.ToLower(rows[j].C.Name)
		if a != b {
			return a < b
		}
		return rows[i].C.Key.Less(rows[j].C.Key)
	})
	return b.PagedList("releases", &render.Page{Path: "releases/index.html", Title: "Releases", Section: "releases",
		Desc: "The current release and channel heads of every claim in the catalog."}, len(rows),
		func(lo, hi int, _ *render.Pager) any { return rows[lo:hi] })
}

type updatesData struct {
	Tag string
	// Events are this page's updates, of Total.
	Events []*view.EventView
	Tags   []view.TagLink
	Total  int
	// Whole: every update carries Tag, more than a page of them, so its list is the updates
	// list itself, in the same order: its one page says so and links there.
	Whole bool
}

func Updates(b *render.Site) error {
	links := view.TagLinks(b.Derived.Tags)
	list := func(first *render.Page, tag string, evs []*view.EventView) error {
		if tag != "" && len(evs) == len(b.Derived.Events) && len(evs) > paths.PageSize {
			first.Data = &updatesData{Tag: tag, Tags: links, Total: len(evs), Whole: true}
			return b.Page("updates", first)
		}
		return b.PagedList("updates", first, len(evs), func(lo, hi int, _ *render.Pager) any {
			return &updatesData{Tag: tag, Events: evs[lo:hi], Tags: links, Total: len(evs)}
		})
	}
	if err := list(&render.Page{Path: "updates/index.html", Title: "Updates", Section: "updates",
		Desc: "What changed in the projects this index reads, newest first."}, "", b.Derived.Events); err != nil {
		return err
	}
	for _, t := range b.Derived.Tags {
		if err := list(&render.Page{Path: paths.Tag(t), Title: "Updates tagged " + t, Section: "updates",
			Desc: "Updates with one tag, newest first."}, t, b.Derived.ByTag[t]); err != nil {
			return err
		}
	}
	for _, e := range b.Derived.Events {
		if err := b.Page("event", &render.Page{Path: paths.Event(e.ID), Title: e.Title, Section: "updates", Unmapped: true, Leaf: true, Data: e}); err != nil {
			return err
		}
	}
	return nil
}

// networkData is the network page: how many entries each page it leads to holds.
type networkData struct {
	N *network.Network
	// Gaps counts the gap entries of every kind; NotCurrent the claims that are not current.
	Gaps, NotCurrent int
}

func Network(b *render.Site) error {
	d := &networkData{N: b.N}
	g := b.N.Gaps
	d.Gaps = len(g.ByProject) + len(g.ByCapability) + len(g.ByURL) + len(g.ByName) + len(g.Empty)
	for _, c := range b.N.Claims {
		if health.StalenessOf(c) != health.StaleNone {
			d.NotCurrent++
		}
	}
	return b.Page("network", &render.Page{Path: paths.Network, Title: "The network", Section: "network",
		Desc: "How the sites and projects in this index relate: identity conflicts, capabilities, dependencies, gaps, health and releases.", Data: d})
}

// recentItem is one line of the home page's "What changed lately": an event, or a group of
// first observations recorded at one time (a first crawl records one per claim).
type recentItem struct {
	Event *view.EventView
	// Observed are the grouped "first observed" events, At their time; empty for an event.
	// Named are the first MaxNamed of them, which the line names; Unnamed counts the rest,
	// which the list of first observations it links holds.
	Observed []*view.EventView
	Named    []*view.EventView
	Unnamed  int
	At       string
}

// MaxNamed is how many claims a grouped line of "What changed lately" names: a first crawl
// observes every claim at once, and the home page stays the same size whatever the count.
const MaxNamed = 5

// minObservedGroup is how many first observations at one time become one line.
const minObservedGroup = 3

// RecentItems groups the events, newest first, into at most n lines: runs of at least
// minObservedGroup "first observed" events recorded at the same time become one line. It
// reports whether events were left out.
func RecentItems(evs []*view.EventView, n int) (items []*recentItem, more bool) {
	for i := 0; i < len(evs); {
		if len(items) == n {
			return items, true
		}
		e := evs[i]
		j := i
		if e.Kind == store.EventObserved {
			for j < len(evs) && evs[j].Kind == store.EventObserved && evs[j].ObservedAt == e.ObservedAt {
				j++
			}
		}
		if j-i >= minObservedGroup {
			g := evs[i:j]
			named := g[:min(len(g), MaxNamed)]
			items = append(items, &recentItem{Observed: g, Named: named, Unnamed: len(g) - len(named), At: e.ObservedAt})
			i = j
			continue
		}
		items = append(items, &recentItem{Event: e})
		i++
	}
	return items, false
}
