package main

import (
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

func init() {
	register(command{name: "check", summary: "verify every invariant of the state directory", run: runCheck})
}

// runCheck is `ashyams check [--state DIR]`: every invariant of seeds/state.txt "Recovery"
// (store.Dir.Check). Each broken one is printed as "path: what is wrong" and the exit status is
// 1; a sound state prints one line and exits 0.
func runCheck(e *env, args []string) int {
	fs := newFlags(e, "check", "")
	statePath := fs.String("state", "state", "the state directory (a checkout of the network-state branch)")
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "check: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	ps := store.Open(*statePath).Check()
	for _, p := range ps {
		fmt.Fprintln(e.stdout, p)
	}
	if len(ps) > 0 {
		fmt.Fprintf(e.stderr, "check: %s: %d broken invariant(s)\n", *statePath, len(ps))
		return 1
	}
	fmt.Fprintf(e.stdout, "check: %s: every invariant holds\n", *statePath)
	return 0
}
