package refstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A shape is an object type of the reference's records: its keys, each with the check of its
// value and whether the key may be absent. Every type rejects unknown keys (FORMATS section 1).
type shape map[string]member

type member struct {
	check    check
	optional bool // left out when unset (skip_serializing_if); else the key is always written
}

// check says what is wrong with one value, "" when nothing; it may recurse through r for
// nested objects.
type check func(r *reader, rel, at string, v json.RawMessage) string

func req(c check) member { return member{check: c} }
func opt(c check) member { return member{check: c, optional: true} }

// object checks raw against sh at the key path at and returns its members, nil when it is not
// an object.
func (r *reader) object(rel, at string, raw json.RawMessage, sh shape) map[string]json.RawMessage {
	var o map[string]json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &o) != nil {
		r.add(rel, "%s is not an object", name(at))
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		m, ok := sh[k]
		if !ok {
			r.add(rel, "unknown field %q%s", k, in(at))
			continue
		}
		if msg := m.check(r, rel, join(at, k), o[k]); msg != "" {
			r.add(rel, "%s %s", join(at, k), msg)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sh)) {
		if _, ok := o[k]; !ok && !sh[k].optional {
			r.add(rel, "missing field %q%s", k, in(at))
		}
	}
	return o
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func name(at string) string {
	if at == "" {
		return "the record"
	}
	return at
}

func in(at string) string {
	if at == "" {
		return ""
	}
	return " in " + at
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

func str(v json.RawMessage) (string, bool) {
	var s string
	if isNull(v) || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// The value checks.
var (
	tStr check = func(_ *reader, _, _ string, v json.RawMessage) string {
		if _, ok := str(v); !ok {
			return "is not a string"
		}
		return ""
	}
	tTime          = pattern(timeRE, "a time (YYYY-MM-DDTHH:MM:SSZ)")
	tDigest        = pattern(digestRE, "a SHA-256 digest (64 lowercase hex digits)")
	tUUID          = pattern(uuidRE, "a lowercase UUID")
	tStrList       = list(tStr)
	tUint    check = func(_ *reader, _, _ string, v json.RawMessage) string {
		var n uint64
		if isNull(v) || json.Unmarshal(v, &n) != nil {
			return "is not a non-negative integer"
		}
		return ""
	}
	tObject check = func(_ *reader, _, _ string, v json.RawMessage) string {
		var o map[string]json.RawMessage
		if isNull(v) || json.Unmarshal(v, &o) != nil {
			return "is not an object"
		}
		return ""
	}
)

func pattern(re interface{ MatchString(string) bool }, what string) check {
	return func(_ *reader, _, _ string, v json.RawMessage) string {
		if s, ok := str(v); !ok || !re.MatchString(s) {
			return "is not " + what + ": " + string(v)
		}
		return ""
	}
}

func token(vocab map[string]bool) check {
	return func(_ *reader, _, _ string, v json.RawMessage) string {
		if s, ok := str(v); !ok || !vocab[s] {
			return "is not a token of its vocabulary: " + string(v)
		}
		return ""
	}
}

func null(c check) check {
	return func(r *reader, rel, at string, v json.RawMessage) string {
		if isNull(v) {
			return ""
		}
		return c(r, rel, at, v)
	}
}

func list(c check) check {
	return func(r *reader, rel, at string, v json.RawMessage) string {
		var xs []json.RawMessage
		if isNull(v) || json.Unmarshal(v, &xs) != nil {
			return "is not an array"
		}
		for i, x := range xs {
			if msg := c(r, rel, fmt.Sprintf("%s[%d]", at, i), x); msg != "" {
				return fmt.Sprintf("[%d] %s", i, msg)
			}
		}
		return ""
	}
}

func obj(sh shape) check {
	return func(r *reader, rel, at string, v json.RawMessage) string {
		if isNull(v) {
			return "is null"
		}
		r.object(rel, at, v, sh)
		return ""
	}
}

// FORMATS section 1.1.
var network = shape{
	"format": req(func(_ *reader, _, _ string, v json.RawMessage) string {
		if strings.TrimSpace(string(v)) != "1" {
			return "is not 1: " + string(v)
		}
		return ""
	}),
	"crawler":     req(tStr),
	"observed_at": req(tTime),
}

// FORMATS section 1.2.
var source = shape{
	"url":          req(tStr),
	"origin":       req(null(tStr)),
	"health":       req(token(sourceHealth)),
	"problem":      req(null(tStr)),
	"method":       req(null(tStr)),
	"trail":        req(list(obj(shape{"url": req(tStr), "outcome": req(tStr)}))),
	"last_attempt": req(tTime),
	"last_success": req(null(tTime)),
}

// FORMATS section 1.3.
var origin = shape{
	"id":             req(tStr),
	"index_url":      req(tStr),
	"site_name":      req(null(tStr)),
	"site_url":       req(null(tStr)),
	"generator":      req(null(tStr)),
	"sources":        req(tStrList),
	"redirects":      req(tStrList),
	"validators":     req(obj(shape{"etag": opt(tStr), "last_modified": opt(tStr)})),
	"index_sha256":   req(null(tDigest)),
	"health":         req(token(originHealth)),
	"problem":        req(null(tStr)),
	"issues":         req(tStrList),
	"previous":       req(list(obj(shape{"origin": req(tStr), "index_url": req(tStr), "observed_at": req(tTime), "evidence": req(tStr)}))),
	"first_observed": req(tTime),
	"last_attempt":   req(tTime),
	"last_success":   req(null(tTime)),
}

// FORMATS section 1.4; the entry is the protocol's IndexEntry.
var claim = shape{
	"project": req(tUUID),
	"origin":  req(tStr),
	"entry": req(obj(shape{
		"id": req(tUUID), "name": req(tStr), "summary": opt(tStr), "type": req(token(projectTypes)),
		"status": req(token(projectState)), "page": req(tStr), "manifest": req(tStr),
		"manifest_sha256": req(tDigest), "updated": req(null(tStr)),
		"channels": req(func(_ *reader, _, _ string, v json.RawMessage) string {
			var m map[string]string
			if isNull(v) || json.Unmarshal(v, &m) != nil {
				return "is not a map of channel to version"
			}
			return ""
		}),
	})),
	"advertised_sha256": req(tDigest),
	"ingested_sha256":   req(null(tDigest)),
	"rejected":          req(null(obj(shape{"sha256": req(tDigest), "crawler": req(tStr), "problem": req(tStr)}))),
	"health":            req(token(claimHealth)),
	"problem":           req(null(tStr)),
	"media": req(null(obj(shape{"url": req(tStr), "alt": req(tStr), "file": req(null(func(r *reader, rel, at string, v json.RawMessage) string {
		if s, _ := str(v); !strings.HasPrefix(s, "media/") || !mediaRE.MatchString(strings.TrimPrefix(s, "media/")) {
			return "is not media/<sha256>.<ext>: " + string(v)
		}
		return ""
	})), "problem": req(null(tStr))}))),
	"first_observed": req(tTime),
	"last_changed":   req(null(tTime)),
	"last_attempt":   req(tTime),
	"last_success":   req(null(tTime)),
}

// FORMATS section 1.5.
var event = shape{
	"id":          req(pattern(eventRE, "20 lowercase hex digits")),
	"kind":        req(token(eventKinds)),
	"project":     req(tStr),
	"origin":      req(tStr),
	"name":        req(tStr),
	"observed_at": req(tTime),
	"before":      req(null(tDigest)),
	"after":       req(null(tDigest)),
	"changes":     req(list(change(topChanges))),
	"moved_from":  opt(null(tStr)),
}
