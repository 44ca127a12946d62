package discover

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// proof is how much a site index found weighs against the held one (SPEC section 3, "Moves").
// Strong: the enrolled URL is or links an index, in place or via 301/308. Weak: the index is at
// the enrolled URL's own level. Anything else is no evidence.
type proof int

const (
	proofNone   proof = iota // no evidence: the held index stands, or discovery ends
	proofWeak                // adopted only when the held index is definitively gone
	proofStrong              // adopted whatever the held index says
)

// Temporary reports whether a redirect chain holds a hop other than 301 or 308, so it is never
// evidence of a move.
func Temporary(hops []guard.Hop) bool {
	for _, h := range hops {
		if h.Status != http.StatusMovedPermanently && h.Status != http.StatusPermanentRedirect {
			return true
		}
	}
	return false
}

func (d *run) evidence() proof {
	x, y := d.held.IndexURL, d.res.IndexURL
	switch {
	case x == "" || x == y:
		return proofStrong // nothing held to move away from
	case d.foundTemp || (d.res.Method == MethodIndex && d.enrolledTemp):
		return proofNone // a temporary redirect led to the index
	case !d.enrolledTemp && (d.res.Method == MethodIndex || d.res.Method == MethodLink):
		return proofStrong
	}
	if slices.Contains(d.ownLevel(), store.CanonicalURL(d.foundAsked)) {
		return proofWeak
	}
	return proofNone
}

// ownLevel lists the canonical dreamweave.json URLs at the enrolled URL's own level.
func (d *run) ownLevel() []string {
	var out []string
	add := func(u string) {
		if w := WalkUpURLs(u); len(w) > 0 {
			out = append(out, store.CanonicalURL(w[0]))
		}
	}
	at := cmp.Or(d.enrolledAt, d.enrolled)
	if d.enrolledTemp {
		if a, b := WalkUpURLs(d.enrolled), WalkUpURLs(at); len(a) > 0 && len(b) > 0 && a[0] == b[0] {
			add(d.enrolled)
		}
		return out
	}
	add(at) // the enrolled URL, or where its permanent redirects ended
	if d.manifestAt != "" && !d.manifestTemp && d.res.Method == MethodLinkManifest {
		add(d.manifestAt)
	}
	return out
}

// askHeld asks the held index again when the found one is not strong evidence: it stands if it
// answers; definitively gone, it yields to weak evidence; otherwise discovery ends as an outage.
func (d *run) askHeld(p proof) {
	x, y := d.held.IndexURL, d.res.IndexURL
	f := d.get(x, true)
	at := f.finalURL(x)
	temp := Temporary(f.hops)
	method := cmp.Or(d.held.Method, MethodWalkUp)
	answered := f.isIndex()
	reached, short := "discovery reached the site index "+y, "discovery reached "+y
	switch d.res.Method {
	case MethodWalkUp, MethodManifest, MethodLinkManifest:
		reached, short = "walking up the path reached the site index "+y, "walking up reached "+y
	}
	also := strings.Replace(short, " reached ", " also reached ", 1)
	switch {
	case answered && !temp:
		outcome := f.indexOutcome()
		if at != x {
			d.step(at, outcome+"; the held site index "+x+" redirects here permanently, so it stands here ("+also+")")
		} else {
			d.step(at, outcome+"; the held site index stands ("+also+")")
		}
		d.found(f.resp, method, x, false)
		return
	case !answered && !temp && f.notHere() && p == proofWeak:
		d.step(at, f.outcome()+"; the held site index is gone, and "+y+" is at the enrolled URL's own level: the source moved there")
		return
	}
	e := &Error{Outage: true, At: at, Asked: x, Status: f.status(), Err: f.err, Findings: f.findings, Found: y}
	held := x + " " + f.predicate()
	if at != x {
		held = x + ", which redirected to " + at + ", " + f.predicate()
	}
	var why string
	switch {
	case temp:
		d.step(at, f.outcome()+"; "+short+", but the held site index redirects temporarily, so no move is recorded")
		answer := f.predicate()
		if answered {
			answer = "answers as a site index"
		}
		why = "the held site index " + x + " redirects temporarily to " + at + ", which " + answer +
			"; a temporary redirect is no evidence of a move, so none is recorded"
	default:
		d.step(at, f.outcome()+"; "+short+", but the held site index did not answer, so no move is recorded")
		why = "the held site index " + held + "; a walk up alone is no evidence of a move, so none is recorded"
		switch {
		case p == proofWeak: // the held index did not answer: an outage is not a move
			why = "the held site index " + held + "; a site index that does not answer is not gone, so no move is recorded"
		case d.enrolledTemp || d.foundTemp:
			why = "the held site index " + held + "; a temporary redirect is no evidence of a move, so none is recorded"
		}
	}
	e.Problem = reached + ", but " + why
	d.fail(e)
}
