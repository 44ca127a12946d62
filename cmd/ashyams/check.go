package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

func init() {
	register(command{name: "check", summary: "verify every invariant of the state directory (event ids by the reference index's formula)", run: runCheck})
}

// runCheck is `ashyams check [--state DIR] [--sources FILE] [--curation FILE]`: each broken
// invariant (store.Dir.Check) on stdout as "path: what", a count on stderr and exit 1; a sound
// state exits 0. --sources and --curation check those files too (without --state, only them).
func runCheck(e *env, args []string) int {
	fs := newFlags(e, "check", "")
	statePath := fs.String("state", "state", "the state directory (a checkout of the network-state branch)")
	srcPath := fs.String("sources", "", "also check this source list (network/sources.toml): every problem, with its line")
	curPath := fs.String("curation", "", "also check this curation file (network/curation.toml): every problem, with its entry's line")
	loop := fs.Bool("allow-loopback", false, "admit loopback hosts in the --sources list (local drills, as refresh --allow-loopback)")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	config := e.checkConfig(*srcPath, *curPath, *loop)
	if (*srcPath != "" || *curPath != "") && !set["state"] {
		if config > 0 {
			e.errorf("check", "%s", plural(config, "configuration problem"))
			return 1
		}
		fmt.Fprintln(e.stdout, "check: the configuration has no problem")
		return 0
	}
	if !e.requireState("check", *statePath) {
		return 1
	}
	if config > 0 {
		e.errorf("check", "%s", plural(config, "configuration problem"))
	}
	ps := store.Open(*statePath).Check()
	leftovers := 0
	for _, p := range ps {
		fmt.Fprintln(e.stdout, termtext.Line(p.String()))
		if p.Kind == store.Leftover {
			leftovers++
		}
	}
	where := termtext.Text(*statePath)
	removes := "the next refresh removes them"
	if leftovers == 1 {
		removes = "the next refresh removes it"
	}
	switch broken := len(ps) - leftovers; {
	case len(ps) == 0:
		fmt.Fprintf(e.stdout, "check: %s: every invariant holds (event ids verified by %s)\n", where, store.EventIDFormula)
		if config > 0 {
			return 1
		}
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

// checkConfig prints each problem of the source list and curation file on stdout as
// "<file>: <problem>", with its line, and returns the count.
func (e *env) checkConfig(srcPath, curPath string, loop bool) int {
	n := 0
	if srcPath != "" {
		_, err := sources.LoadWith(srcPath, sources.Options{AllowLoopback: loop})
		var se *sources.Error
		switch {
		case err == nil:
		case errors.As(err, &se):
			for _, p := range se.Problems {
				fmt.Fprintln(e.stdout, termtext.Line(srcPath+": "+p.String()))
			}
			n += len(se.Problems)
		default:
			fmt.Fprintln(e.stdout, termtext.Line(err.Error()))
			n++
		}
	}
	if curPath != "" {
		_, err := curation.Load(curPath)
		var ce *curation.Error
		switch {
		case err == nil:
		case errors.As(err, &ce):
			for _, p := range ce.Problems {
				fmt.Fprintln(e.stdout, termtext.Line(curPath+": "+p.String()))
			}
			n += len(ce.Problems)
		default:
			fmt.Fprintln(e.stdout, termtext.Line(err.Error()))
			n++
		}
	}
	return n
}
