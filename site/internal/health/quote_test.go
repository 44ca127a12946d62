package health

import (
	"html/template"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
	"golang.org/x/net/html"
)

// TestProblemHTMLMarksQuotations: quoted values, URLs, JSON pointers and dotted paths in a
// crawler problem are marked as publisher text; the crawler's own words are not, and the text
// reads exactly as the problem did.
func TestProblemHTMLMarksQuotations(t *testing.T) {
	p := `invalid publication: /channels/official/version [channel-heads] channels.trusted.version is "1.0 safe" but 'recommended' is at https://x.example/official?q=1, (see safe_mode.cfg); verified author 'x'`
	out := string(ProblemHTML(p))
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
	probs, err := linkcheck.Check(sitetest.WriteSite(t, map[string]string{"index.html": doc0(`<p>` + out + `</p>`)}), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Message, `"verified author"`) {
		t.Errorf("check-site found %v, want only the unquoted \"verified author\"", probs)
	}
	if strings.Contains(string(ProblemHTML(`<script>"<b>"`)), "<script>") {
		t.Error("problemHTML does not escape")
	}
}

func doc0(body string) string { return sitetest.Doc(body) }

// TestProblemHTMLMarksPointersAndKnownNames: a finding's pointer with publisher keys holding
// spaces is one quotation up to its [rule], and a publisher name the crawler quotes bare (a
// publication issue's "<id> (<name>): ...") is marked when the page knows it.
func TestProblemHTMLMarksPointersAndKnownNames(t *testing.T) {
	p := `invalid publication: /releases/0/runtimes/openmw Official build [pattern] bad; /x/safe y [minLength] short; /a b [pattern] field "b" (/a/trusted b): does not match`
	marked := markedTexts(ProblemHTML(p))
	for _, want := range []string{"/releases/0/runtimes/openmw Official build", "/x/safe y", "/a/trusted b"} {
		if !contains(marked, want) {
			t.Errorf("%q is not one quotation; marked: %q", want, marked)
		}
	}
	issue := `1c2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d (Trusted Lamps): invalid publication: /x [y] z`
	if got := markedTexts(ProblemHTML(issue, "Trusted Lamps")); !contains(got, "Trusted Lamps") {
		t.Errorf("the known name is not marked: %q", got)
	}
	if got := markedTexts(ProblemHTML(issue)); contains(got, "Trusted Lamps") {
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
	htmlnode.Walk(doc, func(n *html.Node) bool {
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
	issue := Sentence(Capitalize("ac2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d (Trusted Lamps): manifest unreachable: HTTP 404 from Lamp Works"))
	got := markedTexts(QuoteFor(issue, o))
	for _, want := range []string{"Trusted Lamps", "Lamp Works"} {
		if !contains(got, want) {
			t.Errorf("%q is not marked: %q", want, got)
		}
	}
	if contains(got, "unreachable") {
		t.Errorf("another claim's name is marked in the index's own words: %q", got)
	}
	if n := len(IssueTexts(o, "not an id: x")); n != 2 {
		t.Errorf("an issue naming no claim knows %d strings, want the site's 2", n)
	}
}

// isPublisher reports whether n is publisher text as check-site reads it: a <bdi>, or an
// element carrying data-pub.
func isPublisher(n *html.Node) bool {
	_, ok := htmlnode.Attr(n, "data-pub")
	return ok || n.Data == "bdi"
}

// textOf is the text of n's text nodes, as it stands.
func textOf(n *html.Node) string {
	var b strings.Builder
	htmlnode.Walk(n, func(m *html.Node) bool {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
		return true
	})
	return b.String()
}
