package termtext

import "strings"

// Redacted is what RedactURL writes in place of a URL's user info.
const Redacted = "xxxxx"

// RedactURL replaces the user info of every URL in s with Redacted, the user name too (tokens
// often are one), in a URL, text, message or JSON (seeds/crawler.txt, "Hostile input"). It works
// on text, so nothing escapes it by failing to parse: in a run (cut at white space, quotes,
// angle brackets and '/') holding an '@', what precedes its last '@' is user info when it
// follows "//" or holds a ':'. Bare addresses stay. It is idempotent.
func RedactURL(s string) string {
	if strings.IndexByte(s, '@') < 0 {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is written
	for start := 0; start < len(s); {
		end := start
		for end < len(s) && !runEnd(s[end]) {
			end++
		}
		run := s[start:end]
		if at := strings.LastIndexByte(run, '@'); at > 0 {
			user := run[:at]
			authority := start >= 2 && s[start-2:start] == "//"
			if len(user) >= 7 && strings.EqualFold(user[:7], "mailto:") {
				user = user[7:] // an address, unless a ':' follows
			}
			if run[:at] != Redacted && (authority || strings.IndexByte(user, ':') >= 0) {
				b.WriteString(s[done:start])
				b.WriteString(Redacted)
				done = start + at
			}
		}
		start = end + 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// runEnd reports whether c ends a run of RedactURL: a character user info cannot hold
// unescaped and that text puts around URLs.
func runEnd(c byte) bool { return strings.IndexByte(" \t\n\r\"'`<>/", c) >= 0 }
