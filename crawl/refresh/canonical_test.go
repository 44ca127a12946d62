package refresh

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// One site index spelled several ways is one site: a host in capitals, a
// trailing dot, an IDN host and its punycode all name the same index, so two enrolled URLs that
// reach it share one site record (no claim is an identity conflict with itself), and the
// recorded index URL is the canonical spelling.
func TestDrillOneIndexSpelledTwoWays(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	port := l.port()
	puny := "http://xn--bcher-kva.test:" + port + "/"
	l.opt = func(o *Options) { o.Resolver = mapResolver{"xn--bcher-kva.test": "127.0.0.1"} }
	page := puny + tplDir + "/"
	index := "http://BÜCHER.test.:" + port + "/" + tplDir + "/dreamweave.json"
	sum := l.refresh(page, index)
	snap := load(t, l.state)
	want := puny + tplDir + "/dreamweave.json"
	if len(snap.Origins) != 1 || snap.Origins[0].IndexURL != want || snap.Origins[0].ID != store.SiteID(want) {
		var got []string
		for _, o := range snap.Origins {
			got = append(got, o.ID+" "+o.IndexURL)
		}
		t.Fatalf("origins %q; want one, %s", got, want)
	}
	o := snap.Origins[0]
	if strings.Join(o.Sources, " ") != index+" "+page && strings.Join(o.Sources, " ") != page+" "+index {
		t.Errorf("sources %q", o.Sources)
	}
	var failures []string
	for _, f := range sum.Failures {
		if !strings.HasPrefix(f, "card image of ") { // the corpus page's image is not served here
			failures = append(failures, f)
		}
	}
	if len(snap.Claims) != 2 || sum.Accepted != 2 || len(failures) != 0 {
		t.Errorf("%d claims, %d accepted, failures %q", len(snap.Claims), sum.Accepted, failures)
	}
	for _, u := range []string{page, index} {
		if s := l.sourceRecord(u); s.Origin == nil || *s.Origin != o.ID || s.Health != store.SourceResolved {
			t.Errorf("source %s leads to %v (%s)", u, s.Origin, deref(s.Problem))
		}
	}
	// Again: nothing moves, nothing is fetched, the spelling never makes a second site.
	sum = l.refresh(page, index)
	if snap := load(t, l.state); len(snap.Origins) != 1 || len(snap.Claims) != 2 || sum.Fetched != 0 || sum.Problems["moved"] != 0 {
		t.Errorf("second refresh: %d origins, %d claims, %d fetched, problems %v", len(snap.Origins), len(snap.Claims), sum.Fetched, sum.Problems)
	}
}

// The same for RFC 3986 section 6.2.2's spellings: an enrolled URL with dot
// segments and an escaped unreserved character reaches the index the plain URL reaches; both
// lead to one site, recorded under the canonical index URL (no second site, no identity
// conflict of a site with itself).
func TestDrillDotSegmentsAndEscapesAreOneSite(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	plain := l.source(tplDir)
	odd := l.url("x/../" + strings.Replace(tplDir, "DreamWeave", "%44reamWeave", 1) + "/./")
	l.refresh(plain, odd)
	snap := load(t, l.state)
	want := l.url(tplDir + "/dreamweave.json")
	if len(snap.Origins) != 1 || snap.Origins[0].IndexURL != want || snap.Origins[0].ID != l.site(tplDir) {
		var got []string
		for _, o := range snap.Origins {
			got = append(got, o.ID+" "+o.IndexURL)
		}
		t.Fatalf("origins %q; want one, %s", got, want)
	}
	for _, u := range []string{plain, odd} {
		if s := l.sourceRecord(u); s.Origin == nil || *s.Origin != l.site(tplDir) {
			t.Errorf("source %s leads to %v (%s)", u, s.Origin, deref(s.Problem))
		}
	}
}
