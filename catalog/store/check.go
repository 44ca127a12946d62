package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Problem is one broken invariant of the state directory: the record's path (slash-separated,
// relative to the state root) and what is wrong with it, in words.
type Problem struct {
	Path    string
	Message string
}

// String is "path: message".
func (p Problem) String() string { return p.Path + ": " + p.Message }

// Check verifies every invariant of seeds/state.txt ("Recovery") and returns each broken one,
// sorted by path then message; none means the state is sound. It never modifies anything.
//
//   - every record parses, with no unknown fields and no trailing data;
//   - network.json is present once anything has been recorded, and names a format, a crawler and
//     an observation time;
//   - each held manifest.json hashes to its claim's ingested_sha256 (or, while a replacement is
//     pending, its pending_sha256) and describes the claim's project (project.id); a claim
//     holding no manifest records no digest;
//   - each origin's dreamweave.json hashes to its index_sha256 (or its pending_sha256);
//   - every reference resolves: a claim's directory names match its project and origin fields
//     and its origin exists; a source's origin exists; an origin's sources exist and lead to it; origin.previous, claim.moved_to / moved_from and event.moved_from name origins;
//     every event names an existing claim; record names follow SiteID / SourceID;
//   - every event's id is EventID of its own facts and its file name is that id;
//   - every cached image (claim.media.file) exists, and every file in media/ hashes to its name;
//   - health values and times are from the record vocabulary and TimeFormat.
func (d *Dir) Check() []Problem {
	c := &checker{d: d}
	c.run()
	sort.Slice(c.out, func(i, j int) bool {
		if c.out[i].Path != c.out[j].Path {
			return c.out[i].Path < c.out[j].Path
		}
		return c.out[i].Message < c.out[j].Message
	})
	return c.out
}

type checker struct {
	d       *Dir
	out     []Problem
	sources map[string]Source // by file stem
	origins map[string]Origin // by directory name
	claims  map[string]Claim  // by "project/site"
}

func (c *checker) add(path, format string, args ...any) {
	c.out = append(c.out, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) run() {
	st, err := os.Stat(c.d.Root)
	if err != nil || !st.IsDir() {
		c.add(".", "the state directory %s does not exist or is not a directory", c.d.Root)
		return
	}
	c.sources = map[string]Source{}
	c.origins = map[string]Origin{}
	c.claims = map[string]Claim{}
	c.readSources()
	c.readOrigins()
	c.readClaims()
	c.network()
	c.checkSources()
	c.checkOrigins()
	c.checkClaims()
	c.checkEvents()
	c.checkMedia()
}

// read decodes a record strictly, reporting a problem (and returning false) when it cannot.
func (c *checker) read(rel string, v any) bool {
	if err := c.d.ReadJSON(rel, v); err != nil {
		msg := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "missing"
		} else {
			msg = strings.TrimPrefix(msg, rel+": ")
			msg = "does not parse as a record: " + msg
		}
		c.add(rel, "%s", msg)
		return false
	}
	return true
}

func (c *checker) list(rel string, dirs bool) []string {
	names, err := c.d.list(rel, dirs)
	if err != nil {
		c.add(rel, "cannot be listed: %v", err)
	}
	return names
}

func (c *checker) network() {
	empty := len(c.sources) == 0 && len(c.origins) == 0 && len(c.claims) == 0
	if !c.d.Exists(NetworkFile) {
		if !empty {
			c.add(NetworkFile, "missing, but the state holds records: every refresh writes it first")
		}
		return
	}
	var n Network
	if !c.read(NetworkFile, &n) {
		return
	}
	if n.Format != Format {
		c.add(NetworkFile, "format is %d, this crawler writes %d", n.Format, Format)
	}
	if n.Crawler == "" {
		c.add(NetworkFile, "crawler is empty")
	}
	c.time(NetworkFile, "observed_at", n.ObservedAt)
}

