package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/graph"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

func build(t *testing.T, state string, o Options) (*Result, string) {
	t.Helper()
	o.State = state
	if o.Out == "" {
		o.Out = filepath.Join(t.TempDir(), "public")
	}
	res, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	probs, err := linkcheck.Check(o.Out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("check-site: %s", p)
	}
	return res, o.Out
}

func page(t *testing.T, out, rel string) string {
	t.Helper()
	return visibleText(parsePage(t, out, rel))
}

// TestBuildStaleness: every claim that is not current carries the banner with both times and
// the reason; current claims carry none; withdrawn claims leave the catalog and the project
// list, and their record page says so.
func TestBuildStaleness(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/mods/dreamweave.json", "Site A")
	type tc struct {
		health, problem string
		cached          bool
	}
	cases := []tc{
		{store.ClaimCurrent, "", false},
		{store.ClaimOriginUnavailable, "the site index could not be read: HTTP 503", false},
		{store.ClaimManifestUnreachable, "HTTP 404 for the manifest", true},
		{store.ClaimInvalid, "/releases/0/version: does not parse", true},
		{store.ClaimInconsistent, "the served bytes never matched the advertised digest", true},
		{store.ClaimRefused, "over the 16 MiB document limit", true},
		{store.ClaimWithdrawn, "", false},
	}
	ids := map[string]string{}
	for i, c := range cases {
		id := uuid(i)
		ids[c.health] = id
		m := sampleManifest(id, "Project "+c.health, 3)
		f.Claim(site, m, func(r *store.Claim) {
			r.Health = c.health
			if c.problem != "" {
				r.Problem = ptr(c.problem)
			}
			if c.cached {
				r.AdvertisedSHA256 = sha([]byte("newer " + id))
			}
			if c.health != store.ClaimCurrent {
				r.LastSuccess = ptr("2026-10-01T06:00:00Z")
				r.LastAttempt = "2026-10-10T12:00:00Z"
			}
		})
	}
	// A claim whose manifest never passed a check: no manifest held at all.
	never := uuid(100)
	f.Write(store.ClaimPath(never, site), store.Claim{Project: never, Origin: site,
		Entry:            protocol.IndexEntry{ID: never, Name: "Never accepted", Type: "mod", Status: "active", Manifest: "https://a.example/never.json", ManifestSHA256: sha([]byte("bad")), Channels: map[string]string{}},
		AdvertisedSHA256: sha([]byte("bad")), Health: store.ClaimInvalid, Problem: ptr("/project/id: not a UUID"),
		Rejected:      &store.Rejected{SHA256: sha([]byte("bad")), Problem: "/project/id: not a UUID", Crawler: "test"},
		FirstObserved: statetest.Time, LastAttempt: statetest.Time})
	_, out := build(t, state, Options{})
	neverDoc := parsePage(t, out, paths.Claim(never, site))
	htmlcheck.Want(t, neverDoc, "h1", "Never accepted")
	htmlcheck.Want(t, neverDoc, "#excluded", "Not in the catalog: no manifest from this site has passed every check yet.")
	htmlcheck.Want(t, neverDoc, "#staleness", "This index could not read this project's details from its site yet.",
		"No manifest from this site has passed every check yet. Invalid publication", "Invalid publication: /project/id: not a UUID.",
		"Last attempt: 2026-10-10 12:00:00 UTC.", "was refused by crawler version test, for the reason above")
	htmlcheck.Want(t, neverDoc, "#releases > p", "No manifest from this site has passed every check yet, so there are no releases to show.")
	// Nothing is cached, so the page must not say it shows cached data.
	htmlcheck.Lacks(t, neverDoc, "#staleness", "This page may be out of date.")
	listDoc := parsePage(t, out, "projects/index.html")
	var cat struct {
		Claims []struct{ Project, Health string }
	}
	if err := json.Unmarshal(readOut(t, out, format.CatalogFile), &cat); err != nil {
		t.Fatal(err)
	}
	inCatalog := map[string]bool{}
	for _, c := range cat.Claims {
		inCatalog[c.Project] = true
	}
	health := parsePage(t, out, "health/index.html")
	for _, c := range cases {
		id := ids[c.health]
		doc := parsePage(t, out, paths.Claim(id, site))
		stale := htmlcheck.Texts(t, doc, "#staleness")
		if c.health == store.ClaimCurrent || c.health == store.ClaimWithdrawn {
			if len(stale) != 0 {
				t.Errorf("%s claim shows the staleness banner", c.health)
			}
		} else {
			if len(stale) != 1 || !strings.HasPrefix(stale[0], "This page may be out of date.") {
				t.Errorf("%s: no staleness banner: %q", c.health, stale)
				continue
			}
			label := store.HealthLabel(c.health)
			htmlcheck.Want(t, doc, "#staleness", "2026-10-01 06:00:00 UTC", "2026-10-10 12:00:00 UTC", strings.ToUpper(label[:1])+label[1:]+": "+c.problem)
			htmlcheck.Want(t, health, "main ul.list li li > a", "Project "+c.health)
		}
		if c.cached {
			htmlcheck.Want(t, doc, "#staleness code", sha([]byte("newer "+id)))
		}
		withdrawn := c.health == store.ClaimWithdrawn
		if withdrawn != !inCatalog[id] {
			t.Errorf("%s: in catalog.json = %v", c.health, inCatalog[id])
		}
		// The withdrawn claim is named only in the "Not in the catalog" list, below the catalog's.
		lists := htmlcheck.All(t, listDoc, "main ul.results, main ul.list")
		if len(lists) != 2 {
			t.Fatalf("the project list has %d lists, want the catalog's and the one of claims out of it", len(lists))
		}
		in, out := lists[0], lists[1]
		if withdrawn {
			in, out = out, in
			htmlcheck.Want(t, doc, "#withdrawn", "Withdrawn. The site's index no longer lists the project. This claim is out of the catalog.",
				"Last attempt: 2026-10-10 12:00:00 UTC", "last successful observation 2026-10-01 06:00:00 UTC")
		}
		htmlcheck.Want(t, in, "a bdi", "Project "+c.health)
		htmlcheck.Lacks(t, out, "a bdi", "Project "+c.health)
	}
}

