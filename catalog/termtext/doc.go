// Package termtext holds the rules for text a command writes to a terminal or a CI log:
// publisher text escaped to one inert line (Text, Quote, Line), encoded JSON made safe to
// print and serve (JSON), and no URL's user info ever printed (RedactURL). Both stages and the
// command use it: the crawl stage's progress and summary lines, the render stage's JSON files,
// and every line cmd/ashyams writes (seeds/crawler.txt, "Hostile input").
package termtext
