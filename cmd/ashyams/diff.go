package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

func init() {
	register(command{name: "diff", summary: "show what the last refresh changed, as before -> after lines", run: runDiff})
}

// runDiff prints the events the last refresh recorded (those whose observed_at equals
// network.json's observed_at), grouped per claim: a header naming the claim, then each event's
// headline and tags and its typed differences as before -> after lines (diff.Lines). SPEC
// section 6: "diff (what the last refresh changed)". Exit 0 when printed (also when the last
// refresh recorded nothing, which it says), 1 when the state cannot be read or no refresh has
// run, 2 on usage errors. Nothing is written.
func runDiff(e *env, args []string) int {
	fs := newFlags(e, "diff", "")
	state := fs.String("state", "state", "state directory (a checkout of the network-state branch)")
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "ashyams diff: unexpected argument %q (diff takes no arguments)\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if _, err := os.Stat(*state); err != nil {
		fmt.Fprintf(e.stderr, "ashyams diff: state directory %s: %v\n", *state, err)
		return 1
	}
	snap, err := store.Open(*state).Load()
	if err != nil {
		fmt.Fprintf(e.stderr, "ashyams diff: reading state %s: %v\n", *state, err)
		return 1
	}
	if snap.Network == nil {
		fmt.Fprintf(e.stderr, "ashyams diff: %s has no %s: no refresh has run there\n", *state, store.NetworkFile)
		return 1
	}
	at := snap.Network.ObservedAt
	var last []store.Event
	for _, ev := range snap.Events {
		if ev.ObservedAt == at {
			last = append(last, ev)
		}
	}
	if len(last) == 0 {
		fmt.Fprintf(e.stdout, "The last refresh (%s) recorded no events: nothing changed.\n", at)
		return 0
	}
	fmt.Fprintf(e.stdout, "The last refresh (%s) recorded %s.\n", at, plural(len(last), "event"))
	for _, group := range groupByClaim(last) {
		first := group[0]
		name := first.Name
		if name == "" {
			name = first.Project
		}
		fmt.Fprintf(e.stdout, "\n%s (%s) at %s\n", name, first.Project, first.Origin)
		for _, ev := range group {
			line := "  " + tags.Headline(ev)
			if t := tags.Tags(ev); len(t) > 0 {
				line += "  [" + strings.Join(t, ", ") + "]"
			}
			fmt.Fprintln(e.stdout, line)
			for _, l := range diff.Lines(ev.Changes) {
				fmt.Fprintln(e.stdout, "    "+l)
			}
		}
	}
	return 0
}

// groupByClaim groups events per claim (project id, site), claims ordered by name
// (case-insensitive), then project id, then site; events keep their order (Load's: time, id).
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