// TestBuildAcceptsForeignEventIDsAndMissingMedia: the two things store.Check reports that do
// not change what is shown build fine (the corpus state has the second): an event whose id
// does not recompute from its facts, and a cached image that is missing, whose card says so
// visibly.
func TestBuildAcceptsForeignEventIDsAndMissingMedia(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	missing := store.MediaDir + "/" + strings.Repeat("0", 64) + ".png"
	f.Claim(site, sampleManifest(uuid(1), "One", 2), func(c *store.Claim) {
		c.Media = &store.Media{URL: "http://a.example/card.png", Alt: "a lamp", File: &missing}
	})
	f.Event(store.Event{ID: "23e428718d5c0589099e", Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: "One",
		ObservedAt: statetest.Time, After: ptr(strings.Repeat("1", 64)), Changes: []diff.Change{}})
	if probs := store.Open(state).Check(); len(probs) != 2 {
		t.Fatalf("the fixture should break exactly the two invariants the build tolerates; store.Check says %v", probs)
	}
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(1), site))
	htmlcheck.Want(t, doc, "p.noimage", "No picture; the publisher describes it as: a lamp (why)")
	htmlcheck.One(t, doc, `p.noimage a[href="../../../health/index.html#cards"]`)
	htmlcheck.Want(t, parsePage(t, out, "health/index.html"), "main ul.list > li", "One from A a.example: the cached image is missing from the state.")
	htmlcheck.Want(t, parsePage(t, out, paths.Event("23e428718d5c0589099e")), "h1", "One")
}

