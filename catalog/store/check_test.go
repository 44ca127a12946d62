package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// A state whose cached images are gone fails exactly one invariant, on each claim that holds
// one: the refreshed state with its media directory removed (Candlelight's card image), and the
// reference index's state, whose cached images are not part of the corpus. Anything else
// reported would be a bug in Check; anything missing would mean Check does not read the records.
func TestCheckReportsOnlyMissingMedia(t *testing.T) {
	d, mods := refreshed(t)
	must(t, os.RemoveAll(d.Path(MediaDir)))
	cases := map[string][]string{d.Root: {ClaimPath(corpustest.CandlelightID, SiteID(mods+"dreamweave.json"))}}
	if root, ok := corpustest.Optional(t, "state"); ok {
		cases[root] = []string{
			"claims/4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90/dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8/claim.json",
			"claims/e33a86c1-bc17-4f55-a72b-1ded0e58523b/dreamweave-mp-github-io-dream-archivetool-563195a7/claim.json",
			"claims/f7b9633b-b7cb-4db9-a19f-63556586a81d/dreamweave-mp-github-io-dream-soft-render-81ca4bcc/claim.json",
		}
	}
	for root, want := range cases {
		var media []string
		for _, p := range Open(root).Check() {
			switch {
			case strings.HasSuffix(p.Path, "/claim.json") && strings.Contains(p.Message, "cached image media/") && strings.HasSuffix(p.Message, "does not exist") && p.Kind == MediaMissing:
				media = append(media, p.Path)
			default:
				t.Errorf("%s: unexpected problem: %s", root, p)
			}
		}
		if !slices.Equal(media, want) {
			t.Errorf("%s: missing-media problems on %v, want %v", root, media, want)
		}
	}
}

// TestEventIDOfRecordedEvents: every event a state records is named by the reference's formula
// over its own facts (the first 20 hex digits of the SHA-256 of "dreamweave-network event 1",
// kind, project, site, before and after, one a line), computed here and by EventID, from the
// file (not through Event), so the test does not depend on the record type or on the writer:
// the refreshed state's observed and changed events, and the reference index's.
func TestEventIDOfRecordedEvents(t *testing.T) {
	for _, sc := range wholeStates(t) {
		files, err := filepath.Glob(filepath.Join(sc.root, "events", "*.json"))
		must(t, err)
		if len(files) != sc.events {
			t.Fatalf("%s holds %d events, want %d", sc.name, len(files), sc.events)
		}
		kinds := map[string]bool{}
		for _, f := range files {
			b, err := os.ReadFile(f)
			must(t, err)
			var e struct {
				ID, Kind, Project, Origin string
				Before, After             *string
			}
			must(t, json.Unmarshal(b, &e))
			kinds[e.Kind] = true
			stem := strings.TrimSuffix(filepath.Base(f), ".json")
			sum := sha256.Sum256([]byte(strings.Join([]string{"dreamweave-network event 1", e.Kind, e.Project, e.Origin, deref(e.Before), deref(e.After)}, "\n")))
			want := hex.EncodeToString(sum[:])[:20]
			if got := EventID(e.Kind, e.Project, e.Origin, e.Before, e.After); got != want || e.ID != want || stem != want {
				t.Errorf("%s: %s: id %s, EventID of its facts %s, the formula's %s", sc.name, filepath.Base(f), e.ID, got, want)
			}
		}
		if !kinds[EventObserved] || !kinds[EventChanged] {
			t.Errorf("%s: events of kinds %v, want observed and changed", sc.name, kinds)
		}
	}
}

// soundCorpus copies the corpus state and makes it pass: the three absent images dropped from
// their claims. The repaired tree is built once and copied per test.
func soundCorpus(t *testing.T) *Dir {
	t.Helper()
	src, _ := corpustest.Find("state")
	soundOnce.Do(func() { soundFiles, soundErr = buildSound(src) })
	if soundErr != nil {
		t.Fatal(soundErr)
	}
	d := writeTree(t, soundFiles)
	soundChecked.Do(func() { soundProblems = d.Check() }) // every copy holds the same bytes
	if len(soundProblems) != 0 {
		t.Fatalf("the repaired corpus state still fails: %v", soundProblems)
	}
	return d
}

