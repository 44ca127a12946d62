package feed

import (
	"bytes"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// projectFeedSize is how many events a project's feed carries, newest first.
const projectFeedSize = 50

// projectFeeds writes each project's feed: its claims' events, newest first. Each feed is a
// render (spawn), beside the pages.
func Projects(b *render.Site) error {
	byProject := map[string][]*view.EventView{}
	for _, e := range b.Derived.Events {
		if len(byProject[e.Project]) < projectFeedSize {
			byProject[e.Project] = append(byProject[e.Project], e)
		}
	}
	for _, p := range b.N.Projects {
		name := paths.ProjectFeed(p.ID)
		evs := byProject[p.ID]
		updated := "" // the newest event's time, else the last refresh's
		if len(evs) > 0 {
			updated = evs[0].ObservedAt
		} else if b.N.State != nil {
			updated = b.N.State.ObservedAt
		}
		b.GoWrite(name, func(buf *bytes.Buffer) error {
			// no subtitle: the title names the project, the entries say the rest
			return atomOf(buf, b, name, render.IndexName+": "+view.ProjectTitle(p), b.Base+paths.Dir(paths.Project(p.ID)), "", evs, updated, true)
		})
	}
	return opml(b)
}

// OPMLFile lists every project's feed, so a feed reader can follow them all in one step.
const OPMLFile = format.DataDir + "/projects.opml"

// opml writes OPMLFile: an OPML 2.0 outline per project (by id, the projects' order), named
// as its project page is titled, with its feed: type "rss", as OPML 2.0 names any feed. No
// htmlUrl: the feed links its project page itself (its alternate).
func opml(b *render.Site) error {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<opml version="2.0"><head><title>`)
	render.XMLEscape(&buf, render.IndexName+": the updates of every project")
	buf.WriteString("</title></head><body>\n")
	for _, p := range b.N.Projects {
		buf.WriteString(`<outline type="rss" text="`)
		render.XMLEscape(&buf, view.ProjectTitle(p))
		buf.WriteString(`" xmlUrl="`)
		render.XMLEscape(&buf, b.Base+paths.ProjectFeed(p.ID))
		buf.WriteString("\"/>\n")
	}
	buf.WriteString("</body></opml>\n")
	return b.WriteRaw(OPMLFile, pubtext.Text(buf.Bytes(), pubtext.MarkupEnds)) // publisher names: as in every markup file
}
