package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/tags"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// diffState builds a state directory holding the given events of the corpus's events
// directory src and a network.json whose observed_at is at.
func diffState(t *testing.T, src, at string, events ...string) string {
	t.Helper()
	dir := genDiffState(t, at)
	for _, id := range events {
		b, err := os.ReadFile(filepath.Join(src, id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "events", id+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// genDiffState is a state holding events (written as a refresh writes them) and, unless at is
// "", a network.json observed at at.
func genDiffState(t *testing.T, at string, events ...store.Event) string {
	t.Helper()
	s := statetest.New(t)
	if err := os.MkdirAll(s.Dir.Path(store.EventsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		s.Event(e)
	}
	if at == "" {
		if err := s.Dir.Remove(store.NetworkFile); err != nil {
			t.Fatal(err)
		}
	} else {
		s.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: at})
	}
	return s.Dir.Root
}

// observed is the event of a first observation of the corpus's Mod Template claim project.
func observed(project, name, at string) store.Event {
	after := store.Digest([]byte(name))
	return store.Event{Kind: store.EventObserved, Project: project, Origin: modTemplateSite, Name: name, ObservedAt: at, After: &after, Changes: []diff.Change{}}
}

const modTemplateSite = "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8"

func diffRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, args)
	return rc, out.String(), errb.String()
}

// TestDiffLastRefresh: of the events in the state, only the last refresh's are shown, grouped
// per claim in claim order, each with its headline, tags and before -> after lines (the
// formats catalog/diff and tags own); earlier and later events are not. On generated events,
// and on the corpus's when ../shared is present.
func TestDiffLastRefresh(t *testing.T) {
	const at, before, later = "2026-09-30T22:19:18Z", "2026-09-28T23:19:01Z", "2026-10-01T00:00:00Z"
	q := func(s string) json.RawMessage { return json.RawMessage(strconv.Quote(s)) }
	d1, d2 := store.Digest([]byte("1")), store.Digest([]byte("2"))
	summary := store.Event{Kind: store.EventChanged, Project: corpustest.TallowID, Origin: modTemplateSite, Name: "Tallow", ObservedAt: at,
		Before: &d1, After: &d2, Changes: []diff.Change{{Change: diff.ChangeProjectField, Field: "summary", Before: q("old"), After: q("new")}}}
	head := store.Event{Kind: store.EventChanged, Project: corpustest.CandlelightID, Origin: modTemplateSite, Name: "Candlelight", ObservedAt: at,
		Before: &d2, After: &d1, Changes: []diff.Change{{Change: diff.ChangeChannelHead, Channel: "stable", Before: q("1.0.0"), After: q("1.1.0"), Changes: []diff.Change{}}}}
	dir := genDiffState(t, at, summary, head, observed(corpustest.CandlelightID, "Candlelight", before), observed(corpustest.LanternForgeID, "Lantern Forge", later))
	rc, out, errs := diffRun("diff", "--state", dir)
	want := "The last refresh (" + at + ") recorded 2 events.\n"
	for _, e := range []store.Event{head, summary} {
		want += fmt.Sprintf("\n%q (%s) at %s\n  %s [%s]\n", e.Name, e.Project, e.Origin, tags.Headline(e), strings.Join(tags.Tags(e), ", "))
		for _, l := range diff.Lines(e.Changes) {
			want += "    " + l + "\n"
		}
	}
	if rc != 0 || out != want {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", rc, errs, out, want)
	}
	if src, ok := corpustest.Optional(t, "state/events"); ok {
		diffLastRefreshCorpus(t, src)
	}
}

// diffLastRefreshCorpus is TestDiffLastRefresh on the corpus's events in src.
func diffLastRefreshCorpus(t *testing.T, src string) {
	dir := diffState(t, src, "2026-09-30T22:19:18Z",
		// the last refresh's events
		"22bed3a15b6baddaf67c", "30519cfae1de38a39b39", "4c906cd0ac06060bebd9",
		// earlier and later ones, not shown
		"065dd09c24567a10fc27", "11d3e334e1865ca9a24f", "24dde8c981a08d975d79")
	rc, out, errs := diffRun("diff", "--state", dir)
	if rc != 0 {
		t.Fatalf("exit %d, stderr %s", rc, errs)
	}
	want := `The last refresh (2026-09-30T22:19:18Z) recorded 3 events.

"dream_archive" (a8ec99fb-1938-42cc-8b9f-87994e046594) at dreamweave-mp-github-io-dream-archive-49534853
  dream_archive: stable 1.0.0 -> 1.1.0; license changed [release, metadata]
    license GPL-3.0-only -> MIT OR Apache-2.0
    stable 1.0.0 -> 1.1.0
      artifact crate size 7408572 -> 7404128 bytes
    + release 1.1.0 (stable, 2026-09-30)

"Greenmote" (57ec3325-acb3-4307-9c0f-2031ab3354ef) at dreamweave-mp-github-io-greenmote-78b2d84b
  Greenmote: development 0.3.1-dev.1 -> 0.4.1-dev.0; stable 0.3.0 -> 0.4.0; 0.4.0 (stable) notes list breaking changes; license changed [release, breaking, metadata]
    license GPL-3.0-only -> MIT OR Apache-2.0
    development 0.3.1-dev.1 -> 0.4.1-dev.0
      artifact windows-x64 size 5132826 -> 5120405 bytes
      artifact macos-arm64 size 5314470 -> 5301690 bytes
      artifact macos-x64 size 5703016 -> 5692447 bytes
      artifact linux-x64 size 7043990 -> 7033141 bytes
      artifact android-arm64 size 2405209 -> 2393586 bytes
      artifact linux-arm64-portmaster size 2393202 -> 2375625 bytes
    stable 0.3.0 -> 0.4.0
      artifact windows-x64 size 5046919 -> 5120319 bytes
      artifact macos-arm64 size 5241822 -> 5301679 bytes
      artifact macos-x64 size 5629557 -> 5692281 bytes
      artifact linux-x64 size 6958100 -> 7032974 bytes
      artifact android-arm64 size 2401004 -> 2393490 bytes
      artifact linux-arm64-portmaster size 2396545 -> 2375528 bytes
    + release 0.4.1-dev.0 (development, 2026-09-30)
    + release 0.4.0 (stable, 2026-09-30)
      breaking: Greenmote is licensed MIT OR Apache-2.0, at your option, instead of GPL-3.0-only. 0.2.0 and 0.3.0 stay GPL-3.0-only.
    - release 0.3.1-dev.1 (development)

"openmw-config" (3aaf4fe0-616f-41a3-b520-306eda9347b0) at dreamweave-mp-github-io-openmw-config-6147a97f
  openmw-config: stable 3.0.1 -> 3.0.2 [release]
    stable 3.0.1 -> 3.0.2
      artifact crate size 107355 -> 107346 bytes
    + release 3.0.2 (stable, 2026-09-30)
`
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}

// TestDiffOneClaimSeveralEvents: a claim's events at the last refresh sit under one header, in
// order; observed events say so.
func TestDiffOneClaimSeveralEvents(t *testing.T) {
	const at = "2026-09-28T23:19:01Z"
	dir := genDiffState(t, at, observed(corpustest.CandlelightID, "Candlelight", at), observed(corpustest.TallowID, "Tallow", at))
	// the refresh that observed them first saw both claims (as every refresh records it)
	site := modTemplateSite
	setHealth(t, dir, "2026-09-28T23:19:01Z",
		store.HealthChange{Project: "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90", Origin: site, After: store.ClaimCurrent},
		store.HealthChange{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: site, After: store.ClaimCurrent})
	rc, out, _ := diffRun("diff", "--state", dir)
	want := `The last refresh (2026-09-28T23:19:01Z) recorded 2 events.

"Candlelight" (4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90) at dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8
  Candlelight: first observed

"Tallow" (9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14) at dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8
  Tallow: first observed

Health changed at the last refresh:
2 claims first seen: 2 current
`
	if rc != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", rc, out, want)
	}
}

