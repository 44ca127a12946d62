// Package feed writes the Atom feeds (the network's and each project's) and the OPML list of
// project feeds.
package feed

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/feeds"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// FeedFile is the Atom feed of the latest events, at the reference index's path for it.
const FeedFile = format.DataDir + "/updates.xml"

// FeedSize is how many events the feed carries, newest first.
const FeedSize = 100

// atomFeed is gorilla/feeds' Atom feed with both of the links the reference's feed has: self
// (the feed) and alternate (its page); feeds.AtomFeed holds one link only.
type atomFeed struct {
	XMLName  xml.Name          `xml:"feed"`
	Xmlns    string            `xml:"xmlns,attr"`
	Title    string            `xml:"title"`
	ID       string            `xml:"id"`
	Updated  string            `xml:"updated"`
	Subtitle string            `xml:"subtitle,omitempty"`
	Links    []feeds.AtomLink  `xml:"link"`
	Author   *feeds.AtomAuthor `xml:"author,omitempty"`
	Entries  []any             `xml:"entry"` // *feeds.AtomEntry, or *projectEntry in a project's feed
}

// projectEntry is an entry of a project's feed: gorilla/feeds' AtomEntry with one link and
// a summary of text (Atom's default type), none when empty.
type projectEntry struct {
	XMLName xml.Name `xml:"entry"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	ID      string   `xml:"id"`
	Link    feeds.AtomLink
	Summary string `xml:"summary,omitempty"`
	Author  *feeds.AtomAuthor
}

// Atom writes FeedFile, the Atom feed of the latest FeedSize events as the reference index
// writes it: its id and alternate <base>updates/, and its updated the last refresh's start
// (atomOf).
func Atom(b *render.Site) error {
	evs := b.Derived.Events
	if len(evs) > FeedSize {
		evs = evs[:FeedSize]
	}
	observed := ""
	if b.N.State != nil {
		observed = b.N.State.ObservedAt
	}
	var buf bytes.Buffer
	if err := atomOf(&buf, b, FeedFile, render.IndexName+": updates in the DreamWeave network", b.Base+"updates/",
		"Changes this index observed in the manifests DreamWeave sites publish, newest first.", evs, observed, false); err != nil {
		return err
	}
	return b.WriteRaw(FeedFile, pubtext.Markup(buf.Bytes())) // publisher text: as in every markup file
}

// atomOf writes to w an Atom feed of evs (newest first) named title, published at name (a path
// from the site's root), about the page at link, with the subtitle desc ("" for none), in the
// reference index's form: the feed's id is link,
// it links self to itself and alternate to link, and its updated is updated (an observation
// time; "" gives the Unix epoch, never the clock). Each entry's id and link are the event's
// page, its title "<name>: <headline>" (tags.Summary), its updated the event's observation, its
// author the site (named as every page names it, with its id when sites share a name) and its
// summary the tags, the observation time and the site.
//
// A project's feed (project) is the same feed in fewer bytes, its meaning unchanged under
// RFC 4287: no XML declaration (UTF-8 is XML's default), links carry no type, the feed's
// alternate and each entry's link no rel (a link without one is the alternate), a summary
// is the tags alone, as text, and none without tags (the time and the site are the entry's
// updated and author, the project id the feed's own), and the feed names its author only
// when an entry has none (each entry names its site). The network's feed keeps the
// reference's form. Errors name the file.
func atomOf(w *bytes.Buffer, b *render.Site, name, title, link, desc string, evs []*view.EventView, updated string, project bool) error {
	up := time.Unix(0, 0).UTC()
	if updated != "" {
		t, err := time.Parse(store.TimeFormat, updated)
		if err != nil {
			return fmt.Errorf("%s: observation time %q: %w", name, updated, err)
		}
		up = t
	}
	f := &atomFeed{
		Xmlns:    "http://www.w3.org/2005/Atom",
		Title:    title,
		ID:       link,
		Updated:  up.Format(time.RFC3339),
		Subtitle: desc,
		Links: []feeds.AtomLink{
			{Href: b.Base + name, Rel: "self", Type: "application/atom+xml"},
			{Href: link, Rel: "alternate", Type: "text/html"},
		},
		Author: &feeds.AtomAuthor{AtomPerson: feeds.AtomPerson{Name: render.IndexName}},
	}
	if project {
		f.Links = []feeds.AtomLink{{Href: b.Base + name, Rel: "self"}, {Href: link}}
		if len(evs) > 0 {
			f.Author = nil
		}
	}
	for _, e := range evs {
		t, err := time.Parse(store.TimeFormat, e.ObservedAt)
		if err != nil {
			return fmt.Errorf("%s: event %s observed_at %q: %w", name, e.ID, e.ObservedAt, err)
		}
		page := b.Base + paths.Dir(paths.Event(e.ID))
		title := pubtext.Plain(cmp.Or(e.Name, e.Project)) + ": " + textdir.Strip(tags.Summary(*e.Event))
		author := &feeds.AtomAuthor{AtomPerson: feeds.AtomPerson{Name: pubtext.Plain(e.Site)}}
		if project {
			sum := ""
			if len(e.Tags) > 0 {
				sum = "Tags: " + strings.Join(e.Tags, ", ") + "."
			}
			f.Entries = append(f.Entries, &projectEntry{Title: title, Updated: t.Format(time.RFC3339), ID: page,
				Link: feeds.AtomLink{Href: page}, Summary: sum, Author: author})
			continue
		}
		sum := "Observed " + e.ObservedAt + " on the site " + pubtext.Plain(e.Site) + ", project id " + e.Project + "."
		if len(e.Tags) > 0 {
			sum = "Tags: " + strings.Join(e.Tags, ", ") + ". " + sum
		}
		var esc bytes.Buffer // the summary's type is "html"
		render.XMLEscape(&esc, sum)
		f.Entries = append(f.Entries, &feeds.AtomEntry{Title: title, Updated: t.Format(time.RFC3339), Id: page,
			Links: []feeds.AtomLink{{Href: page, Rel: "alternate", Type: "text/html"}}, Summary: &feeds.AtomSummary{Content: esc.String(), Type: "html"}, Author: author})
	}
	e := encoders.Get().(*encoder) // one for many: a new one allocates 4 KB
	e.Buffer = w
	if !project { // as gorilla/feeds writes a feed (a project's is minified)
		w.WriteString(xml.Header[:len(xml.Header)-1])
		e.Indent("", "  ")
	}
	if err := e.Encode(f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if project { // unindented, and not left inside an element by an error
		encoders.Put(e)
	}
	return nil
}

// encoder is an XML encoder writing to its Buffer.
type encoder struct {
	*xml.Encoder
	*bytes.Buffer
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.Encoder = xml.NewEncoder(e)
	return e
}}