var (
	soundOnce  sync.Once
	soundFiles map[string][]byte
	soundErr   error

	soundChecked  sync.Once
	soundProblems []Problem
)

func buildSound(src string) (map[string][]byte, error) {
	files, err := readTree(src)
	if err != nil {
		return nil, err
	}
	s, err := Open(src).Load()
	if err != nil {
		return nil, err
	}
	for _, c := range s.Claims {
		if c.Media != nil {
			c.Media.File = nil
			if files[c.Dir+"/"+ClaimFile], err = MarshalRecord(c.Claim); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

const (
	tplSite    = "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8"
	tplProject = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	tplSource  = "dreamweave-mp-github-io-dreamweave-mod-template-1d2d6801"
)

// fixture is a sound state and the claim, site and source the tests corrupt in it: the tiny
// state built in the test and the refreshed state (always), and the repaired corpus (when
// ../shared is present).
type fixture struct {
	name                             string
	build                            func(t *testing.T) *Dir
	project, site, source, sourceURL string
}

func fixtures(t *testing.T) []fixture {
	_, mods := refreshed(t)
	fs := []fixture{
		{"tiny", func(t *testing.T) *Dir { return tinyState(t) }, tinyProject, tinySite, tinySource, tinySourceURL},
		{"refreshed", func(t *testing.T) *Dir { d, _ := refreshed(t); return d },
			corpustest.CandlelightID, SiteID(mods + "dreamweave.json"), SourceID(mods), mods},
	}
	if _, ok := corpustest.Optional(t, "state"); ok {
		fs = append(fs, fixture{"corpus", soundCorpus, tplProject, tplSite, tplSource, "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/"})
	}
	return fs
}

// forEachFixture runs f on every fixture, as a subtest named after it.
func forEachFixture(t *testing.T, f func(t *testing.T, fx fixture)) {
	for _, fx := range fixtures(t) {
		t.Run(fx.name, func(t *testing.T) { f(t, fx) })
	}
}

// Each corruption of a sound state is reported as exactly the broken invariant, naming the path.
// Under -short only the tiny state is corrupted: the corpus's copy and checks per case are
// the slowest part of the package's tests.
func TestCheckNamesEachBrokenInvariant(t *testing.T) {
	forEachFixture(t, func(t *testing.T, fx fixture) {
		if testing.Short() && fx.name == "corpus" {
			t.Skip("-short: the tiny state's corruptions only")
		}
		checkNamesEachBrokenInvariant(t, fx)
	})
}

func checkNamesEachBrokenInvariant(t *testing.T, fx fixture) {
	tplProject, tplSite, tplSource, soundCorpus := fx.project, fx.site, fx.source, fx.build
	claimRel := ClaimPath(tplProject, tplSite)
	manRel := ManifestPath(tplProject, tplSite)
	cases := []struct {
		name    string
		corrupt func(t *testing.T, d *Dir)
		path    string
		message string
		kind    Kind
	}{
		{"manifest bytes changed", func(t *testing.T, d *Dir) {
			b, _ := d.ReadBytes(manRel)
			must(t, os.WriteFile(d.Path(manRel), append(b, ' '), 0o644))
		}, manRel, "but claim.json records ingested_sha256", ManifestDigest},
		{"manifest describes another project", func(t *testing.T, d *Dir) {
			b, _ := d.ReadBytes(manRel)
			b = []byte(strings.Replace(string(b), tplProject, "00000000-0000-4000-8000-000000000000", 1))
			must(t, os.WriteFile(d.Path(manRel), b, 0o644))
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { dg := Digest(b); c.IngestedSHA256 = &dg; c.AdvertisedSHA256 = Digest(b) })
		}, manRel, `describes project "00000000-0000-4000-8000-000000000000", not the claim's project`, ManifestContent},
		{"manifest missing", func(t *testing.T, d *Dir) {
			must(t, os.Remove(d.Path(manRel)))
		}, manRel, "is missing, but claim.json records ingested_sha256", ManifestMissing},
		{"site index bytes changed", func(t *testing.T, d *Dir) {
			p := d.Path(OriginIndexPath(tplSite))
			b, _ := os.ReadFile(p)
			must(t, os.WriteFile(p, append(b, '\n'), 0o644))
		}, OriginIndexPath(tplSite), "but origin.json records index_sha256", IndexDigest},
		{"claim names a missing origin", func(t *testing.T, d *Dir) {
			must(t, os.RemoveAll(d.Path(OriginsDir+"/"+tplSite)))
		}, claimRel, "origin " + tplSite + " does not exist", NoOrigin},
		{"claim directory does not match origin field", func(t *testing.T, d *Dir) {
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { c.Origin = "elsewhere-00000000" })
		}, claimRel, "origin elsewhere-00000000 does not match its directory", Misplaced},
		{"claim directory does not match project field", func(t *testing.T, d *Dir) {
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { c.Project = "x" })
		}, claimRel, "project x does not match its directory", Misplaced},
		{"current claim holds what is not advertised", func(t *testing.T, d *Dir) {
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { c.AdvertisedSHA256 = strings.Repeat("0", 64) })
		}, claimRel, "is current, but holds", StaleCurrent},
		{"unknown health", func(t *testing.T, d *Dir) {
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { c.Health = "fine" })
		}, claimRel, `health "fine" is not a claim health value`, UnknownHealth},
		{"cached image missing", func(t *testing.T, d *Dir) {
			f := "media/" + strings.Repeat("a", 64) + ".png"
			editClaim(t, d, tplProject, tplSite, func(c *Claim) { c.Media = &Media{URL: "https://x/", File: &f} })
		}, claimRel, "cached image media/" + strings.Repeat("a", 64) + ".png does not exist", MediaMissing},
		{"media file not named by its digest", func(t *testing.T, d *Dir) {
			must(t, d.WriteBytes("media/"+strings.Repeat("b", 64)+".png", []byte("not it")))
		}, "media/" + strings.Repeat("b", 64) + ".png", "hashes to", MediaDigest},
		{"source leads to a missing origin", func(t *testing.T, d *Dir) {
			var s Source
			must(t, d.ReadJSON(SourcePath(tplSource), &s))
			gone := "gone-00000000"
			s.Origin = &gone
			must(t, d.WriteJSON(SourcePath(tplSource), s))
		}, SourcePath(tplSource), "origin gone-00000000 does not exist", Dangling},
		{"origin lists a source with no record", func(t *testing.T, d *Dir) {
			must(t, os.Remove(d.Path(SourcePath(tplSource))))
		}, OriginPath(tplSite), "lists source " + fx.sourceURL + ", which has no record", Dangling},
		{"origin named against its index url", func(t *testing.T, d *Dir) {
			var o Origin
			must(t, d.ReadJSON(OriginPath(tplSite), &o))
			o.IndexURL = "https://elsewhere.example/dreamweave.json"
			must(t, d.WriteJSON(OriginPath(tplSite), o))
		}, OriginPath(tplSite), "index_url https://elsewhere.example/dreamweave.json names the site", Misnamed},
		{"record with an unknown field", func(t *testing.T, d *Dir) {
			p := d.Path(claimRel)
			b, _ := os.ReadFile(p)
			b = []byte(strings.Replace(string(b), "{", "{\n  \"surprise\": 1,", 1))
			must(t, os.WriteFile(p, b, 0o644))
		}, claimRel, `does not parse as a record: json: unknown field "surprise"`, Unreadable},
		{"record that does not parse", func(t *testing.T, d *Dir) {
			must(t, os.WriteFile(d.Path(claimRel), []byte("{"), 0o644))
		}, claimRel, "does not parse as a record", Unreadable},
		{"network.json missing", func(t *testing.T, d *Dir) {
			must(t, os.Remove(d.Path(NetworkFile)))
		}, NetworkFile, "missing, but the state holds records", BadValue},
		{"bad time", func(t *testing.T, d *Dir) {
			must(t, d.WriteJSON(NetworkFile, Network{Format: 1, Crawler: "x", ObservedAt: "yesterday"}))
		}, NetworkFile, `observed_at "yesterday" is not a UTC time`, BadValue},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case corrupts a copy of its own
			d := soundCorpus(t)
			tc.corrupt(t, d)
			ps := d.Check()
			found := false
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.message) {
					found = true
					if p.Kind != tc.kind {
						t.Errorf("%s: kind %v, want %v", p, p.Kind, tc.kind)
					}
				}
			}
			if !found {
				t.Fatalf("want a problem on %s containing %q; got %v", tc.path, tc.message, ps)
			}
			// The render scope reports the same problem, in the same words, except for the
			// bytes of media/, which it leaves to the build, and a held manifest, which it
			// decodes whole: bytes that are not a project manifest are reported as that first.
			_, rs := d.CheckLoadForRender()
			for _, p := range ps {
				sameFile := func(r Problem) bool { return r.Path == p.Path && r.Kind == ManifestContent }
				switch {
				case p.Kind == MediaDigest, slices.Contains(rs, p):
				case p.Kind == ManifestContent && slices.ContainsFunc(rs, sameFile):
				default:
					t.Errorf("the render scope misses %s", p)
				}
			}
		})
	}
}

