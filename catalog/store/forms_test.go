package store

import (
	"strings"
	"testing"
)

// The names and URLs a build writes into page paths and catalog fields are checked in the
// forms the protocol and the naming rules give them, so that what check passes, build builds:
// an event about project "../../../../tmp/x" whose id is computed correctly (the formula is
// public), and a claim whose entry.manifest is a data: URL, are each reported.
func TestCheckReportsNamesAndURLsOutOfForm(t *testing.T) {
	for _, tc := range []struct {
		name, path, words string
		edit              func(t *testing.T, d *Dir)
	}{
		{"event project with a path", "", projectIDWords, func(t *testing.T, d *Dir) {
			s, err := d.Load()
			must(t, err)
			e := s.Events[0]
			e.Project = "../../../../tmp/ashyams-hostile"
			e.ID = EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
			must(t, d.WriteJSON(EventPath(e.ID), e))
		}},
		{"event origin with a path", "", siteIDWords, func(t *testing.T, d *Dir) {
			s, err := d.Load()
			must(t, err)
			e := s.Events[0]
			e.Origin = "../origins"
			e.ID = EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
			must(t, d.WriteJSON(EventPath(e.ID), e))
		}},
		{"event id not the formula's form", "", eventIDWords, func(t *testing.T, d *Dir) {
			s, err := d.Load()
			must(t, err)
			e := s.Events[0]
			e.ID = "x<script>"
			must(t, d.WriteJSON(EventPath(e.ID), e))
		}},
		{"claim manifest a data URL", ClaimPath(tinyProject, tinySite), webURLWords, func(t *testing.T, d *Dir) {
			editClaim(t, d, tinyProject, tinySite, func(c *Claim) { c.Entry.Manifest = "data:text/html,<script>alert(1)</script>" })
		}},
		{"claim page a javascript URL", ClaimPath(tinyProject, tinySite), webURLWords, func(t *testing.T, d *Dir) {
			editClaim(t, d, tinyProject, tinySite, func(c *Claim) { c.Entry.Page = "javascript:alert(1)" })
		}},
		{"origin index_url not http", OriginPath(tinySite), webURLWords, func(t *testing.T, d *Dir) {
			var o Origin
			must(t, d.ReadJSON(OriginPath(tinySite), &o))
			o.Redirects = []string{"file:///etc/passwd"}
			must(t, d.WriteJSON(OriginPath(tinySite), o))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyState(t)
			tc.edit(t, d)
			found := false
			for _, p := range d.Check() {
				if (tc.path == "" || p.Path == tc.path) && strings.Contains(p.Message, tc.words) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem saying %q: %v", tc.words, d.Check())
			}
		})
	}
}

func TestForms(t *testing.T) {
	for _, tc := range []struct {
		f    func(string) bool
		in   string
		want bool
	}{
		{IsProjectID, tinyProject, true},
		{IsProjectID, "A1111111-2222-4333-8444-555555555555", false},
		{IsProjectID, "../" + tinyProject, false},
		{IsSiteID, tinySite, true},
		{IsSiteID, SiteID("data:x"), true},
		{IsSiteID, "0123abcd", true},
		{IsSiteID, "-0123abcd", false},
		{IsSiteID, "a--b-0123abcd", false},
		{IsSiteID, strings.Repeat("a", maxSlug+1) + "-0123abcd", false},
		{IsEventID, EventID("observed", tinyProject, tinySite, nil, nil), true},
		{IsEventID, "0123", false},
		{IsWebURL, "https://a.example/x", true},
		{IsWebURL, "http://a.example", true},
		{IsWebURL, "https://", false},
		{IsWebURL, "HTTPS://a.example/", false},
		{IsWebURL, "data:text/html,x", false},
	} {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
}
