// Package product is this index's identity: its version and its crawler's User-Agent. It sits
// under catalog/ so the render stage imports nothing from crawl/.
package product

// Version is this index's version: a new version reads refused manifests again, since the rules
// may have changed (seeds/state.txt, "Last good").
const Version = "0.1.0"

// UserAgent is the User-Agent of every request the crawler makes (seeds/crawler.txt, "Who is
// knocking").
const UserAgent = "AsHyAmS/" + Version + " (+https://github.com/DreamWeave-MP/AsHyAmS)"
