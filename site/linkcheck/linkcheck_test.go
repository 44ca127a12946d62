package linkcheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

var (
	writeSite = sitetest.WriteSite
	doc       = sitetest.Doc
)

func TestCheckFindsEachProblem(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		base  string
		want  string // substring of the one expected problem; "" for none
	}{
		{"clean", map[string]string{"index.html": doc(`<a href="a/index.html#x">a</a> <a href="a/">dir</a> <a href="#top">top</a><p id="top"></p> <a href="https://x.example/">x</a> <a href="mailto:a@b.example">m</a>`), "a/index.html": doc(`<p id="x">x</p><a href="../index.html">up</a>`)}, "", ""},
		{"broken link", map[string]string{"index.html": doc(`<a href="missing/index.html">x</a>`)}, "", `does not resolve to a file`},
		{"missing fragment", map[string]string{"index.html": doc(`<a href="a.html#nope">x</a>`), "a.html": doc(`<p id="yes"></p>`)}, "", `no id "nope" on a.html`},
		{"state fragment to a page that reads it", map[string]string{"index.html": doc(`<a href="a.html#add=x,y@z">x</a>`), "a.html": doc(`<div data-fragment-state></div>`)}, "", ""},
		{"state-like fragment to a page that does not read it", map[string]string{"index.html": doc(`<a href="a.html#add=x">x</a>`), "a.html": doc(`<p id="yes"></p>`)}, "", `no id "add=x" on a.html`},
		{"plain fragment to a state page still names an id", map[string]string{"index.html": doc(`<a href="a.html#nope">x</a>`), "a.html": doc(`<div data-fragment-state></div>`)}, "", `no id "nope" on a.html`},
		{"missing same-page fragment", map[string]string{"index.html": doc(`<a href="#nope">x</a>`)}, "", `no id "nope"`},
		{"duplicate id", map[string]string{"index.html": doc(`<p id="a"></p><p id="a"></p>`)}, "", `duplicate id "a"`},
		{"javascript scheme", map[string]string{"index.html": doc(`<a href="javascript:alert(1)">x</a>`)}, "", `uses the scheme "javascript"`},
		{"data src", map[string]string{"index.html": doc(`<img alt="" src="data:image/png;base64,AAAA">`)}, "", `uses the scheme "data"`},
		{"srcset", map[string]string{"index.html": doc(`<img alt="" src="a.png" srcset="a.png 1x, b.png 2x">`), "a.png": "x"}, "", `"b.png" does not resolve`},
		{"protocol-relative", map[string]string{"index.html": doc(`<a href="//evil.example/">x</a>`)}, "", `protocol-relative`},
		{"outside the site", map[string]string{"index.html": doc(`<a href="../etc/passwd">x</a>`)}, "", `points outside the site`},
		{"refresh to a page", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>x</title><meta http-equiv="refresh" content="0;url=safe-site/index.html"></head><body><h1>x</h1></body></html>`, "safe-site/index.html": doc("")}, "", ""},
		{"refresh to nothing", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>x</title><meta http-equiv="refresh" content="0;url=gone/index.html"></head><body><h1>x</h1></body></html>`}, "", `refresh "gone/index.html" does not resolve to a file`},
		{"refresh scheme", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>x</title><meta http-equiv="refresh" content="0; URL='javascript:alert(1)'"></head><body><h1>x</h1></body></html>`}, "", `uses the scheme "javascript"`},
		{"no title", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head></head><body><h1>x</h1></body></html>`}, "", `no title`},
		{"empty title", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title> </title></head><body><h1>x</h1></body></html>`}, "", `no title`},
		{"no language", map[string]string{"index.html": `<!DOCTYPE html><html><head><title>x</title></head><body><h1>x</h1></body></html>`}, "", `no language`},
		{"image without alt", map[string]string{"index.html": doc(`<img src="a.png">`), "a.png": "x"}, "", `has no alt attribute`},
		{"heading skips a level", map[string]string{"index.html": doc(`<h3>x</h3>`)}, "", `heading h3 follows h1`},
		{"first heading not h1", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><h2>x</h2></body></html>`}, "", `first heading is h2`},
		{"forbidden word in own text", map[string]string{"index.html": doc(`<p>This mod is Recommended.</p>`)}, "", `uses the word "recommended"`},
		{"forbidden phrase across whitespace", map[string]string{"index.html": doc(`<p>a verified
		author</p>`)}, "", `uses the word "verified author"`},
		{"forbidden word in an attribute", map[string]string{"index.html": doc(`<a href="#t" id="t" title="official build">x</a>`)}, "", `uses the word "official"`},
		{"forbidden word in meta description", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>x</title><meta name="description" content="A trusted list"></head><body><h1>x</h1></body></html>`}, "", `uses the word "trusted"`},
		{"publisher words are the publisher's", map[string]string{"index.html": doc(`<p><bdi>Safe Saves</bdi></p><div data-pub><p>the official, recommended, safe build</p></div><code data-pub>1.0.0-safe</code><select><option value="Official" data-pub>Official</option></select>`)}, "", ""},
		{"bdi is the publisher's", map[string]string{"index.html": doc(`<p><bdi>Safe Saves</bdi></p>`)}, "", ""},
		{"code is not exempt by itself", map[string]string{"index.html": doc(`<p><code>safe-mode</code></p>`)}, "", `uses the word "safe"`},
		{"code is not exempt by itself", map[string]string{"index.html": doc(`<p><code>trusted</code></p>`)}, "", `uses the word "trusted"`},
		{"an unmarked select option is the index's", map[string]string{"index.html": doc(`<select><option value="Official">Official</option></select>`)}, "", `uses the word "official"`},
		{"title quoting a marked name", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>Official Saves · X</title><meta name="description" content="About Official Saves."></head><body><h1><bdi>Official Saves</bdi></h1></body></html>`}, "", ""},
		{"title in the index's words", map[string]string{"index.html": `<!DOCTYPE html><html lang="en"><head><title>Official Saves · X</title></head><body><h1><bdi>Saves</bdi></h1></body></html>`}, "", `uses the word "official"`},
		{"substrings are not the words", map[string]string{"index.html": doc(`<p>unsafe, safely, officially, trustedness</p>`)}, "", ""},
		{"base URL links are internal", map[string]string{"index.html": doc(`<a href="https://idx.example/x/nope/">x</a>`)}, "https://idx.example/x/", `does not resolve`},
		{"publisher links under the base URL are the publisher's", map[string]string{"index.html": doc(`<div data-pub><p><a href="https://idx.example/x/nope/#gone" rel="nofollow">x</a></p></div><a href="https://idx.example/x/search/?q=a" data-pub><bdi>u</bdi></a>`)}, "https://idx.example/x/", ""},
		{"a nofollow link under the base URL is the publisher's", map[string]string{"index.html": doc(`<a href="https://idx.example/x/nope/" rel="nofollow"><bdi>u</bdi></a><a class="download" href="https://idx.example/x/dl.zip" rel="external nofollow">Download</a>`)}, "https://idx.example/x/", ""},
		{"a nofollow link keeps the scheme check", map[string]string{"index.html": doc(`<a href="nope/" rel="nofollow">x</a>`)}, "", `publisher href "nope/" is not an absolute`},
		{"a link whose rel merely contains nofollow is the index's", map[string]string{"index.html": doc(`<a href="https://idx.example/x/nope/" rel="nofollowing">x</a>`)}, "https://idx.example/x/", `does not resolve`},
		{"publisher image src is ours", map[string]string{"index.html": doc(`<img alt="x" data-pub src="nope.png">`)}, "", `"nope.png" does not resolve`},
		{"publisher links keep the scheme check", map[string]string{"index.html": doc(`<div data-pub><a href="javascript:alert(1)">x</a></div>`)}, "https://idx.example/x/", `publisher href "javascript:alert(1)" is not an absolute http`},
		{"publisher relative link", map[string]string{"index.html": doc(`<div data-pub><a href="nope/">x</a></div>`)}, "", `publisher href "nope/" is not an absolute`},
		{"own links next to publisher markup are still checked", map[string]string{"index.html": doc(`<div data-pub><p>x</p></div><a href="https://idx.example/x/nope/">x</a>`)}, "https://idx.example/x/", `does not resolve`},
		{"base URL links that resolve", map[string]string{"index.html": doc(`<a href="https://idx.example/x/a/">x</a>`), "a/index.html": doc("")}, "https://idx.example/x/", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			probs, err := Check(writeSite(t, tc.files), tc.base)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				for _, p := range probs {
					t.Errorf("unexpected problem: %s", p)
				}
				return
			}
			if len(probs) != 1 || !strings.Contains(probs[0].Message, tc.want) {
				t.Errorf("problems = %v, want exactly one containing %q", probs, tc.want)
			}
			if len(probs) == 1 && probs[0].Page != "index.html" {
				t.Errorf("problem names page %q, want index.html", probs[0].Page)
			}
		})
	}
}

func TestCheckEmptyAndMissing(t *testing.T) {
	probs, err := Check(t.TempDir(), "")
	if err != nil || len(probs) != 1 || !strings.Contains(probs[0].Message, "no HTML pages") {
		t.Errorf("empty dir: %v %v", probs, err)
	}
	if _, err := Check(filepath.Join(t.TempDir(), "nope"), ""); err == nil {
		t.Error("a missing directory is not an error")
	}
}

// TestWithoutPublisherTakesOutCutQuotations: before a "…", only what begins a publisher text
// is taken out; the index's own words around it stay to be checked.
func TestWithoutPublisherTakesOutCutQuotations(t *testing.T) {
	pub := []string{"Trusted Safe Verified Mod", "Other"}
	for _, c := range []struct{ in, want string }{
		{"Trusted Safe Veri… · AsHyAmS", "  · AsHyAmS"},
		{"The safe pick: Trusted Sa…", "The safe pick:  "},
		{"A safe… choice", "A safe  choice"},
		{"Other and Trusted Safe Verified Mod", "  and  "},
	} {
		if got := withoutPublisher(c.in, pub); got != c.want {
			t.Errorf("withoutPublisher(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
