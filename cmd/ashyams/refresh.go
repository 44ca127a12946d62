package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

func init() {
	register(command{name: "refresh", summary: "read every enrolled site and record what it publishes in the state", run: runRefresh})
}

// runRefresh is `ashyams refresh [--sources F] [--curation F] [--state DIR] [--allow-loopback]
// [--deadline D] [--site-budget D] [--discovery-budget D]`. Progress goes to stderr, the summary
// (a commit message) to stdout, every line of both escaped (store.TermLine: they quote
// publisher text). Exit 1 only for the index's own bugs: a source list or curation file that does not
// load, a state that fails check or does not load (every problem named, nothing read), a failed
// write, an interrupted refresh (SIGINT/SIGTERM stop it between records, so the state still
// passes check). Problems with sites are recorded and exit 0 (seeds/crawler.txt); so is a time
// budget running out (what it cut short keeps its last good data and says so), so the scheduled
// job always reaches its commit and deploy. When every source failed, a warning says so on
// stderr (still exit 0).
func runRefresh(e *env, args []string) int {
	fs := newFlags(e, "refresh", "")
	srcPath := fs.String("sources", "network/sources.toml", "the enrolled sources (TOML, [[source]] url, added, note)")
	curPath := fs.String("curation", "network/curation.toml", "this index's curation file; loaded so a bad one is refused before anything is read")
	statePath := fs.String("state", "state", "the state directory (a checkout of the network-state branch)")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 (local drills only); private and metadata ranges stay refused")
	deadline := fs.Duration("deadline", refresh.DefaultDeadline, "the most time the whole refresh may take; what is not read by then keeps its last good data")
	siteBudget := fs.Duration("site-budget", refresh.DefaultSiteBudget, "the most time reading one site may take once its index is found (manifests, re-reads, images)")
	discoveryBudget := fs.Duration("discovery-budget", 0, "the most time discovering one source's site index may take (default 2m, or a third of --deadline if shorter)")
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	if fs.NArg() > 0 {
		e.errorf("refresh", "unexpected argument %q", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *deadline <= 0 || *siteBudget <= 0 || *discoveryBudget < 0 {
		e.errorf("refresh", "--deadline, --site-budget and --discovery-budget must be positive durations such as 45m or 90s")
		fs.Usage()
		return 2
	}
	srcs, err := sources.LoadWith(*srcPath, sources.Options{AllowLoopback: *loop})
	if err != nil {
		e.errorf("refresh", "%v", err)
		return 1
	}
	if _, err := curation.Load(*curPath); err != nil {
		e.errorf("refresh", "%v", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := refresh.Run(ctx, refresh.Options{
		State:           *statePath,
		Sources:         srcs,
		AllowLoopback:   *loop,
		Progress:        e.stderr,
		Deadline:        *deadline,
		SiteBudget:      *siteBudget,
		DiscoveryBudget: *discoveryBudget,
	})
	if sum != nil {
		fmt.Fprint(e.stdout, sum.String()) // escaped line by line
	}
	if err != nil {
		// A state check's problems quote records, and records quote sites: errorf escapes each line.
		e.errorf("refresh", "%v", err)
		return 1
	}
	return 0
}
