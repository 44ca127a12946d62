package store

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"
)

// maxSlug bounds the readable part of a name so paths stay short on every filesystem.
const maxSlug = 64

// SiteID names a site by its index URL: the slug of host and path (a final "dreamweave.json"
// segment dropped), "-", and the first 8 hex digits of the SHA-256 of the URL exactly as
// given. https://dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave.json gives
// "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8" (seeds/state.txt, "Names").
func SiteID(indexURL string) string { return name(indexURL) }

// SourceID names a source file by the enrolled URL, the same way as SiteID:
// https://dreamweave-mp.github.io/DreamWeave-Mod-Template/ gives
// "dreamweave-mp-github-io-dreamweave-mod-template-1d2d6801".
func SourceID(enrolledURL string) string { return name(enrolledURL) }

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
