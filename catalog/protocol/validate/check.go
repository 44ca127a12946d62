package validate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// consequence is what the crawler records for a finding against the index entry.
var consequence = map[string]string{
	protocol.RuleManifestSHA256: ": the crawler records the claim as " + store.HealthLabel(store.ClaimInconsistent) + " and keeps the last good data",
	protocol.RuleIDMatch:        ": the crawler records the claim as " + store.HealthLabel(store.ClaimInvalid),
}

// together checks each manifest against the index entry pointing at it, as the crawler does;
// one given beside site indexes gets the entry naming it best, or a not-listed finding.
func together(rs []Result) {
	var indexes []Result
	for _, r := range rs {
		if r.doc != nil && r.doc.Index != nil {
			indexes = append(indexes, r)
		}
	}
	for i := range rs {
		r := &rs[i]
		if r.body == nil || r.Kind == protocol.DocIndex {
			continue
		}
		if r.entry == nil && len(indexes) > 0 {
			r.entry, r.where = entryFor(indexes, r.Source)
			if r.entry == nil && r.Kind == protocol.DocProject {
				var srcs []string
				for _, x := range indexes {
					srcs = append(srcs, x.Source)
				}
				msg := protocol.Printable(fmt.Sprintf("no entry of the site index %s points at this manifest: the crawler reads only manifests an index entry points at", strings.Join(srcs, ", ")))
				r.add(protocol.Finding{Rule: RuleNotListed, Message: msg, Words: msg})
			}
		}
		if r.entry == nil {
			continue
		}
		_, fs := protocol.ValidateForEntry(r.body, *r.entry, r.where)
		for i, f := range fs {
			c := consequence[f.Rule]
			fs[i].Message, fs[i].Words = f.Message+c, f.Words+c
		}
		r.Findings = r.Findings[:0]
		r.add(fs...)
	}
}

// entryFor is the entry of indexes naming src best, and where it is; nil when none does.
func entryFor(indexes []Result, src string) (*protocol.IndexEntry, string) {
	var best *protocol.IndexEntry
	var where string
	bestLen := -1
	for _, x := range indexes {
		for n := range x.doc.Index.Projects {
			e := &x.doc.Index.Projects[n]
			if l := pointsAt(x.Source, e.Manifest, src); l > bestLen {
				best, where, bestLen = e, fmt.Sprintf("%s /projects/%d", x.Source, n), l
			}
		}
	}
	return best, where
}

// pointsAt is how well an entry's manifest URL names src: -1 when it does not, else the length
// matched (a URL by store.CanonicalURL, a file by its path relative to an index file's).
func pointsAt(indexSrc, manifestURL, src string) int {
	if IsURL(src) {
		if store.CanonicalURL(resolve(indexSrc, manifestURL)) == store.CanonicalURL(src) {
			return len(src)
		}
		return -1
	}
	u, err := url.Parse(manifestURL)
	dir, derr := filepath.Abs(filepath.Dir(indexSrc))
	file, ferr := filepath.Abs(src)
	if IsURL(indexSrc) || err != nil || derr != nil || ferr != nil {
		return -1
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return -1
	}
	rel = "/" + filepath.ToSlash(rel)
	if strings.HasSuffix(u.Path, rel) {
		return len(rel)
	}
	return -1
}

func resolve(base, ref string) string {
	if b, err := url.Parse(base); err == nil && IsURL(base) {
		if r, err := b.Parse(ref); err == nil {
			return r.String()
		}
	}
	return ref
}

// stages records which stages ran and why the others did not; l is the catalog, nil when none.
func (r *Result) stages(cat *Result, l *protocol.Listing, own keySet) {
	add := func(name, why string) {
		st := Stage{Name: name, Status: Checked}
		if why != "" {
			st.Status, st.Why = NotChecked, why
		}
		r.Stages = append(r.Stages, st)
	}
	names := []string{StageSchema, StageRules, StageDigest, StageIdentity, StageTargets, StageConflicts}
	if r.Kind == protocol.DocIndex {
		names = []string{StageSchema, StageRules, StageConflicts}
	}
	if cat == nil {
		names = slices.DeleteFunc(names, func(n string) bool { return n == StageTargets || n == StageConflicts })
	}
	if r.body == nil || r.doc == nil {
		why := "the document could not be read"
		if r.body != nil {
			why = "the bytes are not a DreamWeave document this index reads"
		}
		for _, n := range names {
			add(n, why)
		}
		return
	}
	add(StageSchema, "")
	add(StageRules, "")
	if r.Kind == protocol.DocProject {
		why := ""
		switch {
		case r.entry != nil:
		case slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Rule == RuleNotListed }):
			why = "no entry of the site indexes given points at it"
		default:
			why = "no site index was given with this manifest: give its dreamweave.json beside it, as a file or URL"
		}
		add(StageDigest, why)
		add(StageIdentity, why)
	}
	if cat != nil {
		r.catalogStages(cat, l, own, add)
	}
}

