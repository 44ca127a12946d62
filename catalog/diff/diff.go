package diff

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Development is the rolling channel (SPEC section 1): its releases vanishing and artifacts
// changing are routine, never unusual.
const Development = "development"

// Diff returns the typed differences between two manifests of one claim (SPEC section 4),
// never nil; a nil side gives none. The order is the reference's: project fields and sets,
// channel heads by name, each release of after (added, or its changes), then removed ones.
// Releases match by version string, then by equal precedence under the project's scheme, so
// "1.0.0+2" republished is the same version with changed artifacts.
func Diff(before, after *protocol.Manifest) []Change {
	out := []Change{}
	if before == nil || after == nil {
		return out
	}
	out = append(out, projectChanges(&before.Project, &after.Project)...)
	m := matchReleases(before, after)
	out = append(out, channelChanges(before, after, m)...)
	out = append(out, releaseChanges(before, after, m)...)
	return out
}

func projectChanges(b, a *protocol.Project) []Change {
	var out []Change
	pf := func(name string, bv, av json.RawMessage) {
		if !bytes.Equal(bv, av) {
			out = append(out, Change{Change: ChangeProjectField, Field: name, Before: bv, After: av})
		}
	}
	pf("name", js(b.Name), js(a.Name))
	pf("summary", opt(b.Summary), opt(a.Summary))
	pf("type", js(b.Type), js(a.Type))
	pf("status", js(b.Status), js(a.Status))
	// "numeric" written out where it was implied is no change
	pf("versioning", js(string(version.SchemeOf(b.Versioning))), js(string(version.SchemeOf(a.Versioning))))
	pf("game", js(b.Game), js(a.Game))
	pf("license", opt(b.License), opt(a.License))

	out = setChange(out, ChangeTags, b.Tags, a.Tags)
	out = setChange(out, ChangeMaintainers, personNames(b.Maintainers), personNames(a.Maintainers))
	out = setChange(out, ChangeCredits, creditNames(b.Credits), creditNames(a.Credits))
	bl, al := links(b.Links), links(a.Links)
	for _, k := range unionKeys(bl, al) {
		if bl[k] != al[k] {
			out = append(out, Change{Change: ChangeLink, Link: k, Before: opt(bl[k]), After: opt(al[k])})
		}
	}
	if bn, an := nexus(b.Integrations), nexus(a.Integrations); bn != an {
		out = append(out, Change{Change: ChangeNexusMods, Before: opt(bn), After: opt(an)})
	}
	out = setChange(out, ChangeMedia, mediaURLs(b.Media), mediaURLs(a.Media))
	return out
}

func personNames(ps []protocol.Person) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// creditNames are credits as "name (role)", or the name alone when no role is given.
func creditNames(cs []protocol.Credit) []string {
	var out []string
	for _, c := range cs {
		if c.Role != "" {
			out = append(out, c.Name+" ("+c.Role+")")
		} else {
			out = append(out, c.Name)
		}
	}
	return out
}

func mediaURLs(ms []protocol.Media) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.URL)
	}
	return out
}

// links are the project's links by key, the absent ones left out.
func links(l protocol.Links) map[string]string {
	m := map[string]string{}
	for k, v := range map[string]string{"page": l.Page, "source": l.Source, "issues": l.Issues,
		"documentation": l.Documentation, "support": l.Support, "donate": l.Donate, "homepage": l.Homepage,
		"nexusmods": l.Nexusmods, "crate": l.Crate} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

func nexus(i protocol.Integrations) string {
	if i.Nexusmods == nil {
		return ""
	}
	return i.Nexusmods.Game + "/" + strconv.FormatInt(i.Nexusmods.ModID, 10)
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

// headIndex finds the release a channel's head names (that version in that channel, else any
// release with it); -1 when none.
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

// channelChanges reports each channel whose head moved, appeared or went away, by name; a head
// renamed to the same release (equal precedence) is no move.
func channelChanges(b, a *protocol.Manifest, m matching) []Change {
	var out []Change
	for _, ch := range unionKeys(b.Channels, a.Channels) {
		bh, inB := b.Channels[ch]
		ah, inA := a.Channels[ch]
		switch {
		case inB && !inA:
			out = append(out, Change{Change: ChangeChannelHead, Channel: ch, Before: js(bh.Version), After: json.RawMessage("null")})
		case !inB && inA:
			out = append(out, Change{Change: ChangeChannelHead, Channel: ch, Before: json.RawMessage("null"), After: js(ah.Version)})
		case bh.Version != ah.Version:
			bi, ai := headIndex(b, ch, bh.Version), headIndex(a, ch, ah.Version)
			if bi >= 0 && ai >= 0 && m.b2a[bi] == ai {
				continue // the same release under a rewritten version string
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

// releaseChanges lists release-added or the matched release's changes for each release of
// after, then the releases that are gone.
func releaseChanges(b, a *protocol.Manifest, m matching) []Change {
	var out []Change
	for j := range a.Releases {
		r := &a.Releases[j]
		if i := m.a2b[j]; i >= 0 {
			out = append(out, matchedRelease(&b.Releases[i], r)...)
			continue
		}
		out = append(out, Change{Change: ChangeReleaseAdded, Version: r.Version, Channel: r.Channel,
			Date: optPtr(r.Date), Status: r.Status, Notes: js(r.Notes)})
	}
	for i := range b.Releases {
		if m.b2a[i] < 0 {
			r := &b.Releases[i]
			out = append(out, Change{Change: ChangeReleaseRemoved, Version: r.Version, Channel: r.Channel})
		}
	}
	return out
}

func notice(r *protocol.Release) *protocol.Notice {
	if r.Yanked != nil {
		return r.Yanked
	}
	return r.Deprecated
}

func matchedRelease(b, a *protocol.Release) []Change {
	var out []Change
	bn, an := notice(b), notice(a)
	if b.Status != a.Status || !bytes.Equal(js(bn), js(an)) {
		c := Change{Change: ChangeReleaseStatus, Version: a.Version, Channel: a.Channel, Before: js(b.Status), After: js(a.Status)}
		if an != nil {
			reason := an.Reason
			c.Reason, c.Replacement = &reason, optPtr(an.Replacement)
		}
		out = append(out, c)
	}
	if b.Channel != a.Channel {
		out = append(out, Change{Change: ChangeReleaseChannel, Version: a.Version, Before: js(b.Channel), After: js(a.Channel)})
	}
	if b.Date != a.Date {
		out = append(out, Change{Change: ChangeReleaseDate, Version: a.Version, Before: opt(b.Date), After: opt(a.Date)})
	}
	if !bytes.Equal(js(b.Notes), js(a.Notes)) {
		out = append(out, Change{Change: ChangeReleaseNotes, Version: a.Version})
	}
	if nested := compareRelease(b, a, amendMode); len(nested) > 0 {
		out = append(out, Change{Change: ChangeReleaseAmended, Version: a.Version, Channel: a.Channel, Changes: nested})
	}
	return out
}
