package site

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/claim"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// TestURLText: a link to a publisher's URL shows its host whole (in punycode when it is an
// internationalized name) and a short rest: no
// "https://", "http://" kept, a long path cut to its last segment or its first characters;
// any other URL gets no short text (the link prints it whole).
func TestURLText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://site.example/mods/dreamweave.json", "site.example/mods/dreamweave.json"},
		{"http://site.example/a", "http://site.example/a"},
		{"https://example.org/src/0041c5c2-e3d9-4bcc-83a4-6048f0d38f9e/issues", "example.org/…/issues"},
		{"https://example.org/0041c5c2-e3d9-4bcc-83a4-6048f0d38f9e/", "example.org/0041c5c2-e3d9-4bcc-83a4-6048f0d38f9e/"},
		{"https://github.com/DreamWeave-MP/DreamWeave-Mod-Template", "github.com/DreamWeave-MP/DreamWeave-Mod-Template"},
		{"https://example.org/s/site0007-example-mods-7745201e/0041c5c2-e3d9-4bcc-83a4-6048f0d38f9e.json", "example.org/s/site0007-example-mods-7745201e/0041c…"},
		{"https://example.org/a?q=1#top", "example.org/a?q=1#top"},
		{"https://user@example.org:8443/x", "example.org:8443/x"},
		{"https://example.org", "example.org"},
		{"https://例え.example/ページ/とても長い名前のページです/もっと", "xn--r8jz45g.example/ページ/とても長い名前のページです/もっと"},
		{"https://例え.example/ページ/とても長い名前のページですとても長い名前のページですとても長い名前のページです/もっと", "xn--r8jz45g.example/…/もっと"},
		{"mailto:someone@example.org", ""},
		{"ftp://example.org/file", ""},
		{"not a url", ""},
		{"", ""},
	} {
		if got := wording.URLText(c.in); got != c.want {
			t.Errorf("urlText(%q) = %q, want %q", c.in, got, c.want)
		}
		// An internationalized host is shown in punycode, which may be longer.
		if got := wording.URLText(c.in); wording.IDNHost(c.in) == "" && len([]rune(got)) > len([]rune(c.in)) {
			t.Errorf("urlText(%q) = %q is longer than the URL", c.in, got)
		}
	}
}

// TestClaimPageLinksClaimsOfItsSite: a claim the page's release requires from the page's own
// site is linked by the shortest relative path and said to be from this site; one from another
// site is named with that site, as every list names it.
func TestClaimPageLinksClaimsOfItsSite(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	b := f.Site("https://b.example/dreamweave.json", "Site B")
	f.Claim(a, sampleManifest(uuid(1), "Lib", 1))
	f.Claim(b, sampleManifest(uuid(2), "Other", 1))
	m := sampleManifest(uuid(3), "Needs", 1)
	m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(1)}, {Kind: "requires", Project: uuid(2)}}
	f.Claim(a, m)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(3), a))
	lis := htmlcheck.All(t, htmlcheck.All(t, doc, "section.current dl")[0], "li")
	if len(lis) != 2 {
		t.Fatalf("%d requirements, want 2", len(lis))
	}
	if got := htmlcheck.Attr(htmlcheck.All(t, lis[0], "a")[0], "href"); got != "../../"+paths.Claim(uuid(1), a)[len("projects/"):] {
		t.Errorf("the same site's claim is linked as %q, want the shortest relative path", got)
	}
	// The same site's claim is said to be from this site; another site's names its site.
	htmlcheck.Want(t, lis[0], "li", "Lib from this site")
	htmlcheck.Lacks(t, lis[0], "li", "Site A")
	htmlcheck.Want(t, lis[1], "li", "Other from Site B")
}

