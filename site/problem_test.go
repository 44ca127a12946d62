package site

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestComposeProblem: a health label and its problem say the label once, whether the crawler's
// problem starts with it, repeats it later or never says it, and the clause starts with a
// capital letter unless it starts with a quotation.
func TestComposeProblem(t *testing.T) {
	for _, c := range []struct{ label, problem, want string }{
		{"invalid publication", "invalid publication: /channels/stable/version [channel-heads] bad", "Invalid publication: /channels/stable/version [channel-heads] bad"},
		{"invalid publication", "Invalid publication, invalid publication: /x", "Invalid publication: /x"},
		{"origin unavailable", "origin unavailable, the site could not be read", "Origin unavailable: the site could not be read"},
		{"refused by crawler policy", "discovery from https://a.example/: https://a.example/x refused by crawler policy", "Discovery from https://a.example/: https://a.example/x refused by crawler policy"},
		{"refused by crawler policy", "over the 16 MiB limit", "Refused by crawler policy: over the 16 MiB limit"},
		{"invalid publication", "invalid publication", "Invalid publication"},
		{"manifest unreachable", "", "Manifest unreachable"},
		{"", "https://a.example/ answers HTTP 503", "https://a.example/ answers HTTP 503"},
		{"", "\"official\" is not a channel", "\"official\" is not a channel"},
		{"refused", "refusedly odd", "Refused: refusedly odd"},
	} {
		if got := composeProblem(c.label, c.problem); got != c.want {
			t.Errorf("composeProblem(%q, %q) = %q, want %q", c.label, c.problem, got, c.want)
		}
	}
}

// TestWhyNeverRepeatsTheLabel: the sentence a page shows for each claim health, with problems
// in the shapes the crawler writes, never holds the label twice and ends with one full stop.
func TestWhyNeverRepeatsTheLabel(t *testing.T) {
	for _, c := range []struct{ health, problem string }{
		{"invalid", "invalid publication: invalid publication: /channels/x"},
		{"origin-unavailable", "origin unavailable, the site could not be read"},
		{"refused", "refused by crawler policy. discovery from x: refused by crawler policy"},
		{"manifest-unreachable", "HTTP 404 for the manifest."},
		{"inconsistent", "the served bytes never matched"},
	} {
		got := visible(string(claimWhy(c.health, &c.problem)))
		label := strings.ToLower(store.HealthLabel(c.health))
		if n := strings.Count(strings.ToLower(got), label); n != 1 {
			t.Errorf("%s: %q says %q %d times", c.health, got, label, n)
		}
		if strings.HasSuffix(got, "..") || !strings.HasSuffix(got, ".") {
			t.Errorf("%s: %q does not end with one full stop", c.health, got)
		}
		if first := []rune(got)[0]; first >= 'a' && first <= 'z' {
			t.Errorf("%s: %q starts in lowercase", c.health, got)
		}
	}
}

func visible(h string) string {
	doc, err := html.Parse(strings.NewReader(h))
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(textOf(doc))
}

// TestProblemHTMLMarksQuotations: quoted values, URLs, JSON pointers and dotted paths in a
// crawler problem are marked as publisher text; the crawler's own words are not, and the text
// reads exactly as the problem did.
func TestProblemHTMLMarksQuotations(t *testing.T) {
	p := `invalid publication: /channels/official/version [channel-heads] channels.trusted.version is "1.0 safe" but 'recommended' is at https://x.example/official?q=1, (see safe_mode.cfg); verified author 'x'`
	out := string(problemHTML(p))
	if got := visible(out); got != p {
		t.Errorf("the text changed:\n got %q\nwant %q", got, p)
	}
	doc, _ := html.Parse(strings.NewReader(out))
	var marked []string
	walk(doc, func(n *html.Node) bool {
		if n.Type == html.ElementNode && isPublisher(n) {
			marked = append(marked, textOf(n))
			return false
		}
		return true
	})
	for _, want := range []string{"/channels/official/version", "channels.trusted.version", `"1.0 safe"`, "'recommended'", "https://x.example/official?q=1", "safe_mode.cfg", "'x'"} {
		found := false
		for _, m := range marked {
			found = found || m == want
		}
		if !found {
			t.Errorf("%q is not marked as publisher text; marked: %q", want, marked)
		}
	}
	// The index's own words stay checked: "verified author" here is not a quotation.
	probs, err := Check(writeSite(t, map[string]string{"index.html": doc0(`<p>` + out + `</p>`)}), "")
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
