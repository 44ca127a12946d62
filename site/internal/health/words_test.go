package health

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
)

// TestWhyHTML: a health label is the index's own words, capitalized, and its problem follows
// as it is, escaped, in one <bdi> (even when it says the label again), ended with one full
// stop.
func TestWhyHTML(t *testing.T) {
	for _, c := range []struct{ label, problem, want string }{
		{"invalid publication", "invalid publication: /x [y] bad", "Invalid publication: <bdi>invalid publication: /x [y] bad</bdi>."},
		{"manifest unreachable", "HTTP 404 for the manifest.", "Manifest unreachable: <bdi>HTTP 404 for the manifest.</bdi>"},
		{"manifest unreachable", " ", "Manifest unreachable."},
		{"", "https://a.example/ answers <HTTP 503>", "<bdi>https://a.example/ answers &lt;HTTP 503&gt;</bdi>."},
		{"", "", ""},
	} {
		if got := string(WhyHTML(c.label, &c.problem)); got != c.want {
			t.Errorf("WhyHTML(%q, %q) = %q, want %q", c.label, c.problem, got, c.want)
		}
	}
}

// TestWhyShowsTheProblemAsItIs: a claim's recorded problem in a state without own files is
// one <bdi> holding the problem unchanged, so check-site reads none of it as the index's
// words, and the sentence ends with one full stop.
func TestWhyShowsTheProblemAsItIs(t *testing.T) {
	for _, c := range []struct{ health, problem string }{
		{"invalid", "invalid publication: channels.trusted is \"official\""},
		{"origin-unavailable", "origin unavailable, the site could not be read"},
		{"manifest-unreachable", "HTTP 404 for the manifest."},
		{"inconsistent", "<b>verified</b> bytes never matched"},
	} {
		h := string(ClaimWhy(&network.Claim{Health: c.health, Record: store.Claim{Problem: &c.problem}}))
		doc, err := html.Parse(strings.NewReader(h))
		if err != nil {
			t.Fatal(err)
		}
		var bdis []string
		htmlnode.Walk(doc, func(n *html.Node) bool {
			if n.Type == html.ElementNode && n.Data != "html" && n.Data != "head" && n.Data != "body" {
				if n.Data != "bdi" {
					t.Errorf("%s: %q holds a <%s>", c.health, h, n.Data)
				}
				bdis = append(bdis, textOf(n))
			}
			return true
		})
		if len(bdis) != 1 || bdis[0] != c.problem {
			t.Errorf("%s: the <bdi> elements hold %q, want the problem %q alone", c.health, bdis, c.problem)
		}
		if got := visible(h); strings.HasSuffix(got, "..") || !strings.HasSuffix(got, ".") {
			t.Errorf("%s: %q does not end with one full stop", c.health, got)
		}
	}
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

func visible(h string) string {
	doc, err := html.Parse(strings.NewReader(h))
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(textOf(doc))
}
