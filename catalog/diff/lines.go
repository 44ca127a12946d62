package diff

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// Lines renders changes as plain-text lines, one fact each, "before -> after":
//
//	stable 1.1.0 -> 1.2.0
//	  OpenMW runtime >=0.49 -> >=0.50
//	  + requires Tallow >=1.0
//
// Unusual changes come first, starting "unusual: "; nested changes are indented two spaces per
// level; an added release lists its breaking notes verbatim; absent values read "(none)". The
// text is publisher data: HTML callers escape it.
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

func describe(c Change) string {
	if k, ok := vocabulary[c.Change]; ok {
		return k.line(c)
	}
	return unknownLine(c)
}

func beforeAfter(c Change) string { return text(c.Before) + " -> " + text(c.After) }

// setLine is "tags: + a, - b": the token, then what joined and left the set.
func setLine(c Change) string { return c.Change + ": " + setText(c.Added, c.Removed) }

// spacedSetLine is setLine with the token's dashes read as spaces ("required content: ...").
func spacedSetLine(c Change) string {
	return strings.ReplaceAll(c.Change, "-", " ") + ": " + setText(c.Added, c.Removed)
}

func channelHeadLine(c Change) string {
	switch {
	case isNull(c.Before):
		return "+ channel " + c.Channel + " " + text(c.After)
	case isNull(c.After):
		return "- channel " + c.Channel + " (head was " + text(c.Before) + ")"
	}
	return c.Channel + " " + beforeAfter(c)
}

func releaseName(c Change) string { return "release " + c.Version + channelNote(c.Channel) }

func releaseStatusLine(c Change) string {
	if bytes.Equal(c.Before, c.After) {
		return releaseName(c) + " " + text(c.After) + " notice" + noticeNote(c.Reason, c.Replacement)
	}
	return releaseName(c) + " " + beforeAfter(c) + noticeNote(c.Reason, c.Replacement)
}

// releaseAddedLine is "+ release 1.2.0 (stable, 2026-01-02, yanked)", with what is set.
func releaseAddedLine(c Change) string {
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

func artifactName(c Change) string { return "artifact " + c.Artifact }

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

// text renders a JSON value: strings as themselves, "" as "(empty)", null as "(none)", else
// its JSON.
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

// targetText names a relationship target: its name, project id, capability or URL, else
// "(nothing named)".
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