func TestCheckEvents(t *testing.T) { forEachFixture(t, checkEvents) }

func checkEvents(t *testing.T, fx fixture) {
	d := fx.build(t)
	s, err := d.Load()
	must(t, err)
	e := s.Events[0]

	// Renamed file: the id no longer matches the file name.
	must(t, os.Rename(d.Path(EventPath(e.ID)), d.Path(EventPath("00000000000000000000"))))
	wantOne(t, d, "events/00000000000000000000.json", "file name does not match its id "+e.ID)
	must(t, os.Rename(d.Path(EventPath("00000000000000000000")), d.Path(EventPath(e.ID))))

	// Facts edited: the id no longer matches them.
	e2 := e
	e2.Kind = EventWithdrawn
	must(t, d.WriteBytes(EventPath(e.ID), mustMarshal(t, e2)))
	wantOne(t, d, EventPath(e.ID), "event id does not match its facts: the id is "+e.ID+"; the reference index's formula over its kind, project, origin, before and after gives "+EventID(e2.Kind, e2.Project, e2.Origin, e2.Before, e2.After))
	must(t, d.WriteBytes(EventPath(e.ID), mustMarshal(t, e)))

	// An event about a claim the state no longer holds, moved from a site that is gone: events
	// outlive their claims (a move or a source's removal removes a site), so no problem.
	e3 := e
	e3.Project = "11111111-1111-4111-8111-111111111111"
	gone := SiteID("https://gone.example/dreamweave.json")
	e3.MovedFrom = &gone
	e3.ID = EventID(e3.Kind, e3.Project, e3.Origin, e3.Before, e3.After)
	must(t, d.WriteJSON(EventPath(e3.ID), e3))
	if ps := d.Check(); len(ps) != 0 {
		t.Fatalf("an event outliving its claim and site: %v", ps)
	}
}

