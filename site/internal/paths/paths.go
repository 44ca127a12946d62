// Package paths names the pages of a built site: each page's file, relative to the output
// root, and links between them.
package paths

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Page paths are relative to the output root and slash-separated. Every page is a directory's
// index.html, and links name the index.html itself, so the site works from files alone
// (file://, a USB stick) as well as from any static host.

// Claim is the page of the claim of project at site.
func Claim(project, site string) string {
	return "projects/" + project + "/" + site + "/index.html"
}

// Project is the page of the project id.
func Project(id string) string { return "projects/" + id + "/index.html" }

// Origin is the page of the site.
func Origin(site string) string { return "origins/" + site + "/index.html" }

// Event is the page of the event id.
func Event(id string) string { return "updates/" + id + "/index.html" }

// Tag is the update list of tag's directory (TagDir).
func Tag(tag string) string { return "updates/" + tag + "/index.html" }

// Capability is the page of the capability name.
func Capability(name string) string { return "capabilities/" + CapabilityDir(name) + "/index.html" }

// CapabilityDir is the directory name of a capability's page. Capability names may hold ':'
// and other characters that are unsafe or ambiguous in paths, so the name is a readable slug
// plus the first 8 hex digits of the SHA-256 of the exact name: deterministic, collision-free
// in practice, and distinct for names whose slugs coincide ("lua:api" and "lua-api").
func CapabilityDir(name string) string {
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:])[:8]
	if s := store.Slug(name); s != "" {
		return s + "-" + h
	}
	return h
}

// ClaimKey is Claim for a model claim.
func ClaimKey(c *network.Claim) string { return Claim(c.Project, c.Site) }

// rootOf is the relative prefix from a page at p to the output root: "" for index.html,
// "../" for projects/index.html, and so on.
func Root(p string) string {
	if n := 3 * strings.Count(p, "/"); n <= len(ups) {
		return ups[:n] // no allocation for the depths pages have
	}
	return strings.Repeat("../", strings.Count(p, "/"))
}

const ups = "../../../../../../../../"

// relURL is target (relative to the root) as seen from a page at p.
func Rel(p, target string) string { return Root(p) + target }

// dirURL is the public (directory) form of a page path: "projects/x/index.html" gives
// "projects/x/", "index.html" gives "".
func Dir(p string) string { return strings.TrimSuffix(p, "index.html") }

// tagDir is a tag's directory under updates/: the tag itself for the vocabulary's words, a
// slug for anything else, so a tag can never name a path outside updates/.
func TagDir(tag string) string {
	s := store.Slug(tag)
	switch {
	case s == "":
		return "tag-" + CapabilityDir(tag)
	case s == tag:
		return tag
	}
	return "tag-" + s
}

// The pages and files several page kinds link.
const (
	// Publishers is the page for publishers, which the staleness banners link to.
	Publishers = "about/publishers/index.html"
	// UsedBy is the list of the claims others require, with every claim that requires each.
	UsedBy = "dependencies/used-by/index.html"
	// Network, Join and Browse are the players' pages: the network, how to join, the
	// browse index.
	Network = "network/index.html"
	Join    = "join/index.html"
	Browse  = "browse/index.html"
)

// UsedByOf is the list of every claim whose current release requires the claim of project
// at site, for a claim more require than the used-by list names on its line (UsedBy).
func UsedByOf(project, site string) string {
	return "dependencies/used-by/" + project + "/" + site + "/index.html"
}

// ProjectFeed is the Atom feed of the project id.
func ProjectFeed(id string) string { return "projects/" + id + "/updates.xml" }

// PageSize is how many entries one page of a list holds: the first page a player opens stays
// the same size whatever the network's, and the rest are a page number away.
const PageSize = 50

// Page is the path of page k of a list whose first page is at first: page 1 stays at first,
// so links and the sitemap that name a list keep working as it grows; page k > 1 is at
// page/k/ beside it ("projects/index.html", 2 gives "projects/page/2/index.html").
// Directories beside a list's first page hold the pages of single claims, sites, tags and
// events, none of which can be named "page": project ids are UUIDs, site ids end in a hex
// digest, event ids are hex and tags are this index's vocabulary or prefixed "tag-". A state
// that breaks that fails the build (a path written twice), it never overwrites a page.
func Page(first string, k int) string {
	if k <= 1 {
		return first
	}
	return strings.TrimSuffix(first, "index.html") + "page/" + strconv.Itoa(k) + "/index.html"
}

// PageOf is the page of a list whose first page is at first that shows entry i (0-based).
func PageOf(first string, i int) string { return Page(first, i/PageSize+1) }
