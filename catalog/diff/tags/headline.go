package tags

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// maxPhrases is how many facts a headline names before "and N more".
const maxPhrases = 4

// WithdrawnPhrase and RestoredPhrase are what a headline says of a withdrawn or restored
// event; the event does not record which cause, so they say what is true of both.
const (
	WithdrawnPhrase = "withdrawn: no longer listed by its site's index, or the site is no longer read"
	RestoredPhrase  = "restored: back in the catalog, listed by its site's index"
)

// Headline is a one-line plain-text summary of e, starting with the claim's name (else its
// project id):
//
//	Candlelight: first observed
//	Greenmote: development 0.3.1-dev.1 -> 0.4.1-dev.0; stable 0.3.0 -> 0.4.0; license changed
//	Tallow: withdrawn: no longer listed by its site's index, or the site is no longer read
//
// Facts in order: unusual ones, channel heads, each release, metadata; at most maxPhrases, then
// "and N more". Only notes.breaking makes a release "list breaking changes". No publisher
// text is quoted; the caller escapes the result.
func Headline(e store.Event) string {
	name := cmp.Or(e.Name, e.Project)
	if e.MovedFrom != nil {
		name += " (moved from " + *e.MovedFrom + ")"
	}
	return name + ": " + strings.Join(facts(e), "; ")
}

// Summary is what Headline says of e without the name, "moved from <site id>" first for a
// moved claim: events.json's headline, and the Atom title after "<name>: ".
func Summary(e store.Event) string {
	fs := facts(e)
	if e.MovedFrom != nil {
		fs = append([]string{"moved from " + *e.MovedFrom}, fs...)
	}
	return strings.Join(fs, "; ")
}

func facts(e store.Event) []string {
	var ps []string
	switch e.Kind {
	case store.EventObserved:
		ps = append(ps, "first observed")
	case store.EventWithdrawn:
		ps = append(ps, WithdrawnPhrase)
	case store.EventRestored:
		ps = append(ps, RestoredPhrase)
	}
	ps = append(ps, phrases(e.Changes)...)
	if len(ps) == 0 {
		ps = append(ps, "manifest changed, no structural difference")
	}
	if len(ps) > maxPhrases {
		ps = append(ps[:maxPhrases], "and "+strconv.Itoa(len(ps)-maxPhrases)+" more")
	}
	return ps
}

// phrases are the phrases of a changed manifest: unusual, channel heads, releases, metadata.
func phrases(changes []diff.Change) []string {
	p := projectPhrases(changes)
	out := append(p.unusual, p.heads...)
	out = append(out, releasePhrases(changes, p)...)
	if len(p.meta) > 0 {
		out = append(out, strings.Join(p.meta, ", ")+" changed")
	}
	return out
}

// project is what projectPhrases found.
type project struct {
	unusual, heads, meta []string
	newHead              map[string]bool // versions that became a channel's head
	oldDevHead           map[string]bool // versions that were the development channel's head
}

func projectPhrases(changes []diff.Change) project {
	p := project{newHead: map[string]bool{}, oldDevHead: map[string]bool{}}
	for _, c := range changes {
		if diff.Unusual(c, changes) {
			p.unusual = append(p.unusual, unusualPhrase(c))
		}
		switch c.Change {
		case diff.ChangeChannelHead:
			b, a := rawString(c.Before), rawString(c.After)
			switch {
			case isNull(c.Before):
				p.heads = append(p.heads, "new channel "+c.Channel+" at "+a)
			case isNull(c.After):
				p.heads = append(p.heads, "channel "+c.Channel+" gone")
			default:
				p.heads = append(p.heads, c.Channel+" "+b+" -> "+a)
			}
			p.newHead[a] = true
			if c.Channel == diff.Development {
				p.oldDevHead[b] = true
			}
		case diff.ChangeProjectField:
			if c.Field == "versioning" && diff.SchemeChanged(c.Before, c.After) {
				continue // said as unusual
			}
			p.meta = append(p.meta, c.Field)
		case diff.ChangeTags, diff.ChangeMaintainers, diff.ChangeCredits, diff.ChangeMedia:
			p.meta = append(p.meta, c.Change)
		case diff.ChangeLink:
			p.meta = append(p.meta, c.Link+" link")
		case diff.ChangeNexusMods:
			p.meta = append(p.meta, "Nexus Mods")
		}
	}
	return p
}

// releasePhrases is one phrase per release the changes name, by first mention.
func releasePhrases(changes []diff.Change, p project) []string {
	var versions []string
	verbs := map[string][]string{}
	channels := map[string]string{}
	add := func(v, verb string) {
		if _, seen := verbs[v]; !seen {
			versions = append(versions, v)
		}
		verbs[v] = append(verbs[v], verb)
	}
	for _, c := range changes {
		if c.Channel != "" && strings.HasPrefix(c.Change, "release-") {
			channels[c.Version] = c.Channel
		}
		switch c.Change {
		case diff.ChangeReleaseAdded:
			if !p.newHead[c.Version] {
				add(c.Version, "added")
			}
			if hasBreaking(c.Notes) {
				add(c.Version, "notes list breaking changes")
			}
		case diff.ChangeReleaseRemoved:
			if c.Channel == diff.Development && !p.oldDevHead[c.Version] && !diff.Unusual(c, changes) {
				add(c.Version, "removed")
			}
		case diff.ChangeReleaseStatus:
			add(c.Version, statusVerb(c))
		case diff.ChangeReleaseChannel:
			add(c.Version, "moved to "+rawString(c.After))
		case diff.ChangeReleaseDate:
			add(c.Version, "re-dated")
		case diff.ChangeReleaseNotes:
			add(c.Version, "notes edited")
		case diff.ChangeReleaseAmended:
			add(c.Version, "amended")
		}
	}
	var out []string
	for _, v := range versions {
		out = append(out, v+channelNote(channels[v])+" "+strings.Join(verbs[v], ", "))
	}
	return out
}

func unusualPhrase(c diff.Change) string {
	switch c.Change {
	case diff.ChangeReleaseRemoved:
		return "unusual: release " + c.Version + channelNote(c.Channel) + " vanished"
	case diff.ChangeReleaseAmended:
		return "unusual: artifact digest changed under " + c.Version + channelNote(c.Channel)
	}
	return "unusual: versioning " + rawString(c.Before) + " -> " + rawString(c.After)
}

// statusVerb says what a release-status did: yanked, deprecated, restored, or notice edited.
func statusVerb(c diff.Change) string {
	b, a := rawString(c.Before), rawString(c.After)
	switch {
	case b == a:
		return a + " notice edited"
	case a == "available":
		return "restored"
	}
	return a
}

func hasBreaking(raw json.RawMessage) bool {
	var n struct {
		Breaking []string `json:"breaking"`
	}
	return len(raw) > 0 && json.Unmarshal(raw, &n) == nil && len(n.Breaking) > 0
}

func channelNote(ch string) string {
	if ch == "" {
		return ""
	}
	return " (" + ch + ")"
}

// rawString is a JSON string's value, "(none)" for null or absent, the raw text otherwise.
func rawString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "(none)"
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw)
	}
	return s
}
