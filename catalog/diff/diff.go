package diff

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Development is the rolling channel (SPEC section 1): replaced on every push, so its releases
// vanishing and its artifacts changing are routine, never unusual.
const Development = "development"

// Diff returns the typed differences between two manifests of one claim (SPEC section 4,
// "Updates"): structural, never textual, in a fixed order with the unusual facts first.
//
// A nil before is a first observation and a nil after has nothing to compare: both give an
// empty list. The result is never nil, so an event's "changes" encodes as [].
//
// Order (before the stable move of unusual changes to the front): project-field (in the order
// of the project object's fields), document-field, channel changes by channel name, then
// release-added in the after manifest's release order, release-removed in the before
// manifest's order, then for each release present in both (after order) release-channel,
// status (release-yanked, -deprecated, -restored, -status, -notice), release-date,
// release-notes and release-amended.
//
// Releases are matched by version string equality first; a release left over on either side is
// then matched to one of equal precedence under the project's scheme (the same version up to
// build metadata or trailing zeros, e.g. 1.2 and 1.2.0+rebuild) when both manifests use the
// same scheme, and its new version string is reported as a release-version change inside
// release-amended. Precedence matching is why a republish under "1.0.0+2" still counts as the
// same version whose artifacts changed. Versions that do not parse are matched by string only.
func Diff(before, after *protocol.Manifest) []Change {
	out := []Change{}
	if before == nil || after == nil {
		return out
	}
	out = append(out, projectFields(&before.Project, &after.Project)...)
	out = append(out, documentFields(before, after)...)
	m := matchReleases(before, after)
	out = append(out, channelChanges(before, after, m)...)
	out = append(out, releaseChanges(before, after, m)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Unusual && !out[j].Unusual })
	return out
}

// js encodes v as compact JSON without HTML escaping (publisher text stays readable in the
// state); a value that cannot be encoded (never a protocol type) is null.
func js(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}

// str encodes s as a JSON string, or null when empty (an absent optional field).
func str(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("null")
	}
	return js(s)
}

// list encodes a slice, with nil and empty both as [] (an absent list and an empty one say the
// same thing).
func list[T any](s []T) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage("[]")
	}
	return js(s)
}

// field appends a Change of kind with field, before and after when the values differ.
func field(out []Change, kind, name string, b, a json.RawMessage) []Change {
	if bytes.Equal(b, a) {
		return out
	}
	return append(out, Change{Change: kind, Field: name, Before: b, After: a})
}

func projectFields(b, a *protocol.Project) []Change {
	var out []Change
	pf := func(name string, bv, av json.RawMessage) { out = field(out, ChangeProjectField, name, bv, av) }
	pf("id", str(b.ID), str(a.ID))
	pf("name", str(b.Name), str(a.Name))
	pf("summary", str(b.Summary), str(a.Summary))
	pf("type", str(b.Type), str(a.Type))
	pf("status", str(b.Status), str(a.Status))
	n := len(out)
	pf("versioning", str(b.Versioning), str(a.Versioning))
	if len(out) > n && version.SchemeOf(b.Versioning) != version.SchemeOf(a.Versioning) {
		out[n].Unusual = true // "numeric" written out where it was implied is no scheme change
	}
	pf("game", str(b.Game), str(a.Game))
	pf("license", str(b.License), str(a.License))
	pf("tags", list(b.Tags), list(a.Tags))
	pf("maintainers", list(b.Maintainers), list(a.Maintainers))
	bl, al := b.Links, a.Links
	pf("links.page", str(bl.Page), str(al.Page))
	pf("links.source", str(bl.Source), str(al.Source))
	pf("links.issues", str(bl.Issues), str(al.Issues))
	pf("links.documentation", str(bl.Documentation), str(al.Documentation))
	pf("links.support", str(bl.Support), str(al.Support))
	pf("links.donate", str(bl.Donate), str(al.Donate))
	pf("links.homepage", str(bl.Homepage), str(al.Homepage))
	pf("links.nexusmods", str(bl.Nexusmods), str(al.Nexusmods))
	pf("links.crate", str(bl.Crate), str(al.Crate))
	pf("integrations", js(b.Integrations), js(a.Integrations))
	pf("media", list(b.Media), list(a.Media))
	pf("credits", list(b.Credits), list(a.Credits))
	return out
}

func documentFields(b, a *protocol.Manifest) []Change {
	var out []Change
	out = field(out, ChangeDocumentField, "schema_version", str(b.SchemaVersion), str(a.SchemaVersion))
	out = field(out, ChangeDocumentField, "document", str(b.Document), str(a.Document))
	out = field(out, ChangeDocumentField, "generator", str(b.Generator), str(a.Generator))
	return out
}

// matching pairs release indexes of the before and after manifests; -1 is unmatched.
type matching struct {
	b2a, a2b []int
}

func matchReleases(b, a *protocol.Manifest) matching {
	m := matching{b2a: make([]int, len(b.Releases)), a2b: make([]int, len(a.Releases))}
	for i := range m.b2a {
		m.b2a[i] = -1
	}
	for j := range m.a2b {
		m.a2b[j] = -1
	}
	byVersion := map[string][]int{}
	for j, r := range a.Releases {
		byVersion[r.Version] = append(byVersion[r.Version], j)
	}
	for i, r := range b.Releases {
		if q := byVersion[r.Version]; len(q) > 0 {
			m.b2a[i], m.a2b[q[0]] = q[0], i
			byVersion[r.Version] = q[1:]
		}
	}
	sch := version.SchemeOf(b.Project.Versioning)
	if sch != version.SchemeOf(a.Project.Versioning) {
		return m // precedence means different things under two schemes
	}
	parsed := make([]*version.Version, len(a.Releases))
	for j, r := range a.Releases {
		if m.a2b[j] < 0 {
			if v, err := version.Parse(r.Version, sch); err == nil {
				parsed[j] = &v
			}
		}
	}
	for i, r := range b.Releases {
		if m.b2a[i] >= 0 {
			continue
		}
		bv, err := version.Parse(r.Version, sch)
		if err != nil {
			continue
		}
		for j, av := range parsed {
			if av != nil && m.a2b[j] < 0 && version.Compare(bv, *av) == 0 {
				m.b2a[i], m.a2b[j] = j, i
				break
			}
		}
	}
	return m
}

