package site

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
	"github.com/DreamWeave-MP/ashyams-go/templates"
)

// loud is every forbidden word, the way a publisher might write them.
const loud = "Official Trusted Safe Recommended verified author"

// taint appends loud to every non-empty string reachable from v (structs, pointers, slices),
// so every publisher field carries every forbidden word.
func taint(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			taint(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				taint(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			taint(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() && v.String() != "" { // absent optional fields stay absent
			v.SetString(v.String() + " " + loud)
		}
	}
}

// loudManifest is a manifest whose every publisher string (names, summaries, tags, game,
// type, status, license, maintainers, credits, media, links, notes, channels, components,
// groups, relationships, capabilities, artifacts, signatures) and map key carries every
// forbidden word. The project id and release versions stay valid so heads, anchors and
// relationships still render.
func loudManifest(id string) *protocol.Manifest {
	m := sampleManifest(id, "Lamp", 2)
	m.Project.Maintainers = append(m.Project.Maintainers, protocol.Person{Name: "Maint", URL: "https://official.example/trusted"})
	m.Project.Credits = []protocol.Credit{{Name: "Credit", Role: "art", URL: "javascript:alert(1)"}}
	m.Project.Media = []protocol.Media{{Kind: "image", URL: "https://official.example/safe.png", Alt: "alt", Caption: "caption", Category: "screens", Thumbnail: "https://official.example/t.png"}}
	for i := range m.Releases {
		r := &m.Releases[i]
		r.Notes = &protocol.Notes{Summary: "summary", Highlights: "**highlights**", Breaking: []string{"breaking"}, Migration: "migration",
			Added: []string{"added"}, Changed: []string{"changed"}, Fixed: []string{"fixed"}, KnownIssues: []string{"issue"}, Notes: "notes"}
		r.Provides = []string{"official:api"}
		r.Relationships = []protocol.Relationship{
			{Kind: "requires", Project: uuid(900), Name: "Dep", Version: ">=1.0", Reason: "reason"},
			{Kind: "recommends", Capability: "trusted:api", Reason: "reason"},
			{Kind: "compatible", Name: "name only", URL: "https://safe.example/"},
			{Kind: "requires", Project: id},
		}
		r.Components = []protocol.Component{{ID: "core", Name: "Core", Description: "description", Path: "core", Group: "g"}}
		r.Groups = []protocol.Group{{ID: "g", Name: "Group", Select: "one", Description: "description"}}
		r.Artifacts[0].Signatures = []protocol.Signature{{Format: "sigstore", URL: "https://official.example/sig", Issuer: "issuer", Identity: "identity"}}
		r.Artifacts[0].Sources = append(r.Artifacts[0].Sources, protocol.ArtifactSource{URL: "https://mirror.example/", Kind: "mirror", Name: "mirror"})
	}
	versions := []string{}
	for _, r := range m.Releases {
		versions = append(versions, r.Version)
	}
	taint(reflect.ValueOf(m))
	// A held manifest passed validation, so the protocol's enumerations hold protocol words
	// (the catalog schema checks them too); every free-text field is the publisher's.
	m.Project.ID, m.Project.Type, m.Project.Status = id, "mod", "active"
	m.Project.Versioning = ""
	m.SchemaVersion, m.Document = "2", "project"
	for i := range m.Releases {
		r := &m.Releases[i]
		r.Status = "available"
		kinds := []string{"requires", "recommends", "compatible", "requires"}
		for j := range r.Relationships {
			r.Relationships[j].Kind = kinds[j]
		}
		r.Relationships[0].Project = uuid(900) // project ids are UUIDs in a valid manifest
		m.Releases[i].Version = versions[i]
		m.Releases[i].Relationships[3].Project = id
		m.Releases[i].Runtimes = map[string]string{"openmw " + loud: ">=0.49 " + loud}
		m.Releases[i].Extensions = map[string]json.RawMessage{"x-" + loud: json.RawMessage(`{"said": "` + loud + `"}`)}
	}
	m.Channels = map[string]protocol.ChannelHead{"stable " + loud: {Version: versions[0]}}
	return m
}

// loudState writes a state in which publisher data uses every forbidden word in every field:
// the manifests, the site index's name and generator, the index entry, publication issues,
// problems that quote publisher data (from the protocol's own findings on a loud manifest),
// a refused manifest, the card image's alt text and problem, discovery trails, events and
// their differences.
func loudState(t *testing.T) (state, site string) {
	t.Helper()
	state = t.TempDir()
	f := statetest.In(t, state)
	site = f.Site("https://official.example/trusted/dreamweave.json", "Official Trusted Mods "+loud)
	var o store.Origin
	f.Dir.ReadJSON(store.OriginPath(site), &o)
	o.Generator = ptr("generator " + loud)
	// Publication issues in the crawler's formats (crawl/refresh/site.go): a quoted id, and an
	// id with the entry's name in brackets, unquoted, followed by the claim's problem.
	o.Issues = []string{`"` + loud + `": a project id that cannot name a claim; the entry is not read`,
		uuid(2) + " (Lamp " + loud + "): invalid publication: /releases/0/runtimes/openmw " + loud + " [pattern] does not match"}
	f.Write(store.OriginPath(site), o)

	current := loudManifest(uuid(1))
	f.Claim(site, current, func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://official.example/card.png", Alt: "a " + loud + " card", Problem: ptr("HTTP 404 for https://official.example/" + strings.ReplaceAll(loud, " ", "-") + ".png")}
	})
	// An invalid claim whose problem is the protocol's own findings on a loud manifest.
	bad := loudManifest(uuid(2))
	bad.Channels = map[string]protocol.ChannelHead{"official": {Version: "9.9.9"}}
	b, _ := json.Marshal(bad)
	_, findings := protocol.ValidateManifest(b, uuid(2))
	if len(findings) == 0 {
		t.Fatal("the loud manifest with a wrong channel head has no findings")
	}
	var parts []string
	for _, fd := range findings {
		parts = append(parts, fd.String())
	}
	problem := "invalid publication: " + strings.Join(parts, "; ")
	f.Claim(site, loudManifest(uuid(2)), func(c *store.Claim) {
		c.Health, c.Problem = store.ClaimInvalid, &problem
		c.AdvertisedSHA256 = sha(b)
		c.Rejected = &store.Rejected{SHA256: sha(b), Problem: problem + " (first refusal)", Crawler: "test"}
	})
	// A second site that could not be read, with a problem quoting the publisher.
	down := f.Site("https://safe.example/dreamweave.json", "Safe Site "+loud)
	f.Dir.ReadJSON(store.OriginPath(down), &o)
	o.Health, o.Problem = store.OriginInvalidIndex, ptr(`the site index fails the protocol: /site/name [minLength] "`+loud+`" is too long`)
	f.Write(store.OriginPath(down), o)
	f.Claim(down, loudManifest(uuid(3)), func(c *store.Claim) {
		c.Health, c.Problem = store.ClaimOriginUnavailable, ptr("the site could not be read on the last crawl: https://safe.example/dreamweave.json answers HTTP 503")
	})
	// An unresolved source.
	u := "https://recommended.example/official/"
	f.Write(store.SourcePath(store.SourceID(u)), store.Source{URL: u, Health: store.SourceUnresolved,
		Problem:     ptr("discovery from " + u + ": " + u + "dreamweave.json answers HTTP 404"),
		Trail:       []store.TrailStep{{URL: u, Outcome: "links the site index at " + u + "trusted.json"}},
		LastAttempt: statetest.Time})
	// Events whose names and differences carry the words.
	before := sampleManifest(uuid(1), "Lamp", 1)
	f.Event(store.Event{Kind: store.EventChanged, Project: uuid(1), Origin: site, Name: current.Project.Name, ObservedAt: statetest.Time,
		Before: ptr(sha([]byte("before"))), After: ptr(sha([]byte("after"))), Changes: diff.Diff(before, current)})
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(3), Origin: down, Name: "Observed " + loud, ObservedAt: statetest.Time,
		After: ptr(sha([]byte("x"))), Changes: []diff.Change{}})
	return state, site
}