// catalogStages checks the document's targets and project ids against the catalog l.
func (r *Result) catalogStages(cat *Result, l *protocol.Listing, own keySet, add func(name, why string)) {
	m, ix := r.doc.Loose, r.doc.Index
	why := ""
	switch {
	case l == nil:
		why = "the catalog " + cat.Source + " could not be read"
	case m == nil && ix == nil:
		why = "the schema findings must be fixed first"
	}
	if r.Kind != protocol.DocIndex {
		if why == "" {
			r.add(protocol.UnlistedTargets(m, *l, own.projects)...)
		}
		add(StageTargets, why)
	}
	if why == "" && len(own.urls) == 0 {
		why = "which site publishes it is not known: give it with its site index (a file or URL)"
	}
	if why != "" {
		add(StageConflicts, why)
		return
	}
	if m != nil {
		if f, ok := protocol.Conflict("/project/id", m.Project.ID, *l); ok {
			r.add(f)
		}
	}
	if ix != nil {
		for n, e := range ix.Projects {
			if f, ok := protocol.Conflict(protocol.Pointer("projects", n, "id"), e.ID, *l); ok {
				r.add(f)
			}
		}
	}
	add(StageConflicts, "")
}

// keySet is the run's own site: its URLs in the crawler's spelling, and its project ids.
type keySet struct {
	urls map[string]bool
	ids  map[string]bool
}

func (k keySet) projects(id string) bool { return k.ids[id] }

func ownKeys(rs []Result) keySet {
	k := keySet{urls: map[string]bool{}, ids: map[string]bool{}}
	url := func(u string) {
		if IsURL(u) {
			k.urls[store.CanonicalURL(u)] = true
		}
	}
	for _, r := range rs {
		url(r.Source)
		if r.entry != nil {
			url(resolve(r.Source, r.entry.Manifest))
			k.ids[r.entry.ID] = true
		}
		if r.doc != nil && r.doc.Loose != nil {
			k.ids[r.doc.Loose.Project.ID] = true
		}
		if r.doc != nil && r.doc.Index != nil {
			url(r.doc.Index.Site.URL)
			for _, e := range r.doc.Index.Projects {
				url(resolve(r.Source, e.Manifest))
				k.ids[e.ID] = true
			}
		}
	}
	return k
}

// listed is a published catalog's claims by project id.
type listed map[string][]format.Listed

func (c listed) listed(id string) bool { return len(c[id]) > 0 }

func (c listed) elsewhere(own keySet) func(id string) (string, string, bool) {
	return func(id string) (string, string, bool) {
		for _, cl := range c[id] {
			if cl.Health == store.ClaimWithdrawn || own.urls[store.CanonicalURL(cl.ManifestURL)] || own.urls[store.CanonicalURL(cl.IndexURL)] || own.urls[store.CanonicalURL(cl.SiteURL)] {
				continue
			}
			return cl.SiteName, cl.IndexURL, true
		}
		return "", "", false
	}
}

func readCatalog(ctx context.Context, src string, rd Reader) (*Result, listed) {
	r := &Result{Source: src, Kind: "catalog", Findings: []Finding{}}
	b, err := rd.Read(ctx, src, MaxCatalogBytes)
	if err == nil {
		var ls []format.Listed
		if ls, err = format.Read(src, b); err == nil {
			r.Verdict, r.Valid = VerdictValid, true
			r.Summary = fmt.Sprintf("network catalog of %d claims", len(ls))
			c := listed{}
			for _, l := range ls {
				c[l.Project] = append(c[l.Project], l)
			}
			return r, c
		}
		err = &ReadError{Verdict: VerdictNotCatalog, Message: err.Error()}
	}
	r.readError(err)
	r.Summary = r.Verdict + ": " + r.Error
	return r, nil
}

func (r *Result) readError(err error) {
	re := &ReadError{Verdict: VerdictUnreadable, Message: err.Error()}
	if !errors.As(err, &re) && IsURL(r.Source) {
		re.Verdict = VerdictUnreachable
	}
	r.Verdict, r.Error = re.Verdict, re.Message
}

func (r *Result) finish() {
	if r.Error == "" {
		var fs []protocol.Finding
		faults := 0
		for _, f := range r.Findings {
			fs = append(fs, f.Finding)
			if f.Rule != protocol.RuleUnlistedTarget && f.Rule != protocol.RuleIdentityConflict {
				faults++
			}
		}
		switch {
		case protocol.IsNewerProtocol(fs):
			r.Verdict = VerdictNewer
		case protocol.IsNotDreamWeave(fs):
			r.Verdict = VerdictNotDW
		case faults > 0:
			r.Verdict = VerdictInvalid
		default:
			r.Verdict, r.Valid = VerdictValid, true
		}
		r.locate()
	}
	r.Summary = summary(r)
}

func (r *Result) locate() {
	if r.body == nil || len(r.Findings) == 0 {
		return
	}
	ptrs := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		ptrs[i] = f.Pointer
	}
	at := protocol.Locate(r.body, ptrs)
	for i := range r.Findings {
		if p, ok := at[r.Findings[i].Pointer]; ok {
			r.Findings[i].Line, r.Findings[i].Column = p.Line, p.Column
		}
	}
}

var kindWords = map[string]string{protocol.DocIndex: "site index", protocol.DocProject: "project manifest"}

func summary(r *Result) string {
	what := kindWords[r.Kind]
	if what == "" {
		what = "document"
	}
	n := len(r.Findings)
	switch {
	case r.Verdict == VerdictValid && n == 0:
		return "valid " + what
	case r.Verdict == VerdictValid:
		return fmt.Sprintf("valid %s (%s against the catalog)", what, plural(n, "finding"))
	case r.Verdict == VerdictInvalid:
		return fmt.Sprintf("invalid %s (%s)", what, plural(n, "finding"))
	case r.Error != "":
		return r.Verdict + ": " + r.Error
	}
	return r.Verdict // newer protocol, not DreamWeave: the finding says which field
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
