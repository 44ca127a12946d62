package site

import (
	"bytes"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// networkPath is the page that leads to the pages about how the sites relate: conflicts,
// capabilities, dependencies, gaps, health and releases.
const networkPath = "network/index.html"

// networkData is the network page: how many entries each page it leads to holds.
type networkData struct {
	N *network.Network
	// Gaps counts the gap entries of every kind; NotCurrent the claims that are not current.
	Gaps, NotCurrent int
}

func (b *builder) networkPage() error {
	d := &networkData{N: b.N}
	g := b.N.Gaps
	d.Gaps = len(g.ByProject) + len(g.ByCapability) + len(g.ByURL) + len(g.ByName) + len(g.Empty)
	for _, c := range b.N.Claims {
		if health.StalenessOf(c) != health.StaleNone {
			d.NotCurrent++
		}
	}
	return b.Page("network", &render.Page{Path: networkPath, Title: "The network", Section: "network",
		Desc: "How the sites and projects in this index relate: identity conflicts, capabilities, dependencies, gaps, health and releases.", Data: d})
}

// recentItem is one line of the home page's "What changed lately": an event, or a group of
// first observations recorded at one time (a first crawl records one per claim).
type recentItem struct {
	Event *view.EventView
	// Observed are the grouped "first observed" events, At their time; empty for an event.
	// Named are the first maxNamed of them, which the line names; Unnamed counts the rest,
	// which the list of first observations it links holds.
	Observed []*view.EventView
	Named    []*view.EventView
	Unnamed  int
	At       string
}

// maxNamed is how many claims a grouped line of "What changed lately" names: a first crawl
// observes every claim at once, and the home page stays the same size whatever the count.
const maxNamed = 5

// minObservedGroup is how many first observations at one time become one line.
const minObservedGroup = 3

// recentItems groups the events, newest first, into at most n lines: runs of at least
// minObservedGroup "first observed" events recorded at the same time become one line. It
// reports whether events were left out.
func recentItems(evs []*view.EventView, n int) (items []*recentItem, more bool) {
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
			named := g[:min(len(g), maxNamed)]
			items = append(items, &recentItem{Observed: g, Named: named, Unnamed: len(g) - len(named), At: e.ObservedAt})
			i = j
			continue
		}
		items = append(items, &recentItem{Event: e})
		i++
	}
	return items, false
}

// joinPath is the page on publishing a DreamWeave site and asking to be read.
const joinPath = "join/index.html"

func (b *builder) joinPage() error {
	return b.Page("join", &render.Page{Path: joinPath, Title: "Join", Section: "join",
		Desc: "How to publish a DreamWeave site, check it with ashyams validate and inspect, and ask for it to be read; what review means and what it does not.",
		Data: &publishersData{Repository: b.Repo}})
}

// projectFeedPath is the Atom feed of one project id: the events of every claim to it.
func projectFeedPath(id string) string { return "projects/" + id + "/updates.xml" }

// projectFeedSize is how many events a project's feed carries, newest first.
const projectFeedSize = 50

// projectFeeds writes each project's feed: its claims' events, newest first. Each feed is a
// render (spawn), beside the pages.
func (b *builder) projectFeeds() error {
	byProject := map[string][]*view.EventView{}
	for _, e := range b.Derived.Events {
		if len(byProject[e.Project]) < projectFeedSize {
			byProject[e.Project] = append(byProject[e.Project], e)
		}
	}
	for _, p := range b.N.Projects {
		name := projectFeedPath(p.ID)
		evs := byProject[p.ID]
		updated := "" // the newest event's time, else the last refresh's
		if len(evs) > 0 {
			updated = evs[0].ObservedAt
		} else if b.N.State != nil {
			updated = b.N.State.ObservedAt
		}
		b.GoWrite(name, func() ([]byte, error) {
			// no subtitle: the title names the project, the entries say the rest
			return b.atomOf(name, IndexName+": "+projectTitle(p), b.Base+paths.Dir(paths.Project(p.ID)), "", evs, updated, true)
		})
	}
	return b.opml()
}

