package refresh

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Inspect reads a site through the refresh's own code and writes nothing.
func TestInspectWritesNothing(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	rep, err := Inspect(context.Background(), l.source(tplDir), l.options())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.state); err == nil {
		t.Fatal("inspect created the state directory")
	}
	if !rep.OK() || rep.Origin.ID != l.site(tplDir) || len(rep.Claims) != 2 || len(rep.Events) != 2 {
		t.Fatalf("report: ok %v, %d claims, %d events", rep.OK(), len(rep.Claims), len(rep.Events))
	}
	for _, c := range rep.Claims {
		if c.Health != store.ClaimCurrent {
			t.Errorf("%s: %s", c.Project, c.Health)
		}
	}
	out := rep.String()
	for _, w := range []string{
		"discovery trail:\n  " + l.source(tplDir) + "\n    an HTML page with no DreamWeave <link>",
		"method: found by walking up the path",
		"index: " + l.url(tplDir+"/dreamweave.json"),
		candle + ` "Candlelight": current`,
		"nothing was written",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
	// The same reading as a refresh: the records it would write are the ones a refresh writes.
	l.refresh(l.source(tplDir))
	if got := l.claim(candle, tplDir); got.Ingested() != rep.Claims[0].Ingested() || got.Health != rep.Claims[0].Health {
		t.Errorf("refresh recorded %s/%s, inspect reported %s/%s", got.Health, got.Ingested(), rep.Claims[0].Health, rep.Claims[0].Ingested())
	}

	// A URL that leads nowhere: the report says why, still nothing written.
	rep, err = Inspect(context.Background(), l.url("nowhere/"), l.options())
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.Origin != nil || rep.Source.Problem == nil || !strings.Contains(rep.String(), "no site index:") {
		t.Errorf("inspect of nowhere:\n%s", rep)
	}
	if _, err := Inspect(context.Background(), "ftp://x/", l.options()); err == nil {
		t.Error("inspect accepted an ftp URL")
	}
}

// A state that does not load is this index's own bug: the refresh fails and writes nothing.
func TestRunRefusesContradictoryState(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	bad := filepath.Join(state, "claims", "p", "s", "claim.json")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte(`{"project": "p", "surprise": true}`), 0o644)
	_, err := Run(context.Background(), Options{State: state, Sources: nil})
	if err == nil || !strings.Contains(err.Error(), "claims/p/s/claim.json") || !strings.Contains(err.Error(), "surprise") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, store.NetworkFile)); err == nil {
		t.Error("a refresh over a state that does not load wrote network.json")
	}
	if _, err := Run(context.Background(), Options{}); err == nil {
		t.Error("a refresh without a state directory ran")
	}
}

