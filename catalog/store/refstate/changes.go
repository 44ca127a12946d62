package refstate

import (
	"encoding/json"
	"fmt"
)

// The change vocabulary (FORMATS section 1.6): each token's keys beside "change", top-level
// and release-level.
type vocabulary map[string]shape

var (
	tOptStr  = null(tStr)
	tAny     = check(func(_ *reader, _, _ string, _ json.RawMessage) string { return "" })
	tStrOrNo = null(tStr) // a before/after: a string, or null for none
	tTarget  = obj(shape{"project": opt(tStr), "capability": opt(tStr), "name": req(tStr), "url": opt(tStr)})
	tRelease = func(r *reader, rel, at string, v json.RawMessage) string {
		return list(change(releaseChanges))(r, rel, at, v)
	}
	sets = shape{"added": req(tStrList), "removed": req(tStrList)}
)

var topChanges = vocabulary{
	"project-field":   {"field": req(token(set("name", "summary", "type", "status", "versioning", "game", "license"))), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"tags":            sets,
	"maintainers":     sets,
	"credits":         sets,
	"media":           sets,
	"link":            {"link": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"nexus-mods":      {"before": req(tAny), "after": req(tAny)},
	"channel-head":    {"channel": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo), "changes": req(tRelease)},
	"release-added":   {"version": req(tStr), "channel": req(tStr), "date": req(tOptStr), "status": req(tStr), "notes": req(null(tObject))},
	"release-removed": {"version": req(tStr), "channel": req(tStr)},
	"release-status": {"version": req(tStr), "channel": req(tStr), "before": req(tStr), "after": req(tStr),
		"reason": req(tOptStr), "replacement": req(tOptStr)},
	"release-channel": {"version": req(tStr), "before": req(tStr), "after": req(tStr)},
	"release-date":    {"version": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"release-notes":   {"version": req(tStr)},
	"release-amended": {"version": req(tStr), "channel": req(tStr), "changes": req(tRelease)},
}

var releaseChanges = vocabulary{
	"runtime":                 {"runtime": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"lua-api":                 {"before": req(tStrOrNo), "after": req(tStrOrNo)},
	"platforms":               sets,
	"capability-added":        {"capability": req(tStr)},
	"capability-removed":      {"capability": req(tStr)},
	"relationship-added":      {"kind": req(tStr), "target": req(tTarget), "version": req(tOptStr)},
	"relationship-removed":    {"kind": req(tStr), "target": req(tTarget), "version": req(tOptStr)},
	"relationship-constraint": {"kind": req(tStr), "target": req(tTarget), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"relationship-kind":       {"target": req(tTarget), "before": req(tStr), "after": req(tStr)},
	"component-added":         {"component": req(tStr), "name": req(tStr)},
	"component-removed":       {"component": req(tStr), "name": req(tStr)},
	"component-selection":     {"component": req(tStr), "details": req(tAny)},
	"group-selection":         {"group": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo)},
	"required-content":        sets,
	"extension-added":         {"namespace": req(tStr)},
	"extension-removed":       {"namespace": req(tStr)},
	"extension-changed":       {"namespace": req(tStr)},
	"critical-extensions":     sets,
	"artifact-added":          {"artifact": req(tStr), "filename": req(tStr), "size": req(tUint), "sha256": req(tStr)},
	"artifact-removed":        {"artifact": req(tStr), "filename": req(tStr)},
	"artifact-digest":         {"artifact": req(tStr), "before": req(tStr), "after": req(tStr)},
	"artifact-size":           {"artifact": req(tStr), "before": req(tUint), "after": req(tUint)},
	"artifact-file":           {"artifact": req(tStr), "details": req(tAny)},
	"artifact-source-added":   {"artifact": req(tStr), "url": req(tStr), "kind": req(tStr)},
	"artifact-source-removed": {"artifact": req(tStr), "url": req(tStr), "kind": req(tStr)},
	"signature-added":         {"artifact": req(tStr), "format": req(tStr), "url": req(tStr)},
	"signature-removed":       {"artifact": req(tStr), "format": req(tStr), "url": req(tStr)},
	"source-revision":         {"field": req(tStr), "before": req(tStrOrNo), "after": req(tStrOrNo)},
}

// change checks one change object against a vocabulary: its "change" token, then its keys.
func change(vocab vocabulary) check {
	return func(r *reader, rel, at string, v json.RawMessage) string {
		var o map[string]json.RawMessage
		if isNull(v) || json.Unmarshal(v, &o) != nil {
			return "is not a change object"
		}
		tok, ok := str(o["change"])
		sh, known := vocab[tok]
		if !ok || !known {
			return fmt.Sprintf("has change %s, not a token of its vocabulary", o["change"])
		}
		full := shape{"change": req(tStr)}
		for k, m := range sh {
			full[k] = m
		}
		r.object(rel, at, v, full)
		return ""
	}
}