// TestBuildBadState: a record that does not parse or contradicts itself fails the build with
// the path and the problem, and a previous output is left exactly as it was.
func TestBuildBadState(t *testing.T) {
	t.Parallel()
	good := func(t *testing.T) (string, *statetest.State, string) {
		state := t.TempDir()
		f := statetest.In(t, state)
		site := f.Site("https://a.example/dreamweave.json", "A")
		f.Claim(site, sampleManifest(uuid(1), "One", 2))
		return state, f, site
	}
	aSite := store.SiteID("https://a.example/dreamweave.json")
	cases := []struct {
		name  string
		spoil func(t *testing.T, f *statetest.State, site string)
		want  []string
	}{
		{"claim record does not parse", func(t *testing.T, f *statetest.State, site string) {
			os.WriteFile(f.Dir.Path(store.ClaimPath(uuid(1), site)), []byte("{not json"), 0o644)
		}, []string{store.ClaimPath(uuid(1), "")[:len("claims/")+36], "claim.json"}},
		{"claim record has an unknown field", func(t *testing.T, f *statetest.State, site string) {
			b, _ := os.ReadFile(f.Dir.Path(store.ClaimPath(uuid(1), site)))
			os.WriteFile(f.Dir.Path(store.ClaimPath(uuid(1), site)), []byte(strings.Replace(string(b), "{", `{"surprise": 1,`, 1)), 0o644)
		}, []string{"claim.json", "surprise"}},
		{"manifest does not hash to the recorded digest", func(t *testing.T, f *statetest.State, site string) {
			os.WriteFile(f.Dir.Path(store.ManifestPath(uuid(1), site)), []byte(`{"changed":true}`), 0o644)
		}, []string{"manifest.json", "hashes to"}},
		{"claim sits in another claim's directory", func(t *testing.T, f *statetest.State, site string) {
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.Project = uuid(2)
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{"claim.json", "project " + uuid(2) + " does not match its directory " + uuid(1)}},
		{"claim of a site with no origin record", func(t *testing.T, f *statetest.State, site string) {
			os.RemoveAll(f.Dir.Path("origins"))
		}, []string{"claim.json", "origin.json"}},
		{"unknown health", func(t *testing.T, f *statetest.State, site string) {
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.Health = "sleepy"
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{"claim.json", "sleepy"}},
		{"cached image does not match its name", func(t *testing.T, f *statetest.State, site string) {
			rel := store.MediaDir + "/" + sha([]byte("x")) + ".png"
			f.Dir.WriteBytes(rel, []byte("not x"))
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.Media = &store.Media{URL: "https://a.example/i.png", Alt: "i", File: &rel}
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{"media/" + sha([]byte("x")) + ".png", "not the digest its name gives"}},
		{"media file outside the media directory", func(t *testing.T, f *statetest.State, site string) {
			rel := "media/../network.json"
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.Media = &store.Media{URL: "https://a.example/i.png", Alt: "i", File: &rel}
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{"claim.json", "is not under media/"}},
		{"event id that is not a page name", func(t *testing.T, f *statetest.State, site string) {
			f.Dir.WriteBytes(store.EventsDir+"/x.json", []byte(`{"id":"../../escape","kind":"observed","project":"`+uuid(1)+`","origin":"`+site+`","name":"n","observed_at":"2026-01-01T00:00:00Z","before":null,"after":null,"changes":[]}`))
		}, []string{"events/", `"../../escape"`, "not 20 lowercase hex digits"}},
		{"origin id that is not a site name", func(t *testing.T, f *statetest.State, site string) {
			var o store.Origin
			f.Dir.ReadJSON(store.OriginPath(site), &o)
			o.ID = "../Escape"
			f.Write(store.OriginPath(site), o)
		}, []string{"origin"}},
		// A current claim whose held and advertised
		// digests differ would be shown as current while showing an older manifest.
		{"current claim holding another manifest than the advertised one", func(t *testing.T, f *statetest.State, site string) {
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.AdvertisedSHA256 = strings.Repeat("0", 64)
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{store.ClaimPath(uuid(1), aSite), "is current, but holds", "while " + strings.Repeat("0", 64) + " is advertised"}},
		// v-event-renamed: pages are named by the id, so a file under another name is two
		// names for one event.
		{"event file not named by its id", func(t *testing.T, f *statetest.State, site string) {
			e := store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: "One", ObservedAt: statetest.Time, Changes: []diff.Change{}}
			e.ID = store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
			b, _ := json.Marshal(e)
			f.Dir.WriteBytes(store.EventsDir+"/00000000000000000000.json", b)
		}, []string{"events/00000000000000000000.json", "file name does not match its id"}},
		// v-index-bytes: the held site index is not the one origin.json records.
		{"held site index does not hash to index_sha256", func(t *testing.T, f *statetest.State, site string) {
			f.Dir.WriteBytes(store.OriginIndexPath(site), []byte(`{"changed": true}`))
		}, []string{store.OriginIndexPath(aSite), "hashes to", "records index_sha256"}},
		{"held manifest with no recorded digest", func(t *testing.T, f *statetest.State, site string) {
			m := sampleManifest(uuid(2), "Two", 1)
			f.Claim(site, m, func(c *store.Claim) { c.IngestedSHA256, c.Health, c.Problem = nil, store.ClaimInvalid, ptr("x") })
		}, []string{store.ManifestPath(uuid(2), aSite), "records no ingested_sha256"}},
		{"source leading to a missing origin", func(t *testing.T, f *statetest.State, site string) {
			u := "https://b.example/"
			f.Write(store.SourcePath(store.SourceID(u)), store.Source{URL: u, Origin: ptr("b-example-00000000"), Health: store.SourceResolved, Trail: []store.TrailStep{}, LastAttempt: statetest.Time})
		}, []string{store.SourcePath(store.SourceID("https://b.example/")), "origin b-example-00000000 does not exist"}},
		{"origin listing a source with no record", func(t *testing.T, f *statetest.State, site string) {
			var o store.Origin
			f.Dir.ReadJSON(store.OriginPath(site), &o)
			o.Sources = append(o.Sources, "https://elsewhere.example/")
			f.Write(store.OriginPath(site), o)
		}, []string{store.OriginPath(aSite), "lists source https://elsewhere.example/, which has no record"}},
		{"claim moved to a missing origin", func(t *testing.T, f *statetest.State, site string) {
			var c store.Claim
			f.Dir.ReadJSON(store.ClaimPath(uuid(1), site), &c)
			c.MovedTo = ptr("gone-00000000")
			f.Write(store.ClaimPath(uuid(1), site), c)
		}, []string{store.ClaimPath(uuid(1), aSite), "moved_to names origin gone-00000000"}},
		{"event does not parse", func(t *testing.T, f *statetest.State, site string) {
			f.Dir.WriteBytes(store.EventPath("00000000000000000000"), []byte("[]"))
		}, []string{"events/00000000000000000000.json"}},
	}
	// The good state's site, built and checked once: each case starts from a copy of it.
	goodState, _, _ := good(t)
	_, goodOut := build(t, goodState, Options{})
	before := tree(t, goodOut)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state, f, site := good(t)
			out := filepath.Join(t.TempDir(), "public")
			if err := os.CopyFS(out, os.DirFS(goodOut)); err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, f, site)
			_, err := Build(Options{State: state, Out: out})
			if err == nil {
				t.Fatal("the build succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			after := tree(t, out)
			if len(after) != len(before) {
				t.Errorf("the failed build changed the output: %d files, was %d", len(after), len(before))
			}
			for name, b := range before {
				if string(after[name]) != string(b) {
					t.Errorf("the failed build changed %s", name)
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".ashyams-build-*"))
			if len(leftovers) > 0 {
				t.Errorf("a failed build left %v", leftovers)
			}
		})
	}
}

func TestBuildOptionsAndOutput(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	f.Claim(f.Site("https://a.example/dreamweave.json", "A"), sampleManifest(uuid(1), "One", 1))

	// An output directory that is not a previous build is left alone.
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "precious.txt"), []byte("keep me"), 0o644)
	if _, err := Build(Options{State: state, Out: foreign}); err == nil || !strings.Contains(err.Error(), "not a previous build") {
		t.Errorf("foreign output: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(foreign, "precious.txt")); err != nil || string(b) != "keep me" {
		t.Error("the foreign output directory was touched")
	}
	// An empty directory is fine, and a previous build is replaced whole.
	out := t.TempDir()
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "stale.html"), []byte("old"), 0o644)
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "stale.html")); err == nil {
		t.Error("a file from before the build survived it")
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{State: state, Out: t.TempDir(), BaseURL: "ftp://x.example/"}, "--base-url"},
		{Options{State: state, Out: t.TempDir(), BaseURL: "https://u:p@x.example/"}, "--base-url"},
		{Options{State: state, Out: t.TempDir(), BaseURL: "/relative/"}, "--base-url"},
		{Options{State: filepath.Join(state, "nope"), Out: t.TempDir()}, "state directory"},
		{Options{State: state}, "no output directory"},
		{Options{State: state, Out: t.TempDir(), Curation: writeCuration(t, "[[featured]]\nproject = \"not-a-uuid\"\nnote = \"x\"\n")}, "curation.toml"},
	} {
		if _, err := Build(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want one naming %q", c.o, err, c.want)
		}
	}
	// The base URL reaches the sitemap, robots.txt, the feeds and network_page.
	out = t.TempDir()
	if _, err := Build(Options{State: state, Out: out, BaseURL: "https://idx.example/net"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sitemap.xml", feed.FeedFile, paths.ProjectFeed(uuid(1)), format.CatalogFile, "robots.txt"} {
		if !strings.Contains(string(readOut(t, out, name)), "https://idx.example/net/") {
			t.Errorf("%s does not use the base URL", name)
		}
	}
}

