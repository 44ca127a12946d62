package site

import (
	"fmt"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// refuses reports whether a build refuses a state for a problem of kind k that the network
// model reads past (network.Refuses names the rest): each would change what the site shows.
// Rendering such a state would pass off a contradiction as data:
//
//   - StaleCurrent: a claim shown as current while it holds an older manifest;
//   - ManifestUnrecorded: a manifest held while claim.json records no digest for it;
//   - EventMisnamed: an event under another event's name (pages are named by the id);
//   - IndexDigest: a site index that is not the one origin.json records;
//   - Dangling: a reference that does not resolve (a source's origin, an origin's sources,
//     claim.moved_to / moved_from). An event's claim and moved_from, and origin.previous,
//     may name a claim or site that is gone: events outlive their claims, and a move or a
//     source's removal removes a site; store.Check does not report those.
//
// Deliberately not refused, although store.Check reports them: an event id that does not
// recompute from its facts (the id is only a name), a cached image that is missing (the card
// then says there is no image and why), and what does not change the pages (layout, times,
// names derived from URLs).
func refuses(k store.Kind) bool {
	switch k {
	case store.StaleCurrent, store.ManifestUnrecorded, store.EventMisnamed, store.IndexDigest, store.Dangling:
		return true
	}
	return false
}

// refusals are the problems of probs a build refuses for (refuses), in probs' order.
func refusals(probs []store.Problem) []store.Problem {
	var out []store.Problem
	for _, p := range probs {
		if refuses(p.Kind) {
			out = append(out, p)
		}
	}
	return out
}

// stateError is the build's error for a state that contradicts itself: every problem, one
// per line, each naming the record's path.
func stateError(state string, probs []store.Problem) error {
	var b strings.Builder
	fmt.Fprintf(&b, "state %s contradicts itself (%s, each changing what the site would show; `ashyams check` lists every invariant):", state, wording.Plural(len(probs), "problem", "problems"))
	for _, p := range probs {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return fmt.Errorf("%s", b.String())
}
