// Package crawl is the crawl stage: it reads the sources enrolled in network/sources.toml,
// discovers their site indexes, validates what they publish and records it in the state
// directory. Normative: seeds/crawler.txt. Sub-packages: guard (the guarded HTTP client),
// discover (discovery), refresh (the refresh itself), sources (the source list). This package
// holds what every stage that prints a URL shares: RedactURL. The crawler's version and user
// agent are in catalog/product, which the render stage may import too.
package crawl
