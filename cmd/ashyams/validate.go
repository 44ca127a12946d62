package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol/validate"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
)

func init() {
	register(command{name: "validate", summary: "check site indexes and manifests (files or URLs) against the DreamWeave protocol", run: runValidate})
}

// validateSleep is the crawler's wait before re-reading a site whose manifest's digest did not
// match (nil: its own timer); tests replace it.
var validateSleep func(ctx context.Context, d time.Duration) error

// runValidate is `ashyams validate [--json] [--allow-loopback] [--catalog FILE-OR-URL]
// FILE-OR-URL...`: catalog/protocol/validate checks every document, read as the crawler reads
// it, and the report goes to stdout (JSON with --json). A document's problems are findings,
// not errors of the command. Exit 0 when every document is valid and the catalog was read, 1
// otherwise, 2 for usage errors.
func runValidate(e *env, args []string) int {
	fs := newFlags(e, "validate", "FILE-OR-URL...")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 for URLs (local drills only)")
	catalog := fs.String("catalog", "", "an index's network-data/catalog.json (file or URL): report relationships to project ids it does not list and ids another site publishes")
	sources, rc := parseMixed(fs, args)
	if rc >= 0 {
		return rc
	}
	if len(sources) == 0 {
		e.errorf("validate", "at least one file or URL is required")
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := validate.Run(ctx, sources, *catalog, refresh.ValidateReader(refresh.Options{AllowLoopback: *loop, Sleep: validateSleep}))
	if err != nil {
		e.errorf("validate", "%v", err)
		return 1
	}
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			e.errorf("validate", "%v", err)
			return 1
		}
		// Publisher text (problems quoting documents) may carry C1 controls and bidi overrides.
		e.stdout.Write(termtext.JSON(append(b, '\n')))
	} else {
		printValidate(e.stdout, rep)
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

// printValidate writes the report as text, the catalog first, through protocol.Printable.
func printValidate(w io.Writer, rep validate.Report) {
	rs := rep.Documents
	if rep.Catalog != nil {
		rs = append([]validate.Result{*rep.Catalog}, rs...)
	}
	for _, r := range rs {
		src := protocol.Printable(r.Source)
		for _, f := range r.Findings {
			where := f.Source
			if f.Line > 0 {
				where = fmt.Sprintf("%s:%d:%d", f.Source, f.Line, f.Column)
			}
			fmt.Fprintf(w, "%s: %s\n", protocol.Printable(where), f.Finding)
		}
		for i := 0; i < len(r.Stages) && r.Error == ""; {
			st, names := r.Stages[i], []string{r.Stages[i].Name}
			for i++; i < len(r.Stages) && r.Stages[i].Why == st.Why; i++ {
				names = append(names, r.Stages[i].Name)
			}
			if st.Status == validate.NotChecked {
				fmt.Fprintf(w, "%s: %s: %s: %s\n", src, st.Status, strings.Join(names, ", "), protocol.Printable(st.Why))
			}
		}
		fmt.Fprintf(w, "%s: %s\n", src, protocol.Printable(r.Summary))
		if r.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", src, protocol.Printable(r.Note))
		}
	}
}
