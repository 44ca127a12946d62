package site

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// TestLookAlikeHostsShownInPunycode: a publisher's links to "nеxusmods.com" (a Cyrillic е)
// never read as Nexus. The link texts show the host in punycode, each link whose host is not
// plain ASCII is followed by a note giving that form and why, and no Cyrillic letter is shown.
func TestLookAlikeHostsShownInPunycode(t *testing.T) {
	const spoof, ascii = "n\u0435xusmods.com", "xn--nxusmods-c8g.com"
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://lanterns.example/dreamweave.json", "Lanterns")
	id := uuid(7)
	m := sampleManifest(id, "Spoofed Links", 1)
	m.Project.Links.Page = "https://" + spoof + "/morrowind/mods/1"
	m.Releases[0].Source.Repository = "https://git." + spoof + "/src"
	m.Releases[0].Artifacts[0].Sources = []protocol.ArtifactSource{
		{URL: "https://" + spoof + "/dl/1.zip", Kind: "publisher"},
		{URL: "https://mirror.example/dl/1.zip", Kind: "mirror", Name: "Plain mirror"},
	}
	f.Claim(site, m)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, out, paths.Claim(id, site))

	var texts []string
	for _, a := range htmlcheck.All(t, doc, "main a[href]") {
		if wording.IDNHost(htmlcheck.Attr(a, "href")) != "" { // html/template writes the host %-escaped
			texts = append(texts, htmlcheck.Text(a))
		}
	}
	if !slices.Contains(texts, ascii+"/morrowind/mods/1") || !slices.Contains(texts, "git."+ascii+"/src") {
		t.Errorf("links to the look-alike host read %q; want the page and repository shown in punycode", texts)
	}
	notes := htmlcheck.Texts(t, doc, "main .note.idn code")
	// The project page link, the repository, and the publisher's download (shown in the
	// header and in the release); the plain mirror gets none.
	if len(notes) < 3 || len(notes) != len(texts) {
		t.Errorf("punycode notes %q for %d links to the look-alike host; want one per link", notes, len(texts))
	}
	for _, n := range notes {
		if n != ascii && n != "git."+ascii {
			t.Errorf("a note gives %q, want %q", n, ascii)
		}
	}
	if strings.ContainsRune(visibleText(doc), '\u0435') {
		t.Errorf("the page shows the Cyrillic е of the look-alike host")
	}
}
