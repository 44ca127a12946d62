package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// FeedFile is the Atom feed of the latest events, beside the site.
const FeedFile = "updates.xml"

// FeedSize is how many events the feed carries, newest first.
const FeedSize = 100

// atom is the Atom feed of the latest FeedSize events (atomOf).
func (b *builder) atom() ([]byte, error) {
	evs := b.derived.Events
	if len(evs) > FeedSize {
		evs = evs[:FeedSize]
	}
	return b.atomOf(FeedFile, IndexName+": updates in the DreamWeave network", b.base+"updates/",
		"Changes this index observed in the manifests DreamWeave sites publish, newest first.", evs)
}

// atomOf is an Atom feed of evs (newest first) named title, whose alternate is the page at
// link; name is the file, for errors. It is deterministic: every time in it is an observation
// time from the state (the feed's updated is the newest event's, else the last refresh's), and
// every entry has an explicit id (gorilla/feeds would otherwise make a random one).
func (b *builder) atomOf(name, title, link, desc string, evs []*eventView) ([]byte, error) {
	f := &feeds.Feed{
		Title:       title,
		Link:        &feeds.Link{Href: link, Rel: "alternate"},
		Description: desc,
		Author:      &feeds.Author{Name: IndexName},
	}
	updated := ""
	if len(evs) > 0 {
		updated = evs[0].ObservedAt
	} else if b.n.State != nil {
		updated = b.n.State.ObservedAt
	}
	if updated != "" {
		t, err := time.Parse(store.TimeFormat, updated)
		if err != nil {
			return nil, fmt.Errorf("%s: observation time %q: %w", name, updated, err)
		}
		f.Updated = t
	} else {
		f.Updated = time.Unix(0, 0).UTC() // nothing observed yet: a fixed time, never the clock
	}
	for _, e := range evs {
		t, err := time.Parse(store.TimeFormat, e.ObservedAt)
		if err != nil {
			return nil, fmt.Errorf("%s: event %s observed_at %q: %w", name, e.ID, e.ObservedAt, err)
		}
		link := b.base + dirURL(eventPath(e.ID))
		desc := e.Title + ". Published by the site " + plainPub(e.Site) + ", project id " + e.Project + "."
		if len(e.Tags) > 0 {
			desc += " Tags: " + strings.Join(e.Tags, ", ") + "."
		}
		f.Items = append(f.Items, &feeds.Item{
			Title:       e.Title,
			Link:        &feeds.Link{Href: link},
			Id:          link,
			Updated:     t,
			Description: htmlEscape(desc),
		})
	}
	atom, err := f.ToAtom()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return []byte(atom), nil
}

// htmlEscape escapes text for an Atom summary of type "html".
func htmlEscape(s string) string {
	var buf bytes.Buffer
	xmlEscape(&buf, s)
	return buf.String()
}

func xmlEscape(buf *bytes.Buffer, s string) {
	_ = xml.EscapeText(buf, []byte(s))
}
