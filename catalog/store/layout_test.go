package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// problems renders Check's answer as "path: message" lines for comparison.
func problems(d *Dir) []string {
	var out []string
	for _, p := range d.Check() {
		out = append(out, p.String())
	}
	return out
}

// A first refresh killed (SIGKILL) after creating a new site's directory and its
// temporary origin.json, before the rename. The state must still load (the refresh after it
// must not fail forever), Check must name the leftover (not "origin.json missing"), and Tidy
// must remove it, after which the state is sound again and holds exactly what it held.
func TestKilledRefreshLeftoverLoadsAndIsTidied(t *testing.T) {
	d := tinyState(t)
	before, err := d.Load()
	must(t, err)
	newSite := "127-0-0-1-dreamweave-mp-github-io-starwind-r3mastered-4f323272"
	tmp := OriginsDir + "/" + newSite + "/.tmp-origin.json-4084100148"
	must(t, os.MkdirAll(d.Path(OriginsDir+"/"+newSite), 0o755))
	must(t, os.WriteFile(d.Path(tmp), []byte(`{"id": "half`), 0o644))

	after, err := d.Load()
	if err != nil {
		t.Fatalf("a killed refresh's leftover makes the state unloadable: %v", err)
	}
	if len(after.Origins) != len(before.Origins) || len(after.Claims) != len(before.Claims) {
		t.Fatalf("Load read the leftover as a record: %d origins, %d claims", len(after.Origins), len(after.Claims))
	}
	ps := d.Check()
	if len(ps) != 1 || ps[0].Path != tmp || ps[0].Kind != Leftover || ps[0].Message != LeftoverMessage {
		t.Fatalf("want exactly one leftover problem on %s; got %v", tmp, ps)
	}
	if !strings.HasPrefix(ps[0].Message, "leftover from an interrupted write") {
		t.Errorf("leftover message %q", ps[0].Message)
	}

	removed, err := d.Tidy()
	must(t, err)
	if want := []string{OriginsDir + "/" + newSite + "/", tmp}; !slices.Equal(removed, want) {
		t.Errorf("Tidy removed %v, want %v", removed, want)
	}
	if ps := d.Check(); len(ps) != 0 {
		t.Errorf("after Tidy: %v", ps)
	}
	if d.Exists(OriginsDir + "/" + newSite) {
		t.Error("Tidy left the empty site directory")
	}
}