// TestClaimPageUsedByIsBounded: a claim many releases require names the first claim.UsedByShown of
// them and links its own list of every claim that requires it, so its page stays bounded.
func TestClaimPageUsedByIsBounded(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	f.Claim(a, sampleManifest(uuid(0), "Lib", 1))
	n := claim.UsedByShown + 5
	for i := 1; i <= n; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("User %02d", i), 1)
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(0)}}
		f.Claim(a, m)
	}
	few := sampleManifest(uuid(100), "Few", 1)
	f.Claim(a, few)
	m := sampleManifest(uuid(101), "Needs Few", 1)
	m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(100)}}
	f.Claim(a, m)
	_, out := build(t, state, Options{})

	sec := htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(0), a)), `section#used-by`)
	if k := htmlcheck.Count(t, sec, "ul.list > li"); k != claim.UsedByShown {
		t.Errorf("Used by names %d claims, want %d", k, claim.UsedByShown)
	}
	link := htmlcheck.One(t, sec, "p > a")
	if got, want := htmlcheck.Attr(link, "href"), "../../../"+paths.UsedByOf(uuid(0), a); got != want {
		t.Fatalf("Used by links %q for the rest, want %q", got, want)
	}
	users := htmlcheck.Texts(t, parsePage(t, out, paths.UsedByOf(uuid(0), a)), "main li a bdi")
	for i := 1; i <= n; i++ {
		if !slices.Contains(users, fmt.Sprintf("User %02d", i)) {
			t.Errorf("the used-by list the claim page links does not name User %02d", i)
		}
	}
	sec = htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(100), a)), `section#used-by`)
	if k := htmlcheck.Count(t, sec, "ul.list > li"); k != 1 || htmlcheck.Count(t, sec, "p > a") != 0 {
		t.Errorf("a claim one release requires names %d and links the used-by list %d times, want 1 and 0", k, htmlcheck.Count(t, sec, "p > a"))
	}
}

// TestClaimPageOlderReleaseLines: a release other than the current one links its one download
// as "download" with its size, or each of several artifacts by its file name, and folds the
// SHA-256 of each beneath, with its file name when there are several.
func TestClaimPageOlderReleaseLines(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site A")
	m := sampleManifest(uuid(1), "Lantern", 3) // 1.0.2 (current), 1.0.1, 1.0.0
	two := &m.Releases[2]
	extra := two.Artifacts[0]
	extra.ID, extra.Filename, extra.Size = "docs", "Lantern-docs.zip", 2048
	extra.Digests.SHA256 = sha([]byte("docs"))
	extra.Sources = []protocol.ArtifactSource{{URL: "https://example.org/dl/docs.zip", Kind: "publisher"}}
	two.Artifacts = append(two.Artifacts, extra)
	f.Claim(site, m)
	_, out := build(t, state, Options{})
	doc := parsePage(t, out, paths.Claim(uuid(1), site))

	one := htmlcheck.One(t, doc, `ul.releases > li[id="release-1.0.1"]`)
	if got := htmlcheck.Text(htmlcheck.One(t, one, `a[href="https://example.org/dl/1.0.1.zip"]`)); got != "download" {
		t.Errorf("release 1.0.1's one download reads %q, want \"download\"", got)
	}
	htmlcheck.Want(t, one, "li", "download 12.1 KiB")
	if got := htmlcheck.Texts(t, one, "details code"); len(got) != 1 || got[0] != sha([]byte(uuid(1)+"1.0.1")) {
		t.Errorf("release 1.0.1 folds the digests %q, want its artifact's", got)
	}

	old := htmlcheck.One(t, doc, `ul.releases > li[id="release-1.0.0"]`)
	if got := htmlcheck.Text(htmlcheck.One(t, old, `a[href="https://example.org/dl/docs.zip"]`)); got != "Lantern-docs.zip" {
		t.Errorf("release 1.0.0's second artifact reads %q, want its file name", got)
	}
	htmlcheck.One(t, old, "details")
	htmlcheck.Want(t, old, "details", "Lantern-1.0.0.zip SHA-256 "+sha([]byte(uuid(1)+"1.0.0")), "Lantern-docs.zip SHA-256 "+sha([]byte("docs")))
}

