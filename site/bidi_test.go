package site

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
)

// bidiControls matches an explicit bidi formatting character.
var bidiControls = regexp.MustCompile("[\u202a-\u202e\u2066-\u2069]")

// isolatedOK is s with every FSI .. PDI wrapper around control-free text taken out: what is
// left must have no bidi control at all.
func isolatedOK(s string) bool {
	s = regexp.MustCompile("\u2068[^\u202a-\u202e\u2066-\u2069]*\u2069").ReplaceAllString(s, "")
	return !bidiControls.MatchString(s)
}

// TestPlainTextContextsIsolatePublisherBidi (case 2): a site name with an unterminated U+202E
// and a project name in Hebrew reach <title>, meta descriptions, alt attributes, the Atom feed
// and the dependency drawing only without raw bidi controls, right-to-left text isolated.
func TestPlainTextContextsIsolatePublisherBidi(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	evil := f.Site("https://a.example/dreamweave.json", "l3i \u202egnp.exe")
	heb := f.Site("https://b.example/dreamweave.json", "\u05d0\u05ea\u05e8")
	m1 := sampleManifest(uuid(1), "One \u202eeno", 1)
	m1.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(2)}}
	m2 := sampleManifest(uuid(2), "\u05e9\u05dc\u05d5\u05dd", 1)
	d1 := f.Claim(evil, m1)
	d2 := f.Claim(heb, m2)
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: evil, Name: m1.Project.Name, ObservedAt: statetest.Time, After: &d1, Changes: []diff.Change{}})
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(2), Origin: heb, Name: m2.Project.Name, ObservedAt: statetest.Time, After: &d2, Changes: []diff.Change{}})
	_, out := build(t, state, Options{})

	plainRe := regexp.MustCompile(`(?s)<title>(.*?)</title>|<summary[^>]*>(.*?)</summary>|\b(?:alt|content)="([^"]*)"|<text[^>]*>(.*?)</text>`)
	checked := map[string]bool{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".xml") || strings.HasSuffix(p, ".svg")) {
			return err
		}
		b := readOut(t, out, filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator))))
		for _, m := range plainRe.FindAllStringSubmatch(string(b), -1) {
			text := m[1] + m[2] + m[3] + m[4]
			if strings.Contains(text, "gnp.exe") || strings.ContainsAny(text, "\u05e9\u05d0") {
				checked[filepath.Ext(p)] = true
			}
			if !isolatedOK(text) {
				t.Errorf("%s: plain-text context carries a raw bidi control: %q", p, text)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".html", ".xml", ".svg"} {
		if !checked[ext] {
			t.Errorf("no %s file quoted the publisher names in a plain-text context; the test checks nothing there", ext)
		}
	}
	title := htmlcheck.Text(htmlcheck.One(t, parsePage(t, out, "projects/"+uuid(2)+"/"+heb+"/index.html"), "head > title"))
	if want := pubtext.FSI + "\u05e9\u05dc\u05d5\u05dd" + pubtext.PDI + " from " + pubtext.FSI + "\u05d0\u05ea\u05e8" + pubtext.PDI + " · AsHyAmS"; title != want {
		t.Errorf("claim title = %q, want %q", title, want)
	}
}

// overrides are every explicit bidi character the site must not carry raw, and the isolates,
// unbalanced on purpose: a closing PDI first, an opening FSI never closed.
const overrides = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2069\u2068"

