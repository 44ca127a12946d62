package termtext

import "strings"

// Redacted is what RedactURL writes in place of a URL's user info.
const Redacted = "xxxxx"

// RedactURL returns s with the user info of every URL in it replaced by Redacted:
// "https://u:s3cr3t@host/" becomes "https://xxxxx@host/". The user name goes too, since
// tokens are often given as the user name alone. s may be one URL, a string that does not
// parse as a URL (":s3cr3t@", "u:s3cr3t@host/"), or a whole message or JSON document quoting
// URLs: every command prints through it (seeds/crawler.txt, "Hostile input": no secret from a
// URL is echoed).
//
// The rule works on text, not on parsed URLs, so nothing escapes it by failing to parse: s is
// cut into runs at white space, quotes, angle brackets and '/'; in a run holding an '@', the part
// before its last '@' is user info when it follows "//" (an authority) or holds a ':'
// (user:password). A bare address such as "someone@example.org" or "git@host" (no "//", no
// ':') and a "mailto:" address are left as they are. Applying it twice gives the same text.
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

// runEnd reports whether c ends a run of RedactURL: a character that cannot stand unescaped in
// a URL's user info and that messages, JSON and quoting put around URLs. The set is small on
// purpose: a character a password may hold ('?', '(', ...) never cuts it in two.
func runEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '/':
		return true
	}
	return false
}