// TestSyntheticClaimPageSize: a synthetic claim page (synthState's claim 71, with its five
// releases, requirements, content file and event) weighs at most claimPageBudget bytes, its
// <main> element at most claimMainBudget, and keeps every part other pages link or a player
// looks for.
func TestSyntheticClaimPageSize(t *testing.T) {
	_, res, out := synthBuild(t, 130)
	c := res.Network.ByProject[uuid(71)].Claims[0]
	b := readOut(t, out, paths.ClaimKey(c))
	if len(b) > claimPageBudget {
		t.Errorf("%s weighs %d bytes, want at most %d", paths.ClaimKey(c), len(b), claimPageBudget)
	}
	i, j := bytes.Index(b, []byte("<main")), bytes.Index(b, []byte("</main>"))
	if i < 0 || j < i {
		t.Fatalf("%s has no <main> element", paths.ClaimKey(c))
	}
	if n := j + len("</main>") - i; n > claimMainBudget {
		t.Errorf("%s: <main> weighs %d bytes, want at most %d", paths.ClaimKey(c), n, claimMainBudget)
	}
	main := htmlcheck.One(t, parsePage(t, out, paths.ClaimKey(c)), "main")
	for _, sel := range []string{"#published-by a.follow", "a[data-plan-add]", "#current", "#download", "#details", `ul.releases > li[id="release-1.0.0"]`, `section#used-by`, `section#history`} {
		if htmlcheck.Count(t, main, sel) != 1 {
			t.Errorf("the page has no %s", sel)
		}
	}
}

// claimPageBudget and claimMainBudget are the most bytes synthState's claim 71's page and its
// <main> element may weigh.
const (
	claimPageBudget = 10_400
	claimMainBudget = 8_600
)

// TestClaimPageReferencesAreBounded: a claim that many releases recommend through a
// capability names the first claim.UsedByShown of them and links the capability's page, which
// lists every reference.
func TestClaimPageReferencesAreBounded(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	a := f.Site("https://a.example/dreamweave.json", "Site A")
	lib := sampleManifest(uuid(0), "Lib", 1)
	lib.Releases[0].Provides = []string{"light:api"}
	f.Claim(a, lib)
	for i := 1; i <= claim.UsedByShown+3; i++ {
		m := sampleManifest(uuid(i), fmt.Sprintf("Fan %02d", i), 1)
		m.Releases[0].Relationships = []protocol.Relationship{{Kind: "recommends", Capability: "light:api"}}
		f.Claim(a, m)
	}
	_, out := build(t, state, Options{})
	sec := htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(0), a)), `section#used-by`)
	if k := htmlcheck.Count(t, sec, "ul.list > li"); k != claim.UsedByShown {
		t.Errorf("Referenced by names %d claims, want %d", k, claim.UsedByShown)
	}
	more := htmlcheck.All(t, sec, "p")
	last := more[len(more)-1]
	if got, want := htmlcheck.Attr(htmlcheck.One(t, last, "a"), "href"), "../../../"+paths.Capability("light:api")+"#references"; got != want {
		t.Errorf("the rest are linked as %q, want %q", got, want)
	}
	htmlcheck.Want(t, last, "p", "And others through the capability light:api")
}

// TestClaimPageUpdatesSayWhatChanged: the claim page's updates say what each update changed,
// linked to its page, without the claim's name and site that the page's heading gives, and
// a first observation without the tag "observed", which "first observed" says.
func TestClaimPageUpdatesSayWhatChanged(t *testing.T) {
	state, site, _ := lanternEvent(t, nil)
	res, out := build(t, state, Options{})
	li := htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(1), site)), `section#history li`)
	a := htmlcheck.All(t, li, "a")[0]
	if got, want := htmlcheck.Attr(a, "href"), "../../../"+paths.Event(res.Network.Events[0].ID); got != want {
		t.Errorf("the update links %q, want %q", got, want)
	}
	if got := htmlcheck.Text(a); got != "first observed" {
		t.Errorf("the update reads %q, want \"first observed\"", got)
	}
	if got := htmlcheck.Text(li); !strings.HasPrefix(got, "2026-09-01 00:00:00 UTC: ") {
		t.Errorf("the update's line %q does not start with its time", got)
	}
	if n := htmlcheck.Count(t, li, "a.badge"); n != 0 {
		t.Errorf("the first observation's line has %d tag badges, want none", n)
	}
	before := strings.Repeat("a", 64)
	state, site, _ = lanternEvent(t, func(e *store.Event) {
		e.Kind, e.Before = store.EventChanged, &before
		e.Changes = []diff.Change{{Change: "project-field", Field: "name", Before: []byte(`"Lamp"`), After: []byte(`"Lantern"`)}}
	})
	_, out = build(t, state, Options{})
	li = htmlcheck.One(t, parsePage(t, out, paths.Claim(uuid(1), site)), `section#history li`)
	if n := htmlcheck.Count(t, li, "a.badge[href]"); n == 0 {
		t.Errorf("a change's line %q has no tag badge", htmlcheck.Text(li))
	}
}
