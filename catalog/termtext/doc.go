// Package termtext holds the rules for text a command writes to a terminal or CI log: publisher
// text as one inert line (Text, Quote, Line), JSON safe to print and serve (JSON), no URL's user
// info (RedactURL) (seeds/crawler.txt, "Hostile input").
package termtext
