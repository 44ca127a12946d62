package diff

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Lines renders changes as readable plain-text lines, one fact per line, "before -> after":
//
//	stable 1.1.0 -> 1.2.0
//	  OpenMW runtime >=0.49 -> >=0.50
//	  + requires Tallow >=1.0
//
// Nested changes (inside a moved channel head or an amended release) are indented by two spaces
// per level; unusual facts start with "unusual: ". An added release lists its publisher's
// notes.breaking, notes.migration and notes.known_issues verbatim (multi-line text continues
// on indented lines); nothing else is called breaking. Absent values read "(none)". The text
// is publisher data as published: callers writing HTML must escape it. Used by `ashyams diff`
// and the site's updates pages.
func Lines(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = appendLines(out, "", c)
	}
	return out
}

func appendLines(out []string, indent string, c Change) []string {
	line := describe(c)
	if c.Unusual {
		line = "unusual: " + line
	}
	out = append(out, indent+line)
	in := indent + "  "
	if c.Change == ChangeReleaseAdded {
		out = appendNotes(out, in, c.Notes)
	}
	for _, n := range c.Changes {
		out = appendLines(out, in, n)
	}
	return out
}

// appendNotes lists notes.breaking, notes.migration and notes.known_issues as published.
func appendNotes(out []string, indent string, raw json.RawMessage) []string {
	var n struct {
		Breaking    []string `json:"breaking"`
		Migration   string   `json:"migration"`
		KnownIssues []string `json:"known_issues"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &n) != nil {
		return out
	}
	text := func(label, s string) {
		parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
		out = append(out, indent+label+": "+parts[0])
		for _, p := range parts[1:] {
			out = append(out, indent+"  "+p)
		}
	}
	for _, b := range n.Breaking {
		text("breaking", b)
	}
	if n.Migration != "" {
		text("migration", n.Migration)
	}
	for _, k := range n.KnownIssues {
		text("known issue", k)
	}
	return out
}

// describe is the one-line text of a change, without its nested changes.
func describe(c Change) string {
	ba := text(c.Before) + " -> " + text(c.After)
	rel := "release " + c.Version + channelNote(c.Channel)
	switch c.Change {
	case ChangeProjectField, ChangeDocumentField:
		return c.Field + " " + ba
	case ChangeChannelHead:
		return c.Channel + " " + ba
	case ChangeChannelAdded:
		return "+ channel " + c.Channel + " " + c.Version
	case ChangeChannelRemoved:
		return "- channel " + c.Channel + " (head was " + c.Version + ")"
	case ChangeReleaseAdded:
		var facts []string
		for _, f := range []string{c.Channel, c.Date} {
			if f != "" {
				facts = append(facts, f)
			}
		}
		if c.Status != "" && c.Status != "available" {
			facts = append(facts, c.Status)
		}
		s := "+ release " + c.Version
		if len(facts) > 0 {
			s += " (" + strings.Join(facts, ", ") + ")"
		}
		return s
	case ChangeReleaseRemoved:
		return "- release " + c.Version + channelNote(c.Channel)
	case ChangeReleaseYanked, ChangeReleaseDeprecated:
		return rel + " " + ba + noticeNote(c.Notice)
	case ChangeReleaseRestored, ChangeReleaseStatus:
		return rel + " " + ba
	case ChangeReleaseNotice:
		return rel + " " + c.Field + " notice " + noticeText(c.Before) + " -> " + noticeText(c.After)
	case ChangeReleaseChannel:
		return "release " + c.Version + " channel " + ba
	case ChangeReleaseDate:
		return "release " + c.Version + " date " + ba
	case ChangeReleaseNotes:
		return rel + " notes edited" + keysNote(c.Before, c.After)
	case ChangeReleaseAmended:
		return rel + " amended"
	case ChangeReleaseVersion:
		return "version " + ba
	case ChangeRuntime:
		return runtimeName(c.Field) + " runtime " + ba
	case ChangeLuaAPI:
		return "OpenMW Lua API " + ba
	case ChangePlatformAdded:
		return "+ platform " + platformText(c.After)
	case ChangePlatformRemoved:
		return "- platform " + platformText(c.Before)
	case ChangeRequiresContent:
		if c.Component != "" {
			return "component " + c.Component + " requires content " + ba
		}
		return "requires content " + ba
	case ChangeCriticalExtensions:
		return "critical extensions " + ba
	case ChangeProvidesAdded:
		return "+ provides " + c.Capability
	case ChangeProvidesRemoved:
		return "- provides " + c.Capability
	case ChangeRelationshipAdded:
		return "+ " + c.Kind + " " + targetText(c.Target) + constraintNote(c.After)
	case ChangeRelationshipRemoved:
		return "- " + c.Kind + " " + targetText(c.Target) + constraintNote(c.Before)
	case ChangeRelationshipConstraint:
		return c.Kind + " " + targetText(c.Target) + " " + ba
	case ChangeRelationshipKind:
		return targetText(c.Target) + " " + ba
	case ChangeRelationshipField:
		return c.Kind + " " + targetText(c.Target) + " " + c.Field + " " + ba
	case ChangeComponentAdded:
		return "+ component " + c.Component
	case ChangeComponentRemoved:
		return "- component " + c.Component
	case ChangeComponentField:
		return "component " + c.Component + " " + c.Field + " " + ba
	case ChangeGroupAdded:
		return "+ group " + c.Group + groupNote(c.After)
	case ChangeGroupRemoved:
		return "- group " + c.Group + groupNote(c.Before)
	case ChangeGroupField:
		return "group " + c.Group + " " + c.Field + " " + ba
	case ChangeExtensionField:
		return "extension " + c.Field + " " + ba
	case ChangeArtifactAdded:
		return "+ artifact " + c.Artifact + artifactNote(c.After)
	case ChangeArtifactRemoved:
		return "- artifact " + c.Artifact + artifactNote(c.Before)
	case ChangeArtifactPlatform:
		return "artifact " + c.Artifact + " platform " + platformText(c.Before) + " -> " + platformText(c.After)
	case ChangeArtifactSize:
		return "artifact " + c.Artifact + " size " + ba + " bytes"
	case ChangeArtifactDigest:
		return "artifact " + c.Artifact + " sha256 " + ba
	case ChangeArtifactSources, ChangeArtifactSignatures:
		return "artifact " + c.Artifact + " " + strings.TrimPrefix(c.Change, "artifact-") + " " + urlsText(c.Before) + " -> " + urlsText(c.After)
	case ChangeArtifactFormat, ChangeArtifactFilename, ChangeArtifactMediaType, ChangeArtifactLayout:
		return "artifact " + c.Artifact + " " + strings.ReplaceAll(strings.TrimPrefix(c.Change, "artifact-"), "-", " ") + " " + ba
	case ChangeSourceRepository, ChangeSourceTag, ChangeSourceRelease, ChangeSourceRevision:
		return "source " + strings.TrimPrefix(c.Change, "source-") + " " + ba
	}
	// a kind this build does not know (a newer crawler's event): say what it holds
	s := c.Change
	for _, f := range []string{c.Channel, c.Version, c.Artifact, c.Component, c.Group, c.Field} {
		if f != "" {
			s += " " + f
		}
	}
	if len(c.Before) > 0 || len(c.After) > 0 {
		s += " " + ba
	}
	return s
}

func channelNote(ch string) string {
	if ch == "" {
		return ""
	}
	return " (" + ch + ")"
}

// text renders a JSON value: strings as themselves, lists of scalars comma-separated, null and
// empty lists as "(none)", objects as compact JSON.
func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return valueText(v)
}

func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []any:
		if len(x) == 0 {
			return "(none)"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			if _, obj := e.(map[string]any); obj {
				parts[i] = string(js(e))
			} else {
				parts[i] = valueText(e)
			}
		}
		return strings.Join(parts, ", ")
	default:
		return string(js(v))
	}
}

func runtimeName(id string) string {
	if id == "openmw" {
		return "OpenMW"
	}
	return id
}

func platformText(raw json.RawMessage) string {
	var p struct{ OS, Arch, Variant string }
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &p) != nil {
		return text(raw)
	}
	return strings.TrimSpace(p.OS + " " + p.Arch + " " + p.Variant)
}

// targetText names a relationship target: its name, else its project id, else its capability,
// else its URL; "(nothing named)" for a relationship naming none of them.
func targetText(raw json.RawMessage) string {
	var t target
	if len(raw) == 0 || json.Unmarshal(raw, &t) != nil {
		return "(nothing named)"
	}
	switch {
	case t.Name != "":
		return t.Name
	case t.Project != "":
		return t.Project
	case t.Capability != "":
		return "capability " + t.Capability
	case t.URL != "":
		return t.URL
	}
	return "(nothing named)"
}

func constraintNote(raw json.RawMessage) string {
	var r struct{ Version string }
	if len(raw) == 0 || json.Unmarshal(raw, &r) != nil || r.Version == "" {
		return ""
	}
	return " " + r.Version
}

func noticeNote(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return ": " + noticeText(raw)
}

func noticeText(raw json.RawMessage) string {
	var n struct{ Reason, Replacement string }
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &n) != nil {
		return text(raw)
	}
	if n.Replacement != "" {
		return n.Reason + " (replacement " + n.Replacement + ")"
	}
	return n.Reason
}

// keysNote names the notes fields that differ: " (summary, breaking)".
func keysNote(b, a json.RawMessage) string {
	var bm, am map[string]json.RawMessage
	json.Unmarshal(b, &bm)
	json.Unmarshal(a, &am)
	var keys []string
	for _, k := range []string{"summary", "highlights", "added", "changed", "fixed", "breaking", "migration", "known_issues", "notes"} {
		if !bytes.Equal(bm[k], am[k]) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return " (" + strings.Join(keys, ", ") + ")"
}

func groupNote(raw json.RawMessage) string {
	var g struct{ Select string }
	if json.Unmarshal(raw, &g) != nil || g.Select == "" {
		return ""
	}
	return " (" + g.Select + ")"
}

func artifactNote(raw json.RawMessage) string {
	var a struct {
		Format string
		Size   int64
	}
	if json.Unmarshal(raw, &a) != nil || a.Format == "" {
		return ""
	}
	return " (" + a.Format + ", " + jsNumber(a.Size) + " bytes)"
}

func jsNumber(n int64) string { return string(js(n)) }

// urlsText lists the URLs of sources or signatures.
func urlsText(raw json.RawMessage) string {
	var l []struct{ URL string }
	if json.Unmarshal(raw, &l) != nil {
		return text(raw)
	}
	if len(l) == 0 {
		return "(none)"
	}
	urls := make([]string, len(l))
	for i, x := range l {
		urls[i] = x.URL
	}
	return strings.Join(urls, ", ")
}