func (c *checker) time(rel, field, v string) {
	if _, err := time.Parse(TimeFormat, v); err != nil || len(v) != len(TimeFormat) {
		c.add(rel, "%s %q is not a UTC time like %s", field, v, TimeFormat)
	}
}

func (c *checker) optTime(rel, field string, v *string) {
	if v != nil {
		c.time(rel, field, *v)
	}
}

func (c *checker) readSources() {
	for _, f := range c.list(SourcesDir, false) {
		rel := SourcesDir + "/" + f
		if !strings.HasSuffix(f, ".json") {
			c.add(rel, "is not a source record (sources/<source>.json)")
			continue
		}
		var s Source
		if c.read(rel, &s) {
			c.sources[strings.TrimSuffix(f, ".json")] = s
		}
	}
}

func (c *checker) readOrigins() {
	for _, site := range c.list(OriginsDir, true) {
		var o Origin
		if c.read(OriginPath(site), &o) {
			c.origins[site] = o
		}
	}
}

func (c *checker) readClaims() {
	for _, p := range c.list(ClaimsDir, true) {
		for _, site := range c.list(ClaimsDir+"/"+p, true) {
			var cl Claim
			if c.read(ClaimPath(p, site), &cl) {
				c.claims[p+"/"+site] = cl
			}
		}
	}
}

