package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Check verifies every invariant of seeds/state.txt ("Recovery") and returns each broken one,
// sorted by path then message; it modifies nothing. A record that does not parse is reported
// once. Events and origin.previous may name a gone claim or site: events outlive their claims.
func (d *Dir) Check() []Problem { return d.check(false).out }

// check runs every check and sorts the problems. In the render scope media/ is not read and
// the held manifests that pass are kept.
func (d *Dir) check(render bool) *checker {
	c := &checker{d: d, render: render}
	c.run()
	sort.Slice(c.out, func(i, j int) bool {
		if c.out[i].Path != c.out[j].Path {
			return c.out[i].Path < c.out[j].Path
		}
		return c.out[i].Message < c.out[j].Message
	})
	return c
}

type checker struct {
	d       *Dir
	render  bool
	buf     bytes.Buffer // the file being checked: one buffer for every record and held file
	dec     recordDecoder
	out     []Problem
	sources map[string]*Source // by file stem
	origins map[string]*Origin // by directory name
	claims  map[string]*Claim  // by "project/site"
	broken  map[string]bool    // "source:<stem>", "origin:<site>", "claim:<project>/<site>" that do not parse
	// found by the layout scan, sorted
	sourceFiles []string // stems of sources/*.json
	siteDirs    []string // origins/<site> holding origin.json
	claimDirs   []string // "project/site" holding claim.json
	eventFiles  []string // events/*.json
	mediaFiles  []string // media/*
	// what CheckLoad returns, so a refresh reads the state once
	net       *Network
	events    []Event
	indexSums map[string]string             // site -> digest of the held dreamweave.json
	manSums   map[string]string             // "project/site" -> digest of the held manifest.json
	manifests map[string]*protocol.Manifest // "project/site" -> the held manifest (render scope)
}

