package main

import (
	"fmt"

	"github.com/DreamWeave-MP/ashyams-go/site"
)

func init() {
	register(command{name: "build", summary: "render the state into the static site and its JSON files", run: runBuild})
}

// runBuild is `ashyams build [--state DIR] [--curation FILE] [--out DIR] [--base-url URL]`: it
// reads only the state and the curation file and writes the site (SPEC section 5). Exit 1 names
// the path and the problem.
func runBuild(e *env, args []string) int {
	fs := newFlags(e, "build", "")
	state := fs.String("state", "state", "the state directory to render")
	cur := fs.String("curation", "network/curation.toml", "the curation file (a missing file is an empty curation)")
	out := fs.String("out", "public", "the output directory, replaced whole (only if empty or a previous build)")
	base := fs.String("base-url", site.DefaultBaseURL, "the URL the site is published at (sitemap, canonical links, Atom feed, catalog network_page)")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	if !e.requireState("build", *state) {
		return 1
	}
	res, err := site.Build(site.Options{State: *state, Curation: *cur, Out: *out, BaseURL: *base})
	if err != nil {
		e.errorf("build", "%v", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "built %d pages (%d files) in %s from %s: %s, %s in the catalog, %s\n",
		len(res.Pages), res.Files, *out, *state, plural(len(res.Network.Origins), "site"), plural(len(res.Network.Listed), "claim"), plural(len(res.Network.Events), "event"))
	return 0
}
