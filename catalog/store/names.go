package store

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// CanonicalURL is the one spelling of an http(s) URL used to name and compare site indexes and
// enrolled URLs (RFC 3986 sections 6.2.2, 6.2.3 and 5.2.4): scheme and host lowercased, IDN as
// punycode, trailing dots and a default port dropped, %-escapes normalized, dot segments
// removed; the rest kept as published. A URL with no host, or one IDNA cannot map, is returned
// lowercased; a canonical URL is returned byte for byte.
func CanonicalURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" || u.User != nil || strings.Contains(u.Host, "%") {
		return raw
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := u.Hostname(), u.Port()
	if strings.HasSuffix(u.Host, ":") { // "h:" is an empty port: the default
		port = ""
	}
	// Every trailing dot goes, so the result is idempotent.
	host = strings.TrimRight(strings.ToLower(host), ".")
	if strings.Contains(host, ":") { // an IPv6 literal
		host = "[" + host + "]"
	} else if net.ParseIP(host) == nil {
		if a, err := idna.Lookup.ToASCII(host); err == nil && a != "" {
			host = a
		}
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	rest := raw[strings.Index(raw, "//")+2:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[i:]
	} else {
		rest = ""
	}
	frag := ""
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, frag = rest[:i], rest[i:]
	}
	path, query := rest, ""
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		path, query = rest[:i], rest[i:]
	}
	out := scheme + "://" + host + removeDotSegments(normalizeEscapes(path)) + normalizeEscapes(query) + frag
	if out == raw {
		return raw
	}
	return out
}

// normalizeEscapes uppercases every %-escape's hex digits and decodes the escapes of
// unreserved characters (RFC 3986 sections 6.2.2.1 and 6.2.2.2).
func normalizeEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		var c []byte
		if s[i] == '%' && i+2 < len(s) {
			c, _ = hex.DecodeString(s[i+1 : i+3])
		}
		if len(c) == 0 {
			b.WriteByte(s[i])
			continue
		}
		if isUnreserved(c[0]) {
			b.WriteByte(c[0])
		} else {
			b.WriteString(strings.ToUpper(s[i : i+3]))
		}
		i += 2
	}
	return b.String()
}

func isUnreserved(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// removeDotSegments is RFC 3986 section 5.2.4 for an absolute (or empty) path; empty segments
// are kept.
func removeDotSegments(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	return strings.Join(out, "/")
}

// maxSlug bounds the readable part of a name, as the reference index does.
const maxSlug = 56

// SiteID names a site by its canonical index URL (FORMATS section 1.8): Slug of the host and
// the index's directory, "-", and 8 hex digits of the SHA-256 of the WHATWG serialization;
// e.g. "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8" (seeds/state.txt, "Names").
func SiteID(indexURL string) string {
	u, ok := parseWHATWG(indexURL)
	if !ok {
		return readableID(indexURL, indexURL)
	}
	dir := u.path
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i+1]
	}
	return readableID(u.hostname+dir, u.String())
}

// SourceID names a source file by the enrolled URL (FORMATS section 1.8): Slug of the host and
// path, "-", and 8 hex digits of the SHA-256 of the WHATWG serialization.
func SourceID(enrolledURL string) string {
	u, ok := parseWHATWG(enrolledURL)
	if !ok {
		return readableID(enrolledURL, enrolledURL)
	}
	return readableID(u.hostname+u.path, u.String())
}

// readableID is Slug(readable), "-" and 8 hex digits of SHA-256(hashed); the digits alone when
// the slug is empty.
func readableID(readable, hashed string) string {
	sum := sha256.Sum256([]byte(hashed))
	h := hex.EncodeToString(sum[:])[:8]
	s := Slug(readable)
	if s == "" {
		return h
	}
	return s + "-" + h
}

// Slug keeps each ASCII letter and digit of s, lowercased, turns every run of other bytes into
// one "-", trims both ends, and cuts at maxSlug (FORMATS section 1.8).
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		default:
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteByte(c)
	}
	out := b.String()
	if len(out) > maxSlug {
		out = strings.TrimRight(out[:maxSlug], "-")
	}
	return out
}

// whatwgURL is a URL in the parts the url crate (WHATWG URL) serializes.
type whatwgURL struct {
	scheme, userinfo, hostname, port, path, query, fragment string
	hasQuery, hasFragment                                   bool
}

// String is the WHATWG serialization.
func (u whatwgURL) String() string {
	var b strings.Builder
	b.WriteString(u.scheme + "://")
	if u.userinfo != "" {
		b.WriteString(u.userinfo + "@")
	}
	b.WriteString(u.hostname)
	if u.port != "" {
		b.WriteString(":" + u.port)
	}
	b.WriteString(u.path)
	if u.hasQuery {
		b.WriteString("?" + u.query)
	}
	if u.hasFragment {
		b.WriteString("#" + u.fragment)
	}
	return b.String()
}

// parseWHATWG reads an http(s) URL as the reference's url crate does (WHATWG); false for a URL
// that does not parse or has no host.
func parseWHATWG(raw string) (whatwgURL, bool) {
	p, err := url.Parse(raw)
	if err != nil || p.Host == "" || p.Opaque != "" {
		return whatwgURL{}, false
	}
	u := whatwgURL{scheme: strings.ToLower(p.Scheme), port: p.Port()}
	if p.User != nil {
		u.userinfo = p.User.String()
	}
	host := strings.ToLower(p.Hostname())
	switch {
	case strings.Contains(host, ":"): // an IPv6 literal
		if ip := net.ParseIP(host); ip != nil {
			host = ip.String()
		}
		host = "[" + host + "]"
	case net.ParseIP(host) != nil:
	default:
		if a, err := idna.Lookup.ToASCII(host); err == nil && a != "" {
			host = a
		}
	}
	u.hostname = host
	if (u.scheme == "http" && u.port == "80") || (u.scheme == "https" && u.port == "443") {
		u.port = ""
	}
	u.path = removeDotSegments(p.EscapedPath())
	if u.path == "" {
		u.path = "/"
	}
	u.query, u.hasQuery = p.RawQuery, p.RawQuery != "" || p.ForceQuery
	u.fragment, u.hasFragment = p.EscapedFragment(), p.Fragment != "" || strings.HasSuffix(raw, "#")
	return u, true
}