// setHealth rewrites dir's network.json: observed_at at, the given health changes.
func setHealth(t *testing.T, dir, at string, hs ...store.HealthChange) {
	t.Helper()
	if err := store.Open(dir).WriteJSON(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: at, HealthChanges: hs}); err != nil {
		t.Fatal(err)
	}
}

func TestDiffNothingAtLastRefresh(t *testing.T) {
	dir := genDiffState(t, "2026-10-10T12:36:05Z", observed(corpustest.CandlelightID, "Candlelight", "2026-09-28T23:19:01Z"))
	rc, out, errs := diffRun("diff", "--state", dir)
	if rc != 0 || out != "The last refresh (2026-10-10T12:36:05Z) recorded no events and changed no health: nothing changed.\n" || errs != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", rc, out, errs)
	}
}

// TestDiffFailures: every failure names what was wrong and changes nothing in the state.
func TestDiffFailures(t *testing.T) {
	ev := observed(corpustest.CandlelightID, "Candlelight", "2026-09-28T23:19:01Z")
	noNetwork := genDiffState(t, "", ev)
	broken := genDiffState(t, "2026-09-28T23:19:01Z", ev)
	if err := os.WriteFile(filepath.Join(broken, "events", "0000000000000000dead.json"), []byte(`{"id": "x", "surprise": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "no-such-state")
	cases := []struct {
		name   string
		args   []string
		rc     int
		stderr string
	}{
		{"no network.json", []string{"diff", "--state", noNetwork}, 1, "has no network.json: no refresh has run there"},
		{"unreadable event", []string{"diff", "--state", broken}, 1, "events/0000000000000000dead.json"},
		{"missing directory", []string{"diff", "--state", missing}, 1, "ashyams diff: no state at " + missing + ": run `.github/state.sh checkout` or `ashyams refresh` first"},
		{"argument", []string{"diff", "--state", broken, "extra"}, 2, `unexpected argument "extra"`},
		{"unknown flag", []string{"diff", "--nope"}, 2, "flag provided but not defined: -nope"},
	}
	for _, c := range cases {
		before := diffSnapshot(t, broken)
		rc, out, errs := diffRun(c.args...)
		if rc != c.rc || !strings.Contains(errs, c.stderr) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want it to contain %q)", c.name, rc, c.rc, errs, c.stderr)
		}
		if out != "" {
			t.Errorf("%s: printed %q on stdout", c.name, out)
		}
		if after := diffSnapshot(t, broken); after != before {
			t.Errorf("%s: the state directory changed", c.name)
		}
	}
	if rc, _, _ := diffRun("diff", "-h"); rc != 0 {
		t.Errorf("diff -h: exit %d, want 0", rc)
	}
}

// diffSnapshot lists every file under dir with its contents, to check nothing was written.
func diffSnapshot(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		sb.WriteString(p + "\n" + string(b) + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// healthState is a state whose last refresh recorded no events but the given health changes,
// with one claim record per project (for its name). No ../shared needed.
func healthState(t *testing.T, names map[string]string, hs ...store.HealthChange) string {
	t.Helper()
	s := statetest.New(t)
	s.Write(store.NetworkFile, store.Network{Format: store.Format, Crawler: "AsHyAmS/test", ObservedAt: "2026-10-11T06:00:00Z", HealthChanges: hs})
	for _, h := range hs {
		if h.Project != "" {
			s.Write(store.ClaimPath(h.Project, h.Origin), store.Claim{Project: h.Project, Origin: h.Origin, Entry: protocol.IndexEntry{ID: h.Project, Name: names[h.Project]}, Health: h.After})
		}
	}
	return s.Dir.Root
}

// After an outage diff says which claims and sites became unavailable, with the problem; on the
// next refresh, which recovered. No events in either.
func TestDiffHealthChanges(t *testing.T) {
	p := func(s string) *string { return &s }
	names := map[string]string{"a1": "Tallow", "a2": "Candlelight", "b1": "Greenmote", "c1": "Ini"}
	outage := healthState(t, names,
		store.HealthChange{Project: "a1", Origin: "site-a", Before: "current", After: "origin-unavailable", Problem: p("HTTP 503 from https://a.example/dreamweave.json")},
		store.HealthChange{Project: "a2", Origin: "site-a", Before: "current", After: "origin-unavailable", Problem: p("HTTP 503 from https://a.example/dreamweave.json")},
		store.HealthChange{Project: "b1", Origin: "site-b", Before: "current", After: "origin-unavailable", Problem: p("connection refused")},
		store.HealthChange{Project: "c1", Origin: "site-c", Before: "current", After: "invalid", Problem: p("/releases/0/version: not a version")},
		store.HealthChange{Origin: "site-a", Before: "healthy", After: "unreachable", Problem: p("HTTP 503")},
		store.HealthChange{Origin: "site-b", Before: "healthy", After: "unreachable", Problem: p("connection refused")},
	)
	rc, out, errs := diffRun("diff", "--state", outage)
	want := `The last refresh (2026-10-11T06:00:00Z) recorded no events.

Health changed at the last refresh:
1 claim became invalid publication:
  "Ini" (c1) at site-c: /releases/0/version: not a version
3 claims became origin unavailable:
  "Tallow" (a1) at site-a: HTTP 503 from https://a.example/dreamweave.json
  "Candlelight" (a2) at site-a: HTTP 503 from https://a.example/dreamweave.json
  "Greenmote" (b1) at site-b: connection refused
2 sites became unreachable:
  site-a: HTTP 503
  site-b: connection refused
`
	if rc != 0 || out != want || errs != "" {
		t.Errorf("outage: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", rc, errs, out, want)
	}

	recovery := healthState(t, names,
		store.HealthChange{Project: "a1", Origin: "site-a", Before: "origin-unavailable", After: "current"},
		store.HealthChange{Project: "a2", Origin: "site-a", Before: "origin-unavailable", After: "current"},
		store.HealthChange{Project: "n1", Origin: "site-n", Before: "", After: "current"},
		store.HealthChange{Project: "n2", Origin: "site-n", Before: "", After: "invalid", Problem: p("x")},
		store.HealthChange{Origin: "site-a", Before: "unreachable", After: "healthy"},
		store.HealthChange{Origin: "site-n", Before: "", After: "healthy"},
	)
	rc, out, _ = diffRun("diff", "--state", recovery)
	want = `The last refresh (2026-10-11T06:00:00Z) recorded no events.

Health changed at the last refresh:
2 claims recovered:
  "Tallow" (a1) at site-a (was origin unavailable)
  "Candlelight" (a2) at site-a (was origin unavailable)
2 claims first seen: 1 current, 1 invalid publication
1 site recovered:
  site-a (was unreachable)
1 site first seen: 1 healthy
`
	if rc != 0 || out != want {
		t.Errorf("recovery: exit %d, stdout:\n%s\nwant:\n%s", rc, out, want)
	}

	rc, out, _ = diffRun("diff", "--state", healthState(t, nil))
	if rc != 0 || out != "The last refresh (2026-10-11T06:00:00Z) recorded no events and changed no health: nothing changed.\n" {
		t.Errorf("nothing: exit %d, %q", rc, out)
	}
}

// A project name with a newline, a workflow command and terminal escapes,
// in an event and in a health change, is printed on escaped lines.
func TestDiffEscapesPublisherText(t *testing.T) {
	p := func(s string) *string { return &s }
	dir := healthState(t, map[string]string{"9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14": case13Name},
		store.HealthChange{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "127-0-0-1-19113-s-ea2366fa", Before: "current", After: "invalid", Problem: p("::error::from the manifest\n::add-mask::x")})
	after := strings.Repeat("a", 64)
	// the event is at a second site, first seen current at that refresh
	setHealth(t, dir, "2026-10-11T06:00:00Z",
		store.HealthChange{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "127-0-0-1-19113-s-ea2366fa", Before: "current", After: "invalid", Problem: p("::error::from the manifest\n::add-mask::x")},
		store.HealthChange{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "127-0-0-1-19114-t-0b0c0d0e", After: "current"})
	ev := store.Event{Kind: store.EventObserved, Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Origin: "127-0-0-1-19114-t-0b0c0d0e",
		Name: case13Name, ObservedAt: "2026-10-11T06:00:00Z", After: &after}
	ev.ID = store.EventID(ev.Kind, ev.Project, ev.Origin, ev.Before, ev.After)
	if _, err := store.Open(dir).WriteEvent(ev); err != nil {
		t.Fatal(err)
	}
	rc, out, _ := diffRun("diff", "--state", dir)
	if rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	assertInert(t, out)
	q := `"Tallow\n::error title=ashyams::this line is a GitHub Actions workflow command\n\x1b]0;retitled terminal\a\x1b[2J\x1b[31mred"`
	for _, want := range []string{
		q + " (9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14) at 127-0-0-1-19114-t-0b0c0d0e\n",
		`  Tallow\n::error title=ashyams::this line is a GitHub Actions workflow command\n\x1b]0;retitled terminal\a\x1b[2J\x1b[31mred: first observed` + "\n",
		"  " + q + ` (9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14) at 127-0-0-1-19113-s-ea2366fa: ::error::from the manifest\n::add-mask::x` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestTagsRepeatHeadline: the tag list is dropped only when each tag is a word of the headline
// after the name; words in a claim's name (publisher text) never count.
func TestTagsRepeatHeadline(t *testing.T) {
	from := "old-site-00000000"
	for _, c := range []struct {
		ev   store.Event
		drop bool
	}{
		{store.Event{Kind: store.EventObserved, Name: "Moss"}, true},                   // first observed [observed]
		{store.Event{Kind: store.EventObserved, Name: "Moss", MovedFrom: &from}, true}, // (moved from ...): first observed [observed, moved]
		{store.Event{Kind: store.EventWithdrawn, Name: "Listing Tool"}, false},         // no longer listed [listing]
		{store.Event{Kind: store.EventObserved, Project: "observed-moved"}, true},      // no name: the id is the name
		{store.Event{Kind: store.EventObserved, Name: "Observed Moss", MovedFrom: &from}, true},
	} {
		if got := tagsRepeatHeadline(tags.Tags(c.ev), c.ev); got != c.drop {
			t.Errorf("%q %v: tags %v after headline %q: drop %v, want %v", c.ev.Name, c.ev.Kind, tags.Tags(c.ev), tags.Headline(c.ev), got, c.drop)
		}
	}
	// A name holding the tag's word does not hide it: a restored "Listing" keeps [listing].
	ev := store.Event{Kind: store.EventRestored, Name: "Listing"}
	if tagsRepeatHeadline(tags.Tags(ev), ev) {
		t.Errorf("the name %q hid the tags %v of %q", ev.Name, tags.Tags(ev), tags.Headline(ev))
	}
}

// TestDiffTwoRefreshesInOneSecond: two refreshes that start in the same second
// (observed_at has one-second resolution) share their events' observed_at. The second refresh,
// with nothing changed on the site, recorded no events: diff must not credit it with the first
// refresh's "first observed" events, and it says why they are left out.
func TestDiffTwoRefreshesInOneSecond(t *testing.T) {
	srv, err := loopback.Start(example.Web(), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	state := t.TempDir()
	at := time.Date(2026, 10, 11, 6, 0, 0, 0, time.UTC)
	o := refresh.Options{
		State:         state,
		Sources:       []sources.Source{{URL: srv.URL() + "lanterns.example/", Entry: 1}},
		AllowLoopback: true,
		Now:           func() time.Time { return at },
		Sleep:         func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		Timeout:       5 * time.Second,
	}
	first, err := refresh.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if first.Events == 0 {
		t.Fatalf("the first refresh recorded no events: %+v", first)
	}
	// after the first refresh diff lists its events
	rc, out, errs := diffRun("diff", "--state", state)
	if rc != 0 || !strings.Contains(out, fmt.Sprintf("recorded %s.", plural(first.Events, "event"))) || !strings.Contains(out, "first observed") {
		t.Fatalf("after the first refresh: exit %d, stderr %q, stdout:\n%s", rc, errs, out)
	}
	// 300 ms later, the same second
	at = at.Add(300 * time.Millisecond)
	second, err := refresh.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if second.Events != 0 || len(second.HealthChanges) != 0 {
		t.Fatalf("the second refresh changed something: %+v", second)
	}
	rc, out, errs = diffRun("diff", "--state", state)
	if rc != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", rc, errs)
	}
	want := fmt.Sprintf("Times have one-second resolution: %s observed at 2026-10-11T06:00:00Z, which the last refresh's records contradict, belong to an earlier refresh that started in the same second and are not listed.\n"+
		"The last refresh (2026-10-11T06:00:00Z) recorded no events and changed no health: nothing changed.\n", plural(first.Events, "event"))
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
}
