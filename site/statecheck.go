package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// checkState returns every way the state contradicts itself that would change what the site
// shows, each as the record's path and the problem (the words of store.Check where they are
// the same invariant). The build fails on any of them: rendering such a state would pass off
// a contradiction as data (a claim shown as current while it holds an older manifest, an
// event under another event's name, a site index that is not the one recorded).
//
// It is the rendering-relevant subset of store.(*Dir).Check, which checks every invariant of
// seeds/state.txt. The network model (catalog/network) already refuses a claim whose held
// manifest does not hash to ingested_sha256 (or pending_sha256), describes another project or
// whose site has no origin record. Checked here:
//
//   - a claim whose health is current but whose held and advertised digests differ (with no
//     pending_sha256 to explain it): the site would show a cached manifest as current;
//   - a manifest.json held while claim.json records no digest for it;
//   - an event file whose name is not its id (pages are named by the id);
//   - a held dreamweave.json whose bytes hash to neither index_sha256 nor pending_sha256;
//   - references that do not resolve: a source's origin, an origin's sources (each must have
//     a record that leads back), claim.moved_to / moved_from. An event's claim and moved_from,
//     and origin.previous, may name a claim or site that is gone: events outlive their claims,
//     and a move or a source's removal removes a site.
//
// Deliberately not failures, although store.Check reports them: an event id that does not
// recompute from its facts (the id is only a name), and a cached image that is missing (the
// card then says there is no image and why).
func checkState(dir *store.Dir, n *network.Network) []store.Problem {
	var out []store.Problem
	add := func(path, format string, args ...any) {
		out = append(out, store.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	sources := map[string]store.Source{}
	for _, s := range n.Sources {
		sources[store.SourceID(s.URL)] = s
	}
	for _, s := range n.Sources {
		if s.Origin != nil && n.OriginByID[*s.Origin] == nil {
			add(store.SourcePath(store.SourceID(s.URL)), "origin %s does not exist (no %s)", *s.Origin, store.OriginPath(*s.Origin))
		}
	}
	for _, o := range n.Origins {
		rel := store.OriginPath(o.ID)
		for _, u := range o.Sources {
			s, ok := sources[store.SourceID(u)]
			switch {
			case !ok:
				add(rel, "lists source %s, which has no record %s", u, store.SourcePath(store.SourceID(u)))
			case s.URL != u:
				add(rel, "lists source %s, but %s holds %s", u, store.SourcePath(store.SourceID(u)), s.URL)
			case s.Origin == nil || *s.Origin != o.ID:
				add(rel, "lists source %s, which does not lead to this origin", u)
			}
		}
		checkHeldIndex(dir, o, add)
	}
	for _, c := range n.Claims {
		rel := store.ClaimPath(c.Project, c.Site)
		r := c.Record
		if r.Health == store.ClaimCurrent && r.PendingSHA256 == nil && r.Ingested() != r.AdvertisedSHA256 {
			add(rel, "is current, but holds %s while %s is advertised", r.Ingested(), r.AdvertisedSHA256)
		}
		if c.Manifest == nil && r.IngestedSHA256 == nil && r.PendingSHA256 == nil && dir.Exists(c.ManifestPath) {
			add(c.ManifestPath, "is held but claim.json records no ingested_sha256")
		}
		for _, ref := range []struct {
			field string
			v     *string
		}{{"moved_to", r.MovedTo}, {"moved_from", r.MovedFrom}} {
			if ref.v != nil && n.OriginByID[*ref.v] == nil {
				add(rel, "%s names origin %s, which does not exist", ref.field, *ref.v)
			}
		}
	}
	checkEventFiles(dir, n, add)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// checkHeldIndex: a held dreamweave.json hashes to index_sha256, or to pending_sha256 while a
// refresh was replacing it. A missing file is not a contradiction the site shows (only the
// recorded digest is shown).
func checkHeldIndex(dir *store.Dir, o *network.Origin, add func(string, string, ...any)) {
	rel := store.OriginIndexPath(o.ID)
	b, err := dir.ReadBytes(rel)
	if err != nil {
		return
	}
	got := store.Digest(b)
	recorded, pending := deref(o.IndexSHA256), deref(o.PendingSHA256)
	switch {
	case got == recorded, pending != "" && got == pending:
	case recorded == "" && pending == "":
		add(rel, "is held but origin.json records no index_sha256")
	case pending != "":
		add(rel, "hashes to %s, but origin.json records index_sha256 %q and pending_sha256 %s", got, recorded, pending)
	default:
		add(rel, "hashes to %s, but origin.json records index_sha256 %s", got, recorded)
	}
}

// checkEventFiles: every event file is named by its id. The snapshot does not keep file
// names, so the events directory is read again, only as far as each record's id.
func checkEventFiles(dir *store.Dir, n *network.Network, add func(string, string, ...any)) {
	ents, err := os.ReadDir(dir.Path(store.EventsDir))
	if err != nil && !os.IsNotExist(err) {
		add(store.EventsDir, "cannot be listed: %v", err)
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			continue
		}
		rel := store.EventsDir + "/" + name
		b, err := dir.ReadBytes(rel)
		if err != nil {
			add(rel, "cannot be read: %v", err)
			continue
		}
		var head struct {
			ID string `json:"id"`
		}
		if err := json.NewDecoder(bytes.NewReader(b)).Decode(&head); err != nil {
			add(rel, "does not parse as a record: %v", err)
			continue
		}
		if name != head.ID+".json" {
			add(rel, "file name does not match its id %s", head.ID)
		}
	}
}

// stateError is the build's error for a state that contradicts itself: every problem, one
// per line, each naming the record's path.
func stateError(state string, probs []store.Problem) error {
	var b strings.Builder
	fmt.Fprintf(&b, "state %s contradicts itself (%s, each changing what the site would show; `ashyams check` lists every invariant):", state, plural(len(probs), "problem", "problems"))
	for _, p := range probs {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return fmt.Errorf("%s", b.String())
}
