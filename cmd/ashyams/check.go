package main

import (
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

func init() {
	register(command{name: "check", summary: "verify every invariant of the state directory (event ids by the reference index's formula)", run: runCheck})
}

// runCheck is `ashyams check [--state DIR]`: every invariant of seeds/state.txt "Recovery"
// (store.Dir.Check). Each broken one is printed on stdout as "path: what is wrong", escaped
// with store.TermLine (paths and messages can carry publisher text), then a count on stderr;
// the exit status is 1. Event ids are verified by the reference index's formula
// (store.EventIDFormula), which a sound state's line names. Leftovers of an interrupted write count apart: the next refresh
// removes them. A sound state prints one line and exits 0. No state directory at all is said
// once, with how to get one (noStateMessage, exit 1). Errors go to stderr as
// "ashyams check: ..." (env.errorf).
func runCheck(e *env, args []string) int {
	fs := newFlags(e, "check", "")
	statePath := fs.String("state", "state", "the state directory (a checkout of the network-state branch)")
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	if fs.NArg() > 0 {
		e.errorf("check", "unexpected argument %s", store.TermQuote(fs.Arg(0)))
		fs.Usage()
		return 2
	}
	if !e.requireState("check", *statePath) {
		return 1
	}
	ps := store.Open(*statePath).Check()
	leftovers := 0
	for _, p := range ps {
		fmt.Fprintln(e.stdout, store.TermLine(p.String()))
		if p.Leftover {
			leftovers++
		}
	}
	where := store.TermText(*statePath)
	removes := "the next refresh removes them"
	if leftovers == 1 {
		removes = "the next refresh removes it"
	}
	switch broken := len(ps) - leftovers; {
	case len(ps) == 0:
		fmt.Fprintf(e.stdout, "check: %s: every invariant holds (event ids verified by %s)\n", where, store.EventIDFormula)
		return 0
	case leftovers == 0:
		e.errorf("check", "%s: %s", where, plural(broken, "broken invariant"))
	case broken == 0:
		e.errorf("check", "%s: %s from an interrupted write (%s); every invariant holds otherwise", where, plural(leftovers, "leftover"), removes)
	default:
		e.errorf("check", "%s: %s, and %s from an interrupted write (%s)", where, plural(broken, "broken invariant"), plural(leftovers, "leftover"), removes)
	}
	return 1
}
