package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// sorted by path then message; none means the state is sound. It never modifies anything.
// Each Problem's Kind names the invariant it breaks (the Kind constants list them), so a reader
// refuses by kind instead of checking again. A record that does not parse is reported once, not
// again by each record naming it. Events and origin.previous may name a claim or site that is
// gone: events outlive their claims, and a move or a source's removal removes a site.
func (d *Dir) Check() []Problem { return d.check(false).out }

// check runs every check and sorts the problems. render is the scope a build needs: media/'s
// bytes are not read (a build hashes each image it uses, MediaProblem), and the held
// manifests that pass their checks are kept for the network model (checker.manifests).
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
	out     []Problem
	sources map[string]Source // by file stem
	origins map[string]Origin // by directory name
	claims  map[string]Claim  // by "project/site"
	// broken holds the records that exist but do not parse ("source:<stem>", "origin:<site>",
	// "claim:<project>/<site>"): reported once, so references to them are not reported again.
	broken map[string]bool
	// found by the layout scan, sorted
	sourceFiles []string // stems of sources/*.json
	siteDirs    []string // origins/<site> holding origin.json
	claimDirs   []string // "project/site" holding claim.json
	eventFiles  []string // events/*.json
	mediaFiles  []string // media/*
	// read for CheckLoad: what Check parsed and hashed, so a refresh reads the state once
	net       *Network
	events    []Event
	indexSums map[string]string             // site -> digest of the held dreamweave.json
	manSums   map[string]string             // "project/site" -> digest of the held manifest.json
	manifests map[string]*protocol.Manifest // "project/site" -> the held manifest (render scope)
}

