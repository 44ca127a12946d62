package site

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// corpusRoot is ../shared/corpus from the repository root (site/ is one level down).
func corpusRoot(tb testing.TB) string {
	tb.Helper()
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(root, "state", "network.json")); err != nil {
		tb.Skipf("../shared/corpus is absent (%v): the corpus build test needs the real state tree", err)
	}
	return root
}

// TestBuildCorpus builds the site from the real state in ../shared/corpus/state and checks
// the list: every claim and origin has its page, catalog.json and events.json match
// our schema and the published one, check-site passes, and two builds are byte-identical.
func TestBuildCorpus(t *testing.T) {
	root := corpusRoot(t)
	state := filepath.Join(root, "state")
	out1 := filepath.Join(t.TempDir(), "public")
	res, err := Build(Options{State: state, Curation: filepath.Join(root, "network", "curation.toml"), Out: out1})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Claims) != 45 || len(snap.Origins) != 14 {
		t.Fatalf("corpus has %d claims and %d origins, want 45 and 14", len(snap.Claims), len(snap.Origins))
	}
	pages := map[string]bool{}
	for _, p := range res.Pages {
		pages[p] = true
	}
	for _, c := range snap.Claims {
		p := claimPath(c.Project, c.Origin)
		if !pages[p] {
			t.Errorf("claim %s/%s has no page %s", c.Project, c.Origin, p)
		}
		page := string(readOut(t, out1, p))
		if !strings.Contains(page, c.Entry.Manifest) {
			t.Errorf("%s does not show the claim's manifest URL %s", p, c.Entry.Manifest)
		}
		if !strings.Contains(page, c.Ingested()) {
			t.Errorf("%s does not show the held digest", p)
		}
		if !pages[projectPath(c.Project)] {
			t.Errorf("project %s has no page", c.Project)
		}
	}
	for _, o := range snap.Origins {
		if !pages[originPath(o.ID)] {
			t.Errorf("origin %s has no page", o.ID)
		}
	}
	for _, e := range snap.Events {
		if !pages[eventPath(e.ID)] {
			t.Errorf("event %s has no page", e.ID)
		}
	}
	for _, p := range []string{"index.html", "projects/index.html", "origins/index.html", "releases/index.html",
		"updates/index.html", "conflicts/index.html", "capabilities/index.html", "dependencies/index.html",
		"gaps/index.html", "health/index.html", "about/index.html", "about/trust/index.html",
		"about/digests/index.html", "about/listing/index.html", "about/updates/index.html", "404.html"} {
		if !pages[p] {
			t.Errorf("no page %s", p)
		}
	}

	// The machine-readable files against our schema and the published one.
	published, err := os.ReadFile(filepath.Join(root, "schemas", "dreamweave-network-catalog-1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := format.CompileSchema(published)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{format.CatalogFile, format.EventsFile} {
		b := readOut(t, out1, name)
		if err := format.Validate(name, b); err != nil {
			t.Errorf("%s against our schema: %v", name, err)
		}
		if err := pub.Validate(name, b); err != nil {
			t.Errorf("%s against the published schema: %v", name, err)
		}
	}
	if err := validateSearch(readOut(t, out1, SearchFile)); err != nil {
		t.Errorf("search.json: %v", err)
	}
	for _, f := range []string{FeedFile, "sitemap.xml", "robots.txt", format.SchemaFile, GraphFile} {
		if _, err := os.Stat(filepath.Join(out1, f)); err != nil && f != GraphFile {
			t.Errorf("missing %s: %v", f, err)
		}
	}

	// check-site, with and without the base URL.
	for _, base := range []string{"", DefaultBaseURL} {
		probs, err := Check(out1, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			t.Errorf("check-site (base %q): %s", base, p)
		}
	}

	// A second build into another directory is byte-identical.
	out2 := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Curation: filepath.Join(root, "network", "curation.toml"), Out: out2}); err != nil {
		t.Fatal(err)
	}
	a, b := tree(t, out1), tree(t, out2)
	if len(a) != len(b) {
		t.Errorf("the builds hold %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds of the same state", name)
		}
	}
	// And rebuilding over the first output gives the same bytes again.
	if _, err := Build(Options{State: state, Curation: filepath.Join(root, "network", "curation.toml"), Out: out1}); err != nil {
		t.Fatal(err)
	}
	c := tree(t, out1)
	for name, data := range a {
		if !bytes.Equal(data, c[name]) {
			t.Errorf("%s differs after rebuilding in place", name)
		}
	}
}

// tree reads every file under root, by slash path.
func tree(tb testing.TB, root string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