func writeCuration(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "curation.toml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuildOddPublisherData: 2,000 releases, huge strings, missing optional fields, hostile
// markup and an image that will not decode all render, visibly, and the site checks clean.
func TestBuildOddPublisherData(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://odd.example/dreamweave.json", strings.Repeat("Long site name ", 1000))

	many := sampleManifest(uuid(1), "Many releases", 2000)
	f.Claim(site, many)

	huge := sampleManifest(uuid(2), strings.Repeat("N", 100_000), 1)
	huge.Project.Summary = strings.Repeat("summary words ", 50_000)
	huge.Releases[0].Notes = &protocol.Notes{Summary: strings.Repeat("*note* [l](https://x.example/) ", 20_000)}
	f.Claim(site, huge)

	bare := &protocol.Manifest{SchemaVersion: "2", Document: "project",
		Project: protocol.Project{ID: uuid(3), Name: "Bare", Type: "mod", Status: "active", Game: "morrowind"},
		Releases: []protocol.Release{{Version: "1.0", Channel: "stable", Status: "available",
			Artifacts: []protocol.Artifact{{ID: "a", Format: "flat", Filename: "a.zip", MediaType: "application/zip", Size: 1}}}},
		Channels: map[string]protocol.ChannelHead{"stable": {Version: "1.0"}}}
	f.Claim(site, bare)

	noHead := sampleManifest(uuid(4), "Nothing available", 1)
	noHead.Releases[0].Status, noHead.Releases[0].Yanked = "yanked", &protocol.Notice{Reason: "broken"}
	noHead.Channels = map[string]protocol.ChannelHead{}
	f.Claim(site, noHead)

	broken := f.Media([]byte("\x89PNG\r\n\x1a\nthis is not really a png"), "png")
	f.Claim(site, sampleManifest(uuid(5), "Broken image", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://odd.example/i.png", Alt: "A lantern on a table", File: &broken}
	})
	f.Claim(site, sampleManifest(uuid(6), "Uncached image", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://odd.example/j.png", Alt: "j", Problem: ptr("HTTP 404")}
	})
	bomb := f.Media(sitetest.PNGHeader(60000, 60000), "png")
	f.Claim(site, sampleManifest(uuid(7), "Bomb image", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://odd.example/k.png", Alt: "k", File: &bomb}
	})

	truncated := f.Media(sitetest.PNGHeader(100, 100), "png")
	f.Claim(site, sampleManifest(uuid(8), "Truncated image", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://odd.example/l.png", Alt: "l", File: &truncated}
	})

	_, out := build(t, state, Options{})
	if n := htmlcheck.Count(t, parsePage(t, out, paths.Claim(uuid(1), site)), `ul.releases > li[id^="release-"]`); n != 2000 {
		t.Errorf("the 2,000-release claim shows %d releases", n)
	}
	if got := htmlcheck.Text(htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(2), site)), "h1")); got != strings.Repeat("N", 100_000) {
		t.Errorf("the huge name is not shown whole: %d characters", len(got))
	}
	bareDoc := parsePage(t, out, paths.Claim(uuid(3), site))
	htmlcheck.Want(t, bareDoc, "h1", "Bare")
	htmlcheck.Want(t, bareDoc, "#links p", "Maintainers: none listed.")
	htmlcheck.Want(t, bareDoc, "main dd", "not given")
	htmlcheck.Want(t, bareDoc, "ul.downloads li", "no download address listed")
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(uuid(4), site)), "#current", "No current release: no channel has an available release.")
	health := parsePage(t, out, "health/index.html")
	for id, want := range map[string]string{
		uuid(5): "No image: the cached image cannot be shown: the image header cannot be read",
		uuid(6): "No image: the crawler could not cache the image: HTTP 404",
		uuid(7): "No image: the cached image cannot be shown: the png image is 60000x60000 pixels",
		uuid(8): "No image: the cached image cannot be shown: the png image does not decode",
	} {
		htmlcheck.Want(t, parsePage(t, out, paths.Claim(id, site)), "p.noimage", "No picture")
		htmlcheck.Want(t, health, "main ul.list > li", strings.TrimPrefix(want, "No image: "))
	}
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(uuid(5), site)), "p.noimage", "A lantern on a table")
	cards, _ := filepath.Glob(filepath.Join(out, "cards", "*"))
	if len(cards) != 0 {
		t.Errorf("cards written for images that cannot be shown: %v", cards)
	}
}

