// Package wording holds the index's own small wording helpers the pages share: counts with
// their noun, byte sizes, observation times.
package wording

import (
	"strconv"
	"strings"
)

// Deref is *s, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// When shows an observation time ("2026-10-10T12:36:05Z") as "2026-10-10 12:36:05 UTC".
func When(s string) string {
	if len(s) == 20 && s[10] == 'T' && s[19] == 'Z' {
		return s[:10] + " " + s[11:19] + " UTC"
	}
	return s
}

// Size is a byte count with thousands separators and a binary unit: "23,274 bytes
// (22.7 KiB)".
func Size(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
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