func (c *checker) add(k Kind, path, format string, args ...any) {
	c.out = append(c.out, Problem{Path: path, Kind: k, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) leftover(rel string) {
	c.out = append(c.out, Problem{Path: rel, Kind: Leftover, Message: LeftoverMessage})
}

func (c *checker) stray(rel string) {
	c.add(Stray, rel, "is not part of the state layout (seeds/state.txt, \"Layout\")")
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
	c.sources = map[string]Source{}
	c.origins = map[string]Origin{}
	c.claims = map[string]Claim{}
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

// read decodes a record strictly, reporting a problem (and returning false) when it cannot.
func (c *checker) read(rel string, v any) bool {
	if err := c.d.ReadJSON(rel, v); err != nil {
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

// entries lists the directory rel (every name, sorted), reporting a problem when it cannot be
// read; a missing directory is empty.
func (c *checker) entries(rel string) []fs.DirEntry {
	ents, err := os.ReadDir(c.d.Path(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(Unreadable, rel, "cannot be listed: %v", err)
	}
	return ents
}

// scan walks the layout: it reports stray names and leftovers, and lists the records to read.
func (c *checker) scan() {
	for _, e := range c.entries("") {
		n := e.Name()
		switch {
		case IsTemp(n):
			c.leftover(n)
		case strings.HasPrefix(n, "."): // .git and other Git files of the checkout
		case n != NetworkFile && c.notDirOrFile(n, e):
		case e.IsDir() && n == SourcesDir:
			c.sourceFiles = c.files(SourcesDir, ".json")
		case e.IsDir() && n == EventsDir:
			c.eventFiles = c.files(EventsDir, ".json")
		case e.IsDir() && n == MediaDir:
			c.mediaFiles = c.files(MediaDir, "")
		case e.IsDir() && n == OriginsDir:
			for _, site := range c.dirs(OriginsDir) {
				if c.recordDir(OriginsDir+"/"+site, OriginFile, IndexFile) {
					c.siteDirs = append(c.siteDirs, site)
				}
			}
		case e.IsDir() && n == ClaimsDir:
			for _, p := range c.dirs(ClaimsDir) {
				sites := c.dirs(ClaimsDir + "/" + p)
				if len(c.entries(ClaimsDir+"/"+p)) == 0 {
					c.leftoverDir(ClaimsDir + "/" + p)
				}
				for _, site := range sites {
					if c.recordDir(ClaimsDir+"/"+p+"/"+site, ClaimFile, ManifestFile) {
						c.claimDirs = append(c.claimDirs, p+"/"+site)
					}
				}
			}
		case !e.IsDir() && n == NetworkFile:
		case !e.IsDir() && n == ReferenceReadme: // the reference index's save writes it
		case e.IsDir() && n == OwnDir: // this index's own files, read with their records
		default:
			c.stray(n)
		}
	}
}

// files lists the regular files in dir ending in ext (any name when ext is ""), reporting
// leftovers and anything else as stray.
func (c *checker) files(dir, ext string) []string {
	var out []string
	for _, e := range c.entries(dir) {
		n, rel := e.Name(), dir+"/"+e.Name()
		switch {
		case IsTemp(n) && !e.IsDir():
			c.leftover(rel)
		case e.IsDir() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ext) || n == ext:
			c.stray(rel)
		default:
			out = append(out, n)
		}
	}
	return out
}

// dirs lists the directories in dir, reporting leftovers and any file as stray.
func (c *checker) dirs(dir string) []string {
	var out []string
	for _, e := range c.entries(dir) {
		n, rel := e.Name(), dir+"/"+e.Name()
		switch {
		case IsTemp(n) && !e.IsDir():
			c.leftover(rel)
		case c.notDirOrFile(rel, e):
		case !e.IsDir() || strings.HasPrefix(n, "."):
			c.stray(rel)
		default:
			out = append(out, n)
		}
	}
	return out
}

// notDirOrFile reports an entry that is neither a directory nor a regular file (a symbolic
// link, a device, a pipe) and returns true for it. A file's name is read and reported then
// (readFile's words): this is for names the layout gives directories, and for strays.
func (c *checker) notDirOrFile(rel string, e fs.DirEntry) bool {
	if t := e.Type(); t.IsDir() || t.IsRegular() {
		return false
	}
	c.add(Unreadable, rel, "cannot be read: %s", readErrorWords(notRegular(rel, e.Type())))
	return true
}

// leftoverDir reports an empty directory: what an interrupted write left (Git keeps no empty
// directories, so a checkout never has one).
func (c *checker) leftoverDir(rel string) {
	c.out = append(c.out, Problem{Path: rel + "/", Kind: Leftover, Message: "holds no record: " + LeftoverMessage})
}

// recordDir checks a directory that holds one record file and, optionally, its bytes file. It
// reports true when the record file is present. Without it, a directory holding only leftovers
// (reported one by one) or nothing (reported itself) is what an interrupted write left; one
// holding anything else is missing its record.
func (c *checker) recordDir(dir, record, bytesFile string) bool {
	has, other := false, false
	ents := c.entries(dir)
	for _, e := range ents {
		n, rel := e.Name(), dir+"/"+e.Name()
		switch {
		case IsTemp(n) && !e.IsDir():
			c.leftover(rel)
		case !e.IsDir() && n == record:
			has = true
		case !e.IsDir() && n == bytesFile:
			other = true
		default:
			other = true
			c.stray(rel)
		}
	}
	switch {
	case has:
		return true
	case other:
		c.add(Unreadable, dir+"/"+record, "missing, but its directory holds other files")
	case len(ents) == 0: // (temporary files were reported one by one)
		c.leftoverDir(dir)
	}
	return false
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

// readInto reads the record of key (at path(key)) into m, or marks "<what>:<key>" broken.
func readInto[T any](c *checker, what, key string, path func(string) string, m map[string]T) {
	var v T
	if c.read(path(key), &v) {
		m[key] = v
	} else {
		c.broken[what+":"+key] = true
	}
}

// originMissing reports whether no origin record id exists; an origin.json that exists but does
// not parse is already reported, so it does not count as missing.
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
		// The source names an origin that exists. (Its origin lists it once the refresh has
		// written both; the listing is checked from the origin's side, which is written last.)
		if s.Origin != nil {
			if c.originMissing(*s.Origin) {
				c.noOrigin(Dangling, rel, *s.Origin)
			}
			// Discovery ends at the site index it found, so a resolved source's trail names
			// its origin's index_url. When it does not, another index URL holds the site id
			// (SiteID keeps 8 hex digits, so two URLs can share one) or the records disagree.
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
		c.checkIndex(site, o)
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

// checkIndex: the held site index hashes to index_sha256 (or, while a replacement is pending,
// to pending_sha256).
func (c *checker) checkIndex(site string, o Origin) {
	idx := OriginIndexPath(site)
	b, err := c.d.ReadBytes(idx)
	recorded := deref(o.IndexSHA256)
	switch {
	case err == nil:
		c.indexSums[site] = Digest(b)
		c.heldMatches(idx, OriginFile+" records", "index_sha256", Digest(b), recorded, deref(o.PendingSHA256), IndexDigest, IndexDigest)
	case !errors.Is(err, fs.ErrNotExist):
		c.add(Unreadable, idx, "cannot be read: %s", readErrorWords(err))
	case recorded != "":
		c.add(IndexMissing, idx, "is missing, but origin.json records index_sha256 %s", recorded)
	}
}

// heldMatches reports whether held bytes at rel, hashing to got, are the ones their record
// vouches for: field's recorded digest or, while a replacement is pending, the pending one. It
// reports a problem of kind unrecorded when the record has neither, of kind mismatch otherwise.
func (c *checker) heldMatches(rel, records, field, got, recorded, pending string, unrecorded, mismatch Kind) bool {
	switch {
	case recorded == "" && pending == "":
		c.add(unrecorded, rel, "is held but %s no %s", records, field)
	case got == recorded, pending != "" && got == pending:
		return true
	case pending != "":
		c.add(mismatch, rel, "hashes to %s, but %s %s %q and pending_sha256 %s", got, records, field, recorded, pending)
	default:
		c.add(mismatch, rel, "hashes to %s, but %s %s %s", got, records, field, recorded)
	}
	return false
}

// checkRemovedSources: a site that only removed sources lead to keeps no claim in the catalog.
// SourceRemoved: "its sites' claims are withdrawn unless another enrolled source still leads to
// them", and state.txt's withdrawn is the only health out of the catalog. A refresh writes a
// source's record before its site's claims and marks sources removed only after withdrawing
// the claims of the sites they led to, so a refresh cut short never leaves this; two refreshes
// writing one state at once did (a source removed by one, its site's claims current by the
// other).
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
		c.checkManifest(project, site, cl)
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

// checkManifest: the held bytes hash to ingested_sha256 and are a manifest of the claim's
// project. While a replacement is pending (a refresh cut short between the two writes), the
// bytes may also be the pending ones. In the render scope a manifest that passes is kept.
func (c *checker) checkManifest(project, site string, cl Claim) {
	mrel := ManifestPath(project, site)
	b, err := c.d.ReadBytes(mrel)
	pending := deref(cl.PendingSHA256)
	if cl.PendingSHA256 != nil && !hexDigest.MatchString(pending) {
		c.add(BadValue, ClaimPath(project, site), "pending_sha256 %q is not a SHA-256 digest", pending)
	}
	ingested := cl.Ingested()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(Unreadable, mrel, "cannot be read: %s", readErrorWords(err))
		return
	}
	if err != nil {
		if ingested != "" {
			c.add(ManifestMissing, mrel, "is missing, but claim.json records ingested_sha256 %s", ingested)
		}
		return
	}
	got := Digest(b)
	c.manSums[project+"/"+site] = got
	ok := c.heldMatches(mrel, ClaimFile+" records", "ingested_sha256", got, ingested, pending, ManifestUnrecorded, ManifestDigest)
	if ingested == "" && pending == "" {
		return
	}
	m := c.manifest(mrel, project, b)
	if ok && m != nil && c.render {
		c.manifests[project+"/"+site] = m
	}
	// The bytes the claim vouches for, held to the schema in the full scope (the build reads
	// past it; check says it, as a value out of form).
	if ok && m != nil && !c.render {
		if msg := manifestSchemaProblem(b); msg != "" {
			c.add(BadValue, mrel, "%s", msg)
		}
	}
}

// manifest decodes held manifest bytes and checks they describe project, reporting (and
// returning nil) when they do not: bytes that do not decode as a project manifest, another
// document, another project. Both scopes decode the whole manifest, as the network model
// does, so what check passes the build can read; in the full scope checkManifest also holds
// the bytes to the protocol's schema (manifestSchemaProblem).
func (c *checker) manifest(rel, project string, b []byte) *protocol.Manifest {
	var m protocol.Manifest
	err := json.Unmarshal(b, &m)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		c.add(ManifestContent, rel, "is not JSON: %v", err)
		return nil
	case err != nil:
		c.add(ManifestContent, rel, "does not parse as a project manifest: %v", err)
		return nil
	case m.Document != protocol.DocProject:
		c.add(ManifestContent, rel, "has document %q, not %q", m.Document, protocol.DocProject)
		return nil
	case m.Project.ID != project:
		c.add(ManifestContent, rel, "describes project %q, not the claim's project %s", m.Project.ID, project)
		return nil
	}
	return &m
}

func (c *checker) checkEvents() {
	for _, f := range c.eventFiles {
		rel := EventsDir + "/" + f
		var e Event
		if !c.read(rel, &e) {
			continue
		}
		c.events = append(c.events, e)
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

// checkMedia: every cached image is named by the digest of its bytes. The render scope leaves
// them to the build, which reads only the images it uses.
func (c *checker) checkMedia() {
	if c.render {
		return
	}
	for _, f := range c.mediaFiles {
		rel := MediaDir + "/" + f
		b, err := c.d.ReadBytes(rel)
		if err != nil {
			c.add(Unreadable, rel, "cannot be read: %s", readErrorWords(err))
			continue
		}
		if _, p := MediaProblem(rel, b); p != nil {
			c.out = append(c.out, *p)
		}
	}
}

// noOrigin reports a reference from rel to the origin id, which has no record.
func (c *checker) noOrigin(k Kind, rel, id string) {
	c.add(k, rel, "origin %s does not exist (no %s)", id, OriginPath(id))
}

// noProblem reports a record whose health says something is wrong but records no problem.
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

// deref is *s, or "" for nil (a null digest or time).
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
