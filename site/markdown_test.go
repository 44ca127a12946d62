package site

import (
	"html/template"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/markdown"
)

// countingRender is Markdown that counts how often it ran for each text.
type countingRender struct {
	mu    sync.Mutex
	calls map[string]int
}

func newCountingRender() *countingRender { return &countingRender{calls: map[string]int{}} }

func (c *countingRender) render(s string) template.HTML {
	c.mu.Lock()
	c.calls[s]++
	c.mu.Unlock()
	return markdown.Markdown(s)
}

func (c *countingRender) count(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[s]
}

// TestClaimPageKeepsHTMLBlockProse (case 1): prose inside HTML blocks of release notes is
// shown on the claim page, tags stripped; an entry with nothing left is no empty bullet.
func TestClaimPageKeepsHTMLBlockProse(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	m := sampleManifest(uuid(1), "One", 1)
	m.Releases[0].Notes.Highlights = "<p align=\"center\">Big release: ferns sway.</p>\n\n<details><summary>Full list</summary>\nGrass is greener.\n</details>\n\nPlain paragraph stays."
	m.Releases[0].Notes.Added = []string{"<div>Mossy rocks near every shrine.</div>", "<script>alert(1)</script>"}
	m.Releases[0].Notes.Fixed = []string{"<style>x{}</style>"}
	f.Claim(site, m)
	_, out := build(t, state, Options{})
	p := string(readOut(t, out, "projects/"+uuid(1)+"/"+site+"/index.html"))
	doc := parsePage(t, out, "projects/"+uuid(1)+"/"+site+"/index.html")
	htmlcheck.Want(t, doc, ".pub-notes", "Big release: ferns sway.", "Grass is greener.", "Plain paragraph stays.")
	if !slices.Contains(htmlcheck.Texts(t, doc, "li[data-pub]"), "Mossy rocks near every shrine.") {
		t.Error("claim page lacks the item Mossy rocks near every shrine., its <div> dropped")
	}
	for _, item := range htmlcheck.Texts(t, doc, "li[data-pub]") {
		if item == "" {
			t.Error("claim page has an empty publisher item (what the script tag left)")
		}
	}
	// The notes head their lists ("Added"), but not a Fixed list that holds only a stripped <style>.
	htmlcheck.Want(t, doc, ".pub-notes strong", "Added")
	htmlcheck.Lacks(t, doc, ".pub-notes strong", "Fixed")
	if n := htmlcheck.Count(t, doc, "main [align]"); n != 0 {
		t.Errorf("claim page keeps %d align attributes", n)
	}
	for _, bad := range []string{"alert(1)", "raw HTML omitted"} { // nowhere in the bytes, not even a comment
		if strings.Contains(p, bad) {
			t.Errorf("claim page has %q", bad)
		}
	}
}

// TestBuildRendersSharedNotesOnce: release notes that several claims share are converted
// once per build, though every claim page shows them; a second build in the same process
// converts them again (no memo outlives its build) and writes the same pages.
func TestBuildRendersSharedNotesOnce(t *testing.T) {
	const claims = 4
	shared := &protocol.Notes{
		Summary:    "Shared *summary* with a [link](https://example.org/shared).",
		Highlights: "Shared highlights.",
		Added:      []string{"Shared added item.", "<script>alert(1)</script>"},
	}
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	for i := 0; i < claims; i++ {
		m := sampleManifest(uuid(i), "Project "+string(rune('A'+i)), 1)
		notes := *shared
		m.Releases[0].Notes = &notes
		f.Claim(site, m)
	}
	c := newCountingRender()
	var pages [2][]string
	for run := 0; run < 2; run++ {
		_, out := build(t, state, Options{markdown: c.render})
		for i := 0; i < claims; i++ {
			p := string(readOut(t, out, "projects/"+uuid(i)+"/"+site+"/index.html"))
			doc := parsePage(t, out, "projects/"+uuid(i)+"/"+site+"/index.html")
			htmlcheck.Want(t, doc, ".pub-notes em", "summary")
			htmlcheck.Want(t, doc, ".pub-notes", "Shared summary", "Shared highlights.", "Shared added item.")
			if strings.Contains(p, "alert(1)") {
				t.Errorf("build %d: claim page %d shows the script", run+1, i)
			}
			pages[run] = append(pages[run], p)
		}
		for _, s := range notesTexts(shared) {
			if s == "" {
				continue
			}
			if n := c.count(s); n != run+1 {
				t.Errorf("after build %d, %q was converted %d times, want %d (once per build)", run+1, s, n, run+1)
			}
		}
	}
	for i := range pages[0] {
		if pages[0][i] != pages[1][i] {
			t.Errorf("claim page %d differs between the two builds", i)
		}
	}
}

// notesTexts is every CommonMark string of n (nil: none).
func notesTexts(n *protocol.Notes) []string {
	if n == nil {
		return nil
	}
	out := []string{n.Summary, n.Highlights, n.Migration, n.Notes}
	for _, l := range [][]string{n.Added, n.Changed, n.Fixed, n.Breaking, n.KnownIssues} {
		out = append(out, l...)
	}
	return out
}
