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

// runInspect is `ashyams inspect URL [--allow-loopback]`: the trail, the site and every claim a
// refresh would record, how many would not be current; nothing written. Exit 0 when all would be
// current, 1 otherwise, 2 for usage.
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
