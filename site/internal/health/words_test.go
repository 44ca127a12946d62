package health

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
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
		if got := ComposeProblem(c.label, c.problem); got != c.want {
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
		got := visible(string(ClaimWhy(&network.Claim{Health: c.health, Record: store.Claim{Problem: &c.problem}})))
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