// Temporary files anywhere in the layout are leftovers: Load skips them, Check names each one,
// Tidy removes exactly them (records and Git's files untouched).
func TestLeftoversEverywhere(t *testing.T) {
	d := tinyState(t)
	want := []string{
		".tmp-network.json-1",
		ClaimsDir + "/" + tinyProject + "/" + tinySite + "/.tmp-manifest.json-3",
		EventsDir + "/.tmp-0123.json-4",
		MediaDir + "/.tmp-" + strings.Repeat("a", 64) + ".png-5",
		OriginsDir + "/" + tinySite + "/.tmp-dreamweave.json-6",
		SourcesDir + "/.tmp-" + tinySource + ".json-2",
	}
	for _, rel := range want {
		must(t, d.WriteBytes(rel, []byte("partial")))
	}
	// An empty claim directory (created, never written) and Git's own files.
	must(t, os.MkdirAll(d.Path(ClaimsDir+"/"+tinyProject+"/other-site-00000000"), 0o755))
	must(t, os.MkdirAll(d.Path(".git/objects"), 0o755))
	must(t, os.WriteFile(d.Path(".git/.tmp-not-ours-1"), []byte("git"), 0o644))
	must(t, os.WriteFile(d.Path(".gitattributes"), []byte("* -text\n"), 0o644))

	s, err := d.Load()
	if err != nil {
		t.Fatalf("leftovers make the state unloadable: %v", err)
	}
	if len(s.Sources) != 1 || len(s.Origins) != 1 || len(s.Claims) != 1 || len(s.Events) != 1 {
		t.Fatalf("Load: %d sources, %d origins, %d claims, %d events; want one each", len(s.Sources), len(s.Origins), len(s.Claims), len(s.Events))
	}
	var got []string
	for _, p := range d.Check() {
		if p.Kind != Leftover || !strings.Contains(p.Message, "leftover from an interrupted write") {
			t.Errorf("not a leftover: %s", p)
		}
		got = append(got, p.Path)
	}
	emptyDir := ClaimsDir + "/" + tinyProject + "/other-site-00000000/"
	wantProblems := append(slices.Clone(want), emptyDir)
	slices.Sort(wantProblems)
	if !slices.Equal(got, wantProblems) {
		t.Fatalf("leftovers reported on\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(wantProblems, "\n  "))
	}
	removed, err := d.Tidy()
	must(t, err)
	if !slices.Equal(removed, wantProblems) {
		t.Errorf("Tidy removed %v, want %v", removed, wantProblems)
	}
	if ps := problems(d); len(ps) != 0 {
		t.Errorf("after Tidy: %v", ps)
	}
	if !d.Exists(".git/.tmp-not-ours-1") || !d.Exists(".gitattributes") {
		t.Error("Tidy touched Git's files")
	}
	if _, err := d.Tidy(); err != nil {
		t.Error(err)
	}
	if _, err := d.Load(); err != nil {
		t.Error(err)
	}
}

func TestTidyMissingStateIsNothingToDo(t *testing.T) {
	removed, err := Open(filepath.Join(t.TempDir(), "none")).Tidy()
	if err != nil || len(removed) != 0 {
		t.Fatalf("Tidy of a missing state: %v %v", removed, err)
	}
}

// Names the layout does not have are reported where they are (seeds/state.txt, "Layout").
func TestCheckReportsStrayNames(t *testing.T) {
	d := tinyState(t)
	claimDir := ClaimsDir + "/" + tinyProject + "/" + tinySite
	stray := []string{
		"notes.txt",
		"backup",
		SourcesDir + "/readme.md",
		SourcesDir + "/nested",
		SourcesDir + "/.hidden.json",
		OriginsDir + "/stray.json",
		OriginsDir + "/" + tinySite + "/extra.json",
		ClaimsDir + "/stray.json",
		ClaimsDir + "/" + tinyProject + "/stray.json",
		claimDir + "/old-manifest.json",
		EventsDir + "/x.txt",
		MediaDir + "/sub",
	}
	dirs := map[string]bool{"backup": true, SourcesDir + "/nested": true, MediaDir + "/sub": true}
	for _, rel := range stray {
		if dirs[rel] {
			must(t, os.MkdirAll(d.Path(rel), 0o755))
		} else {
			must(t, d.WriteBytes(rel, []byte("?")))
		}
	}
	var got []string
	for _, p := range d.Check() {
		if p.Message != `is not part of the state layout (seeds/state.txt, "Layout")` {
			t.Errorf("unexpected problem: %s", p)
		}
		got = append(got, p.Path)
	}
	slices.Sort(stray)
	if !slices.Equal(got, stray) {
		t.Fatalf("stray names reported on\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(stray, "\n  "))
	}
}

// A claim directory holding its manifest but no claim.json is a missing record, not a leftover:
// Load fails naming it and Check reports it once.
func TestClaimDirectoryWithoutItsRecord(t *testing.T) {
	d := tinyState(t)
	rel := ClaimPath(tinyProject, tinySite)
	must(t, os.Remove(d.Path(rel)))
	if _, err := d.Load(); err == nil || !strings.Contains(err.Error(), filepath.FromSlash(rel)) {
		t.Fatalf("Load: %v, want an error naming %s", err, rel)
	}
	ps := d.Check()
	var on []string
	for _, p := range ps {
		if p.Path == rel {
			on = append(on, p.Message)
		}
	}
	if len(on) != 1 || on[0] != "missing, but its directory holds other files" {
		t.Fatalf("got %v", ps)
	}
}

// A record that does not parse is reported once, on itself, not again by every record naming
// it (before: the corrupt origin.json was "does not parse" and, from its claim and source,
// "does not exist").
func TestUnparseableRecordReportedOnce(t *testing.T) {
	for _, rel := range []string{
		OriginPath(tinySite),
		ClaimPath(tinyProject, tinySite),
		SourcePath(tinySource),
	} {
		t.Run(rel, func(t *testing.T) {
			d := tinyState(t)
			must(t, os.WriteFile(d.Path(rel), []byte("{\"id\": "), 0o644))
			ps := d.Check()
			if len(ps) != 1 || ps[0].Path != rel || !strings.HasPrefix(ps[0].Message, "does not parse as a record: ") {
				t.Fatalf("want one problem on %s; got %v", rel, ps)
			}
		})
	}
}

// Two index URLs with one site id (same slug, same first 8 hex digits of SHA-256; the state is
// testdata/collision): the second site has taken over the first's origin, so the first source's
// discovery trail never reached the origin's index_url. Check reports it, since every record
// parses and only the trail shows the two sites were merged.
func TestCheckCatchesSiteIDCollision(t *testing.T) {
	a := "http://127.0.0.1:19008/col/dreamweave.json?v=35355"
	b := "http://127.0.0.1:19008/col/dreamweave.json?v=77394"
	if SiteID(a) != SiteID(b) || SiteID(a) != "127-0-0-1-col-4ac6c834" {
		t.Fatalf("the committed pair no longer collides: %s %s", SiteID(a), SiteID(b))
	}
	got := problems(Open(filepath.Join("testdata", "collision")))
	want := []string{"sources/127-0-0-1-col-dreamweave-json-4ac6c834.json: leads to origin 127-0-0-1-col-4ac6c834, but its discovery trail never reached that origin's index_url " + b +
		" (two site index URLs sharing one site id, or records that disagree)"}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// Each name must follow its facts: the origin's id and directory are SiteID(index_url), the
// source file is SourceID(url).
func TestCheckNamesFollowFacts(t *testing.T) {
	d := tinyState(t)
	var o Origin
	must(t, d.ReadJSON(OriginPath(tinySite), &o))
	o.ID = "someone-else-00000000"
	must(t, d.WriteJSON(OriginPath(tinySite), o))
	var s Source
	must(t, d.ReadJSON(SourcePath(tinySource), &s))
	s.URL = "https://mods.example/site/?x"
	must(t, d.WriteJSON(SourcePath(tinySource), s))
	got := strings.Join(problems(d), "\n")
	for _, w := range []string{
		OriginPath(tinySite) + ": id someone-else-00000000 does not match its directory " + tinySite,
		SourcePath(tinySource) + ": is named " + tinySource + ", but its url https://mods.example/site/?x names it " + SourceID("https://mods.example/site/?x"),
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}

func TestCheckMessagesAreReadable(t *testing.T) {
	d := tinyState(t)
	must(t, os.WriteFile(d.Path(OriginPath(tinySite)), []byte("{"), 0o644))
	must(t, d.WriteBytes("stray", nil))
	ps := d.Check()
	ps = append(ps, Open(filepath.Join(t.TempDir(), "gone")).Check()...)
	for _, p := range ps {
		if strings.HasPrefix(p.String(), ".") || strings.HasPrefix(p.Message, ".") {
			t.Errorf("message starts with '.': %q", p)
		}
	}
}

// Withdrawn, restored, withdrawn again with the same manifest. The second
// withdrawal has the first's facts, so the same id (EventID leaves the time out on purpose):
// WriteEvent says it recorded nothing, and the first event stays exactly as written.
func TestRepeatedTransitionWithSameFactsIsRecordedOnce(t *testing.T) {
	d := tinyState(t)
	sum := Digest(tinyMan)
	first := Event{Kind: EventWithdrawn, Project: tinyProject, Origin: tinySite, ObservedAt: "2026-10-11T00:00:00Z", Before: &sum}
	first.ID = EventID(first.Kind, first.Project, first.Origin, first.Before, first.After)
	again := first
	again.ObservedAt = "2026-10-13T00:00:00Z"
	again.ID = EventID(again.Kind, again.Project, again.Origin, again.Before, again.After)
	if again.ID != first.ID {
		t.Fatalf("the same facts gave two ids: %s %s", first.ID, again.ID)
	}
	if w, err := d.WriteEvent(first); err != nil || !w {
		t.Fatalf("first withdrawal: written %v, %v", w, err)
	}
	b, _ := d.ReadBytes(EventPath(first.ID))
	if w, err := d.WriteEvent(again); err != nil || w {
		t.Fatalf("repeated withdrawal: written %v, %v; want false (already recorded)", w, err)
	}
	if b2, _ := d.ReadBytes(EventPath(first.ID)); string(b2) != string(b) {
		t.Error("the recorded event was rewritten")
	}
}
