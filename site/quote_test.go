package site

import (
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

// TestProblemHTMLMarksQuotations: quoted values, URLs, JSON pointers and dotted paths in a
// crawler problem are marked as publisher text; the crawler's own words are not, and the text
// reads exactly as the problem did.
func TestProblemHTMLMarksQuotations(t *testing.T) {
	p := `invalid publication: /channels/official/version [channel-heads] channels.trusted.version is "1.0 safe" but 'recommended' is at https://x.example/official?q=1, (see safe_mode.cfg); verified author 'x'`
	out := string(problemHTML(p))
	if got := visible(out); got != p {
		t.Errorf("the text changed:\n got %q\nwant %q", got, p)
	}
	marked := markedTexts(template.HTML(out))
	for _, want := range []string{"/channels/official/version", "channels.trusted.version", `"1.0 safe"`, "'recommended'", "https://x.example/official?q=1", "safe_mode.cfg", "'x'"} {
		if !contains(marked, want) {
			t.Errorf("%q is not marked as publisher text; marked: %q", want, marked)
		}
	}
	// The index's own words stay checked: "verified author" here is not a quotation.
	probs, err := linkcheck.Check(writeSite(t, map[string]string{"index.html": doc0(`<p>` + out + `</p>`)}), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Message, `"verified author"`) {
		t.Errorf("check-site found %v, want only the unquoted \"verified author\"", probs)
	}
	if strings.Contains(string(problemHTML(`<script>"<b>"`)), "<script>") {
		t.Error("problemHTML does not escape")
	}
}

func doc0(body string) string { return doc(body) }

// TestProblemHTMLMarksPointersAndKnownNames: a finding's pointer with publisher keys holding
// spaces is one quotation up to its [rule], and a publisher name the crawler quotes bare (a
// publication issue's "<id> (<name>): ...") is marked when the page knows it.
func TestProblemHTMLMarksPointersAndKnownNames(t *testing.T) {
	p := `invalid publication: /releases/0/runtimes/openmw Official build [pattern] bad; /x/safe y [minLength] short; /a b [pattern] field "b" (/a/trusted b): does not match`
	marked := markedTexts(problemHTML(p))
	for _, want := range []string{"/releases/0/runtimes/openmw Official build", "/x/safe y", "/a/trusted b"} {
		if !contains(marked, want) {
			t.Errorf("%q is not one quotation; marked: %q", want, marked)
		}
	}
	issue := `1c2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d (Trusted Lamps): invalid publication: /x [y] z`
	if got := markedTexts(problemHTML(issue, "Trusted Lamps")); !contains(got, "Trusted Lamps") {
		t.Errorf("the known name is not marked: %q", got)
	}
	if got := markedTexts(problemHTML(issue)); contains(got, "Trusted Lamps") {
		t.Errorf("an unknown bare name is marked (the test above would prove nothing): %q", got)
	}
}

// markedTexts are the texts of the publisher elements in h.
func markedTexts(h template.HTML) []string {
	doc, err := html.Parse(strings.NewReader(string(h)))
	if err != nil {
		panic(err)
	}
	var out []string
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && isPublisher(n) {
			out = append(out, textOf(n))
			return false
		}
		return true
	})
	return out
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestUpdatesAtOneTimeByName: the updates one refresh records (one observed_at) are listed by
// claim name, case-folded, not by event id; newer refreshes still come first.
func TestUpdatesAtOneTimeByName(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	names := []string{"Zeta Lamp", "alpha lamp", "Mid Lamp", "beta Lamp"}
	for i, name := range names {
		f.Claim(site, sampleManifest(uuid(i), name, 1))
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(i), Origin: site, Name: name, ObservedAt: statetest.Time,
			After: ptr(sha([]byte(name))), Changes: []diff.Change{}})
	}
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(0), Origin: site, Name: "Zeta Lamp", ObservedAt: "2026-10-11T00:00:00Z",
		Before: ptr(sha([]byte("Zeta Lamp"))), After: ptr(sha([]byte("later"))), Changes: []diff.Change{}})
	_, out := build(t, state, Options{})
	text := page(t, out, "updates/index.html")
	last := -1
	for _, want := range []string{"2026-10-11", "alpha lamp", "beta Lamp", "Mid Lamp", "Zeta Lamp"} {
		i := strings.Index(text[last+1:], want)
		if i < 0 {
			t.Fatalf("the updates page does not list %q after position %d: %q", want, last, text)
		}
		last += 1 + i
	}
}

// TestSiteIssueKnowsItsOwnClaim: a site's publication issue marks the name of the claim it
// starts with (found by the id it starts with) and the site's
// name, and not the name of another claim of the site that its words happen to contain, so an
// issue is searched for a handful of names, not for every name the site lists.
func TestSiteIssueKnowsItsOwnClaim(t *testing.T) {
	site := "Lamp Works"
	o := &network.Origin{Origin: store.Origin{ID: "lamps-1", SiteName: &site}}
	for _, c := range []struct{ id, name string }{
		{"1c2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d", "unreachable"},
		{"ac2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d", "Trusted Lamps"},
		{"fc2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d", "Wax"},
	} {
		o.Claims = append(o.Claims, &network.Claim{Key: network.Key{Project: c.id, Site: "lamps-1"}, Name: c.name, Record: store.Claim{Entry: protocol.IndexEntry{Name: c.name}}})
	}
	issue := sentence(capitalize("ac2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d (Trusted Lamps): manifest unreachable: HTTP 404 from Lamp Works"))
	got := markedTexts(quoteFor(issue, o))
	for _, want := range []string{"Trusted Lamps", "Lamp Works"} {
		if !contains(got, want) {
			t.Errorf("%q is not marked: %q", want, got)
		}
	}
	if contains(got, "unreachable") {
		t.Errorf("another claim's name is marked in the index's own words: %q", got)
	}
	if n := len(issueTexts(o, "not an id: x")); n != 2 {
		t.Errorf("an issue naming no claim knows %d strings, want the site's 2", n)
	}
}