func (c *checker) checkSources() {
	for _, stem := range sortedKeys(c.sources) {
		s := c.sources[stem]
		rel := SourcePath(stem)
		if want := SourceID(s.URL); want != stem {
			c.add(rel, "is named %s but its url %s names it %s", stem, s.URL, want)
		}
		switch s.Health {
		case SourceResolved, SourceUnresolved, SourceRemoved:
		default:
			c.add(rel, "health %q is not resolved, unresolved or removed", s.Health)
		}
		if s.Health == SourceResolved && s.Origin == nil {
			c.add(rel, "is resolved but names no origin")
		}
		if s.Health == SourceUnresolved && s.Problem == nil {
			c.add(rel, "is unresolved but records no problem")
		}
		// The source names an origin that exists. (Its origin lists it once the refresh has
		// written both; the listing is checked from the origin's side, which is written last.)
		if s.Origin != nil {
			if _, ok := c.origins[*s.Origin]; !ok {
				c.add(rel, "origin %s does not exist (no %s)", *s.Origin, OriginPath(*s.Origin))
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
			c.add(rel, "id %s does not match its directory %s", o.ID, site)
		}
		if want := SiteID(o.IndexURL); want != site {
			c.add(rel, "index_url %s names the site %s, not %s", o.IndexURL, want, site)
		}
		switch o.Health {
		case OriginHealthy, OriginUnreachable, OriginRefused, OriginNoIndex, OriginInvalidIndex, OriginUnsupportedVersion:
		default:
			c.add(rel, "health %q is not an origin health value", o.Health)
		}
		if o.Health != OriginHealthy && o.Problem == nil {
			c.add(rel, "health is %s but no problem is recorded", o.Health)
		}
		c.checkIndex(site, o)
		for _, u := range o.Sources {
			stem := SourceID(u)
			s, ok := c.sources[stem]
			switch {
			case !ok:
				c.add(rel, "lists source %s, which has no record %s", u, SourcePath(stem))
			case s.URL != u:
				c.add(rel, "lists source %s, but %s holds %s", u, SourcePath(stem), s.URL)
			case s.Origin == nil || *s.Origin != site:
				c.add(rel, "lists source %s, which does not lead to this origin", u)
			}
		}
		for _, p := range o.Previous {
			if _, ok := c.origins[p]; !ok {
				c.add(rel, "previous origin %s does not exist", p)
			}
		}
		c.time(rel, "first_observed", o.FirstObserved)
		c.time(rel, "last_attempt", o.LastAttempt)
		c.optTime(rel, "last_success", o.LastSuccess)
	}
}

// checkIndex: the held site index hashes to index_sha256 (or, while a replacement is pending,
// to pending_sha256).
func (c *checker) checkIndex(site string, o Origin) {
	idx := OriginIndexPath(site)
	b, err := c.d.ReadBytes(idx)
	recorded, pending := "", ""
	if o.IndexSHA256 != nil {
		recorded = *o.IndexSHA256
	}
	if o.PendingSHA256 != nil {
		pending = *o.PendingSHA256
	}
	switch {
	case err != nil && recorded != "":
		c.add(idx, "is missing, but origin.json records index_sha256 %s", recorded)
	case err != nil:
	case recorded == "" && pending == "":
		c.add(idx, "is held but origin.json records no index_sha256")
	case digest(b) == recorded, pending != "" && digest(b) == pending:
	case pending != "":
		c.add(idx, "hashes to %s, but origin.json records index_sha256 %q and pending_sha256 %s", digest(b), recorded, pending)
	default:
		c.add(idx, "hashes to %s, but origin.json records index_sha256 %s", digest(b), recorded)
	}
}

var hexDigest = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (c *checker) checkClaims() {
	for _, key := range sortedKeys(c.claims) {
		cl := c.claims[key]
		project, site, _ := strings.Cut(key, "/")
		rel := ClaimPath(project, site)
		if cl.Project != project {
			c.add(rel, "project %s does not match its directory %s", cl.Project, project)
		}
		if cl.Origin != site {
			c.add(rel, "origin %s does not match its directory %s", cl.Origin, site)
		}
		if cl.Entry.ID != cl.Project {
			c.add(rel, "entry id %s is not the claim's project %s", cl.Entry.ID, cl.Project)
		}
		if _, ok := c.origins[cl.Origin]; !ok {
			c.add(rel, "origin %s does not exist (no %s)", cl.Origin, OriginPath(cl.Origin))
		}
		switch cl.Health {
		case ClaimCurrent, ClaimOriginUnavailable, ClaimManifestUnreachable, ClaimInvalid, ClaimInconsistent, ClaimRefused, ClaimWithdrawn:
		default:
			c.add(rel, "health %q is not a claim health value", cl.Health)
		}
		if cl.Health == ClaimCurrent && cl.PendingSHA256 == nil && cl.IngestedSHA256 != cl.AdvertisedSHA256 {
			c.add(rel, "is current, but holds %s while %s is advertised", cl.IngestedSHA256, cl.AdvertisedSHA256)
		}
		if cl.Health != ClaimCurrent && cl.Health != ClaimWithdrawn && cl.Problem == nil {
			c.add(rel, "health is %s but no problem is recorded", cl.Health)
		}
		c.checkManifest(project, site, cl)
		if cl.Media != nil && cl.Media.File != nil {
			f := *cl.Media.File
			if !strings.HasPrefix(f, MediaDir+"/") || strings.Contains(strings.TrimPrefix(f, MediaDir+"/"), "/") {
				c.add(rel, "media file %s is not under %s/", f, MediaDir)
			} else if !c.d.Exists(f) {
				c.add(rel, "cached image %s does not exist", f)
			}
		}
		for _, ref := range []struct {
			field string
			v     *string
		}{{"moved_to", cl.MovedTo}, {"moved_from", cl.MovedFrom}} {
			if ref.v != nil {
				if _, ok := c.origins[*ref.v]; !ok {
					c.add(rel, "%s names origin %s, which does not exist", ref.field, *ref.v)
				}
			}
		}
		if cl.Rejected != nil && !hexDigest.MatchString(cl.Rejected.SHA256) {
			c.add(rel, "rejected.sha256 %q is not a SHA-256 digest", cl.Rejected.SHA256)
		}
		c.time(rel, "first_observed", cl.FirstObserved)
		c.time(rel, "last_attempt", cl.LastAttempt)
		c.optTime(rel, "last_changed", cl.LastChanged)
		c.optTime(rel, "last_success", cl.LastSuccess)
	}
}

// checkManifest: the held bytes hash to ingested_sha256 and describe the claim's project. While
// a replacement is pending (a refresh cut short between the two writes), the bytes may also be
// the pending ones.
func (c *checker) checkManifest(project, site string, cl Claim) {
	mrel := ManifestPath(project, site)
	b, err := c.d.ReadBytes(mrel)
	pending := ""
	if cl.PendingSHA256 != nil {
		pending = *cl.PendingSHA256
		if !hexDigest.MatchString(pending) {
			c.add(ClaimPath(project, site), "pending_sha256 %q is not a SHA-256 digest", pending)
		}
	}
	if err != nil {
		if cl.IngestedSHA256 != "" {
			c.add(mrel, "is missing, but claim.json records ingested_sha256 %s", cl.IngestedSHA256)
		}
		return
	}
	got := digest(b)
	switch {
	case cl.IngestedSHA256 == "" && pending == "":
		c.add(mrel, "is held but claim.json records no ingested_sha256")
		return
	case got == cl.IngestedSHA256, pending != "" && got == pending:
	case pending != "":
		c.add(mrel, "hashes to %s, but claim.json records ingested_sha256 %q and pending_sha256 %s", got, cl.IngestedSHA256, pending)
	default:
		c.add(mrel, "hashes to %s, but claim.json records ingested_sha256 %s", got, cl.IngestedSHA256)
	}
	var m struct {
		Project struct {
			ID string `json:"id"`
		} `json:"project"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		c.add(mrel, "is not JSON: %v", err)
		return
	}
	if m.Project.ID != project {
		c.add(mrel, "describes project %q, not the claim's project %s", m.Project.ID, project)
	}
}

func (c *checker) checkEvents() {
	for _, f := range c.list(EventsDir, false) {
		rel := EventsDir + "/" + f
		if !strings.HasSuffix(f, ".json") {
			c.add(rel, "is not an event record (events/<event>.json)")
			continue
		}
		var e Event
		if !c.read(rel, &e) {
			continue
		}
		if want := EventID(e.Kind, e.Project, e.Origin, e.Before, e.After); e.ID != want {
			c.add(rel, "id %s does not match its facts (kind, project, origin, before, after give %s)", e.ID, want)
		}
		if f != e.ID+".json" {
			c.add(rel, "file name does not match its id %s", e.ID)
		}
		switch e.Kind {
		case EventObserved, EventChanged, EventWithdrawn, EventRestored:
		default:
			c.add(rel, "kind %q is not observed, changed, withdrawn or restored", e.Kind)
		}
		if _, ok := c.claims[e.Project+"/"+e.Origin]; !ok {
			c.add(rel, "names claim %s/%s, which does not exist", e.Project, e.Origin)
		}
		if e.MovedFrom != nil {
			if _, ok := c.origins[*e.MovedFrom]; !ok {
				c.add(rel, "moved_from names origin %s, which does not exist", *e.MovedFrom)
			}
		}
		for _, dg := range []*string{e.Before, e.After} {
			if dg != nil && !hexDigest.MatchString(*dg) {
				c.add(rel, "digest %q is not a SHA-256 digest", *dg)
			}
		}
		c.time(rel, "observed_at", e.ObservedAt)
	}
}

// checkMedia: every cached image is named by the digest of its bytes.
func (c *checker) checkMedia() {
	for _, f := range c.list(MediaDir, false) {
		rel := MediaDir + "/" + f
		stem, _, _ := strings.Cut(f, ".")
		b, err := c.d.ReadBytes(rel)
		if err != nil {
			c.add(rel, "cannot be read: %v", err)
			continue
		}
		if got := digest(b); got != stem {
			c.add(rel, "hashes to %s, not the digest its name gives", got)
		}
	}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Digest is the lowercase hex SHA-256 of b: the form of every digest in the state.
func Digest(b []byte) string { return digest(b) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
