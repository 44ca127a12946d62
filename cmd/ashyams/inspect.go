package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
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
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	rest := fs.Args()
	if len(rest) == 0 {
		e.errorf("inspect", "a URL is required")
		fs.Usage()
		return 2
	}
	u := rest[0]
	if rc := parseFlags(fs, rest[1:]); rc >= 0 { // flags after the URL
		return rc
	}
	if fs.NArg() > 0 {
		e.errorf("inspect", "unexpected argument %s", store.TermQuote(fs.Arg(0)))
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := refresh.Inspect(ctx, u, refresh.Options{AllowLoopback: *loop})
	if err != nil {
		e.errorf("inspect", "%v", err)
		return 1
	}
	writeInspectReport(e.stdout, rep)
	if !rep.OK() {
		return 1
	}
	return 0
}

// writeInspectReport prints what inspect found for a person: the discovery trail, the site,
// then each claim. Everything in it came from the site (names, URLs, problems quoting its
// documents), so every line goes through store.TermLine and names are store.TermQuote'd: a
// newline, an ESC sequence or a "::workflow command::" in a site or project name stays on its
// line, visible and inert (case 13). add prints its refusal report the same way.
func writeInspectReport(w io.Writer, r *refresh.InspectReport) {
	line := func(format string, a ...any) { fmt.Fprintln(w, store.TermLine(fmt.Sprintf(format, a...))) }
	line("inspect %s", r.URL)
	fmt.Fprintln(w)
	line("discovery trail:")
	for _, s := range r.Source.Trail {
		line("  %s", s.URL)
		line("    %s", s.Outcome)
	}
	if r.Source.Method != nil {
		line("method: %s", *r.Source.Method)
	}
	if r.Source.Problem != nil {
		fmt.Fprintln(w)
		line("no site index: %s", *r.Source.Problem)
	}
	if o := r.Origin; o != nil {
		fmt.Fprintln(w)
		line("site %s", o.ID)
		line("  index: %s", o.IndexURL)
		line("  health: %s", store.OriginHealthLabel(o.Health))
		if o.SiteName != nil {
			line("  name: %s", store.TermQuote(*o.SiteName))
		}
		if o.Problem != nil {
			line("  problem: %s", *o.Problem)
		}
		for _, h := range o.Redirects {
			line("  redirect: %s -> %s (HTTP %d)", h.From, h.To, h.Status)
		}
		for _, is := range o.Issues {
			line("  issue: %s", is)
		}
	}
	if len(r.Claims) > 0 {
		fmt.Fprintln(w)
		line("claims (%d):", len(r.Claims))
		for _, c := range r.Claims {
			line("  %s %s: %s", c.Project, store.TermQuote(c.Entry.Name), store.HealthLabel(c.Health))
			if c.Problem != nil {
				line("    problem: %s", *c.Problem)
			}
			if c.Media != nil && c.Media.Problem != nil {
				line("    card image: %s", *c.Media.Problem)
			}
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "nothing was written; a refresh would record the above.")
}
