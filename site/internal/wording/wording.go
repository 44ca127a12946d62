// Package wording holds the index's own small wording helpers the pages share: counts with
// their noun, byte sizes, observation times.
package wording

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Deref is *s, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// When shows an observation time ("2026-10-10T12:36:05Z") as "2026-10-10 12:36:05 UTC":
// the template function "when", plain text without a <time> element, which nothing that
// reads the pages uses.
func When(s string) string {
	if len(s) == 20 && s[10] == 'T' && s[19] == 'Z' {
		return s[:10] + " " + s[11:19] + " UTC"
	}
	return s
}

// Size is a byte count with thousands separators and a binary unit: "23,274 bytes
// (22.7 KiB)".
func Size(n int64) string {
	s, neg := strings.CutPrefix(strconv.FormatInt(n, 10), "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if neg {
		out = "-" + out
	}
	unit := " bytes"
	if n == 1 {
		unit = " byte"
	}
	out += unit
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= 1024
		if f < 1024 || u == "TiB" {
			if n >= 1024 {
				out += " (" + strconv.FormatFloat(f, 'f', 1, 64) + " " + u + ")"
			}
			break
		}
	}
	return out
}

// NoOpenMW is how every page says a release states no OpenMW constraint (no
// runtimes.openmw): the templates print it and the project list's script reads it from the
// page.
const NoOpenMW = "OpenMW version not stated"

// Plural is n with its noun: "1 claim", "3 claims".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Clip shortens s to at most n runes, marking the cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// RelationVerb is a relationship kind as a verb phrase whose object is the target: "requires",
// "recommends", "conflicts with", "is compatible with", "replaces"; "" for a kind the
// protocol does not define (the page then quotes it).
func RelationVerb(kind string) string { return relationVerbs[kind] }

var relationVerbs = map[string]string{protocol.KindRequires: "requires", protocol.KindRecommends: "recommends",
	protocol.KindConflicts: "conflicts with", protocol.KindCompatible: "is compatible with", protocol.KindReplaces: "replaces"}

// linkShown is how many characters of a publisher URL after its host a link shows.
const linkShown = 40

// URLText is the visible text of a link to a publisher's http or https URL, whose href holds
// the whole URL: the host and what follows it, without "https://" ("http://" stays, so an
// unencrypted link says so), a longer rest shortened with "…" to its last path segment
// ("example.org/…/issues") or, when that is long too, to its first linkShown characters,
// because a page that prints each long URL twice spends most of its bytes on them. The host
// stays whole: it says where the link goes. "" for any other URL, which the link then prints
// whole.
func URLText(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	rest := u.Path
	if u.RawQuery != "" {
		rest += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		rest += "#" + u.Fragment
	}
	if len([]rune(rest)) > linkShown {
		p := strings.TrimSuffix(u.Path, "/")
		last := p[strings.LastIndex(p, "/")+1:]
		if i := strings.LastIndex(p, "/"); i > 0 && len([]rune(last)) <= linkShown-4 {
			rest = "/…/" + last
		} else {
			rest = Clip(rest, linkShown)
		}
	}
	host := u.Host
	if a := IDNHost(raw); a != "" {
		host = a
		if p := u.Port(); p != "" {
			host += ":" + p
		}
	}
	if u.Scheme == "http" {
		return "http://" + host + rest
	}
	return host + rest
}

// IDNHost is the ASCII (punycode) form of the host of a publisher's http, https or mailto URL
// when that host is an internationalized name: letters other than a-z, 0-9 and "-", or a label
// already in punycode ("xn--"). Letters of other scripts can copy another site's name
// ("nеxusmods.com" with a Cyrillic е), so pages show such a host only in this form and say why.
// "" for a plain ASCII host or a URL without a host.
func IDNHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := u.Hostname()
	if u.Scheme == "mailto" {
		host = u.Opaque
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if h, err := url.PathUnescape(host); err == nil {
			host = h
		}
	}
	host = strings.ToLower(host)
	plain := !strings.ContainsFunc(host, func(r rune) bool { return r >= 0x80 })
	if host == "" || plain && !strings.HasPrefix(host, "xn--") && !strings.Contains(host, ".xn--") {
		return ""
	}
	a, err := idna.Punycode.ToASCII(host)
	if err != nil {
		return strconv.QuoteToASCII(host)
	}
	return a
}

// RawJSON shows a publisher's JSON value (an extension this index does not interpret)
// indented, as text.
func RawJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}
