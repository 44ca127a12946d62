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

// describe is the one-line text of a change, without its nested changes. Each family of
// change tokens (project, release, relationship and component, artifact) has its own lines;
// a token none of them knows is described by what it holds.
func describe(c Change) string {
	for _, family := range []func(Change) (string, bool){projectLine, releaseLine, relationLine, artifactLine} {
		if s, ok := family(c); ok {
			return s
		}
	}
	return unknownLine(c)
}

// beforeAfter is "before -> after", the values of a change.
func beforeAfter(c Change) string { return text(c.Before) + " -> " + text(c.After) }

// projectLine describes a change to the project's own fields, links and channel heads.
func projectLine(c Change) (string, bool) {
	switch c.Change {
	case ChangeProjectField:
		return c.Field + " " + beforeAfter(c), true
	case ChangeTags, ChangeMaintainers, ChangeCredits, ChangeMedia:
		return c.Change + ": " + setText(c.Added, c.Removed), true
	case ChangePlatforms, ChangeCriticalExtensions, ChangeRequiredContent:
		return strings.ReplaceAll(c.Change, "-", " ") + ": " + setText(c.Added, c.Removed), true
	case ChangeLink:
		return "link " + c.Link + " " + beforeAfter(c), true
	case ChangeNexusMods:
		return "Nexus Mods " + beforeAfter(c), true
	case ChangeChannelHead:
		switch {
		case isNull(c.Before):
			return "+ channel " + c.Channel + " " + text(c.After), true
		case isNull(c.After):
			return "- channel " + c.Channel + " (head was " + text(c.Before) + ")", true
		}
		return c.Channel + " " + beforeAfter(c), true
	case ChangeSourceRevision:
		return "source " + c.Field + " " + beforeAfter(c), true
	}
	return "", false
}

// releaseLine describes a release added, removed or changed, and its runtime requirements.
func releaseLine(c Change) (string, bool) {
	rel := "release " + c.Version + channelNote(c.Channel)
	switch c.Change {
	case ChangeReleaseAdded:
		return releaseAdded(c), true
	case ChangeReleaseRemoved:
		return "- " + rel, true
	case ChangeReleaseStatus:
		if bytes.Equal(c.Before, c.After) {
			return rel + " " + text(c.After) + " notice" + noticeNote(c.Reason, c.Replacement), true
		}
		return rel + " " + beforeAfter(c) + noticeNote(c.Reason, c.Replacement), true
	case ChangeReleaseChannel:
		return "release " + c.Version + " channel " + beforeAfter(c), true
	case ChangeReleaseDate:
		return "release " + c.Version + " date " + beforeAfter(c), true
	case ChangeReleaseNotes:
		return "release " + c.Version + " notes edited", true
	case ChangeReleaseAmended:
		return rel + " amended", true
	case ChangeRuntime:
		return runtimeName(c.Runtime) + " runtime " + beforeAfter(c), true
	case ChangeLuaAPI:
		return "OpenMW Lua API " + beforeAfter(c), true
	}
	return "", false
}

// releaseAdded is "+ release 1.2.0 (stable, 2026-01-02, yanked)": the channel, date and a
// status other than available, those that are set.
func releaseAdded(c Change) string {
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
}

// relationLine describes a change to what a release provides, requires or recommends, to its
// components and groups, and to its extensions.
func relationLine(c Change) (string, bool) {
	switch c.Change {
	case ChangeCapabilityAdded:
		return "+ provides " + c.Capability, true
	case ChangeCapabilityRemoved:
		return "- provides " + c.Capability, true
	case ChangeRelationshipAdded:
		return "+ " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint), true
	case ChangeRelationshipRemoved:
		return "- " + c.Kind + " " + targetText(c.Target) + ptrNote(c.Constraint), true
	case ChangeRelationshipConstraint:
		return c.Kind + " " + targetText(c.Target) + " " + beforeAfter(c), true
	case ChangeRelationshipKind:
		return targetText(c.Target) + " " + beforeAfter(c), true
	case ChangeComponentAdded:
		return "+ component " + c.Component + nameNote(c.Name), true
	case ChangeComponentRemoved:
		return "- component " + c.Component + nameNote(c.Name), true
	case ChangeComponentSelection:
		return "component " + c.Component + ": " + strings.Join(c.Details, "; "), true
	case ChangeGroupSelection:
		return "group " + c.Group + " selection " + beforeAfter(c), true
	case ChangeExtensionAdded:
		return "+ extension " + c.Namespace, true
	case ChangeExtensionRemoved:
		return "- extension " + c.Namespace, true
	case ChangeExtensionChanged:
		return "extension " + c.Namespace + " changed", true
	}
	return "", false
}

// artifactLine describes a change to a release's artifacts, their sources and signatures.
func artifactLine(c Change) (string, bool) {
	a := "artifact " + c.Artifact
	switch c.Change {
	case ChangeArtifactAdded:
		return "+ " + a + " (" + c.Filename + ", " + strconv.FormatUint(c.Size, 10) + " bytes)", true
	case ChangeArtifactRemoved:
		return "- " + a + " (" + c.Filename + ")", true
	case ChangeArtifactDigest:
		return a + " sha256 " + beforeAfter(c), true
	case ChangeArtifactSize:
		return a + " size " + beforeAfter(c) + " bytes", true
	case ChangeArtifactFile:
		return a + ": " + strings.Join(c.Details, "; "), true
	case ChangeArtifactSourceAdded:
		return "+ " + a + " source " + c.URL + " (" + c.Kind + ")", true
	case ChangeArtifactSourceRemoved:
		return "- " + a + " source " + c.URL + " (" + c.Kind + ")", true
	case ChangeSignatureAdded:
		return "+ " + a + " signature " + c.URL + " (" + c.Format + ")", true
	case ChangeSignatureRemoved:
		return "- " + a + " signature " + c.URL + " (" + c.Format + ")", true
	}
	return "", false
}

// unknownLine describes a token this build does not know (a change built in code) by what it
// holds.
func unknownLine(c Change) string {
	s := c.Change
	for _, f := range []string{c.Channel, c.Version, c.Artifact, c.Component, c.Group, c.Field} {
		if f != "" {
			s += " " + f
		}
	}
	if len(c.Before) > 0 || len(c.After) > 0 {
		s += " " + beforeAfter(c)
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