func wantOne(t *testing.T, d *Dir, path, msg string) {
	t.Helper()
	ps := d.Check()
	if len(ps) != 1 || ps[0].Path != path || !strings.Contains(ps[0].Message, msg) {
		t.Fatalf("want exactly one problem on %s containing %q; got %v", path, msg, ps)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := MarshalRecord(v)
	must(t, err)
	return b
}

func editClaim(t *testing.T, d *Dir, project, site string, f func(*Claim)) {
	t.Helper()
	var c Claim
	must(t, d.ReadJSON(ClaimPath(project, site), &c))
	f(&c)
	must(t, d.WriteJSON(ClaimPath(project, site), c))
}

func TestCheckEmptyAndMissingState(t *testing.T) {
	if ps := Open(t.TempDir()).Check(); len(ps) != 0 {
		t.Errorf("an empty state (no refresh yet) is sound; got %v", ps)
	}
	root := filepath.Join(t.TempDir(), "nope")
	ps := Open(root).Check()
	want := "no state at " + root + ": run `.github/state.sh checkout` or `ashyams refresh` first"
	if len(ps) != 1 || ps[0].Path != "" || ps[0].String() != want {
		t.Errorf("missing state: %v, want one problem %q", ps, want)
	}
	file := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(file, nil, 0o644))
	ps = Open(file).Check()
	if len(ps) != 1 || ps[0].String() != "the state path "+file+" is not a directory" {
		t.Errorf("state path is a file: %v", ps)
	}
}