// headIndex finds the release a channel's head names: the release with that version in that
// channel, else any release with that version; -1 when the manifest names no such release.
func headIndex(m *protocol.Manifest, channel, v string) int {
	found := -1
	for i := range m.Releases {
		if m.Releases[i].Version == v {
			if m.Releases[i].Channel == channel {
				return i
			}
			if found < 0 {
				found = i
			}
		}
	}
	return found
}

func channelChanges(b, a *protocol.Manifest, m matching) []Change {
	names := map[string]bool{}
	for n := range b.Channels {
		names[n] = true
	}
	for n := range a.Channels {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out []Change
	for _, ch := range sorted {
		bh, inB := b.Channels[ch]
		ah, inA := a.Channels[ch]
		switch {
		case inB && !inA:
			out = append(out, Change{Change: ChangeChannelRemoved, Channel: ch, Version: bh.Version})
		case !inB && inA:
			out = append(out, Change{Change: ChangeChannelAdded, Channel: ch, Version: ah.Version})
		case bh.Version != ah.Version:
			bi, ai := headIndex(b, ch, bh.Version), headIndex(a, ch, ah.Version)
			if bi >= 0 && ai >= 0 && m.b2a[bi] == ai {
				continue // the same release renamed: release-amended says so
			}
			c := Change{Change: ChangeChannelHead, Channel: ch, Before: js(bh.Version), After: js(ah.Version)}
			if bi >= 0 && ai >= 0 {
				c.Changes = compareRelease(&b.Releases[bi], &a.Releases[ai], headMode)
			}
			out = append(out, c)
		}
	}
	return out
}

// releaseChanges lists releases added and removed, then the changes of each release in both.
// A removed release is unusual (SPEC section 4: "a previously indexed release vanished"), except
// a development build replaced by another: development is a rolling channel, and its old build
// vanishing while a new development release arrives is the channel working as meant.
func releaseChanges(b, a *protocol.Manifest, m matching) []Change {
	var out []Change
	newDev := false
	for j := range a.Releases {
		if m.a2b[j] < 0 && a.Releases[j].Channel == Development {
			newDev = true
		}
	}
	for j := range a.Releases {
		if m.a2b[j] < 0 {
			r := &a.Releases[j]
			out = append(out, Change{Change: ChangeReleaseAdded, Version: r.Version, Channel: r.Channel,
				Date: r.Date, Status: r.Status, Notes: js(r.Notes)})
		}
	}
	for i := range b.Releases {
		if m.b2a[i] < 0 {
			r := &b.Releases[i]
			out = append(out, Change{Change: ChangeReleaseRemoved, Version: r.Version, Channel: r.Channel,
				Unusual: r.Channel != Development || !newDev})
		}
	}
	for j := range a.Releases {
		if i := m.a2b[j]; i >= 0 {
			out = append(out, matchedRelease(&b.Releases[i], &a.Releases[j])...)
		}
	}
	return out
}

// matchedRelease lists the listing facts of one release present in both manifests, then its
// amendments.
func matchedRelease(b, a *protocol.Release) []Change {
	var out []Change
	if b.Channel != a.Channel {
		out = append(out, Change{Change: ChangeReleaseChannel, Version: a.Version, Channel: a.Channel,
			Before: js(b.Channel), After: js(a.Channel)})
	}
	if b.Status != a.Status {
		c := Change{Version: a.Version, Channel: a.Channel, Before: js(b.Status), After: js(a.Status)}
		switch a.Status {
		case protocol.StatusYanked:
			c.Change, c.Notice = ChangeReleaseYanked, js(a.Yanked)
		case protocol.StatusDeprecated:
			c.Change, c.Notice = ChangeReleaseDeprecated, js(a.Deprecated)
		case protocol.StatusAvailable:
			c.Change = ChangeReleaseRestored
		default:
			c.Change = ChangeReleaseStatus
		}
		out = append(out, c)
	} else {
		for _, n := range []struct {
			name string
			b, a *protocol.Notice
		}{{"yanked", b.Yanked, a.Yanked}, {"deprecated", b.Deprecated, a.Deprecated}} {
			if bv, av := js(n.b), js(n.a); !bytes.Equal(bv, av) {
				out = append(out, Change{Change: ChangeReleaseNotice, Version: a.Version, Channel: a.Channel,
					Field: n.name, Before: bv, After: av})
			}
		}
	}
	if b.Date != a.Date {
		out = append(out, Change{Change: ChangeReleaseDate, Version: a.Version, Before: str(b.Date), After: str(a.Date)})
	}
	if bn, an := js(b.Notes), js(a.Notes); !bytes.Equal(bn, an) {
		out = append(out, Change{Change: ChangeReleaseNotes, Version: a.Version, Channel: a.Channel, Before: bn, After: an})
	}
	mode := amendMode
	if b.Channel == Development && a.Channel == Development {
		mode = amendDevelopmentMode
	}
	if nested := compareRelease(b, a, mode); len(nested) > 0 {
		c := Change{Change: ChangeReleaseAmended, Version: a.Version, Channel: a.Channel, Changes: nested}
		for _, n := range nested {
			c.Unusual = c.Unusual || n.Unusual
		}
		out = append(out, c)
	}
	return out
}
