package diff

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Lines renders changes as readable plain-text lines, one fact per line, "before -> after":
//
//	stable 1.1.0 -> 1.2.0
//	  OpenMW runtime >=0.49 -> >=0.50
//	  + requires Tallow >=1.0
//
// Unusual changes (see Unusual) come first and start with "unusual: ", and so do the digest
// changes inside an unusual amendment. Nested changes (inside a moved channel head or an
// amended release) are indented by two spaces per level. An added release lists its
// publisher's notes.breaking, notes.migration and notes.known_issues verbatim (multi-line text
// continues on indented lines); nothing else is called breaking. Absent values read "(none)".
// The text is publisher data as published: callers writing HTML must escape it. Used by
// `ashyams diff` and the site's updates pages.
func Lines(changes []Change) []string {
	idx := make([]int, len(changes))
	unusual := make([]bool, len(changes))
	for i, c := range changes {
		idx[i], unusual[i] = i, Unusual(c, changes)
	}
	sort.SliceStable(idx, func(x, y int) bool { return unusual[idx[x]] && !unusual[idx[y]] })
	var out []string
	for _, i := range idx {
		out = appendLines(out, "", changes[i], unusual[i])
	}
	return out
}

func appendLines(out []string, indent string, c Change, unusual bool) []string {
	line := describe(c)
	if unusual {
		line = "unusual: " + line
	}
	out = append(out, indent+line)
	in := indent + "  "
	if c.Change == ChangeReleaseAdded {
		out = appendNotes(out, in, c.Notes)
	}
	for _, n := range c.Changes {
		out = appendLines(out, in, n, unusual && c.Change == ChangeReleaseAmended && n.Change == ChangeArtifactDigest)
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
	case ChangeProjectField:
		return c.Field + " " + ba
	case ChangeTags, ChangeMaintainers, ChangeCredits, ChangeMedia:
		return c.Change + ": " + setText(c.Added, c.Removed)
	case ChangePlatforms, ChangeCriticalExtensions, ChangeRequiredContent:
		return strings.ReplaceAll(c.Change, "-", " ") + ": " + setText(c.Added, c.Removed)
	case ChangeLink:
		return "link " + c.Link + " " + ba
	case ChangeNexusMods:
		return "Nexus Mods " + ba
	case ChangeChannelHead:
		switch {
		case isNull(c.Before):
			return "+ channel " + c.Channel + " " + text(c.After)
		case isNull(c.After):
			return "- channel " + c.Channel + " (head was " + text(c.Before) + ")"
		}
		return c.Channel + " " + ba
	case ChangeReleaseAdded:
		var facts []string
		if c.Channel != "" {
			facts = append(facts, c.Channel)
		}
		if c.Date != nil && *c.Date != "" {
			facts = append(facts, *c.Date)
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
	case ChangeReleaseStatus:
		if bytes.Equal(c.Before, c.After) {
			return rel + " " + text(c.After) + " notice" + noticeNote(c.Reason, c.Replacement)
		}
		return rel + " " + ba + noticeNote(c.Reason, c.Replacement)
	case ChangeReleaseChannel:
		return "release " + c.Version + " channel " + ba
	case ChangeReleaseDate:
		return "release " + c.Version + " date " + ba
	case ChangeReleaseNotes:
		return "release " + c.Version + " notes edited"
	case ChangeReleaseAmended:
		return rel + " amended"
	case ChangeRuntime:
		return runtimeName(c.Runtime) + " runtime " + ba
	case ChangeLuaAPI:
		return "OpenMW Lua API " + ba
	case ChangeCapabilityAdded:
		return "+ provides " + c.Capability
	case ChangeCapabilityRemoved:
		return "- provides " + c.Capability
	case ChangeRelationshipAdded:
		return "+ " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint)
	case ChangeRelationshipRemoved:
		return "- " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint)
	case ChangeRelationshipConstraint:
		return c.Kind + " " + targetText(c.Target) + " " + ba
	case ChangeRelationshipKind:
		return targetText(c.Target) + " " + ba
	case ChangeComponentAdded:
		return "+ component " + c.Component + nameNote(c.Name)
	case ChangeComponentRemoved:
		return "- component " + c.Component + nameNote(c.Name)
	case ChangeComponentSelection:
		return "component " + c.Component + ": " + strings.Join(c.Details, "; ")
	case ChangeGroupSelection:
		return "group " + c.Group + " selection " + ba
	case ChangeExtensionAdded:
		return "+ extension " + c.Namespace
	case ChangeExtensionRemoved:
		return "- extension " + c.Namespace
	case ChangeExtensionChanged:
		return "extension " + c.Namespace + " changed"
	case ChangeArtifactAdded:
		return "+ artifact " + c.Artifact + " (" + c.Filename + ", " + strconv.FormatUint(c.Size, 10) + " bytes)"
	case ChangeArtifactRemoved:
		return "- artifact " + c.Artifact + " (" + c.Filename + ")"
	case ChangeArtifactDigest:
		return "artifact " + c.Artifact + " sha256 " + ba
	case ChangeArtifactSize:
		return "artifact " + c.Artifact + " size " + ba + " bytes"
	case ChangeArtifactFile:
		return "artifact " + c.Artifact + ": " + strings.Join(c.Details, "; ")
	case ChangeArtifactSourceAdded:
		return "+ artifact " + c.Artifact + " source " + c.URL + " (" + c.Kind + ")"
	case ChangeArtifactSourceRemoved:
		return "- artifact " + c.Artifact + " source " + c.URL + " (" + c.Kind + ")"
	case ChangeSignatureAdded:
		return "+ artifact " + c.Artifact + " signature " + c.URL + " (" + c.Format + ")"
	case ChangeSignatureRemoved:
		return "- artifact " + c.Artifact + " signature " + c.URL + " (" + c.Format + ")"
	case ChangeSourceRevision:
		return "source " + c.Field + " " + ba
	}
	// a token this build does not know (a change built in code): say what it holds
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

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// setText is "+ a, + b, - c" for what was added and removed.
func setText(added, removed []string) string {
	var parts []string
	for _, s := range added {
		parts = append(parts, "+ "+s)
	}
	for _, s := range removed {
		parts = append(parts, "- "+s)
	}
	return strings.Join(parts, ", ")
}

// text renders a JSON value: strings as themselves, the empty string as "(empty)", null as
// "(none)", anything else as its JSON text.
func text(raw json.RawMessage) string {
	if isNull(raw) {
		return "(none)"
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return "(empty)"
		}
		return s
	}
	return string(bytes.TrimSpace(raw))
}

func runtimeName(id string) string {
	if id == "openmw" {
		return "OpenMW"
	}
	return id
}

// targetText names a relationship target: its name, else its project id, else its capability,
// else its URL; "(nothing named)" for a target naming none of them.
func targetText(t *Target) string {
	switch {
	case t == nil:
		return "(nothing named)"
	case t.Capability != "" && (t.Name == "" || t.Name == t.Capability):
		return "capability " + t.Capability
	case t.Name != "":
		return t.Name
	case t.Project != "":
		return t.Project
	case t.URL != "":
		return t.URL
	}
	return "(nothing named)"
}

func ptrNote(p *string) string {
	if p == nil || *p == "" {
		return ""
	}
	return " " + *p
}

func nameNote(name string) string {
	if name == "" {
		return ""
	}
	return " (" + name + ")"
}

func noticeNote(reason, replacement *string) string {
	if reason == nil {
		return ""
	}
	s := ": " + *reason
	if replacement != nil && *replacement != "" {
		s += " (replacement " + *replacement + ")"
	}
	return s
}