// TestPublisherWordsNeverFailCheckSite: a state whose publisher data uses every forbidden word
// in every field builds a site that passes check-site, and the words are really on the pages
// (so the check had something to find): a publisher's "Official" tag or "trusted" game can
// never block a deploy.
func TestPublisherWordsNeverFailCheckSite(t *testing.T) {
	state, site := loudState(t)
	res, out := build(t, state, Options{}) // fails the test on any check-site problem
	if len(res.Pages) < 20 {
		t.Fatalf("only %d pages", len(res.Pages))
	}
	for _, p := range []string{"projects/index.html", paths.Claim(uuid(1), site), paths.Claim(uuid(2), site), "health/index.html",
		"origins/index.html", paths.Origin(site), "gaps/index.html", "dependencies/index.html", "capabilities/index.html", "updates/index.html"} {
		if !linkcheck.ForbiddenWords.MatchString(page(t, out, p)) {
			t.Errorf("%s shows none of the publisher's forbidden words: the test would prove nothing", p)
		}
	}
	// The tag filter suggests the publisher's tags, marked as theirs.
	offered := false
	for _, o := range htmlcheck.All(t, parsePage(t, out, "projects/index.html"), "datalist#tag-list option[data-pub]") {
		offered = offered || strings.Contains(htmlcheck.Attr(o, "value"), loud)
	}
	if !offered {
		t.Error("the project list's tag filter does not suggest the loud tag as the publisher's")
	}
}

