// Package product is this index's identity: its version and the User-Agent its crawler sends.
//
// Both stages name it: the crawl stage sends the user agent and records it in the state (a
// refused manifest is read again by a new version, since the rules may have changed), and the
// render stage shows it to publishers. It sits under catalog/, the layer both stages import, so
// that the render stage (site) imports nothing from the crawl stage (crawl/...).
package product

// Version is this index's version. It is part of the user agent and of every refused
// manifest's record: a new version reads refused manifests again, since the rules may have
// changed (seeds/state.txt, "Last good").
const Version = "0.1.0"

// UserAgent is the User-Agent of every request the crawler makes (seeds/crawler.txt, "Who is
// knocking").
const UserAgent = "AsHyAmS/" + Version + " (+https://github.com/DreamWeave-MP/AsHyAmS)"
