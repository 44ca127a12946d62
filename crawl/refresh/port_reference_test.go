package refresh_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/refstate"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// The reference index's refresh tests, ported black-box on the reference's own situation:
// its fixture site ("Fixture site" at /mods/, Candlelight and Tallow) on one loopback server,
// refreshed six hours apart. Each test makes the reference's changes and asserts what this
// index records, in its terms. The mapping of every reference test is
// site/testdata/reference-tests.md; the drills of this package cover the same situations on
// the real Mod Template site, with more detail.

// second is the time of a test's second refresh.
var second = rt.First.Add(6 * time.Hour).Format(time.RFC3339)

// snap is the state's records, checked: store's own check and the reference's loader rules.
func snap(t *testing.T, net *rt.Net) *store.Snapshot {
	t.Helper()
	if ps := store.Open(net.State).Check(); len(ps) != 0 {
		t.Fatalf("check: %v", ps)
	}
	if err := refstate.Errors(net.State); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(net.State).Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// claimOf is the claim of project in s; there must be exactly one.
func claimOf(t *testing.T, s *store.Snapshot, project string) store.ClaimRecord {
	t.Helper()
	var out []store.ClaimRecord
	for _, c := range s.Claims {
		if c.Project == project {
			out = append(out, c)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d claims of %s; want 1", len(out), project)
	}
	return out[0]
}

// onlyOrigin is the state's one origin.
func onlyOrigin(t *testing.T, s *store.Snapshot) store.Origin {
	t.Helper()
	if len(s.Origins) != 1 {
		t.Fatalf("%d origins; want 1", len(s.Origins))
	}
	return s.Origins[0]
}

// manifestRequests counts the manifest downloads asked of the server since it last forgot.
func manifestRequests(net *rt.Net) int {
	n := 0
	for _, p := range net.Requests() {
		if strings.Contains(p, "/projects/") {
			n++
		}
	}
	return n
}

func held(t *testing.T, net *rt.Net, c store.ClaimRecord) []byte {
	t.Helper()
	b, err := store.Open(net.State).ReadBytes(store.ManifestPath(c.Project, c.Origin))
	if err != nil {
		t.Fatalf("the held manifest of %s: %v", c.Project, err)
	}
	return b
}

// newSite publishes Candlelight and Tallow at /mods/ and refreshes once.
func newSite(t *testing.T) (*rt.Net, *rt.Site) {
	net := rt.New(t)
	site := net.Site("/mods/")
	site.Publish(rt.Candlelight(t), rt.Tallow(t))
	net.Refresh(site.URL(""))
	return net, site
}

func TestReferencePortFirstCrawlObservesEveryClaim(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	site := net.Site("/mods/")
	site.Publish(rt.Candlelight(t), rt.Tallow(t))
	sum := net.Refresh(site.URL(""))
	s := snap(t, net)
	if sum.Fetched != 2 || sum.Events != 2 || len(s.Events) != 2 {
		t.Fatalf("fetched %d, events %d (%d held); want 2 and 2", sum.Fetched, sum.Events, len(s.Events))
	}
	for _, e := range s.Events {
		if e.Kind != store.EventObserved {
			t.Errorf("event %s is %s; want observed", e.ID, e.Kind)
		}
	}
	if o := onlyOrigin(t, s); o.Health != store.OriginHealthy || o.SiteName == nil || *o.SiteName != "Fixture site" {
		t.Errorf("origin %s named %v; want healthy, Fixture site", o.Health, o.SiteName)
	}
	c := claimOf(t, s, rt.CandlelightID)
	first := rt.First.Format(time.RFC3339)
	if c.Health != store.ClaimCurrent || c.FirstObserved != first {
		t.Errorf("Candlelight %s, first observed %s; want current at %s", c.Health, c.FirstObserved, first)
	}
	b := held(t, net, c)
	if !bytes.Equal(b, site.Bytes(rt.Candlelight(t))) || c.IngestedSHA256 == nil || *c.IngestedSHA256 != store.Digest(b) {
		t.Error("the held manifest is not the bytes served, under their digest")
	}
	if c.Media == nil || c.Media.File == nil || !strings.HasPrefix(*c.Media.File, "media/") || !store.Open(net.State).Exists(*c.Media.File) {
		t.Errorf("card image %+v; want a cached file under media/", c.Media)
	}
}

func TestReferencePortNewReleaseIsOneChangedEvent(t *testing.T) {
	t.Parallel()
	net, site := newSite(t)
	updated := rt.Candlelight(t)
	rs := updated["releases"].([]any)
	r := rt.Copy(t, rs[1].(map[string]any))
	r["version"] = "1.2.0"
	rt.Obj(t, r, "runtimes")["openmw"] = ">=0.50"
	updated["releases"] = append([]any{r}, rs...)
	rt.Obj(t, updated, "channels", "stable")["version"] = "1.2.0"
	site.Publish(updated, rt.Tallow(t))
	before := len(snap(t, net).Events)
	net.ForgetRequests()
	sum := net.Refresh(site.URL(""))
	if n := manifestRequests(net); n != 1 {
		t.Errorf("%d manifest downloads; want only the changed one", n)
	}
	s := snap(t, net)
	if sum.Events != 1 || len(s.Events) != before+1 {
		t.Fatalf("%d events written; want 1", sum.Events)
	}
	var e store.Event
	for _, x := range s.Events {
		if x.ObservedAt == second {
			e = x
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e.Changes); err != nil {
		t.Fatal(err)
	}
	changes := buf.Bytes()
	if e.Kind != store.EventChanged || e.Project != rt.CandlelightID || e.Before == nil || e.After == nil ||
		!bytes.Contains(changes, []byte(`"channel-head"`)) || !bytes.Contains(changes, []byte(">=0.50")) {
		t.Errorf("event %s %s before %v after %v, changes %s; want Candlelight changed, its stable head and runtime among the changes", e.Kind, e.Project, e.Before, e.After, changes)
	}
	if sum := net.Refresh(site.URL("")); sum.Events != 0 {
		t.Errorf("%d events over the same observations", sum.Events)
	}
}

func TestReferencePortOutageKeepsLastGoodAndRecovers(t *testing.T) {
	t.Parallel()
	net, site := newSite(t)
	first := rt.First.Format(time.RFC3339)
	manifests := func() map[string][]byte {
		out := map[string][]byte{}
		for _, c := range snap(t, net).Claims {
			out[c.Project] = held(t, net, c)
		}
		return out
	}
	kept := manifests()
	net.TakeDown("/mods/")
	sum := net.Refresh(site.URL(""))
	if sum.Problems["source "+store.SourceUnreachable] != 1 || sum.Events != 0 {
		t.Errorf("problems %v, %d events; want one unreachable source and no event", sum.Problems, sum.Events)
	}
	s := snap(t, net)
	if o := onlyOrigin(t, s); o.Health != store.OriginUnreachable || o.LastSuccess == nil || *o.LastSuccess != first || o.LastAttempt != second {
		t.Errorf("origin %s, last success %v, last attempt %s", o.Health, o.LastSuccess, o.LastAttempt)
	}
	for _, c := range s.Claims {
		if c.Health != store.ClaimOriginUnavailable || c.LastSuccess == nil || *c.LastSuccess != first {
			t.Errorf("%s: %s, last success %v; want origin unavailable since %s", c.Project, c.Health, c.LastSuccess, first)
		}
	}
	for p, b := range manifests() {
		if !bytes.Equal(b, kept[p]) {
			t.Errorf("the held manifest of %s changed in an outage", p)
		}
	}
	if s.Sources[0].Health != store.SourceUnreachable {
		t.Errorf("source %s; want unreachable", s.Sources[0].Health)
	}
	net.BringUp()
	sum = net.Refresh(site.URL(""))
	s = snap(t, net)
	if len(sum.Problems) != 0 || sum.Events != 0 || onlyOrigin(t, s).Health != store.OriginHealthy {
		t.Errorf("after the outage: problems %v, %d events, origin %s", sum.Problems, sum.Events, onlyOrigin(t, s).Health)
	}
	for _, c := range s.Claims {
		if c.Health != store.ClaimCurrent {
			t.Errorf("%s is %s after the outage", c.Project, c.Health)
		}
	}
}

func TestReferencePortInvalidManifestNeverReplacesTheValid(t *testing.T) {
	t.Parallel()
	net, site := newSite(t)
	good := held(t, net, claimOf(t, snap(t, net), rt.CandlelightID))
	broken := rt.Candlelight(t)
	rt.Obj(t, broken, "channels", "stable")["version"] = "1.0.0"
	site.Publish(broken, rt.Tallow(t))
	if sum := net.Refresh(site.URL("")); sum.Events != 0 {
		t.Errorf("%d events for an invalid manifest", sum.Events)
	}
	c := claimOf(t, snap(t, net), rt.CandlelightID)
	if c.Health != store.ClaimInvalid || c.Problem == nil || !strings.Contains(*c.Problem, "channels.stable") {
		t.Errorf("Candlelight %s: %v; want invalid, naming channels.stable", c.Health, c.Problem)
	}
	if !bytes.Equal(held(t, net, c), good) {
		t.Error("the invalid manifest replaced the held one")
	}
	net.ForgetRequests()
	net.Refresh(site.URL(""))
	if n := manifestRequests(net); n != 0 {
		t.Errorf("the same refused bytes were downloaded %d times again", n)
	}
	if c := claimOf(t, snap(t, net), rt.CandlelightID); c.Health != store.ClaimInvalid {
		t.Errorf("Candlelight %s; want still invalid", c.Health)
	}
}

func TestReferencePortHalfFinishedDeploymentIsInconsistent(t *testing.T) {
	t.Parallel()
	net, site := newSite(t)
	old := held(t, net, claimOf(t, snap(t, net), rt.CandlelightID))
	// The new index is live while the old manifest is still served.
	updated := rt.Candlelight(t)
	rt.Obj(t, updated, "project")["summary"] = "Lights that know what time it is, now in 4K."
	fresh := site.Bytes(updated)
	site.Index(site.Entry(updated, fresh), site.Entry(rt.Tallow(t), site.Bytes(rt.Tallow(t))))
	net.ForgetRequests()
	if sum := net.Refresh(site.URL("")); sum.Events != 0 {
		t.Errorf("%d events for a half-finished deployment", sum.Events)
	}
	if n := manifestRequests(net); n != 3 {
		t.Errorf("%d manifest downloads; want the first read and two retries", n)
	}
	c := claimOf(t, snap(t, net), rt.CandlelightID)
	if c.Health != store.ClaimInconsistent || c.AdvertisedSHA256 != store.Digest(fresh) || c.IngestedSHA256 == nil || *c.IngestedSHA256 != store.Digest(old) {
		t.Errorf("Candlelight %s, advertised %s, ingested %v; want inconsistent, the new digest advertised and the old held", c.Health, c.AdvertisedSHA256, c.IngestedSHA256)
	}
	// The reference's words call it a deployment in progress; these name both digests and
	// the reads (the same fact, in this index's words).
	if p := c.Problem; p == nil || !strings.Contains(*p, "hashes to "+store.Digest(old)) || !strings.Contains(*p, "advertises "+store.Digest(fresh)) ||
		!strings.Contains(*p, "read 3 times") || !bytes.Equal(held(t, net, c), old) {
		t.Errorf("problem %v; want both digests and the three reads named, the old manifest kept", p)
	}
	site.Manifest(rt.CandlelightID, updated) // the deployment finishes
	if sum := net.Refresh(site.URL("")); sum.Events != 1 {
		t.Errorf("%d events once the deployment finished; want 1", sum.Events)
	}
	if c := claimOf(t, snap(t, net), rt.CandlelightID); c.Health != store.ClaimCurrent {
		t.Errorf("Candlelight %s; want current", c.Health)
	}
}

func TestReferencePortManifestOfAnotherProjectIsRefused(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	site := net.Site("/mods/")
	impostor := rt.Tallow(t)
	rt.Obj(t, impostor, "project")["id"] = rt.CandlelightID
	site.Index(site.Entry(rt.Tallow(t), site.Manifest(rt.TallowID, impostor)))
	net.Refresh(site.URL("dreamweave.json"))
	c := claimOf(t, snap(t, net), rt.TallowID)
	// The reference's words say the manifest describes another project; these name the rule.
	if c.Health != store.ClaimInvalid || c.Problem == nil || !strings.Contains(*c.Problem, "/project/id [id-match]") {
		t.Errorf("Tallow %s: %v; want invalid by the id rule", c.Health, c.Problem)
	}
	if store.Open(net.State).Exists(store.ManifestPath(c.Project, c.Origin)) {
		t.Error("the impostor's manifest is held")
	}
}

func TestReferencePortWithdrawalAndReturnAreEvents(t *testing.T) {
	t.Parallel()
	net, site := newSite(t)
	site.Publish(rt.Candlelight(t))
	net.Refresh(site.URL(""))
	s := snap(t, net)
	if e := s.Events[len(s.Events)-1]; len(s.Events) != 3 || e.Kind != store.EventWithdrawn || e.Project != rt.TallowID {
		t.Fatalf("%d events, the last %s of %s; want Tallow withdrawn", len(s.Events), e.Kind, e.Project)
	}
	c := claimOf(t, s, rt.TallowID)
	if c.Health != store.ClaimWithdrawn {
		t.Errorf("Tallow %s; want withdrawn", c.Health)
	}
	held(t, net, c) // its manifest stays
	site.Publish(rt.Candlelight(t), rt.Tallow(t))
	net.Refresh(site.URL(""))
	s = snap(t, net)
	if e := s.Events[len(s.Events)-1]; len(s.Events) != 4 || e.Kind != store.EventRestored || claimOf(t, s, rt.TallowID).Health != store.ClaimCurrent {
		t.Errorf("%d events, the last %s; want Tallow restored and current", len(s.Events), e.Kind)
	}
}

func TestReferencePortOneIDAtTwoOriginsIsTwoClaims(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	alpha, beta := net.Site("/alpha/"), net.Site("/beta/")
	alpha.Publish(rt.Candlelight(t))
	copied := rt.Candlelight(t)
	rt.Obj(t, copied, "project")["name"] = "Candlelight (a different site's claim)"
	beta.Publish(copied)
	net.Refresh(alpha.URL(""), beta.URL(""))
	s := snap(t, net)
	names := map[string]bool{}
	for _, c := range s.Claims {
		if c.Project == rt.CandlelightID {
			names[c.Entry.Name] = true
		}
	}
	if len(s.Origins) != 2 || len(s.Claims) != 2 || !names["Candlelight"] || !names["Candlelight (a different site's claim)"] {
		t.Errorf("%d origins, claims named %v; want two claims, neither overwriting the other", len(s.Origins), names)
	}
}

func TestReferencePortRemovingASourceRemovesItsClaimsOnly(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	kept, dropped := net.Site("/kept/"), net.Site("/dropped/")
	kept.Publish(rt.Tallow(t))
	dropped.Publish(rt.Candlelight(t))
	net.Refresh(kept.URL(""), dropped.URL(""))
	if n := len(snap(t, net).Claims); n != 2 {
		t.Fatalf("%d claims; want 2", n)
	}
	sum := net.Refresh(kept.URL(""))
	s := snap(t, net)
	if len(sum.Removed) != 1 || len(s.Claims) != 1 || len(s.Sources) != 1 || s.Claims[0].Project != rt.TallowID {
		t.Errorf("removed %q, %d claims, %d sources; want the dropped site's claim gone and Tallow kept", sum.Removed, len(s.Claims), len(s.Sources))
	}
}

// The reference's move test redirects the front page with a 302; here a temporary redirect is
// no evidence of a move (see the about/state page), so the port redirects for good, a 301.
func TestReferencePortMovedSiteContinuesWithoutAConflict(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	old := net.Site("/old/")
	old.Publish(rt.Candlelight(t))
	net.Refresh(old.URL(""))
	before := snap(t, net)
	from := onlyOrigin(t, before).ID
	moved := net.Site("/new/")
	moved.Publish(rt.Candlelight(t))
	net.Redirect("/old/", "/new/", http.StatusMovedPermanently)
	sum := net.Refresh(old.URL(""))
	s := snap(t, net)
	o := onlyOrigin(t, s)
	if o.ID == from || len(sum.Removed) != 1 || !strings.Contains(sum.Removed[0], from) {
		t.Fatalf("origin %s, removed %q; want the new site, the old one removed", o.ID, sum.Removed)
	}
	if len(o.Previous) != 1 || !strings.Contains(o.Previous[0].Evidence, "redirects") {
		t.Errorf("previous %+v; want the old site, on the redirect's evidence", o.Previous)
	}
	if len(s.Events) != len(before.Events)+1 {
		t.Fatalf("%d events after the move; want one more", len(s.Events))
	}
	e := s.Events[len(s.Events)-1]
	if e.Kind != store.EventObserved || e.MovedFrom == nil || *e.MovedFrom != from {
		t.Errorf("event %s moved from %v; want observed, moved from %s", e.Kind, e.MovedFrom, from)
	}
	for _, c := range e.Changes {
		if c.Change != diff.ChangeMedia {
			t.Errorf("change %s; the same manifest at a new address changes only its images' addresses", c.Change)
		}
	}
	// And a temporary redirect moves nothing.
	net2 := rt.New(t)
	a, b := net2.Site("/old/"), net2.Site("/new/")
	a.Publish(rt.Candlelight(t))
	net2.Refresh(a.URL(""))
	b.Publish(rt.Candlelight(t))
	net2.Redirect("/old/", "/new/", http.StatusFound)
	net2.Refresh(a.URL(""))
	if s := snap(t, net2); len(s.Origins) != 1 || s.Origins[0].ID != store.SiteID(a.URL("dreamweave.json")) || len(s.Origins[0].Previous) != 0 {
		t.Errorf("after a 302: origins %d, %s; want the old site kept, nothing moved", len(s.Origins), s.Origins[0].ID)
	}
}

// The reference saves and loads its state and saves again, byte for byte; here every record
// read back and written again gives the same files.
func TestReferencePortStateSurvivesARoundTrip(t *testing.T) {
	t.Parallel()
	net, _ := newSite(t)
	before := files(t, net.State)
	s := snap(t, net)
	d := store.Open(net.State)
	for i, src := range s.Sources {
		mustWrite(t, d, store.SourcesDir+"/"+s.SourceFiles[i], src)
	}
	for _, o := range s.Origins {
		mustWrite(t, d, store.OriginPath(o.ID), o)
	}
	for _, c := range s.Claims {
		mustWrite(t, d, store.ClaimPath(c.Project, c.Origin), c.Claim)
	}
	mustWrite(t, d, store.NetworkFile, s.Network)
	if err := os.RemoveAll(filepath.Join(net.State, store.EventsDir)); err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Events {
		if _, err := d.WriteEvent(e); err != nil {
			t.Fatal(err)
		}
	}
	after := files(t, net.State)
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed in the round trip", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files after the round trip; want %d", len(after), len(before))
	}
}

func mustWrite(t *testing.T, d *store.Dir, rel string, v any) {
	t.Helper()
	if err := d.WriteJSON(rel, v); err != nil {
		t.Fatal(err)
	}
}

func files(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestReferencePortNewerProtocolIsReportedNothingGuessed(t *testing.T) {
	t.Parallel()
	net := rt.New(t)
	site := net.Site("/mods/")
	site.Publish(rt.Tallow(t))
	net.Refresh(site.URL("dreamweave.json"))
	future := `{"schema_version": "3", "document": "index", "site": {"name": "Fixture site", "url": "` + site.URL("") + `"}, "projects": [{"id": "` + rt.TallowID + `", "whatever": "comes next"}]}`
	net.Serve("/mods/dreamweave.json", "application/json", []byte(future))
	net.Refresh(site.URL("dreamweave.json"))
	s := snap(t, net)
	c := claimOf(t, s, rt.TallowID)
	if s.Sources[0].Health != store.SourceUnsupportedVersion || c.Health != store.ClaimOriginUnavailable {
		t.Errorf("source %s, claim %s; want unsupported-version and origin-unavailable", s.Sources[0].Health, c.Health)
	}
	held(t, net, c) // the last good manifest stays
}
