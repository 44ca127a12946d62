package claim

import (
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/markdown"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

type releaseView struct {
	R         *network.Release
	Anchor    string
	FirstSeen *view.EventView
	OpenMW    *protocol.OpenMW
	OtherExt  []extView
	Open      bool
	// OpenMWConstraint is runtimes.openmw ("" when the release names none: it does not
	// depend on an OpenMW version); Runtimes are the other runtimes, by id.
	OpenMWConstraint string
	Runtimes         []runtimeView
	// Relationships are the release's relationships, in publisher order; Requires those of
	// kind requires, Others the rest.
	Relationships, Requires, Others []*view.RelView
	// Artifacts are the release's artifacts as its line shows them.
	Artifacts []artifactView
	// Provides are the capabilities the release provides, with their pages.
	Provides []capLink
	// SameRepository, SameComponents, SameOpenMW, SameRuntimes, SamePlatforms and
	// SameRelationships say that this release, not the current one, has the current
	// release's source repository, components and groups, OpenMW install data, runtimes,
	// platforms and relationships: its line leaves them out instead of printing them again,
	// and the releases list says so once.
	SameRepository, SameComponents, SameOpenMW, SameRuntimes, SamePlatforms, SameRelationships bool
	// What the release's line on Page prints (setLine): the channel, a status other than
	// available, the first-seen time, its runtimes, platforms and relationships, the source
	// facts folded under its digests; Heads are the channels it heads, as badges. Fields, not
	// template logic or a dict: a template's function call allocates, a field read does not.
	Page                                                                                   *render.Page
	Channel, Unavailable, Seen, SaysRuntimes, SaysPlatforms, SaysRelationships, FoldSource bool
	Heads                                                                                  []string
}

// setLine sets the fields of rv's line on v's page pg.
func (rv *releaseView) setLine(v *claimView, pg *render.Page) {
	r, s := rv.R, rv.R.Source
	rv.Page, rv.Seen = pg, v.SameSeen == nil
	rv.Channel = r.Current || !v.CommonChannel
	rv.Unavailable = r.Status != protocol.StatusAvailable
	rv.SaysRuntimes = !rv.SameRuntimes && !v.CommonRuntimes
	rv.SaysPlatforms = len(r.Platforms) > 0 && !rv.SamePlatforms && !v.CommonPlatforms
	rv.SaysRelationships = !rv.SameRelationships && !v.CommonRelationships
	rv.FoldSource = rv.SameRepository && !v.TagsAreVersions && s.Tag+s.Release+s.Revision != ""
	for _, h := range r.Head {
		if !r.Current || h != r.Channel {
			rv.Heads = append(rv.Heads, h)
		}
	}
	for i := range rv.Artifacts {
		a := &rv.Artifacts[i]
		a.Lone = len(rv.Artifacts) == 1 && a.A.Platform == nil
		if src := a.A.Sources; len(src) > 0 && src[0].Kind == "publisher" {
			a.First = markdown.SafeURL(src[0].URL)
		}
	}
}

// artifactView is one artifact of a release. ShowKind: its line gives its format and media
// type, which a release other than the current one leaves out when the current release's
// artifact of the same id has the same.
type artifactView struct {
	A        *protocol.Artifact
	ShowKind bool
	// Lone: the release's one artifact, for any platform. First is the address of its first
	// source when that is the publisher's and linkable (markdown.SafeURL), else "".
	Lone  bool
	First string
}

// Short is the artifact's size in its largest unit ("12.1 KiB"; "900 bytes" below a KiB), for
// a line that is not the current release's: the SHA-256 beside it identifies the file.
func (a artifactView) Short() string {
	s := wording.Size(a.A.Size)
	if i := strings.Index(s, " ("); i >= 0 {
		return strings.TrimSuffix(s[i+2:], ")")
	}
	return s
}

// newReleaseView is release r as its claim page shows it; firstSeen is the event in which
// this index first saw it (nil when not recorded).
func newReleaseView(b *render.Site, r *network.Release, firstSeen *view.EventView) *releaseView {
	rv := &releaseView{R: r, Anchor: view.ReleaseAnchor(r.Version), FirstSeen: firstSeen, OpenMW: r.OpenMWExtension(),
		Open: r.Current || len(r.Head) > 0}
	var names []string
	for name := range r.Extensions {
		if name != "openmw" || rv.OpenMW == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		rv.OtherExt = append(rv.OtherExt, extView{Name: name, JSON: wording.RawJSON(r.Extensions[name])})
	}
	rv.Relationships = b.RelViews(r.Relationships)
	for _, rel := range rv.Relationships {
		if rel.Kind == protocol.KindRequires {
			rv.Requires = append(rv.Requires, rel)
		} else {
			rv.Others = append(rv.Others, rel)
		}
	}
	for i := range r.Artifacts {
		rv.Artifacts = append(rv.Artifacts, artifactView{A: &r.Artifacts[i], ShowKind: true})
	}
	for _, p := range r.Provides {
		rv.Provides = append(rv.Provides, capLink{Name: p, Path: paths.Capability(p)})
	}
	ids := make([]string, 0, len(r.Runtimes))
	for id := range r.Runtimes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if id == "openmw" {
			rv.OpenMWConstraint = r.Runtimes[id]
		} else {
			rv.Runtimes = append(rv.Runtimes, runtimeView{id, r.Runtimes[id]})
		}
	}
	return rv
}

// splitReleases orders a claim page's releases for a player: the current release first, then
// the heads of the other channels except development, each open only when current; the rest
// (development builds, older releases, yanked and deprecated ones) in the manifest's order,
// for the disclosure below them.
func splitReleases(all []*releaseView) (now *releaseView, shown, behind []*releaseView) {
	for _, rv := range all {
		if rv.R.Current {
			now = rv
			shown = append(shown, rv)
		}
	}
	for _, rv := range all {
		switch {
		case rv.R.Current:
		case len(rv.R.Head) > 0 && rv.R.Channel != development:
			shown = append(shown, rv)
		default:
			behind = append(behind, rv)
		}
	}
	for _, rv := range all {
		rv.Open = rv.R.Current
	}
	return now, shown, behind
}
