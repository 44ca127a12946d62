package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
	"github.com/DreamWeave-MP/ashyams-go/site"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

func init() {
	register(command{name: "demo", summary: "build the site of the bundled example network, offline (serve it with --serve)", run: runDemo})
}

// The demo's two observation times, six hours apart (the schedule's interval); fixed, so the
// pages are the same on every machine.
var (
	demoFirst  = time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC)
	demoSecond = time.Date(2026, 10, 10, 6, 0, 0, 0, time.UTC)
)

// demoContext is the context --serve runs under (until SIGINT/SIGTERM); tests replace it.
var demoContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// demoServing, when set, is called with the URL --serve listens on (for tests).
var demoServing func(url string)

// runDemo is `ashyams demo [--out DIR] [--state DIR] [--serve] [--addr 127.0.0.1:0]`: it serves
// the example network (crawl/example) on loopback, refreshes a fresh state twice (the second
// deployment breaks one claim), checks the state, builds and checks the site; --serve then
// serves it. Every run builds the same bytes. The state is removed at exit unless --state names
// one; --out must be absent, empty or a previous build. Exit 0, 1 naming the failed step, 2 for
// usage.
func runDemo(e *env, args []string) int {
	fs := newFlags(e, "demo", "")
	out := fs.String("out", "", "where to build the site (default: a new temporary directory, kept)")
	keep := fs.String("state", "", "keep the state directory here (absent or empty; default: a temporary one, removed at exit)")
	serve := fs.Bool("serve", false, "serve the built site after building it, until interrupted")
	addr := fs.String("addr", "127.0.0.1:0", "the address --serve listens on (port 0: any free port)")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	fail := func(step string, err error) int {
		e.errorf("demo", "%s", stage("demo", step, err))
		return 1
	}
	// Both directories are checked first, so a refusal does not wait for the crawl.
	if *keep != "" {
		if err := emptyOrAbsent(*keep); err != nil {
			return fail("--state", err)
		}
	}
	if *out != "" {
		if err := demoOutOK(*out); err != nil {
			return fail("--out", err)
		}
	}

	// The work directory holds what only this run needs, removed at exit.
	work, err := os.MkdirTemp("", "ashyams-demo-")
	if err != nil {
		return fail("work directory", err)
	}
	defer os.RemoveAll(work)
	state := filepath.Join(work, "state")
	if *keep != "" {
		state = *keep
	}
	if *out == "" {
		if *out, err = os.MkdirTemp("", "ashyams-demo-site-"); err != nil {
			return fail("output directory", err)
		}
	}
	curPath := filepath.Join(work, "curation.toml")
	if err := demoCrawl(e, work, curPath, state); err != nil {
		return fail(err.step, err.err)
	}
	if err := demoBuild(e, state, curPath, *out); err != nil {
		return fail(err.step, err.err)
	}
	index, err := filepath.Abs(filepath.Join(*out, "index.html"))
	if err != nil {
		index = filepath.Join(*out, "index.html")
	}
	fmt.Fprintf(e.stdout, "\nThe example network's site is in %s\n", *out)
	if *keep != "" {
		fmt.Fprintf(e.stdout, "Its state is in %s\n", *keep)
	}
	root := demoRoot(*out)
	if !*serve {
		fmt.Fprintf(e.stdout, "Open %s, or run: %s serve --out %s (it serves the site at http://127.0.0.1:8080%s)\n",
			index, selfCommand(os.Args[0]), *out, root)
		return 0
	}
	return demoServe(e, *addr, *out, root)
}

// demoStepError is a demo step that failed: "ashyams demo: <step>: <err>".
type demoStepError struct {
	step string
	err  error
}

// demoCrawl serves the example network on loopback and refreshes state from it twice.
func demoCrawl(e *env, work, curPath, state string) *demoStepError {
	srcPath := filepath.Join(work, "sources.toml")
	srv, err := loopback.Start(example.Web(), loopback.Options{})
	if err != nil {
		return &demoStepError{"serve the example network", err}
	}
	defer srv.Close()
	fmt.Fprintf(e.stdout, "demo: the example network's %s (%s) answer on loopback, by name\n",
		plural(len(srv.Hosts()), "site"), strings.Join(srv.Hosts(), ", "))

	// The example's http://<host>.example/ URLs reach the loopback server through the
	// resolver and dialer below.
	if err := os.WriteFile(srcPath, example.Sources(), 0o644); err != nil {
		return &demoStepError{"write the source list", err}
	}
	if err := os.WriteFile(curPath, example.Curation(), 0o644); err != nil {
		return &demoStepError{"write the curation file", err}
	}
	srcs, err := sources.Load(srcPath)
	if err != nil {
		return &demoStepError{"load the example source list", err}
	}
	if _, err := curation.Load(curPath); err != nil {
		return &demoStepError{"load the example curation file", err}
	}

	ctx := context.Background()
	for i, gen := range []struct {
		what string
		at   time.Time
		root func() error
	}{
		{"the sites' first deployment", demoFirst, func() error { return nil }},
		{"their next deployment: broken.example publishes an invalid manifest", demoSecond,
			func() error { return srv.SetRoot(example.WebNext()) }},
	} {
		if err := gen.root(); err != nil {
			return &demoStepError{"switch the example network", err}
		}
		fmt.Fprintf(e.stdout, "\ndemo: refresh %d, %s\n", i+1, gen.what)
		at := gen.at
		sum, err := refresh.Run(ctx, refresh.Options{
			State: state, Sources: srcs, Progress: e.stderr,
			// Only the example's names resolve, to 127.0.0.1; the guard still checks each.
			AllowLoopback: true, Resolver: srv.Resolver(), Dial: srv.Dial,
			Now: func() time.Time { return at },
			// The example never half-deploys; a mismatch would be a bug, reported at once.
			Sleep: func(context.Context, time.Duration) error { return nil },
		})
		if sum != nil {
			fmt.Fprint(e.stdout, sum.String())
		}
		if err != nil {
			return &demoStepError{fmt.Sprintf("refresh %d", i+1), err}
		}
	}
	return nil
}