// TestNoBidiOverrideInAnyBuiltFile: with every explicit bidi character in project names,
// summaries, tags, maintainers, release notes and site names, no built file (pages, feed,
// drawing, sitemap, JSON) holds U+202A..U+202E, U+2066 or U+2067, and in every page, feed and
// drawing each stretch of text between markup has its FSI .. PDI isolates balanced.
func TestNoBidiOverrideInAnyBuiltFile(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	evil := f.Site("https://a.example/dreamweave.json", "Site \u202eetiS"+overrides)
	other := f.Site("https://b.example/dreamweave.json", overrides+"Other \u2067site")
	for i, site := range []string{evil, other, evil} {
		m := sampleManifest(uuid(i), fmt.Sprintf("Name %d \u202e%s", i, overrides), 3)
		m.Project.Summary = "Summary \u202dsummary" + overrides
		m.Project.Tags = []string{"tag\u202e" + overrides, "\u2066plain"}
		m.Project.Maintainers = []protocol.Person{{Name: "Maintainer\u202e" + overrides}}
		m.Releases[0].Notes = &protocol.Notes{Summary: "Notes *with* \u202emarkdown" + overrides, Added: []string{"item\u202e" + overrides}}
		if i > 0 {
			m.Releases[0].Relationships = []protocol.Relationship{{Kind: "requires", Project: uuid(i - 1)}, {Kind: "recommends", Capability: "cap\u202e:x"}}
		}
		d := f.Claim(site, m)
		f.Event(store.Event{Kind: store.EventObserved, Project: uuid(i), Origin: site, Name: m.Project.Name, ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	}
	_, out := build(t, state, Options{})
	raw := regexp.MustCompile("[\u202a-\u202e\u2066\u2067]")
	isolate := regexp.MustCompile("[\u2068\u2069]")
	stretch := regexp.MustCompile(`[^<>"']+`)
	files, sawName := 0, false
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b := readOut(t, out, filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator))))
		files++
		sawName = sawName || strings.Contains(string(b), "Name 1 ")
		if loc := raw.FindIndex(b); loc != nil {
			t.Errorf("%s holds %q at byte %d", p, b[loc[0]:loc[1]], loc[0])
		}
		switch filepath.Ext(p) {
		case ".html", ".xml", ".svg":
		default:
			return nil
		}
		for _, s := range stretch.FindAllString(string(b), -1) {
			open := 0
			for _, m := range isolate.FindAllString(s, -1) {
				if m == pubtext.FSI {
					open++
				} else if open--; open < 0 {
					t.Errorf("%s: a PDI closes nothing in %q", p, s)
					break
				}
			}
			if open > 0 {
				t.Errorf("%s: an FSI is left open in %q", p, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 || !sawName {
		t.Fatalf("%d files, a project name seen: %v; the test checks nothing", files, sawName)
	}
	// The pages' scripts draw the data parts' strings: each follows the same rule.
	strs := 0
	for _, dir := range []string{find.Dir, "plan/data", "setup/data"} {
		for name, b := range dataParts(t, out, dir) {
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatalf("%s/%s: %v", dir, name, err)
			}
			eachString(v, func(s string) {
				strs++
				if m := raw.FindString(s); m != "" {
					t.Errorf("%s/%s holds %q in %q", dir, name, m, s)
				}
				if open := strings.Count(s, pubtext.FSI) - strings.Count(s, pubtext.PDI); open != 0 || strings.Index(s, pubtext.PDI) < strings.Index(s, pubtext.FSI) {
					t.Errorf("%s/%s: unbalanced isolates in %q", dir, name, s)
				}
			})
		}
	}
	if strs < 100 {
		t.Fatalf("%d strings in the data parts; the test checks nothing", strs)
	}
}

// eachString calls f with every string in the decoded JSON value v, keys included.
func eachString(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, e := range v {
			eachString(e, f)
		}
	case map[string]any:
		for k, e := range v {
			f(k)
			eachString(e, f)
		}
	}
}

// TestNoControlCharacterInMarkup: C0 controls (bell, escape, NUL), DEL and C1 controls in
// publisher text reach no page, feed or drawing, and every feed stays well-formed XML.
func TestNoControlCharacterInMarkup(t *testing.T) {
	const controls = "\x00\x07\x1b[31m\x7f\u0085\u009b"
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "Site"+controls)
	m := sampleManifest(uuid(1), "Bell"+controls, 2)
	m.Project.Summary = "Summary" + controls
	m.Releases[0].Notes = &protocol.Notes{Summary: "Notes" + controls}
	d := f.Claim(site, m)
	f.Event(store.Event{Kind: store.EventObserved, Project: uuid(1), Origin: site, Name: m.Project.Name, ObservedAt: statetest.Time, After: &d, Changes: []diff.Change{}})
	_, out := build(t, state, Options{})
	bad := regexp.MustCompile(`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x{80}-\x{9f}]`)
	files, feeds := 0, 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".html", ".xml", ".svg":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		if loc := bad.FindIndex(b); loc != nil {
			t.Errorf("%s holds %q at byte %d", p, b[loc[0]:loc[1]], loc[0])
		}
		if strings.HasSuffix(p, "updates.xml") {
			feeds++
			dec := xml.NewDecoder(bytes.NewReader(b))
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Errorf("%s is not well-formed XML: %v", p, err)
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 || feeds < 2 {
		t.Fatalf("%d pages and %d feeds; the test checks nothing", files, feeds)
	}
	page := htmlcheck.Parse(t, readOut(t, out, paths.Claim(uuid(1), site)))
	if got := htmlcheck.Text(htmlcheck.One(t, page, "h1")); !strings.HasPrefix(got, "Bell") {
		t.Errorf("the claim page's heading %q lost the name's printable characters", got)
	}
	htmlcheck.Want(t, page, "h1", "[31m")
}
