package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

func init() {
	register(command{name: "refresh", summary: "read every enrolled site and record what it publishes in the state", run: runRefresh})
}

// Exit statuses of an interrupted refresh: the state is sound and network.json says what was
// not read, so a scheduled job may commit it.
const (
	exitDeadline = 3   // --deadline ran out
	exitSIGINT   = 130 // interrupted by SIGINT (128 + 2, as a shell reports it)
	exitSIGTERM  = 143 // interrupted by SIGTERM (128 + 15)
)

// exitUnreachable is a refresh that reached no server at all: nothing recorded, so a scheduled
// job must neither commit nor publish; the likely cause is the machine's own network.
const exitUnreachable = 4

// exitNow ends the process at once (a second signal); notifySignals relays SIGINT and SIGTERM
// to c until the returned stop is called. Tests replace both.
var (
	exitNow       = os.Exit
	notifySignals = func(c chan<- os.Signal) (stop func()) {
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		return func() { signal.Stop(c) }
	}
)

// runRefresh is `ashyams refresh [flags]`: progress on stderr, the summary (a commit message)
// on stdout. Site problems and budgets are recorded and exit 0 (seeds/crawler.txt); the
// usage's "Exit status" gives the rest.
func runRefresh(e *env, args []string) int {
	fs := newFlags(e, "refresh", "")
	srcPath := fs.String("sources", "network/sources.toml", "the enrolled sources (TOML, [[source]] url, added, note)")
	curPath := fs.String("curation", "network/curation.toml", "this index's curation file; loaded so a bad one is refused before anything is read")
	statePath := fs.String("state", "state", "the state directory (a checkout of the network-state branch)")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 (local drills only); private and metadata ranges stay refused")
	deadline := fs.Duration("deadline", refresh.DefaultDeadline, "the most time the whole refresh may take; then it stops as if interrupted (exit 3): what it did not read keeps its records and network.json lists it")
	siteBudget := fs.Duration("site-budget", refresh.DefaultSiteBudget, "the most time reading one site may take once its index is found (manifests, re-reads, images)")
	discoveryBudget := fs.Duration("discovery-budget", 0, "the most time discovering one source's site index may take (default 2m, or a third of --deadline if shorter)")
	flagsUsage := fs.Usage
	fs.Usage = func() {
		flagsUsage()
		fmt.Fprintf(fs.Output(), `
Exit status: 0 refreshed (problems of the sites are recorded, not failures); 1 this index's own
bug (a source list, curation file or state that does not load or fails check, a failed write);
2 a usage error; %d no source reached: with two or more sources enrolled, every one failed
before any server answered (name resolution, connecting, TLS), which points at this machine's
own network, so nothing was recorded and the state is unchanged (do not commit or publish).
Interrupted, the refresh stops taking new work, lets writes under way finish,
records in network.json that it was interrupted and what it did not read (the state passes
check), and exits %d when --deadline ran out, %d on SIGINT, %d on SIGTERM; a second signal
stops it at once, every record still whole.
`, exitUnreachable, exitDeadline, exitSIGINT, exitSIGTERM)
	}
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
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
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	// Progress and the signal handler's words share stderr.
	e = &env{stdout: e.stdout, stderr: &lockedWriter{w: e.stderr}}
	code, stop := interruptOn(e, cancel)
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
	if err == nil {
		return 0
	}
	e.errorf("refresh", "%v", err)
	var ie *refresh.InterruptedError
	var ue *refresh.UnreachableError
	switch {
	case errors.As(err, &ue):
		return exitUnreachable
	case errors.As(err, &ie) && ie.Deadline:
		return exitDeadline
	case ie != nil:
		return int(code.Load())
	}
	return 1
}

// interruptOn stops the refresh on SIGINT or SIGTERM: the first cancels ctx and says so, a
// second exits at once. code holds the signal's exit status.
func interruptOn(e *env, cancel context.CancelCauseFunc) (code *atomic.Int32, stop func()) {
	code = new(atomic.Int32)
	sigs := make(chan os.Signal, 2)
	unnotify := notifySignals(sigs)
	go func() {
		first := true
		for s := range sigs {
			name, rc := "SIGINT", int32(exitSIGINT)
			if s == syscall.SIGTERM {
				name, rc = "SIGTERM", exitSIGTERM
			}
			if !first {
				e.errorf("refresh", "%s again: stopping at once; every record is whole, and network.json says the refresh did not finish", name)
				exitNow(int(code.Load()))
				return
			}
			first = false
			code.Store(rc)
			e.errorf("refresh", "%s: stopping: no new work starts, writes under way finish, then network.json records what was not read (%s again stops at once)", name, name)
			cancel(errors.New("interrupted by " + name))
		}
	}()
	return code, func() { unnotify(); close(sigs) }
}

// lockedWriter serialises writes from the refresh's progress and the signal handler.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
