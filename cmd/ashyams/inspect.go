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
// the discovery trail, the site and every claim a refresh would record, and writes nothing.
// Exit 0 when the URL leads to a readable site index, 1 when it does not (the report says why),
// 2 for usage.
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
	if !rep.OK() {
		return 1
	}
	return 0
}
