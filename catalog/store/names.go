package store

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// maxSlug bounds the readable part of a name so paths stay short on every filesystem.
const maxSlug = 64

// SiteID names a site by its index URL: the slug of host and path (a final "dreamweave.json"
// segment dropped), "-", and the first 8 hex digits of the SHA-256 of the URL exactly as
// given. https://dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave.json gives
// "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8" (seeds/state.txt, "Names").
//
// Callers pass a canonical URL (CanonicalURL): one site index spelled two ways (a host in
// capitals, a trailing dot, an explicit default port, an IDN host and its punycode) must get
// one id, and the id hashes what it is given, so that the names of records already held (all
// written from canonical URLs, the reference index's among them) never change.
func SiteID(indexURL string) string { return name(indexURL) }

// SourceID names a source file by the enrolled URL as written in sources.toml, the same way as
// SiteID: https://dreamweave-mp.github.io/DreamWeave-Mod-Template/ gives
// "dreamweave-mp-github-io-dreamweave-mod-template-1d2d6801". The loader refuses two spellings
// of one URL (crawl/sources compares them by CanonicalURL), so the spelling is the key; it is
// not canonicalized here, so a record keeps its name whatever the spelling.
func SourceID(enrolledURL string) string { return name(enrolledURL) }

// CanonicalURL is the one spelling of an http(s) URL used to name and compare site indexes
// (and enrolled URLs, for duplicates), RFC 3986 section 6.2.2 plus the scheme-based rules of
// 6.2.3: scheme and host lowercased, an IDN host in its ASCII (punycode) form, a trailing dot on
// the host and a default port (:80 for http, :443 for https) dropped; in path and query every
// %-escape's hex digits uppercased and an escaped unreserved character (ALPHA, DIGIT, "-", ".",
// "_", "~") decoded; dot segments ("." and "..") removed from the path (RFC 3986 section 5.2.4).
// Every HTTP server answers those spellings alike, so they are one site index. Everything else
// is kept exactly as published (a server may tell /A/ from /a/, or "//" from "/"), and so is
// the fragment. A URL that does not parse, or has no host, is returned unchanged; so is a host
// IDNA cannot map (only lowercased), so the result is always usable as a key. A URL already
// canonical (every name the corpus holds) is returned byte for byte, so no record is renamed.
func CanonicalURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" || u.User != nil || strings.Contains(u.Host, "%") {
		return raw // not a URL this index fetches: nothing to canonicalize
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := u.Hostname(), u.Port()
	if strings.HasSuffix(u.Host, ":") { // "h:" is an empty port: the default
		port = ""
	}
	// "h.." is no other host than "h." either: every trailing dot goes (idempotent).
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
	// Only the spellings above change; the rest is kept byte for byte.
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

// normalizeEscapes uppercases the hex digits of every %-escape in s and decodes the escapes of
// unreserved characters (RFC 3986 sections 6.2.2.1 and 6.2.2.2). A "%" not followed by two hex
// digits is left as it is.
func normalizeEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteByte(s[i])
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		if isUnreserved(c) {
			b.WriteByte(c)
		} else {
			b.WriteString(strings.ToUpper(s[i : i+3]))
		}
		i += 2
	}
	return b.String()
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// removeDotSegments is RFC 3986 section 5.2.4 for an absolute (or empty) path: "." segments
// dropped, ".." removing the segment before it (never above the root); a final "." or ".."
// leaves a final "/". Empty segments ("//") are kept.
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

func name(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	h := hex.EncodeToString(sum[:])[:8]
	s := Slug(readable(raw))
	if s == "" {
		return h
	}
	return s + "-" + h
}

// readable is host plus path, without scheme, query, fragment or a final dreamweave.json.
func readable(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	p := strings.TrimSuffix(u.Path, "/dreamweave.json")
	return u.Host + p
}

// Slug lowercases s and joins its runs of ASCII letters and digits with single hyphens, at
// most 64 characters, never starting or ending with a hyphen.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= maxSlug {
				break
			}
			continue
		}
		dash = true
	}
	return strings.TrimRight(b.String(), "-")
}
