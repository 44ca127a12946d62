// Package refstate reads a state directory as the reference index's loader does, for tests:
// its keys, types, nulls, vocabularies, layout and event ids (FORMATS sections 1.1-1.10). It is
// written from FORMATS alone, without this repository's record types, so a state this index
// writes is checked against the reference's rules, not against itself.
package refstate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Problem is one rule of the reference's loader a state breaks, at a state-relative path.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// Stats counts what Read read: the records and events that parsed.
type Stats struct {
	Network, Sources, Origins, Claims, Events, Media int
}

// Read reads the state at root under the reference's loader rules and returns every problem,
// sorted by path; none means the reference index would load it.
func Read(root string) (Stats, []Problem) {
	r := &reader{root: root}
	r.run()
	sort.SliceStable(r.out, func(i, j int) bool { return r.out[i].Path < r.out[j].Path })
	return r.stats, r.out
}

// Errors is Read's problems as one error (nil when none), for t.Fatal.
func Errors(root string) error {
	_, ps := Read(root)
	if len(ps) == 0 {
		return nil
	}
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return fmt.Errorf("the reference's loader would refuse %s:\n%s", root, strings.Join(lines, "\n"))
}

type reader struct {
	root  string
	out   []Problem
	stats Stats
}

func (r *reader) add(p, format string, args ...any) {
	r.out = append(r.out, Problem{Path: p, Message: fmt.Sprintf(format, args...)})
}

var (
	timeRE   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)
	digestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)
	eventRE  = regexp.MustCompile(`^[0-9a-f]{20}$`)
	uuidRE   = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	mediaRE  = regexp.MustCompile(`^[0-9a-f]{64}\.(webp|png|jpg|gif)$`)
)

// The vocabularies (FORMATS sections 1.2-1.5).
var (
	sourceHealth = set("resolved", "unreachable", "refused", "no-index", "broken-link", "unsupported-version")
	originHealth = set("healthy", "unreachable", "refused", "no-index", "invalid-index", "unsupported-version")
	claimHealth  = set("current", "origin-unavailable", "manifest-unreachable", "invalid", "inconsistent", "refused", "withdrawn")
	eventKinds   = set("observed", "changed", "withdrawn", "restored")
	projectTypes = set("mod", "library", "framework", "tool", "assets", "total-conversion", "documentation")
	projectState = set("active", "maintenance", "experimental", "deprecated", "archived")
)

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func (r *reader) read(rel string) []byte {
	b, err := os.ReadFile(path.Join(r.root, rel))
	if err != nil {
		r.add(rel, "cannot be read: %v", err)
		return nil
	}
	return b
}

func (r *reader) list(rel string) []fs.DirEntry {
	ents, err := os.ReadDir(path.Join(r.root, rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.add(rel, "cannot be listed: %v", err)
	}
	return ents
}

func (r *reader) run() {
	r.records()
	r.origins()
	r.claims()
	r.events()
	for _, e := range r.list("media") {
		if e.IsDir() || !mediaRE.MatchString(e.Name()) {
			r.add("media/"+e.Name(), "not a cached image (<sha256>.<webp|png|jpg|gif>)")
			continue
		}
		r.stats.Media++
	}
}

// records reads network.json and every entry under sources/ (a stray file is fatal).
func (r *reader) records() {
	if b, err := os.ReadFile(path.Join(r.root, "network.json")); err == nil {
		if r.record("network.json", b, network, nil) {
			r.stats.Network++
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		r.add("network.json", "cannot be read: %v", err)
	}
	for _, e := range r.list("sources") {
		rel := "sources/" + e.Name()
		if e.IsDir() {
			r.add(rel, "a directory inside sources/")
			continue
		}
		if b := r.read(rel); b != nil && r.record(rel, b, source, nil) {
			r.stats.Sources++
		}
	}
}

// origins reads origins/<site>/origin.json, whose id is the directory name.
func (r *reader) origins() {
	for _, e := range r.list("origins") {
		rel := "origins/" + e.Name()
		if !e.IsDir() {
			r.add(rel, "a file inside origins/, where every entry is a site directory")
			continue
		}
		site := e.Name()
		if b := r.read(rel + "/origin.json"); b != nil && r.record(rel+"/origin.json", b, origin, func(o map[string]json.RawMessage) {
			if s, _ := str(o["id"]); s != site {
				r.add(rel+"/origin.json", "id %q is not its directory %q", s, site)
			}
		}) {
			r.stats.Origins++
		}
	}
}

// claims reads claims/<project>/<site>/claim.json, named by its project and origin.
func (r *reader) claims() {
	for _, p := range r.list("claims") {
		prel := "claims/" + p.Name()
		if !p.IsDir() {
			r.add(prel, "a file inside claims/, where every entry is a project directory")
			continue
		}
		for _, s := range r.list(prel) {
			rel := prel + "/" + s.Name()
			if !s.IsDir() {
				r.add(rel, "a file inside a project directory, where every entry is a site directory")
				continue
			}
			project, site := p.Name(), s.Name()
			if b := r.read(rel + "/claim.json"); b != nil && r.record(rel+"/claim.json", b, claim, func(o map[string]json.RawMessage) {
				if v, _ := str(o["project"]); v != project {
					r.add(rel+"/claim.json", "project %q is not its directory %q", v, project)
				}
				if v, _ := str(o["origin"]); v != site {
					r.add(rel+"/claim.json", "origin %q is not its directory %q", v, site)
				}
			}) {
				r.stats.Claims++
			}
		}
	}
}

// events reads events/<id>.json, whose id recomputes from its facts.
func (r *reader) events() {
	for _, e := range r.list("events") {
		rel := "events/" + e.Name()
		stem, ok := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !ok || !eventRE.MatchString(stem) {
			r.add(rel, "not an event file (<20 hex digits>.json)")
			continue
		}
		if b := r.read(rel); b != nil && r.record(rel, b, event, func(o map[string]json.RawMessage) {
			if id, _ := str(o["id"]); id != stem {
				r.add(rel, "id %q is not its file name", id)
			}
			if want := eventID(o); want != stem {
				r.add(rel, "id %s does not recompute from its facts (want %s)", stem, want)
			}
		}) {
			r.stats.Events++
		}
	}
}

func eventID(o map[string]json.RawMessage) string {
	get := func(k string) string { s, _ := str(o[k]); return s }
	text := strings.Join([]string{"dreamweave-network event 1", get("kind"), get("project"), get("origin"), get("before"), get("after")}, "\n")
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:20]
}

// record decodes one record file against its shape, then runs more on its members; it reports
// whether the record is sound.
func (r *reader) record(rel string, b []byte, sh shape, more func(map[string]json.RawMessage)) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		r.add(rel, "does not parse: %v", err)
		return false
	}
	if dec.More() {
		r.add(rel, "trailing data after the record")
		return false
	}
	n := len(r.out)
	o := r.object(rel, "", raw, sh)
	if o != nil && more != nil {
		more(o)
	}
	return len(r.out) == n
}