// demoBuild checks the state, builds the site into out and checks it, printing what each step
// found.
func demoBuild(e *env, state, curPath, out string) *demoStepError {
	if ps := store.Open(state).Check(); len(ps) > 0 {
		for _, p := range ps {
			fmt.Fprintln(e.stdout, p)
		}
		return &demoStepError{"check", fmt.Errorf("%s in the state", plural(len(ps), "broken invariant"))}
	}
	fmt.Fprintf(e.stdout, "\ndemo: check: every invariant holds\n")

	res, err := site.Build(site.Options{State: state, Curation: curPath, Out: out})
	if err != nil {
		return &demoStepError{"build", err}
	}
	fmt.Fprintf(e.stdout, "demo: built %s (%s) in %s\n", plural(len(res.Pages), "page"), plural(res.Files, "file"), out)
	if n := res.Network; n != nil {
		// One id published by two sites is one project with two claims.
		conflicts := plural(len(n.Conflicts), "identity conflict")
		switch len(n.Conflicts) {
		case 0:
		case 1:
			conflicts += ": one id published by more than one site"
		default:
			conflicts += ": ids published by more than one site"
		}
		fmt.Fprintf(e.stdout, "demo: %s, %s (%s)\n", plural(len(n.Projects), "project"), plural(len(n.Claims), "claim"), conflicts)
	}
	problems, err := linkcheck.Check(out, "")
	if err != nil {
		return &demoStepError{"check-site", err}
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(e.stdout, p)
		}
		return &demoStepError{"check-site", fmt.Errorf("%s in %s", plural(len(problems), "problem"), out)}
	}
	fmt.Fprintf(e.stdout, "demo: check-site: %s: every check passed\n", out)
	return nil
}

// selfCommand is how to run this binary again: arg0 as typed, or "go run ./cmd/ashyams" when
// arg0 is a binary `go run` built in its temporary directory.
func selfCommand(arg0 string) string {
	if arg0 == "" || strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		return "go run ./cmd/ashyams"
	}
	return arg0
}

// demoOutOK returns nil when out can take the demo's site as site.Build would (absent, empty
// or a previous build), else why not.
func demoOutOK(out string) error {
	err := site.OutDirOK(out)
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(err.Error(), "output ")
	if strings.Contains(msg, site.Marker) {
		msg += " (remove it or name another directory)"
	}
	return errors.New(msg)
}

// demoRoot is the path `ashyams serve --out out` serves the built site under (its base URL's
// path), so the 404 page's root-relative links work as published.
func demoRoot(out string) string {
	base, err := site.BuiltBaseURL(out)
	if err != nil || base == "" {
		base = site.DefaultBaseURL
	}
	return site.BasePath(base)
}

// emptyOrAbsent returns nil when dir does not exist or is an empty directory, else why it
// cannot hold a fresh state.
func emptyOrAbsent(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(ents) > 0:
		return fmt.Errorf("%s is not empty; the demo starts a fresh state (remove it or name another directory)", dir)
	}
	return nil
}

// demoServe serves the built site on addr under root until demoContext ends, as `ashyams
// serve` would.
func demoServe(e *env, addr, out, root string) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		e.errorf("demo", "serve: %v", err)
		return 1
	}
	hs := &http.Server{Handler: preview.HandlerAt(out, root), ReadHeaderTimeout: 10 * time.Second}
	url, _ := openURL(addr, ln.Addr(), root)
	fmt.Fprintf(e.stdout, "demo: serving %s at %s (Ctrl-C to stop)\n", out, url)
	ctx, stop := demoContext()
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	if demoServing != nil {
		demoServing(url)
	}
	select {
	case <-ctx.Done():
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			e.errorf("demo", "serve: %v", err)
			return 1
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return 0
}