// OPMLFile lists every project's feed, so a feed reader can follow them all in one step.
const OPMLFile = format.DataDir + "/projects.opml"

// opml writes OPMLFile: an OPML 2.0 outline per project (by id, the projects' order), named
// as its project page is titled, with its feed: type "rss", as OPML 2.0 names any feed. No
// htmlUrl: the feed links its project page itself (its alternate).
func (b *builder) opml() error {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<opml version="2.0"><head><title>`)
	xmlEscape(&buf, IndexName+": the updates of every project")
	buf.WriteString("</title></head><body>\n")
	for _, p := range b.N.Projects {
		buf.WriteString(`<outline type="rss" text="`)
		xmlEscape(&buf, projectTitle(p))
		buf.WriteString(`" xmlUrl="`)
		xmlEscape(&buf, b.Base+projectFeedPath(p.ID))
		buf.WriteString("\"/>\n")
	}
	buf.WriteString("</body></opml>\n")
	return b.WriteRaw(OPMLFile, pubtext.Text(buf.Bytes(), pubtext.MarkupEnds)) // publisher names: as in every markup file
}

// browsePath is the index of the lists that need no script.
const browsePath = "browse/index.html"

// browseDir is a browse list's directory for a publisher's word (a type, status or tag): its
// slug when the word is one already, else the slug with a digest, so no word can name a
// path outside browse/ and words whose slugs coincide keep apart.
func browseDir(prefix, word string) string {
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

// browseIndex is the browse page: the lists by type, status and tag, and the dated lists.
type browseIndex struct {
	Types, Statuses, Tags []browseLink
	Foundations           int
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
	// Capped: the list shows its first recentShown entries of Total and links the page that
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

// recentShown is how many entries a capped browse list shows (two pages): the others are on
// the list it restates (the releases by date, the updates, the projects others require, whose
// claims and order are the foundations'), so the browse lists do not page them a second time.
const recentShown = 2 * render.PageSize

// browsePages writes browse/ and its lists: by type, status and tag (case folded), the
// foundations (claims other claims' current releases require), recently released and
// recently updated. Every list is in name order but the dated ones.
func (b *builder) browsePages() error {
	var all []*view.ClaimSummary
	for _, c := range view.ByName(b.N.Listed) {
		all = append(all, b.Summarize(c))
	}
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
		return keys(boolKeys(m)), m
	}
	idx := &browseIndex{}
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
			path := "browse/" + browseDir(l.prefix, k) + "/index.html"
			*l.out = append(*l.out, browseLink{Label: g.label, Path: path, N: len(g.entries)})
			d := &browseList{Heading: l.noun, Label: g.label,
				Intro: "The " + l.kind + " is the publisher's own word for each project. In name order."}
			entries := g.entries
			if len(entries) == len(all) && len(all) > render.PageSize {
				d.Whole, d.Total, entries = true, len(all), nil
			}
			if err := b.browseList(&render.Page{Path: path, Title: d.Heading + " " + pubtext.Plain(g.label), Section: "browse",
				Desc: "Projects in the catalog by " + l.kind + ", in name order."}, d, entries); err != nil {
				return err
			}
		}
	}
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
		if l.d.Capped && len(entries) > recentShown {
			l.d.Total, entries = len(entries), entries[:recentShown]
		}
		if err := b.browseList(&render.Page{Path: l.path, Title: l.d.Heading, Section: "browse",
			Desc: l.d.Heading + ": projects in the catalog."}, l.d, entries); err != nil {
			return err
		}
	}
	return b.Page("browse", &render.Page{Path: browsePath, Title: "Browse projects", Section: "browse",
		Desc: "Lists of the projects in the catalog by type, status and tag, and by date, that need no script.", Data: idx})
}

// browseList queues the pages of one browse list of entries: d is its heading and words
// (its Total, when capped, the whole list's), first its first page.
func (b *builder) browseList(first *render.Page, d *browseList, entries []*view.ClaimSummary) error {
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