func TestCheckIsSorted(t *testing.T) {
	tiny := tinyState(t)
	for _, rel := range []string{"zz-stray", "events/x.txt", "aa-stray", SourcesDir + "/y.txt"} {
		must(t, os.MkdirAll(filepath.Dir(tiny.Path(rel)), 0o755))
		must(t, os.WriteFile(tiny.Path(rel), nil, 0o644))
	}
	// The refreshed state without its media, and with strays before and after every record.
	fresh, _ := refreshed(t)
	must(t, os.RemoveAll(fresh.Path(MediaDir)))
	for _, rel := range []string{"zz-stray", "aa-stray"} {
		must(t, os.WriteFile(fresh.Path(rel), nil, 0o644))
	}
	dirs := map[string]*Dir{"tiny": tiny, "refreshed": fresh}
	if root, ok := corpustest.Optional(t, "state"); ok {
		dirs["corpus"] = Open(root)
	}
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			ps := dir.Check()
			if len(ps) < 3 || !sort.SliceIsSorted(ps, func(i, j int) bool { return ps[i].Path < ps[j].Path }) {
				t.Errorf("problems not sorted by path, or too few to tell: %v", ps)
			}
		})
	}
}

func TestEventID(t *testing.T) {
	a := "af21ea57a689bf7b0b7c2dfc13bc6f86ebe08652dfc496704e1ce6f9a6ebd4c5"
	// printf 'dreamweave-network event 1\nobserved\np\ns\n\naf21...c5' | sha256sum | cut -c1-20
	if got := EventID("observed", "p", "s", nil, &a); got != "a65dd20171d97d35a680" {
		t.Errorf("EventID = %s, want a65dd20171d97d35a680", got)
	}
	empty := ""
	if EventID("withdrawn", "p", "s", &a, nil) != EventID("withdrawn", "p", "s", &a, &empty) {
		t.Error("a nil digest must count as the empty string")
	}
	if EventID("withdrawn", "p", "s", &a, nil) == EventID("changed", "p", "s", &a, nil) {
		t.Error("kind must be part of the id")
	}
	if EventID("observed", "p", "s", nil, &a) == EventID("observed", "p", "t", nil, &a) {
		t.Error("site must be part of the id")
	}
}

// A replacement cut short between its two writes (pending_sha256 recorded, then the new bytes)
// is a sound state; bytes that are neither the recorded nor the pending ones are not.
func TestCheckPendingReplacement(t *testing.T) { forEachFixture(t, checkPendingReplacement) }

func checkPendingReplacement(t *testing.T, fx fixture) {
	tplProject, tplSite, soundCorpus := fx.project, fx.site, fx.build
	manRel := ManifestPath(tplProject, tplSite)
	idxRel := OriginIndexPath(tplSite)
	newBytes := func(d *Dir, rel string) []byte {
		b, _ := d.ReadBytes(rel)
		return append(b, '\n')
	}

	d := soundCorpus(t)
	nb := newBytes(d, manRel)
	editClaim(t, d, tplProject, tplSite, func(c *Claim) { p := Digest(nb); c.PendingSHA256 = &p })
	if ps := d.Check(); len(ps) != 0 {
		t.Fatalf("pending recorded, old bytes still held: %v", ps)
	}
	must(t, d.WriteBytes(manRel, nb))
	if ps := d.Check(); len(ps) != 0 {
		t.Fatalf("pending recorded, new bytes held: %v", ps)
	}
	must(t, d.WriteBytes(manRel, append(nb, ' ')))
	wantOne(t, d, manRel, "and pending_sha256")

	d = soundCorpus(t)
	ib := newBytes(d, idxRel)
	var o Origin
	must(t, d.ReadJSON(OriginPath(tplSite), &o))
	p := Digest(ib)
	o.PendingSHA256 = &p
	must(t, d.WriteJSON(OriginPath(tplSite), o))
	must(t, d.WriteBytes(idxRel, ib))
	if ps := d.Check(); len(ps) != 0 {
		t.Fatalf("origin pending, new bytes held: %v", ps)
	}
	must(t, d.WriteBytes(idxRel, append(ib, ' ')))
	wantOne(t, d, idxRel, "and pending_sha256")
}
