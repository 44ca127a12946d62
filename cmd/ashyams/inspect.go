package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
)

func init() {
	register(command{name: "inspect", summary: "read a site exactly as the crawler would and print what it would record; changes nothing", run: runInspect})
}

// runInspect is `ashyams inspect URL [--allow-loopback]` (flags before or after URL). It prints
// the discovery trail, the site and every claim a refresh would record, with how many would
// not be current, and writes nothing. Exit 0 when the URL leads to a readable site index and
// every claim would be current, 1 otherwise (the report says why), 2 for usage.
func runInspect(e *env, args []string) int {
	fs := newFlags(e, "inspect", "URL")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 (local drills only)")
	u, rc := parseURLArg(e, fs, args)
	if rc >= 0 {
		return rc
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := refresh.Inspect(ctx, u, refresh.Options{AllowLoopback: *loop})
	if err != nil {
		e.errorf("inspect", "%v", err)
		return 1
	}
	fmt.Fprint(e.stdout, rep.String()) // every line made terminal-safe
	if n, _, _ := rep.NotCurrent(); !rep.OK() || n > 0 {
		return 1
	}
	return 0
}
