package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
)

func TestInspectUsageAndBadURL(t *testing.T) {
	if rc, _, _ := runCmd("inspect"); rc != 2 {
		t.Errorf("inspect without a URL: exit %d, want 2", rc)
	}
	if rc, _, _ := runCmd("inspect", "https://a.example/", "https://b.example/"); rc != 2 {
		t.Errorf("two URLs: exit %d, want 2", rc)
	}
	rc, _, errs := runCmd("inspect", "gopher://x/")
	if rc != 1 || !strings.Contains(errs, `url "gopher://x/" is not an absolute http or https URL`) {
		t.Errorf("inspect of a bad URL: exit %d: %s", rc, errs)
	}
	rc, _, errs = runCmd("inspect", "https://me:pw@example.org/")
	if rc != 1 || !strings.Contains(errs, `url "https://xxxxx@example.org/" carries a user name or password`) || strings.Contains(errs, "pw@") {
		t.Errorf("inspect of a URL with userinfo: exit %d: %s", rc, errs)
	}
}

// Inspect follows the crawler's guard: a literal private address is refused before any
// connection, and the report says so (exit 1: no site index).
func TestInspectRefusesPrivateAddress(t *testing.T) {
	rc, out, _ := runCmd("inspect", "http://10.0.0.1/mods/", "--allow-loopback")
	if rc != 1 || !strings.Contains(out, "10.0.0.1") || !strings.Contains(out, "refused") || !strings.Contains(out, "nothing was written") {
		t.Errorf("exit %d:\n%s", rc, out)
	}
}

// case13Name and case13Site are hostile names a publisher can give: a newline followed by
// a GitHub Actions workflow command, an OSC title sequence, BEL, screen clear, colour and
// concealed text.
const (
	case13Name = "Tallow\n::error title=ashyams::this line is a GitHub Actions workflow command\n\x1b]0;retitled terminal\x07\x1b[2J\x1b[31mred"
	case13Site = "Site\n::add-mask::dreamweave\n\x1b[8mhidden"
)

// assertInert fails when out holds a control character or a line that a CI runner would read
// as a workflow command.
func assertInert(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") || strings.Contains(l, "##[") {
			t.Errorf("a workflow command starts a line: %q", l)
		}
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("control character %U in %q", r, l)
				break
			}
		}
	}
}

func TestInspectReportEscapesPublisherText(t *testing.T) {
	p := func(s string) *string { return &s }
	rep := &refresh.InspectReport{
		URL: "http://127.0.0.1:19113/s/",
		Source: store.Source{Trail: []store.TrailStep{
			{URL: "http://127.0.0.1:19113/s/", Outcome: "links the site index\n::warning::x"},
		}, Method: p("the page links the site index")},
		Origin: &store.Origin{ID: "127-0-0-1-19113-s-ea2366fa", IndexURL: "http://127.0.0.1:19113/s/dreamweave.json",
			Health: store.OriginHealthy, SiteName: p(case13Site), Issues: []string{"\x1b[2Jissue"}},
		Claims: []store.Claim{{Project: "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14", Entry: protocol.IndexEntry{Name: case13Name},
			Health: store.ClaimInvalid, Problem: p("::error::quoted from the manifest")}},
	}
	out := rep.String()
	assertInert(t, out)
	for _, want := range []string{
		`  name: "Site\n::add-mask::dreamweave\n\x1b[8mhidden"`,
		`  9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14 "Tallow\n::error title=ashyams::this line is a GitHub Actions workflow command\n\x1b]0;retitled terminal\a\x1b[2J\x1b[31mred": no manifest yet: invalid publication`,
		`    problem: ::error::quoted from the manifest`,
		`    links the site index\n::warning::x`,
		`  issue: \x1b[2Jissue`,
		"nothing was written; a refresh would record the above.",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing line %q in\n%s", want, out)
		}
	}
}

// inspect reads a URL nobody enrolled: its report says "the URL", and a loopback address
// refused without --allow-loopback names the flag.
func TestInspectWordsTheURLAndTheLoopbackFlag(t *testing.T) {
	u := "http://127.0.0.1:1/mods/"
	rc, out, _ := runCmd("inspect", u)
	want := "no site index: the URL " + u + " was refused by the address guard: 127.0.0.1 is loopback (127.0.0.0/8) (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)\n"
	if rc != 1 || !strings.Contains(out, want) || strings.Contains(out, "enrolled") {
		t.Errorf("exit %d:\n%s\nwant %q", rc, out, want)
	}
	rc, out, _ = runCmd("inspect", u, "--allow-loopback")
	if rc != 1 || !strings.Contains(out, "no site index: the URL "+u+" could not be reached: ") || strings.Contains(out, "enrolled") {
		t.Errorf("exit %d:\n%s", rc, out)
	}
}

// TestInspectExitsNonZeroOnABrokenClaim: the example site as deployed exits 0 with every claim
// current; with two manifests broken (an unknown field, a version not in the DreamWeave form)
// the site is still healthy, but the summary counts the two claims that would not be current
// in their claim pages' words, and inspect exits 1.
func TestInspectExitsNonZeroOnABrokenClaim(t *testing.T) {
	rc, out, _ := runCmd("inspect", "--allow-loopback", exampleSite(t, nil))
	if rc != 0 || !strings.Contains(out, "every claim (3) would be current") {
		t.Fatalf("the site as deployed: exit %d\n%s", rc, out)
	}
	const unknown, version = "/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json", "/projects/7c9d1e3f-5a7b-4c9d-8e1f-3a5b7c9d1e2f.json"
	u := exampleSiteDigests(t, func(path string, b []byte) []byte {
		switch path {
		case unknown:
			return bytes.Replace(b, []byte(`"status": "active"`), []byte(`"status": "active", "homepage": "x"`), 1)
		case version:
			return bytes.Replace(b, []byte(`"version": "0.`), []byte(`"version": "v0.`), 1)
		}
		return b
	}, true)
	rc, out, _ = runCmd("inspect", "--allow-loopback", u)
	t.Logf("exit %d\n%s", rc, out)
	for _, want := range []string{"  health: healthy\n", `"Wickwork": current` + "\n", `"Emberglow": no manifest yet: invalid publication` + "\n",
		`"Kwama Lanterns": no manifest yet: invalid publication` + "\n", "not current: 2 of 3 claims (2 no manifest yet: invalid publication)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if rc != 1 {
		t.Errorf("exit %d, want 1", rc)
	}
}
