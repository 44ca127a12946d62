package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
)

func init() {
	register(command{name: "diff", summary: "show what the last refresh changed, as before -> after lines", run: runDiff})
}

// runDiff prints what the last refresh changed (SPEC section 6): what it did not read if
// interrupted, its events per claim with headline, tags and lines, then the health changes.
// Exit 0, 1 when no refresh has run or the state cannot be read, 2 for usage.
func runDiff(e *env, args []string) int {
	fs := newFlags(e, "diff", "")
	state := fs.String("state", "state", "state directory (a checkout of the network-state branch)")
	if rc := parseNoArgs(e, fs, args, " (diff takes no arguments)"); rc >= 0 {
		return rc
	}
	if !e.requireState("diff", *state) {
		return 1
	}
	snap, err := store.Open(*state).Load()
	if err != nil {
		e.errorf("diff", "the state at %s does not load: %v", *state, err)
		return 1
	}
	if snap.Network == nil {
		e.errorf("diff", "%s has no %s: no refresh has run there", *state, store.NetworkFile)
		return 1
	}
	last, earlier := snap.LastRefreshEvents()
	line := func(format string, a ...any) { fmt.Fprintln(e.stdout, termtext.Line(fmt.Sprintf(format, a...))) }
	if !diffSummary(e, line, snap.Network, last, earlier) {
		return 0
	}
	for _, group := range groupByClaim(last) {
		fmt.Fprintln(e.stdout)
		diffClaim(line, group)
	}
	if health := snap.Network.HealthChanges; len(health) > 0 {
		fmt.Fprintln(e.stdout)
		line("Health changed at the last refresh:")
		for _, l := range healthLines(health, claimNames(snap)) {
			line("%s", l)
		}
	}
	return 0
}

// diffSummary prints what comes before the events: the interruption, events an earlier
// refresh in the same second recorded, and the count. False when nothing changed.
func diffSummary(e *env, line func(string, ...any), n *store.Network, last, earlier []store.Event) bool {
	at := termtext.Text(n.ObservedAt)
	if x := n.Interrupted; x != nil {
		line("The last refresh (%s) was INTERRUPTED: what follows is what it recorded before it stopped.", at)
		for _, l := range refresh.InterruptedLines(x) {
			line("%s", l)
		}
		fmt.Fprintln(e.stdout)
	}
	if len(earlier) > 0 {
		note := fmt.Sprintf("Times have one-second resolution: %s observed at %s, which the last refresh's records contradict, belong to an earlier refresh that started in the same second and are not listed", plural(len(earlier), "event"), at)
		for _, ev := range last {
			if ev.Kind == store.EventChanged {
				note += " (a changed event whose manifest its claim still holds cannot be told apart this way, and is listed)"
				break
			}
		}
		line("%s.", note)
	}
	health := n.HealthChanges
	switch {
	case len(last) == 0 && len(health) == 0 && n.Interrupted != nil:
		line("The last refresh (%s) recorded no events and changed no health in what it read.", at)
		return false
	case len(last) == 0 && len(health) == 0:
		line("The last refresh (%s) recorded no events and changed no health: nothing changed.", at)
		return false
	case len(last) == 0:
		line("The last refresh (%s) recorded no events.", at)
	default:
		line("The last refresh (%s) recorded %s.", at, plural(len(last), "event"))
	}
	return true
}

func diffClaim(line func(string, ...any), group []store.Event) {
	first := group[0]
	line("%s (%s) at %s", termtext.Quote(cmp.Or(first.Name, first.Project)), first.Project, first.Origin)
	for _, ev := range group {
		l := "  " + tags.Headline(ev)
		if t := tags.Tags(ev); len(t) > 0 && !tagsRepeatHeadline(t, ev) {
			l += " [" + strings.Join(t, ", ") + "]"
		}
		line("%s", l)
		for _, d := range diff.Lines(ev.Changes) {
			line("    %s", d)
		}
	}
}

// tagsRepeatHeadline reports whether every tag is already a word of the event's headline after
// the claim's name, which is left out: a project called "Release Notes" must not hide a tag.
func tagsRepeatHeadline(ts []string, ev store.Event) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.TrimPrefix(tags.Headline(ev), cmp.Or(ev.Name, ev.Project)), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		words[strings.ToLower(w)] = true
	}
	for _, t := range ts {
		if !words[t] {
			return false
		}
	}
	return true
}

func claimNames(s *store.Snapshot) map[string]string {
	m := make(map[string]string, len(s.Claims))
	for _, c := range s.Claims {
		m[c.Project+"/"+c.Origin] = c.Entry.Name
	}
	return m
}

// healthLines says network.json's health changes, claims then sites: per new health "N claims
// became <words>:" and a line each, then those recovered, then the count first seen.
// Unescaped.
func healthLines(hs []store.HealthChange, names map[string]string) []string {
	var out []string
	for _, sites := range []bool{false, true} {
		one, label := "claim", store.HealthLabel
		if sites {
			one, label = "site", store.OriginHealthLabel
		}
		became := map[string][]store.HealthChange{}
		var recovered []store.HealthChange
		first := map[string]int{}
		nFirst := 0
		for _, h := range hs {
			if (h.Project == "") != sites {
				continue
			}
			switch {
			case h.Before == "":
				first[label(h.After)]++
				nFirst++
			case h.After == store.ClaimCurrent || h.After == store.OriginHealthy:
				recovered = append(recovered, h)
			default:
				became[label(h.After)] = append(became[label(h.After)], h)
			}
		}
		who := func(h store.HealthChange) string {
			if sites {
				return h.Origin
			}
			return termtext.Quote(cmp.Or(names[h.Project+"/"+h.Origin], h.Project)) + " (" + h.Project + ") at " + h.Origin
		}
		for _, words := range diffKeys(became) {
			out = append(out, plural(len(became[words]), one)+" became "+words+":")
			for _, h := range became[words] {
				l := "  " + who(h)
				if h.Problem != nil {
					l += ": " + *h.Problem
				}
				out = append(out, l)
			}
		}
		if len(recovered) > 0 {
			out = append(out, plural(len(recovered), one)+" recovered:")
			for _, h := range recovered {
				out = append(out, "  "+who(h)+" (was "+label(h.Before)+")")
			}
		}
		if nFirst > 0 {
			var parts []string
			for _, words := range diffKeys(first) {
				parts = append(parts, fmt.Sprintf("%d %s", first[words], words))
			}
			out = append(out, plural(nFirst, one)+" first seen: "+strings.Join(parts, ", "))
		}
	}
	return out
}

func diffKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// groupByClaim groups events per claim, claims by name (case-insensitive), project id, site;
// events keep their order.
func groupByClaim(evs []store.Event) [][]store.Event {
	type key struct{ project, origin string }
	idx := map[key]int{}
	var groups [][]store.Event
	for _, ev := range evs {
		k := key{ev.Project, ev.Origin}
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], ev)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i][0], groups[j][0]
		if la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name); la != lb {
			return la < lb
		}
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.Origin < b.Origin
	})
	return groups
}