// overlay is the embedded templates with one file's text changed by edit.
func overlay(t *testing.T, name string, edit func(string) string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	for p, b := range embeddedTemplates(t) {
		if p == name {
			changed := edit(string(b))
			if changed == string(b) {
				t.Fatalf("the edit does not change %s", name)
			}
			b = []byte(changed)
		}
		m[p] = &fstest.MapFile{Data: b}
	}
	return m
}

// embeddedTemplates is every file of templates.FS by name.
func embeddedTemplates(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(templates.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templates.FS, p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCheckSiteCatchesOurOwnWords: the same word in this index's own text fails check-site,
// wherever a template puts it (a heading, a <code> without data-pub, a title),
// and a template that shows a publisher's value without marking it fails on a loud state.
func TestCheckSiteCatchesOurOwnWords(t *testing.T) {
	state, _ := loudState(t)
	for _, c := range []struct {
		name, file, page string
		edit             func(string) string
	}{
		{"heading", "health.html", "health/index.html", func(s string) string {
			return strings.Replace(s, "<h1>Network health</h1>", "<h1>Network health, all trusted</h1>", 1)
		}},
		{"code without data-pub", "gaps.html", "gaps/index.html", func(s string) string {
			return strings.Replace(s, "<h1>Gaps</h1>", "<h1>Gaps</h1><p><code>safe</code></p>", 1)
		}},
		{"a publisher value left unmarked", "projects.html", "projects/index.html", func(s string) string {
			return strings.Replace(s, `<option value="{{.}}" data-pub>{{.}}</option>{{end}}</select></div>
<div><label for="f-health">`, `<option value="{{.}}">{{.}}</option>{{end}}</select></div>
<div><label for="f-health">`, 1)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			if _, err := Build(Options{State: state, Out: out, templates: overlay(t, c.file, c.edit)}); err != nil {
				t.Fatal(err)
			}
			probs, err := linkcheck.Check(out, "")
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, p := range probs {
				if p.Page == c.page && strings.Contains(p.Message, "in the index's own text") {
					found = true
				} else {
					t.Errorf("unexpected problem: %s", p)
				}
			}
			if !found {
				t.Errorf("check-site passes a forbidden word in the index's own text on %s", c.page)
			}
		})
	}
}

// TestTemplatesHoldNoOwnWordsInBdi: check-site reads every <bdi> as the publisher's
// (linkcheck), so a template's <bdi> holds template values only, never words of its own.
// ownWordsInBdi finds the words; the test reads every template, then shows it finds a word.
func TestTemplatesHoldNoOwnWordsInBdi(t *testing.T) {
	for p, b := range embeddedTemplates(t) {
		for _, w := range ownWordsInBdi(string(b)) {
			t.Errorf("%s: a <bdi> holds the index's own words %q; put them outside it", p, w)
		}
	}
	for in, want := range map[string]int{
		`<p><bdi>{{.Name}}</bdi> and <bdi class="badge">{{.V}}</bdi></p>`: 0,
		`<bdi>{{.OS}} {{.Arch}}{{with .Variant}} ({{.}}){{end}}</bdi>`:    0,
		`<h1>About</h1><p><bdi>official</bdi></p>`:                        1,
		`<bdi>{{.Name}} is safe</bdi>`:                                    1,
		`<bdi><code>{{.URL}}</code></bdi>`:                                0,
	} {
		if got := len(ownWordsInBdi(in)); got != want {
			t.Errorf("ownWordsInBdi(%q) found %d, want %d", in, got, want)
		}
	}
}

// ownWordsInBdi is the text of each <bdi> of a template that holds letters outside its
// template actions and tags.
func ownWordsInBdi(tmpl string) []string {
	var out []string
	for rest := tmpl; ; {
		i := strings.Index(rest, "<bdi")
		if i < 0 {
			return out
		}
		rest = rest[i:]
		open := strings.IndexByte(rest, '>')
		end := strings.Index(rest, "</bdi>")
		if open < 0 || end < open {
			return append(out, rest)
		}
		inner := rest[open+1 : end]
		rest = rest[end:]
		var bare strings.Builder
		for s := inner; s != ""; {
			a := strings.Index(s, "{{")
			if a < 0 {
				bare.WriteString(s)
				break
			}
			bare.WriteString(s[:a])
			b := strings.Index(s[a:], "}}")
			if b < 0 {
				break
			}
			s = s[a+b+2:]
		}
		text, inTag := bare.String(), false
		words := strings.Map(func(r rune) rune {
			switch {
			case r == '<':
				inTag = true
			case r == '>':
				inTag = false
				return -1
			}
			if inTag {
				return -1
			}
			return r
		}, text)
		if strings.IndexFunc(words, unicode.IsLetter) >= 0 {
			out = append(out, inner)
		}
	}
}
