package termtext

import (
	"strings"
	"testing"
)

// TestRedactURL: user info goes from URLs, from strings that do not parse as URLs and from
// messages quoting them; bare addresses and URLs without user info are unchanged.
func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://u:s3cr3t@host/", "https://xxxxx@host/"},
		{"https://token@host/x", "https://xxxxx@host/x"},
		{"http://u:s3cr3t@[::1]:8080/", "http://xxxxx@[::1]:8080/"},
		{"https://u:p@ss:w@rd@host/", "https://xxxxx@host/"},
		{":s3cr3t@", "xxxxx@"},
		{"u:s3cr3t@host/", "xxxxx@host/"},
		{"u:s3?c(r3t@host", "xxxxx@host"},
		{`url ":s3cr3t@" does not parse`, `url "xxxxx@" does not parse`},
		{`GET https://a:b@x.example/ -> https://c:d@y.example/z`, `GET https://xxxxx@x.example/ -> https://xxxxx@y.example/z`},
		{`{"source": "https://u:s3cr3t@host/"}`, `{"source": "https://xxxxx@host/"}`},
		{"https://u:xxxxx@host/", "https://xxxxx@host/"},
		{"https://xxxxx@host/", "https://xxxxx@host/"},
		// Unchanged.
		{"https://host/path/@user/x", "https://host/path/@user/x"},
		{"someone@example.org", "someone@example.org"},
		{"git@github.com:x/y", "git@github.com:x/y"},
		{"mailto:someone@example.org", "mailto:someone@example.org"},
		{"mailto:u:s3cr3t@host", "xxxxx@host"},
		{"12:00:05 no at sign", "12:00:05 no at sign"},
		{"", ""},
	} {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := RedactURL(RedactURL(c.in)); got != c.want {
			t.Errorf("RedactURL twice (%q) = %q", c.in, got)
		}
	}
}

// FuzzRedactURL: whatever the text, a password in a URL of it is gone after RedactURL.
func FuzzRedactURL(f *testing.F) {
	f.Add("https://", "u", "s3cr3t", "host/")
	f.Add("", "", "s3cr3t", "")
	f.Add("x \"", "a(b", "s3cr3t", "h?#")
	f.Fuzz(func(t *testing.T, pre, user, pass, post string) {
		if len(pass) < 4 || strings.ContainsAny(pass+user, " \t\n\r\"'`<>/@") || strings.Contains(pre+user+post, pass) ||
			strings.Contains(Redacted, pass) || strings.Contains(post, "@") {
			return
		}
		s := pre + user + ":" + pass + "@" + post
		if got := RedactURL(s); strings.Contains(got, pass) {
			t.Errorf("RedactURL(%q) = %q keeps the password", s, got)
		}
	})
}
