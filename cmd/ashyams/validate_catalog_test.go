package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol/validate"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// The publisher's site of these tests is the example network's lanterns.example, copied to a
// directory of the test: its index, Wickwork, Emberglow (whose release 0 is a development
// release) and Kwama Lanterns.
const (
	emberglowID   = "6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c"
	emberglowFile = "projects/" + emberglowID + ".json"
	nobodysID     = "0bad0bad-0bad-4bad-8bad-0bad0bad0bad" // an id nobody publishes
)

// lanterns copies lanterns.example into a directory of the test, makes it the working
// directory, and returns the files as validate is given them: the index first.
func lanterns(t *testing.T) []string {
	t.Helper()
	src := filepath.Join("..", "..", "crawl", "example", "www", "lanterns.example")
	dir := t.TempDir()
	files := []string{"dreamweave.json", "projects/2b8e4d6f-1a3c-4e5b-8d7f-9a0b1c2d3e4f.json", emberglowFile, "projects/7c9d1e3f-5a7b-4c9d-8e1f-3a5b7c9d1e2f.json"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return files
}

// editEmberglow rewrites Emberglow's manifest through f, leaving the index's digest as it was.
func editEmberglow(t *testing.T, f func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	b, _ := os.ReadFile(emberglowFile)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(emberglowFile, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// devRequiresNobody adds to Emberglow's development release a requires on an id nobody
// publishes.
func devRequiresNobody(m map[string]any) {
	rel := m["releases"].([]any)[0].(map[string]any)
	rel["relationships"] = append(rel["relationships"].([]any), map[string]any{"kind": "requires", "project": nobodysID, "name": "Nobody's Library"})
}

// otherCatalog is the catalog.json of an index that reads another site, /other/ on a loopback
// server, publishing a copy of Emberglow under its id (written by catalog/format from a real
// refresh).
func otherCatalog(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "crawl", "example", "www", "lanterns.example", filepath.FromSlash(emberglowFile)))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	n := refreshtest.New(t)
	s := n.Site("/other/")
	s.Publish(m)
	n.Refresh(s.URL(""))
	model, err := network.Load(store.Open(n.State), nil)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := format.Catalog(model, format.Options{Index: format.Index{Name: "Other index", URL: "https://other.example/", Repository: "https://other.example/repo"}})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// serveFiles serves path -> body on loopback; anything else is a 404.
func serveFiles(t *testing.T, files map[string][]byte) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := files[r.URL.Path]; ok {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestValidateSchemaAndDigestInOneRun: a manifest with a schema error whose site index still
// advertises its old digest gets both findings in one run, each with its line and column,
// and the date form named.
func TestValidateSchemaAndDigestInOneRun(t *testing.T) {
	files := lanterns(t)
	editEmberglow(t, func(m map[string]any) {
		m["releases"].([]any)[0].(map[string]any)["date"] = "30/09/2026"
	})
	b, _ := os.ReadFile(emberglowFile)
	rc, out, _ := runValidateCmd(t, files...)
	if rc != 1 {
		t.Fatalf("exit %d\n%s", rc, out)
	}
	for _, want := range []string{
		emberglowFile + ":" + posOf(t, b, `"date": "30/09/2026"`) + `: /releases/0/date [format] field "date" (/releases/0/date): "30/09/2026" is not in the form this field takes: a date is written YYYY-MM-DD, such as 2026-09-30`,
		emberglowFile + ":1:1: (document) [manifest-sha256] the manifest's bytes hash to ",
		emberglowFile + ": invalid project manifest (2 findings)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestValidateCatalogUnlistedRequires: a requires in a development release on an id the
// catalog does not list is found with --catalog, from a file and from a loopback URL; the
// manifest stays valid (the crawler accepts it) and the run exits 1.
func TestValidateCatalogUnlistedRequires(t *testing.T) {
	cat := otherCatalog(t)
	files := lanterns(t)
	editEmberglow(t, devRequiresNobody)
	if err := os.WriteFile("catalog.json", cat, 0o644); err != nil {
		t.Fatal(err)
	}
	base := serveFiles(t, map[string][]byte{"/network-data/catalog.json": cat})
	for _, c := range [][]string{{"--catalog", "catalog.json"}, {"--allow-loopback", "--catalog", base + "/network-data/catalog.json"}} {
		rc, out, _ := runValidateCmd(t, append(c, emberglowFile)...)
		t.Logf("validate %q: exit %d\n%s", c, rc, out)
		want := emberglowFile + ":" + posOf(t, []byte(readFile(t, emberglowFile)), `"project": "`+nobodysID) + ": /releases/0/relationships/2/project [unlisted-target] release \"2.2.0-dev.5\" requires project \"" + nobodysID + "\" (\"Nobody's Library\"), which no site in the catalog " + c[len(c)-1] + " publishes"
		if rc != 1 || !strings.Contains(out, want) || !strings.Contains(out, emberglowFile+": valid project manifest (6 findings against the catalog)") {
			t.Errorf("want %q", want)
		}
		// Given alone, Emberglow's requires on Wickwork, in each of its 5 releases, are found
		// too: nothing says Wickwork is published beside it.
		if n := strings.Count(out, "[unlisted-target]"); n != 6 {
			t.Errorf("%d unlisted targets, want 6", n)
		}
	}
	// Given with its site index, Wickwork (listed beside it) is known: one finding.
	rc, out, _ := runValidateCmd(t, append([]string{"--catalog", "catalog.json"}, files...)...)
	if rc != 1 || strings.Count(out, "[unlisted-target]") != 1 {
		t.Errorf("exit %d\n%s", rc, out)
	}
}

// TestValidateCatalogIdentityConflict: Emberglow's id, published by another site of the
// catalog, is an identity conflict about to be created, on the manifest's project.id and on
// the index entry; a manifest given alone, whose site is not known, says the check could not
// run.
func TestValidateCatalogIdentityConflict(t *testing.T) {
	cat := otherCatalog(t)
	files := lanterns(t)
	if err := os.WriteFile("catalog.json", cat, 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, _ := runValidateCmd(t, append([]string{"--catalog", "catalog.json"}, files...)...)
	t.Logf("exit %d\n%s", rc, out)
	for _, want := range []string{
		emberglowFile + ":" + posOf(t, []byte(readFile(t, emberglowFile)), `"id"`) + `: /project/id [identity-conflict] project id "` + emberglowID + `" is already published by the site "Fixture site" (`,
		"dreamweave.json:" + posOf(t, []byte(readFile(t, "dreamweave.json")), `"id": "`+emberglowID) + ": /projects/1/id [identity-conflict]",
		"published here too, it makes an identity conflict",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if rc != 1 || strings.Count(out, "[identity-conflict]") != 2 {
		t.Errorf("exit %d, %d conflicts", rc, strings.Count(out, "[identity-conflict]"))
	}
	_, out, _ = runValidateCmd(t, "--catalog", "catalog.json", emberglowFile)
	if want := emberglowFile + ": not-checked: conflicts: which site publishes it is not known"; !strings.Contains(out, want) || strings.Contains(out, "[identity-conflict]") {
		t.Errorf("a manifest alone: want %q in\n%s", want, out)
	}
}

// TestValidateBadCatalog: a catalog that cannot be read, or is not the catalog format, is an
// error naming the file or URL, and every other finding is still reported.
func TestValidateBadCatalog(t *testing.T) {
	lanterns(t)
	editEmberglow(t, func(m map[string]any) { m["project"].(map[string]any)["homepage"] = "https://example.org/" })
	os.WriteFile("not-json.json", []byte("<html>"), 0o644)
	os.WriteFile("events.json", []byte(`{"format":"dreamweave-network-events","format_version":1}`), 0o644)
	base := serveFiles(t, map[string][]byte{"/index.html": []byte("<html>")})
	for _, c := range []struct{ catalog, want string }{
		{"missing.json", "missing.json: unreadable: stat missing.json: no such file or directory"},
		{"not-json.json", "not-json.json: not a network catalog: not-json.json: "},
		{"events.json", "events.json: not a network catalog: events.json: "},
		{base + "/network-data/catalog.json", base + "/network-data/catalog.json: unreachable: GET " + base + "/network-data/catalog.json: HTTP 404"},
		{base + "/index.html", base + "/index.html: not a network catalog: " + base + "/index.html: "},
	} {
		rc, out, _ := runValidateCmd(t, "--allow-loopback", "--catalog", c.catalog, emberglowFile)
		if rc != 1 || !strings.HasPrefix(out, c.want) {
			t.Errorf("--catalog %s: exit %d\n%s\nwant the first line to start %q", c.catalog, rc, out, c.want)
		}
		for _, w := range []string{"/project/homepage [additionalProperties]", ": not-checked: targets, conflicts: the catalog " + c.catalog + " could not be read"} {
			if !strings.Contains(out, w) {
				t.Errorf("--catalog %s: missing %q in\n%s", c.catalog, w, out)
			}
		}
	}
	// A URL goes through the address guard: loopback only with --allow-loopback.
	rc, out, _ := runValidateCmd(t, "--catalog", base+"/index.html", emberglowFile)
	if want := base + "/index.html: refused: "; rc != 1 || !strings.HasPrefix(out, want) || !strings.Contains(out, "/project/homepage [additionalProperties]") {
		t.Errorf("a loopback catalog without --allow-loopback: exit %d\n%s\nwant the first line to start %q", rc, out, want)
	}
}

// TestValidateJSONCarriesTheText: the text output is made, line for line, of what --json
// says (each finding's place, pointer, rule and message; each stage not checked and why; the
// summary and the note), and each finding's words with its quotations in their slots are its
// message, the digest finding's whole sentence included.
func TestValidateJSONCarriesTheText(t *testing.T) {
	cat := otherCatalog(t)
	files := lanterns(t)
	os.WriteFile("catalog.json", cat, 0o644)
	editEmberglow(t, func(m map[string]any) {
		devRequiresNobody(m)
		m["releases"].([]any)[0].(map[string]any)["date"] = "30/09/2026"
		m["project"].(map[string]any)["id"] = nobodysID[:35] + "e"
	})
	os.Mkdir("old", 0o755)
	os.WriteFile("old/stray.json", []byte(readFile(t, files[1])), 0o644)
	args := append([]string{"--catalog", "catalog.json", "missing.json", "old/stray.json"}, files...)
	_, text, _ := runValidateCmd(t, args...)
	_, js, _ := runValidateCmd(t, append([]string{"--json"}, args...)...)
	var rep validate.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "[manifest-sha256]") || !strings.Contains(text, "[unlisted-target]") || !strings.Contains(text, "[format]") || !strings.Contains(text, "not-checked") {
		t.Fatalf("the run does not have the findings it is meant to compare:\n%s", text)
	}
	if got := rebuild(rep); got != text {
		t.Errorf("the text is not what --json says.\ntext:\n%s\nfrom --json:\n%s", text, got)
	}
	for _, r := range rep.Documents {
		for _, f := range r.Findings {
			var filled strings.Builder
			protocol.ForSlots(f.Words, func(text string, n int) {
				filled.WriteString(text)
				if n > 0 {
					filled.WriteString(f.Quotes[n-1])
				}
			})
			if filled.String() != f.Message {
				t.Errorf("words with their quotations\n%s\nare not the message\n%s", filled.String(), f.Message)
			}
		}
	}
}

// rebuild is the text output made from a report decoded from --json: per document each
// finding's "SOURCE[:LINE:COLUMN]: POINTER [RULE] MESSAGE" (the whole document's pointer as
// "(document)"), then for a document that was read each run of stages not checked for one
// reason as "SOURCE: not-checked: STAGE, STAGE: WHY", then "SOURCE: SUMMARY" and the note.
func rebuild(rep validate.Report) string {
	var b strings.Builder
	docs := rep.Documents
	if rep.Catalog != nil {
		docs = append([]validate.Result{*rep.Catalog}, docs...)
	}
	for _, r := range docs {
		src := protocol.Printable(r.Source)
		for _, f := range r.Findings {
			where, ptr := f.Source, f.Pointer
			if f.Line > 0 {
				where += fmt.Sprintf(":%d:%d", f.Line, f.Column)
			}
			if ptr == "" {
				ptr = "(document)"
			}
			fmt.Fprintf(&b, "%s: %s [%s] %s\n", protocol.Printable(where), protocol.Printable(ptr), f.Rule, f.Message)
		}
		for i := 0; i < len(r.Stages) && r.Error == ""; i++ {
			st := r.Stages[i]
			if st.Status != validate.NotChecked || i > 0 && r.Stages[i-1].Why == st.Why {
				continue
			}
			names := []string{st.Name}
			for j := i + 1; j < len(r.Stages) && r.Stages[j].Why == st.Why; j++ {
				names = append(names, r.Stages[j].Name)
			}
			fmt.Fprintf(&b, "%s: not-checked: %s: %s\n", src, strings.Join(names, ", "), st.Why)
		}
		fmt.Fprintf(&b, "%s: %s\n", src, r.Summary)
		if r.Note != "" {
			fmt.Fprintf(&b, "%s: %s\n", src, r.Note)
		}
	}
	return b.String()
}

// TestPublishersCIStep: the GitHub Actions step of docs/publishers.md pins every action by a
// full commit SHA, installs this module's command, and its validate line, run on a site built
// in the Mod Template's layout (public/dreamweave.json, public/dreamweave/projects/*.json),
// passes the example site as deployed and fails it with a manifest changed after its index.
func TestPublishersCIStep(t *testing.T) {
	doc := readFile(t, "../../docs/publishers.md")
	_, block, ok := strings.Cut(doc, "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok || block == "" {
		t.Fatal("docs/publishers.md has no yaml block")
	}
	pinned := regexp.MustCompile(`^\s*(?:-\s+)?uses:\s+[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(?:\.\d+){0,2}$`)
	var validateLine string
	for _, line := range strings.Split(block, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.Contains(line, "uses:") && !pinned.MatchString(line):
			t.Errorf("%q is not pinned to a full commit SHA with a # vX comment", strings.TrimSpace(line))
		case strings.HasPrefix(l, "ashyams validate "):
			validateLine = l
		}
	}
	if !strings.Contains(block, `go install "github.com/DreamWeave-MP/ashyams-go/cmd/ashyams@$ASHYAMS_REF"`) || validateLine == "" {
		t.Fatalf("the step does not install ashyams and run validate:\n%s", block)
	}
	files := lanterns(t)
	os.MkdirAll("public/dreamweave/projects", 0o755)
	for _, f := range files[1:] {
		os.Rename(f, "public/dreamweave/"+f)
	}
	index := strings.ReplaceAll(readFile(t, files[0]), "http://lanterns.example/projects/", "http://lanterns.example/dreamweave/projects/")
	os.WriteFile("public/dreamweave.json", []byte(index), 0o644)
	run := func() (int, string) {
		var args []string
		for _, a := range strings.Fields(strings.TrimPrefix(validateLine, "ashyams validate ")) {
			m, _ := filepath.Glob(a)
			args = append(args, m...)
		}
		if len(args) != 4 {
			t.Fatalf("%q names %q", validateLine, args)
		}
		rc, out, _ := runValidateCmd(t, args...)
		return rc, out
	}
	if rc, out := run(); rc != 0 {
		t.Fatalf("the site as deployed: exit %d\n%s", rc, out)
	}
	f, _ := os.OpenFile("public/dreamweave/"+emberglowFile, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n")
	f.Close()
	if rc, out := run(); rc != 1 || !strings.Contains(out, "[manifest-sha256]") {
		t.Errorf("a manifest changed after its index: exit %d\n%s", rc, out)
	}
}