// TestBuildModelPages: featured projects (labelled as this index's choice), identity
// conflicts on every claim involved, capabilities with ':' in their names, resolution with
// constraint satisfaction, used-by, gaps with the inspect command, card images, first-seen
// times and the feed, all from the model.
func TestBuildModelPages(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/mods/dreamweave.json", "Site B")

	lib := sampleManifest(uuid(1), "Lantern Lib", 3) // current 1.0.2
	lib.Releases[0].Provides = []string{"lua:lantern-api"}
	f.Claim(a, lib)
	f.Claim(b, sampleManifest(uuid(1), "Lantern Lib (fork)", 1)) // same id from another site
	img := f.Media(sitetest.EncodePNG(t, sitetest.Solid(800, 450, color.NRGBA{1, 2, 3, 255})), "png")

	app := sampleManifest(uuid(2), "Candle App", 1)
	app.Releases[0].Relationships = []protocol.Relationship{
		{Kind: "requires", Project: uuid(1), Version: ">=1.0.1"},
		{Kind: "requires", Capability: "lua:lantern-api"},
		{Kind: "recommends", Project: uuid(9), Name: "Missing Thing", URL: "https://elsewhere.example/thing/"},
		{Kind: "conflicts", Project: uuid(1), Version: ">=2.0"},
	}
	appDigest := f.Claim(a, app, func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://a.example/card.png", Alt: "Candles on a shelf", File: &img}
	})
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(2), Origin: a, Name: "Candle App", ObservedAt: "2026-09-01T00:00:00Z", After: &appDigest, Changes: []diff.Change{}})
	// Lantern Lib's history: first observed with two releases, then 1.0.2 added.
	first, second := sha([]byte("v1")), ""
	var rec store.Claim
	f.Dir.ReadJSON(store.ClaimPath(uuid(1), a), &rec)
	second = rec.Ingested()
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: a, Name: "Lantern Lib", ObservedAt: "2026-09-02T00:00:00Z", After: &first, Changes: []diff.Change{}})
	f.Event(store.Event{Kind: store.EventChanged, Project: uuid(1), Origin: a, Name: "Lantern Lib", ObservedAt: "2026-09-20T08:00:00Z", Before: &first, After: &second,
		Changes: []diff.Change{{Change: "channel-head", Channel: "stable", Before: json.RawMessage(`"1.0.1"`), After: json.RawMessage(`"1.0.2"`)}, {Change: "release-added", Version: "1.0.2", Channel: "stable", Status: "available"}}})
	for i := 0; i < 120; i++ { // enough events to cut the feed at 100
		f.Event(store.Event{Kind: store.EventChanged, Project: uuid(1), Origin: b, Name: "Lantern Lib (fork)",
			ObservedAt: fmt.Sprintf("2026-08-%02dT%02d:00:00Z", 1+i/24, i%24), Before: ptr(sha([]byte(fmt.Sprint(i)))), After: ptr(sha([]byte(fmt.Sprint(i + 1)))),
			Changes: []diff.Change{{Change: "project-field", Field: "summary", Before: json.RawMessage(`"a"`), After: json.RawMessage(`"b"`)}}})
	}
	cur := writeCuration(t, fmt.Sprintf("[[featured]]\nproject = %q\nnote = \"A small, well documented example of the protocol.\"\n", uuid(2)))
	_, out := build(t, state, Options{Curation: cur})

	home := parsePage(t, out, "index.html")
	htmlcheck.Want(t, home, "section#featured", "Featured by this index", "This index's own editorial choice", "Candle App", "A small, well documented example of the protocol.")
	if htmlcheck.Count(t, home, "section#featured .card-image") == 0 {
		t.Error("the featured card has no image")
	}
	for _, s := range []string{a, b} {
		htmlcheck.Want(t, parsePage(t, out, paths.Claim(uuid(1), s)), "#conflict strong", "Identity conflict.")
	}
	htmlcheck.Want(t, parsePage(t, out, "conflicts/index.html"), "main li a bdi", "Lantern Lib (fork)", "Lantern Lib")
	capPage := paths.Capability("lua:lantern-api")
	if strings.ContainsRune(capPage, ':') {
		t.Errorf("capability path %s holds ':'", capPage)
	}
	htmlcheck.Want(t, parsePage(t, out, capPage), "main li a bdi", "Lantern Lib")
	appDoc := parsePage(t, out, paths.Claim(uuid(2), a))
	htmlcheck.Want(t, appDoc, "#current li", "satisfied", "not satisfied", "Nobody in this index publishes the target")
	libDoc := parsePage(t, out, paths.Claim(uuid(1), a))
	htmlcheck.Want(t, libDoc, "#used-by a bdi", "Candle App")
	htmlcheck.Want(t, libDoc, "ul.releases > li", "2026-09-20 08:00:00 UTC", "2026-09-02 00:00:00 UTC")
	htmlcheck.Want(t, parsePage(t, out, paths.Claim(uuid(1), b)), "#releases", "not recorded")
	gaps := parsePage(t, out, "gaps/index.html")
	htmlcheck.Want(t, gaps, "main code", "ashyams inspect https://elsewhere.example/thing/", uuid(9))
	deps := parsePage(t, out, "dependencies/index.html")
	htmlcheck.Want(t, deps, "ul.deps > li > a > bdi", "Candle App")
	htmlcheck.Want(t, deps, "main p", "that another project's current release requires")
	htmlcheck.Want(t, parsePage(t, out, paths.UsedBy), "main li", "is required by")
	svg, err := os.ReadFile(filepath.Join(out, graph.GraphFile))
	if err != nil {
		t.Fatal("no dependency graph drawn")
	}
	// The drawing follows a dark scheme as the pages do, each box names its site, and the
	// page's alt text counts what the drawing shows against the table's relationships.
	drawing := htmlcheck.Parse(t, svg)
	style := htmlcheck.One(t, drawing, "svg > style")
	if style.FirstChild == nil || !regexp.MustCompile(`@media\(prefers-color-scheme:dark\)\{`).MatchString(style.FirstChild.Data) {
		t.Errorf("graph.svg has no dark scheme: %v", style.FirstChild)
	}
	sites := htmlcheck.Texts(t, drawing, "text.site")
	if len(sites) == 0 {
		t.Error("graph.svg names no site in its boxes")
	}
	for _, s := range sites {
		if !strings.HasPrefix(s, "from ") {
			t.Errorf("a box's site line says %q, not from whom", s)
		}
	}
	alt := htmlcheck.Attr(htmlcheck.One(t, deps, `img[src$="graph.svg"]`), "alt")
	if !regexp.MustCompile(`^A drawing of \d+ arrows? between \d+ claims?, for \d+ of the \d+ relationships? in the list below`).MatchString(alt) {
		t.Errorf("the graph's alt text does not count what it draws: %q", alt)
	}
	atomDoc := string(readOut(t, out, feed.FeedFile))
	if n := strings.Count(atomDoc, "<entry>"); n != feed.FeedSize {
		t.Errorf("the feed has %d entries, want %d", n, feed.FeedSize)
	}
	var head struct {
		Updated string `xml:"updated"`
		Entries []struct {
			Updated string `xml:"updated"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(atomDoc), &head); err != nil {
		t.Fatal(err)
	}
	if head.Updated != statetest.Time || len(head.Entries) == 0 || head.Entries[0].Updated != "2026-09-20T08:00:00Z" {
		t.Errorf("the feed's updated is %q, want the last refresh's %s; its first entry's %v, want the newest event's", head.Updated, statetest.Time, head.Entries)
	}
	htmlcheck.Want(t, parsePage(t, out, "updates/metadata/index.html"), "main li a bdi", "Lantern Lib (fork)")
}

// TestBuildRefusesInvalidGeneratedJSON: a generated file that breaks its schema fails the
// build, naming the file, and leaves the previous output alone.
func TestBuildRefusesInvalidGeneratedJSON(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	f.Claim(site, sampleManifest(uuid(1), "One", 1))
	_, out := build(t, state, Options{})
	before := tree(t, out)
	// An origin record whose first_observed is not an observation time: the model carries it
	// into catalog.json, whose schema refuses it.
	var o store.Origin
	if err := f.Dir.ReadJSON(store.OriginPath(site), &o); err != nil {
		t.Fatal(err)
	}
	o.FirstObserved = "yesterday"
	f.Write(store.OriginPath(site), o)
	_, err := Build(Options{State: state, Out: out})
	if err == nil || !strings.Contains(err.Error(), "generated network-data/catalog.json does not match its schema") {
		t.Fatalf("err = %v", err)
	}
	if after := tree(t, out); len(after) != len(before) || string(after[format.CatalogFile]) != string(before[format.CatalogFile]) {
		t.Error("the failed build changed the output")
	}
}

// TestBuildRefusesLinkedMarker: an output directory whose marker is a symbolic link (to a real
// build's marker) is not a previous build: Build refuses it, naming the marker, and leaves the
// directory and the link's target as they were.
func TestBuildRefusesLinkedMarker(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	f.Claim(f.Site("https://a.example/dreamweave.json", "A"), sampleManifest(uuid(1), "One", 1))
	real := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: real}); err != nil {
		t.Fatal(err)
	}
	victim := t.TempDir()
	os.WriteFile(filepath.Join(victim, "precious.txt"), []byte("keep me"), 0o644)
	if err := os.Symlink(filepath.Join(real, Marker), filepath.Join(victim, Marker)); err != nil {
		t.Fatal(err)
	}
	_, err := Build(Options{State: state, Out: victim})
	if err == nil || !strings.Contains(err.Error(), Marker+" that is not a regular file (a symbolic link)") {
		t.Fatalf("err = %v, want a refusal of the linked marker", err)
	}
	if b, err := os.ReadFile(filepath.Join(victim, "precious.txt")); err != nil || string(b) != "keep me" {
		t.Error("the directory with the linked marker was touched")
	}
	if _, err := os.Lstat(filepath.Join(victim, "index.html")); err == nil {
		t.Error("the build wrote into the directory with the linked marker")
	}
	if _, err := os.Stat(filepath.Join(real, "index.html")); err != nil {
		t.Errorf("the real build behind the link changed: %v", err)
	}
	// A directory named like the marker is refused the same way.
	odd := t.TempDir()
	os.Mkdir(filepath.Join(odd, Marker), 0o755)
	if _, err := Build(Options{State: state, Out: odd}); err == nil || !strings.Contains(err.Error(), "(a directory)") {
		t.Errorf("marker directory: err = %v", err)
	}
}

// TestBuildStopsAtAFailedRender: one page of many failing to render fails the build with an
// error naming that page and what went wrong; the previous output is left as it was and no
// staging directory is left behind.
func TestBuildStopsAtAFailedRender(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	for i := 0; i < 40; i++ {
		f.Claim(site, sampleManifest(uuid(i), fmt.Sprintf("Project %d", i), 1))
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := readOut(t, out, "index.html")
	bad := overlay(t, "claim.html", func(s string) string {
		return strings.Replace(s, `{{define "main"}}`, `{{define "main"}}{{if eq .Data.C.Project "`+uuid(23)+`"}}{{dict "odd"}}{{end}}`, 1)
	})
	_, err := Build(Options{State: state, Out: out, templates: bad})
	if err == nil || !strings.Contains(err.Error(), uuid(23)) || !strings.Contains(err.Error(), "dict: odd number of arguments") {
		t.Fatalf("err = %v, want the failed page and its template error", err)
	}
	if after := readOut(t, out, "index.html"); !bytes.Equal(before, after) {
		t.Error("a failed build changed the previous output")
	}
	ents, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "public" {
			t.Errorf("a failed build left %s behind", e.Name())
		}
	}
}
