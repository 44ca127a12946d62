package main

import (
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

func init() {
	register(command{name: "check-site", summary: "check a built site: links, fragments, ids, schemes, titles, languages, wording", run: runCheckSite})
}

// runCheckSite is `ashyams check-site [--out public] [--base-url URL]`. Exit 0 when the site
// passes, 1 naming each problem (page: problem), 2 on usage errors.
func runCheckSite(e *env, args []string) int {
	fs := newFlags(e, "check-site", "")
	out := fs.String("out", "public", "the built site to check")
	base := fs.String("base-url", "", "treat links under this URL, and root-relative links under its path (the 404 page's), as internal (default: the base URL the site was built for)")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	problems, err := linkcheck.Check(*out, *base)
	if err != nil {
		e.errorf("check-site", "%v", err)
		return 1
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "%s\n", p)
	}
	if len(problems) > 0 {
		e.errorf("check-site", "%s in %s", plural(len(problems), "problem"), *out)
		return 1
	}
	fmt.Fprintf(e.stdout, "%s: every check passed\n", *out)
	return 0
}
