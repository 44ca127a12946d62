// Package crawl is the crawl stage: it reads the sources enrolled in network/sources.toml,
// discovers their site indexes, validates what they publish and records it in the state
// directory. Normative: seeds/crawler.txt. Sub-packages: guard (the guarded HTTP client),
// discover (discovery), refresh (the refresh itself).
package crawl

// Version is this crawler's version. It is part of the user agent and of every refused
// manifest's record: a new version reads refused manifests again, since the rules may have
// changed (seeds/state.txt, "Last good").
const Version = "0.1.0"

// UserAgent is the User-Agent of every request the crawler makes (seeds/crawler.txt, "Who is
// knocking").
const UserAgent = "AsHyAmS/" + Version + " (+https://github.com/DreamWeave-MP/AsHyAmS)"