func (c *checker) add(k Kind, path, format string, args ...any) {
	c.out = append(c.out, Problem{Path: path, Kind: k, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) run() {
	st, err := os.Stat(c.d.Root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.add(NoState, "", "no state at %s: run `.github/state.sh checkout` or `ashyams refresh` first", c.d.Root)
		return
	case err != nil:
		c.add(NoState, "", "the state at %s cannot be read: %v", c.d.Root, err)
		return
	case !st.IsDir():
		c.add(NoState, "", "the state path %s is not a directory", c.d.Root)
		return
	}
	c.sources = map[string]*Source{}
	c.origins = map[string]*Origin{}
	c.claims = map[string]*Claim{}
	c.broken = map[string]bool{}
	c.indexSums = map[string]string{}
	c.manSums = map[string]string{}
	c.manifests = map[string]*protocol.Manifest{}
	c.scan()
	for _, f := range c.sourceFiles {
		readInto(c, "source", strings.TrimSuffix(f, ".json"), SourcePath, c.sources)
	}
	for _, site := range c.siteDirs {
		readInto(c, "origin", site, OriginPath, c.origins)
	}
	for _, key := range c.claimDirs {
		readInto(c, "claim", key, func(k string) string { return ClaimsDir + "/" + k + "/" + ClaimFile }, c.claims)
	}
	c.network()
	c.checkSources()
	c.checkOrigins()
	c.checkClaims()
	c.checkRemovedSources()
	c.checkEvents()
	c.checkMedia()
}

func (c *checker) read(rel string, v any) bool {
	if err := c.d.readJSON(&c.buf, &c.dec, rel, v); err != nil {
		msg := err.Error()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = "missing"
		case errors.Is(err, ErrNotRegular), errors.Is(err, ErrTooLarge):
			msg = "cannot be read: " + readErrorWords(err)
		default:
			msg = strings.TrimPrefix(msg, rel+": ")
			msg = "does not parse as a record: " + msg
		}
		c.add(Unreadable, rel, "%s", msg)
		return false
	}
	return true
}

func (c *checker) network() {
	empty := len(c.sourceFiles) == 0 && len(c.siteDirs) == 0 && len(c.claimDirs) == 0 && len(c.eventFiles) == 0
	if !c.d.Exists(NetworkFile) {
		if !empty {
			c.add(BadValue, NetworkFile, "missing, but the state holds records: every refresh writes it first")
		}
		return
	}
	var n Network
	if !c.read(NetworkFile, &n) {
		return
	}
	if n.Format != Format {
		c.add(BadValue, NetworkFile, "format is %d, this crawler writes %d", n.Format, Format)
	}
	if n.Crawler == "" {
		c.add(BadValue, NetworkFile, "crawler is empty")
	}
	c.time(NetworkFile, "observed_at", n.ObservedAt)
	if x := n.Interrupted; x != nil {
		c.time(NetworkFile, "interrupted.at", x.At)
		if x.Reason == "" {
			c.add(BadValue, NetworkFile, "interrupted.reason is empty")
		}
	}
	c.net = &n
}

func (c *checker) time(rel, field, v string) {
	if _, err := time.Parse(TimeFormat, v); err != nil || len(v) != len(TimeFormat) {
		c.add(BadValue, rel, "%s %q is not a UTC time like %s", field, v, TimeFormat)
	}
}

func (c *checker) optTime(rel, field string, v *string) {
	if v != nil {
		c.time(rel, field, *v)
	}
}

func readInto[T any](c *checker, what, key string, path func(string) string, m map[string]*T) {
	v := new(T)
	if c.read(path(key), v) {
		m[key] = v
	} else {
		c.broken[what+":"+key] = true
	}
}

// originMissing reports whether origin id has no record (one that does not parse is not missing).
func (c *checker) originMissing(id string) bool {
	_, ok := c.origins[id]
	return !ok && !c.broken["origin:"+id]
}

func (c *checker) checkSources() {
	for _, stem := range sortedKeys(c.sources) {
		s := c.sources[stem]
		rel := SourcePath(stem)
		if want := SourceID(s.URL); want != stem {
			c.add(Misnamed, rel, "is named %s, but its url %s names it %s", stem, s.URL, want)
		}
		c.checkURLs(rel, "url", s.URL)
		switch {
		case slices.Contains(SourceHealths, s.Health), s.Health == SourceUnresolved, s.Health == SourceRemoved:
		default:
			c.add(BadValue, rel, "health %q is not a source health value (%s)", s.Health, strings.Join(SourceHealths, ", "))
		}
		if s.Health == SourceResolved && s.Origin == nil {
			c.add(BadValue, rel, "is resolved but names no origin")
		}
		if s.Health != SourceResolved && s.Health != SourceRemoved && s.Problem == nil {
			c.add(BadValue, rel, "is %s but records no problem", s.Health)
		}
		// Checked from the origin's side, which is written last.
		if s.Origin != nil {
			if c.originMissing(*s.Origin) {
				c.noOrigin(Dangling, rel, *s.Origin)
			}
			// Discovery ends at the index it found, so the trail names its origin's index_url.
			if o, ok := c.origins[*s.Origin]; ok && s.Health == SourceResolved &&
				!slices.ContainsFunc(s.Trail, func(st TrailStep) bool { return st.URL == o.IndexURL }) {
				c.add(TrailMismatch, rel, "leads to origin %s, but its discovery trail never reached that origin's index_url %s (two site index URLs sharing one site id, or records that disagree)", *s.Origin, o.IndexURL)
			}
		}
		c.time(rel, "last_attempt", s.LastAttempt)
		c.optTime(rel, "last_success", s.LastSuccess)
	}
}

func (c *checker) checkOrigins() {
	for _, site := range sortedKeys(c.origins) {
		o := c.origins[site]
		rel := OriginPath(site)
		if o.ID != site {
			c.add(Misplaced, rel, "id %s does not match its directory %s", o.ID, site)
		}
		if want := SiteID(o.IndexURL); want != site {
			c.add(Misnamed, rel, "index_url %s names the site %s, not %s", o.IndexURL, want, site)
		}
		c.checkURLs(rel, "index_url", o.IndexURL)
		c.checkURLs(rel, "sources", o.Sources...)
		c.checkURLs(rel, "redirects", o.Redirects...)
		if o.SiteURL != nil {
			c.checkURLs(rel, "site_url", *o.SiteURL)
		}
		if tok, ok := OriginHealthToken(o.Health); !ok || tok != o.Health {
			c.add(healthKind(ok), rel, "health %q is not an origin health value", o.Health)
		}
		if o.Health != OriginHealthy && o.Problem == nil {
			c.noProblem(rel, o.Health)
		}
		c.checkIndex(site, *o)
		for _, u := range o.Sources {
			stem := SourceID(u)
			s, ok := c.sources[stem]
			switch {
			case !ok && c.broken["source:"+stem]:
			case !ok:
				c.add(Dangling, rel, "lists source %s, which has no record %s", u, SourcePath(stem))
			case s.URL != u:
				c.add(Dangling, rel, "lists source %s, but %s holds %s", u, SourcePath(stem), s.URL)
			case s.Origin == nil || *s.Origin != site:
				c.add(Dangling, rel, "lists source %s, which does not lead to this origin", u)
			}
		}
		for _, m := range o.Previous {
			c.checkForm(rel, "previous origin", m.Origin, IsSiteID, siteIDWords)
			c.checkURLs(rel, "previous index_url", m.IndexURL)
			c.time(rel, "previous observed_at", m.ObservedAt)
		}
		c.time(rel, "first_observed", o.FirstObserved)
		c.time(rel, "last_attempt", o.LastAttempt)
		c.optTime(rel, "last_success", o.LastSuccess)
	}
}

// checkRemovedSources: a site only removed sources lead to keeps no claim in the catalog
// (SourceRemoved); only two refreshes writing one state at once leave this.
func (c *checker) checkRemovedSources() {
	removed := map[string][]string{} // site id -> the removed sources that led there
	live := map[string]bool{}        // site ids a source not removed leads to
	for _, stem := range sortedKeys(c.sources) {
		s := c.sources[stem]
		switch {
		case s.Origin == nil:
		case s.Health == SourceRemoved:
			removed[*s.Origin] = append(removed[*s.Origin], s.URL)
		default:
			live[*s.Origin] = true
		}
	}
	for _, key := range sortedKeys(c.claims) {
		cl := c.claims[key]
		if cl.Health == ClaimWithdrawn || live[cl.Origin] || len(removed[cl.Origin]) == 0 {
			continue
		}
		project, site, _ := strings.Cut(key, "/")
		c.add(Unwithdrawn, ClaimPath(project, site), "is %s, but no enrolled source leads to its site %s: the only sources that did were removed (%s), so its claims should be withdrawn",
			cl.Health, cl.Origin, strings.Join(removed[cl.Origin], ", "))
	}
}

var hexDigest = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (c *checker) checkClaims() {
	for _, key := range sortedKeys(c.claims) {
		cl := c.claims[key]
		project, site, _ := strings.Cut(key, "/")
		rel := ClaimPath(project, site)
		if cl.Project != project {
			c.add(Misplaced, rel, "project %s does not match its directory %s", cl.Project, project)
		}
		if cl.Origin != site {
			c.add(Misplaced, rel, "origin %s does not match its directory %s", cl.Origin, site)
		}
		if cl.Entry.ID != cl.Project {
			c.add(Misnamed, rel, "entry id %s is not the claim's project %s", cl.Entry.ID, cl.Project)
		}
		c.checkForm(rel, "project", cl.Project, IsProjectID, projectIDWords)
		c.checkURLs(rel, "entry.page", cl.Entry.Page)
		c.checkURLs(rel, "entry.manifest", cl.Entry.Manifest)
		if c.originMissing(cl.Origin) {
			c.noOrigin(NoOrigin, rel, cl.Origin)
		}
		if tok, ok := ClaimHealthToken(cl.Health); !ok || tok != cl.Health {
			c.add(healthKind(ok), rel, "health %q is not a claim health value", cl.Health)
		}
		if cl.IngestedSHA256 != nil && !hexDigest.MatchString(*cl.IngestedSHA256) {
			c.add(BadValue, rel, "ingested_sha256 %q is not a SHA-256 digest (null means no manifest is held)", *cl.IngestedSHA256)
		}
		if cl.Health == ClaimCurrent && cl.PendingSHA256 == nil && cl.Ingested() != cl.AdvertisedSHA256 {
			c.add(StaleCurrent, rel, "is current, but holds %s while %s is advertised", cl.Ingested(), cl.AdvertisedSHA256)
		}
		if cl.Health != ClaimCurrent && cl.Health != ClaimWithdrawn && cl.Problem == nil {
			c.noProblem(rel, cl.Health)
		}
		c.checkManifest(project, site, *cl)
		if cl.Media != nil && cl.Media.File != nil {
			f := *cl.Media.File
			if !strings.HasPrefix(f, MediaDir+"/") || strings.Contains(strings.TrimPrefix(f, MediaDir+"/"), "/") {
				c.add(BadValue, rel, "media file %s is not under %s/", f, MediaDir)
			} else if !c.d.Exists(f) {
				c.add(MediaMissing, rel, "cached image %s does not exist", f)
			}
		}
		for _, ref := range []struct {
			field string
			v     *string
		}{{"moved_to", cl.MovedTo}, {"moved_from", cl.MovedFrom}} {
			if ref.v != nil && c.originMissing(*ref.v) {
				c.add(Dangling, rel, "%s names origin %s, which does not exist", ref.field, *ref.v)
			}
		}
		if cl.Rejected != nil && !hexDigest.MatchString(cl.Rejected.SHA256) {
			c.add(BadValue, rel, "rejected.sha256 %q is not a SHA-256 digest", cl.Rejected.SHA256)
		}
		c.time(rel, "first_observed", cl.FirstObserved)
		c.time(rel, "last_attempt", cl.LastAttempt)
		c.optTime(rel, "last_changed", cl.LastChanged)
		c.optTime(rel, "last_success", cl.LastSuccess)
	}
}

func (c *checker) checkEvents() {
	c.events = slices.Grow(c.events, len(c.eventFiles))
	for _, f := range c.eventFiles {
		rel := EventsDir + "/" + f
		c.events = append(c.events, Event{}) // decoded in place
		e := &c.events[len(c.events)-1]
		if !c.read(rel, e) {
			c.events = c.events[:len(c.events)-1]
			continue
		}
		if want := EventID(e.Kind, e.Project, e.Origin, e.Before, e.After); e.ID != want {
			c.add(EventIDMismatch, rel, "event id does not match its facts: the id is %s; the reference index's formula over its kind, project, origin, before and after gives %s", e.ID, want)
		}
		if f != e.ID+".json" {
			c.add(EventMisnamed, rel, "file name does not match its id %s", e.ID)
		}
		c.checkForm(rel, "id", e.ID, IsEventID, eventIDWords)
		c.checkForm(rel, "project", e.Project, IsProjectID, projectIDWords)
		c.checkForm(rel, "origin", e.Origin, IsSiteID, siteIDWords)
		if e.MovedFrom != nil {
			c.checkForm(rel, "moved_from", *e.MovedFrom, IsSiteID, siteIDWords)
		}
		switch e.Kind {
		case EventObserved, EventChanged, EventWithdrawn, EventRestored:
		default:
			c.add(BadValue, rel, "kind %q is not observed, changed, withdrawn or restored", e.Kind)
		}
		for _, dg := range []*string{e.Before, e.After} {
			if dg != nil && !hexDigest.MatchString(*dg) {
				c.add(BadValue, rel, "digest %q is not a SHA-256 digest", *dg)
			}
		}
		c.time(rel, "observed_at", e.ObservedAt)
	}
}

func (c *checker) noOrigin(k Kind, rel, id string) {
	c.add(k, rel, "origin %s does not exist (no %s)", id, OriginPath(id))
}

func (c *checker) noProblem(rel, health string) {
	c.add(BadValue, rel, "health is %s but no problem is recorded", health)
}

// healthKind is the kind of a health that is not a token: the words of one (ok) or unknown.
func healthKind(ok bool) Kind {
	if ok {
		return HealthWord
	}
	return UnknownHealth
}

// Digest is the lowercase hex SHA-256 of b: the form of every digest in the state.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
