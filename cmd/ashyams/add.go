package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/discover"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

func init() {
	register(command{name: "add", summary: "inspect a site, then enroll it in network/sources.toml", run: runAdd})
}

// addNow is add's clock (the entry's added date, UTC); tests replace it.
var addNow = time.Now

// addParallel bounds the sources discovered at once (seeds/crawler.txt: at most eight).
const addParallel = 8

// runAdd is `ashyams add URL --note TEXT [flags]` (SPEC section 6). It reads the site as a
// refresh would and refuses, exit 1, changing nothing, a URL sources.toml would refuse, one
// already enrolled, a site it cannot read or one another source leads to. Otherwise it appends
// one [[source]] entry, every other byte kept, checks the file and writes it atomically.
func runAdd(e *env, args []string) int {
	fs := newFlags(e, "add", "URL --note TEXT")
	note := fs.String("note", "", "one line for the humans reviewing the list: why this site is enrolled (required)")
	srcPath := fs.String("sources", "network/sources.toml", "the source list to append to")
	statePath := fs.String("state", "state", "the state directory, used to learn which site index each enrolled source leads to (absent: discover them now)")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 (local drills only)")
	u, rc := parseURLArg(e, fs, args)
	if rc >= 0 {
		return rc
	}
	if msg := sources.CheckNote(*note); msg != "" {
		e.errorf("add", "--note %s", msg)
		fs.Usage()
		return 2
	}
	refuse := func(format string, a ...any) int {
		e.errorf("add", format, a...)
		e.errorf("add", "%s was not changed", *srcPath)
		return 1
	}
	// A --state given must exist, else a typo would make add discover every source.
	stateGiven := false
	fs.Visit(func(f *flag.Flag) { stateGiven = stateGiven || f.Name == "state" })
	if _, err := os.Stat(*statePath); stateGiven && errors.Is(err, os.ErrNotExist) {
		return refuse("%s (without --state, add discovers every enrolled source when state/ is absent)", noStateMessage(*statePath))
	}
	if err := sources.CheckURL(u); err != nil {
		return refuse("%v", err)
	}
	old, err := os.ReadFile(*srcPath)
	if err != nil {
		return refuse("read the source list: %v", err)
	}
	enrolled, err := sources.ParseWith(*srcPath, old, sources.Options{AllowLoopback: *loop, AllowEmpty: true})
	if err != nil {
		return refuse("the source list does not load, fix it first: %v", err)
	}
	if other := sources.Enrolled(enrolled, u); other != nil {
		return refuse("%s is already enrolled: [[source]] #%d (line %d, %s) is the same URL as a site sees it",
			termtext.Text(u), other.Entry, other.Line, termtext.Text(other.URL))
	}
	next := sources.AppendEntry(old, sources.Source{URL: u, Added: addNow().UTC().Format(time.DateOnly), Note: *note})
	if _, err := sources.ParseWith(*srcPath, next, sources.Options{AllowLoopback: *loop}); err != nil {
		return refuse("the entry would not load: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := refresh.Inspect(ctx, u, refresh.Options{AllowLoopback: *loop})
	if err != nil {
		return refuse("inspect %s: %s", termtext.Text(u), termtext.Text(err.Error()))
	}
	if !rep.OK() {
		fmt.Fprint(e.stdout, rep.String()) // every line made terminal-safe
		why := "no readable site index"
		if rep.Origin != nil && rep.Origin.Problem != nil {
			why = *rep.Origin.Problem
		} else if rep.Source.Problem != nil {
			why = *rep.Source.Problem
		}
		return refuse("cannot read a site at %s: %s", termtext.Text(u), termtext.Text(why))
	}
	index := rep.Origin.IndexURL
	if other := leadsTo(ctx, enrolled, index, *statePath, *loop); other != nil {
		return refuse("%s leads to the site index %s, which [[source]] #%d (line %d, %s) already leads to",
			termtext.Text(u), termtext.Text(index), other.Entry, other.Line, termtext.Text(other.URL))
	}
	if err := store.ReplaceFile(*srcPath, next); err != nil {
		return refuse("%v", err)
	}
	fmt.Fprintln(e.stdout, termtext.Line(fmt.Sprintf("added %s to %s (site index %s, %s)",
		termtext.Text(u), termtext.Text(*srcPath), termtext.Text(index), plural(len(rep.Claims), "project"))))
	return 0
}

// leadsTo returns the enrolled source that already leads to the site index, or nil: by the
// state's records when it has one, else discovered now.
func leadsTo(ctx context.Context, enrolled []sources.Source, index, statePath string, loop bool) *sources.Source {
	var c *guard.Client
	found := make([]bool, len(enrolled))
	var g errgroup.Group
	g.SetLimit(addParallel)
	for i, s := range enrolled {
		if got, ok := recordedIndex(statePath, s.URL); ok {
			found[i] = store.CanonicalURL(got) == store.CanonicalURL(index) // a record written before URLs were normalised
			continue
		}
		if c == nil {
			c = guard.New(guard.Options{AllowLoopback: loop, UserAgent: product.UserAgent})
		}
		g.Go(func() error {
			res, err := discover.Discover(ctx, c, s.URL, discover.Held{})
			found[i] = err == nil && res.IndexURL == index
			return nil // a source that cannot be read is not a match, not a failure
		})
	}
	_ = g.Wait() // every goroutine returns nil
	for i := range enrolled {
		if found[i] {
			return &enrolled[i]
		}
	}
	return nil
}

// recordedIndex is the site index URL the state says the enrolled URL leads to.
func recordedIndex(statePath, enrolledURL string) (string, bool) {
	d := store.Open(statePath)
	var src store.Source
	if err := d.ReadJSON(store.SourcePath(store.SourceID(enrolledURL)), &src); err != nil || src.Origin == nil {
		return "", false
	}
	var o store.Origin
	if err := d.ReadJSON(store.OriginPath(*src.Origin), &o); err != nil || o.IndexURL == "" {
		return "", false
	}
	return o.IndexURL, true
}