func TestSummaryString(t *testing.T) {
	t.Parallel()
	p := func(s string) *string { return &s }
	s := &Summary{StartedAt: "2026-10-11T06:00:00Z", Sources: 1, SitesRead: 1, Fetched: 3, Unchanged: 4, Accepted: 1, Events: 1, EventsKnown: 2,
		Problems: map[string]int{"invalid": 1, "site unreachable": 1, "site refused": 1, "origin-unavailable": 2, "source unreachable": 1},
		Failures: []string{"claim p at a: invalid publication: x", "site b: unreachable: HTTP 503 [2 claims kept as last seen, marked origin unavailable]",
			"source u: unreachable: its site b could not be read (the site's line says why)"},
		Removed: []string{"moved: e now continues as f", "no longer enrolled: g"},
		HealthChanges: []store.HealthChange{
			{Project: "p", Origin: "a", Before: "current", After: "invalid", Problem: p("x")},
			{Project: "q", Origin: "a", Before: "", After: "current"},
			{Project: "r", Origin: "b", Before: "current", After: "origin-unavailable", Problem: p("y")},
			{Project: "s", Origin: "b", Before: "current", After: "origin-unavailable", Problem: p("y")},
			{Project: "t", Origin: "c", Before: "invalid", After: "current"},
			{Origin: "b", Before: "healthy", After: "unreachable", Problem: p("y")},
			{Origin: "d", Before: "healthy", After: "refused", Problem: p("z")},
		}}
	want := "refresh 2026-10-11T06:00:00Z: 1 source, 1 site read, 3 manifests fetched, 4 unchanged, 1 accepted, 1 event (2 events already recorded)\n" +
		"\nHealth: 1 claim became invalid publication, 2 claims became origin unavailable, 1 claim recovered, 1 claim first seen, 1 site became refused by crawler policy, 1 site became unreachable\n" +
		"\nmoved: e now continues as f\nno longer enrolled: g\n" +
		"\nProblems by kind:\n  invalid publication: 1\n  origin unavailable: 2\n  site refused by crawler policy: 1\n  site unreachable: 1\n  source unreachable: 1\n\n" +
		"- claim p at a: invalid publication: x\n- site b: unreachable: HTTP 503 [2 claims kept as last seen, marked origin unavailable]\n" +
		"- source u: unreachable: its site b could not be read (the site's line says why)\n"
	if got := s.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	one := &Summary{StartedAt: "t", Sources: 2, SitesRead: 0, Fetched: 1, Events: 0}
	if got := one.String(); got != "refresh t: 2 sources, 0 sites read, 1 manifest fetched, 0 unchanged, 0 accepted, 0 events\n" {
		t.Errorf("counts: %q", got)
	}
	// Publisher text in a failure (a manifest URL from a site index) is escaped, one line each.
	hostile := &Summary{StartedAt: "t", Problems: map[string]int{"manifest-unreachable": 1},
		Failures: []string{"claim p at a: manifest unreachable: HTTP 404 from http://h/m.json?q=\u202eRLO\u0085NEL\u2028LS\u009b2J\n::error::x"}}
	want = "refresh t: 0 sources, 0 sites read, 0 manifests fetched, 0 unchanged, 0 accepted, 0 events\n\nProblems by kind:\n  manifest unreachable: 1\n\n" +
		`- claim p at a: manifest unreachable: HTTP 404 from http://h/m.json?q=\u202eRLO\u0085NEL\u2028LS\u009b2J\n::error::x` + "\n"
	if got := hostile.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// labelled never says a health's words twice, whichever way the problem was written.
func TestLabelledSaysTheLabelOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ label, problem, want string }{
		{"invalid publication", "the manifest fails the protocol: x", "invalid publication: the manifest fails the protocol: x"},
		{"invalid publication", "invalid publication: x", "invalid publication: x"},
		{"inconsistent deployment", "Inconsistent deployment: x", "Inconsistent deployment: x"},
		{"refused by crawler policy", "u: refused by crawler policy: over the 16 MiB limit", "u: refused by crawler policy: over the 16 MiB limit"},
		{"withdrawn", "", "withdrawn"},
	} {
		if got := labelled(tc.label, tc.problem); got != tc.want {
			t.Errorf("labelled(%q, %q) = %q, want %q", tc.label, tc.problem, got, tc.want)
		}
	}
}

// Counts in progress lines agree in number: "1 project, 1 manifest fetched".
func TestProgressCounts(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	var progress strings.Builder
	o := l.options(l.source(iniDir))
	o.Progress = &progress
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := "refresh: site 1/1 " + l.site(iniDir) + ": 1 project, 1 manifest fetched, 0 unchanged, 0 not current\n"
	if !strings.Contains(progress.String(), want) {
		t.Errorf("progress:\n%s\nlacks %q", progress.String(), want)
	}
}

// Inspect reads a URL nobody enrolled, so its problems say "the URL", and a loopback address
// refused for want of --allow-loopback names the flag.
func TestInspectWordsTheURL(t *testing.T) {
	t.Parallel()
	u := "http://127.0.0.1:1/mods/"
	rep, err := Inspect(context.Background(), u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the URL " + u + " was refused by the address guard: 127.0.0.1 is loopback (127.0.0.0/8) (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)"
	if rep.OK() || deref(rep.Source.Problem) != want {
		t.Errorf("problem %q\nwant    %q", deref(rep.Source.Problem), want)
	}
	rep, err = Inspect(context.Background(), u, Options{AllowLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := deref(rep.Source.Problem); !strings.HasPrefix(p, "the URL "+u+" could not be reached: ") {
		t.Errorf("problem %q", p)
	}
}
