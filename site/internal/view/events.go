package view

import (
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/names"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
)

// derived is what the pages show about events beyond the model, all read from the
// recorded events: tags, headlines, lines, events by tag and first-seen releases.
type Derived struct {
	// Events newest first; events observed at the same time by claim name (PageOrder).
	Events []*EventView
	ByID   map[string]*EventView
	// ByTag holds the events with each tag, newest first; Tags the tags in use, in
	// vocabulary order.
	ByTag map[string][]*EventView
	Tags  []string
	// ByClaim holds each claim's events, newest first.
	ByClaim map[network.Key][]*EventView
	// FirstSeen is, per claim and release version, the event in which this index first saw
	// the release (FirstSeen).
	FirstSeen map[network.Key]map[string]*EventView
}

// Event is an event as the pages show it.
type EventView struct {
	*store.Event
	Tags     []string
	Headline string
	Lines    []string
	// Claim is the claim the event belongs to (nil when the state no longer holds it).
	Claim *network.Claim
	// Site names the claim's site (names.Names.ClaimSiteText, else the site's record or
	// id); Title is the headline with it after the project's name ("Wickwork (Ashfall
	// Collective): first observed"), so a conflicted id's events are told apart.
	Site, Title string
	// Path is the event's page; TagLinks its tags with their pages. Badges are TagLinks
	// but a first observation's observed tag, which Title says.
	Path             string
	TagLinks, Badges []TagLink
}

// TagLink is a tag of the updates vocabulary and its page.
type TagLink struct{ Name, Path string }

// TagLinks are tags with their pages.
func TagLinks(tags []string) []TagLink {
	out := make([]TagLink, len(tags))
	for i, t := range tags {
		out[i] = TagLink{Name: t, Path: paths.Tag(t)}
	}
	return out
}

// siteHeadline puts the site after the name the headline starts with (else at its end)
// and words a first observation for players (PlayerRest), the publisher parts plain
// (pubtext.Plain).
func siteHeadline(e *store.Event, headline, site string) string {
	name := e.Name
	if name == "" {
		name = e.Project
	}
	if rest, ok := strings.CutPrefix(headline, name); ok && name != "" {
		return pubtext.Plain(name) + " (" + pubtext.Plain(site) + ")" + PlayerRest(e.Kind, textdir.Strip(rest))
	}
	return pubtext.Plain(headline) + " (" + pubtext.Plain(site) + ")"
}

// tagOrder is the tag vocabulary in the order catalog/diff/tags returns it.
var tagOrder = []string{tags.Release, tags.Breaking, tags.Migration, tags.Dependencies, tags.Runtime,
	tags.Status, tags.Artifacts, tags.Anomaly, tags.Capabilities, tags.Components, tags.Metadata,
	tags.Development, tags.Observed, tags.Listing, tags.Moved}

// derive computes every event's view, the events by tag and claim, and first-seen times.
func Derive(n *network.Network, sn *names.Names) *Derived {
	d := &Derived{
		ByID:      map[string]*EventView{},
		ByTag:     map[string][]*EventView{},
		ByClaim:   map[network.Key][]*EventView{},
		FirstSeen: map[network.Key]map[string]*EventView{},
	}
	sorted := PageOrder(n, format.SortEvents(n.Events))
	for i := range sorted {
		e := &sorted[i]
		v := newEventView(n, sn, e)
		k := network.Key{Project: e.Project, Site: e.Origin}
		d.Events = append(d.Events, v)
		d.ByID[e.ID] = v
		d.ByClaim[k] = append(d.ByClaim[k], v)
		for _, t := range v.Tags {
			d.ByTag[t] = append(d.ByTag[t], v)
		}
	}
	d.Tags = TagsInUse(d.ByTag)
	for k, evs := range d.ByClaim {
		if seen := FirstSeen(n.ByKey[k], evs); len(seen) > 0 {
			d.FirstSeen[k] = seen
		}
	}
	return d
}

// newEventView is e as the pages show it: tags, headline, lines, its claim and site.
func newEventView(n *network.Network, sn *names.Names, e *store.Event) *EventView {
	v := &EventView{Event: e, Tags: tags.Tags(*e), Headline: tags.Headline(*e), Lines: diff.Lines(e.Changes)}
	v.Claim = n.ByKey[network.Key{Project: e.Project, Site: e.Origin}]
	switch o := n.OriginByID[e.Origin]; {
	case v.Claim != nil:
		v.Site = sn.ClaimSiteText(v.Claim)
	case o != nil:
		v.Site = sn.OriginText(o)
	default:
		v.Site = e.Origin
	}
	v.Title = siteHeadline(e, v.Headline, v.Site)
	v.Path, v.TagLinks = paths.Event(e.ID), TagLinks(v.Tags)
	v.Badges = v.TagLinks
	if e.Kind == store.EventObserved {
		v.Badges = nil
		for _, t := range v.TagLinks {
			if t.Name != tags.Observed {
				v.Badges = append(v.Badges, t)
			}
		}
	}
	return v
}

// TagsInUse are the tags of byTag in vocabulary order, then the unknown tags, sorted.
func TagsInUse(byTag map[string][]*EventView) []string {
	var out []string
	known := map[string]bool{}
	for _, t := range tagOrder {
		known[t] = true
		if len(byTag[t]) > 0 {
			out = append(out, t)
		}
	}
	var extra []string
	for t := range byTag {
		if !known[t] {
			extra = append(extra, t)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// FirstSeen is, per release version of claim c (nil when gone), the event of evs (newest
// first) in which this index first saw the release: the one whose top-level release-added
// names it, else the claim's observed event, but only when the recorded history links
// digest to digest up to the held manifest. Otherwise the time was not recorded.
func FirstSeen(c *network.Claim, evs []*EventView) map[string]*EventView {
	seen := map[string]*EventView{}
	var observed *EventView
	chain, prev := false, ""
	for i := len(evs) - 1; i >= 0; i-- {
		v := evs[i]
		if v.Kind == store.EventObserved && v.After != nil {
			observed, chain, prev = v, true, *v.After
			continue
		}
		if v.Before != nil && v.After != nil && *v.Before != *v.After {
			if *v.Before != prev {
				chain = false
			}
			prev = *v.After
		}
		for _, ch := range v.Changes {
			if ch.Change == "release-added" && ch.Version != "" && seen[ch.Version] == nil {
				seen[ch.Version] = v
			}
		}
	}
	if c != nil && c.Manifest != nil && observed != nil && chain && prev == c.Record.Ingested() {
		for _, r := range c.Manifest.Releases {
			if seen[r.Version] == nil {
				seen[r.Version] = observed
			}
		}
	}
	return seen
}

// PageOrder is the order the pages list events in: newest first, then by the claim's name
// (case-folded), project id, site and event id. events.json keeps format.SortEvents' order.
func PageOrder(n *network.Network, es []store.Event) []store.Event {
	name := func(e *store.Event) string {
		if c := n.ByKey[network.Key{Project: e.Project, Site: e.Origin}]; c != nil {
			return strings.ToLower(c.Name)
		}
		return strings.ToLower(e.Name)
	}
	sort.SliceStable(es, func(i, j int) bool {
		a, b := &es[i], &es[j]
		if a.ObservedAt != b.ObservedAt {
			return a.ObservedAt > b.ObservedAt
		}
		if na, nb := name(a), name(b); na != nb {
			return na < nb
		}
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		return a.ID < b.ID
	})
	return es
}
