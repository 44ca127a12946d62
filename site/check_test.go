package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

// TestCheckBaseURLMismatch: checking a site against a base URL other than the one it was
// built for is one problem naming both (not one per link of the 404 page); the same URL
// spelled without its final slash is no mismatch.
func TestCheckBaseURLMismatch(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	f.Claim(site, sampleManifest(uuid(1), "One", 1))
	_, out := build(t, state, Options{BaseURL: "https://a.example/x/"})
	problems, err := linkcheck.Check(out, "https://b.example/y/")
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0].Message, "the site was built for https://a.example/x/, not https://b.example/y/") {
		t.Errorf("mismatch: %v %v", err, problems)
	}
	if problems, err := linkcheck.Check(out, "https://a.example/x"); err != nil || len(problems) != 0 {
		t.Errorf("same base URL without its slash: %v %v", err, problems)
	}
}

// TestCheckPublisherLinksUnderBaseURL (case 5): a publisher whose relationship url and release
// notes link under the index's own base URL, to pages that do not exist, must not fail
// check-site: the deploy of the whole index would be blocked by one manifest.
func TestCheckPublisherLinksUnderBaseURL(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	m := sampleManifest(uuid(1), "One", 1)
	m.Releases[0].Notes.Highlights = "See [the index](https://idx.example/x/projects/nope/#release-1)."
	m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(2), URL: "https://idx.example/x/search/?q=nope"}}
	f.Claim(site, m)
	_, out := build(t, state, Options{BaseURL: "https://idx.example/x/"})
	claim := parsePage(t, out, "projects/"+uuid(1)+"/"+site+"/index.html")
	for _, want := range []string{"https://idx.example/x/projects/nope/#release-1", "https://idx.example/x/search/?q=nope"} {
		if htmlcheck.Count(t, claim, `main a[href="`+want+`"]`) == 0 {
			t.Errorf("the claim page does not carry the publisher's link %s", want)
		}
	}
	probs, err := linkcheck.Check(out, "https://idx.example/x/")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("check-site with the base URL: %s", p)
	}
}
