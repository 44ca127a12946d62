package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol/validate"
)

// exampleSite serves the example network's lanterns.example on loopback, every URL in it
// pointing at the server and every digest the index advertises recomputed; broken, when set,
// then replaces a manifest's bytes after the digests were taken (a deploy that changed the
// manifest without rewriting the index), or with nil leaves it out. It returns the index URL.
func exampleSite(t *testing.T, broken func(path string, b []byte) []byte) string {
	return exampleSiteDigests(t, broken, false)
}

// exampleSiteDigests is exampleSite; with rehash, the digests are taken after broken ran (a
// deploy that is consistent, its manifest broken).
func exampleSiteDigests(t *testing.T, broken func(path string, b []byte) []byte, rehash bool) string {
	t.Helper()
	root := filepath.Join("..", "..", "crawl", "example", "www", "lanterns.example")
	files := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files["/"+filepath.ToSlash(rel)] = bytes.ReplaceAll(b, []byte("http://lanterns.example"), []byte(srv.URL))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ix map[string]any
	if err := json.Unmarshal(files["/dreamweave.json"], &ix); err != nil {
		t.Fatal(err)
	}
	for _, p := range ix["projects"].([]any) {
		e := p.(map[string]any)
		path := strings.TrimPrefix(e["manifest"].(string), srv.URL)
		sum := sha256.Sum256(files[path])
		if broken != nil {
			if files[path] = broken(path, files[path]); files[path] == nil {
				delete(files, path) // not deployed: a 404
			}
		}
		if rehash {
			sum = sha256.Sum256(files[path])
		}
		e["manifest_sha256"] = hex.EncodeToString(sum[:])
	}
	b, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	files["/dreamweave.json"] = b
	return srv.URL + "/dreamweave.json"
}

// noWaits replaces the crawler's waits before a digest re-read for one test.
func noWaits(t *testing.T) {
	validateSleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	t.Cleanup(func() { validateSleep = nil })
}

// TestValidateSiteURLReadsEveryManifest: `validate URL` of a site index reads every manifest
// the index lists, as the crawler does; the site as deployed passes, and with one manifest
// broken three ways (an unknown field, a version that is no DreamWeave version, bytes that no
// longer hash to the advertised digest) it exits 1, naming that manifest with all three
// findings in one run, none as a regular expression.
func TestValidateSiteURLReadsEveryManifest(t *testing.T) {
	noWaits(t)
	u := exampleSite(t, nil)
	rc, out, errOut := runValidateCmd(t, "--allow-loopback", u)
	if rc != 0 || strings.Count(out, ": valid project manifest\n") != 3 || !strings.Contains(out, u+": valid site index\n") {
		t.Fatalf("the example site as deployed: exit %d\n%s%s", rc, out, errOut)
	}
	const bad = "/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json"
	u = exampleSite(t, func(path string, b []byte) []byte {
		if path != bad {
			return b
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		m["project"].(map[string]any)["homepage"] = "https://example.org/"
		rels := m["releases"].([]any)
		rels[len(rels)-1].(map[string]any)["version"] = "v1.0"
		out, _ := json.MarshalIndent(m, "", "  ")
		return out
	})
	badURL := strings.TrimSuffix(u, "/dreamweave.json") + bad
	rc, out, errOut = runValidateCmd(t, "--allow-loopback", u)
	t.Logf("validate %s: exit %d\n%s", u, rc, out)
	if rc != 1 {
		t.Fatalf("one broken manifest: exit %d, want 1\n%s%s", rc, out, errOut)
	}
	var rules []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, badURL+":"); ok {
			if _, r, ok := strings.Cut(rest, " ["); ok {
				rules = append(rules, r[:strings.IndexByte(r, ']')])
			}
			for _, m := range []string{"(?:", "^", "[0-9", "pattern '"} {
				if strings.Contains(rest, m) {
					t.Errorf("a regular expression in %q", line)
				}
			}
		}
	}
	for _, want := range []string{"additionalProperties", "pattern", protocol.RuleManifestSHA256} {
		found := false
		for _, r := range rules {
			found = found || r == want
		}
		if !found {
			t.Errorf("no %s finding for %s in\n%s", want, badURL, out)
		}
	}
	if !strings.Contains(out, badURL+": invalid project manifest (") || strings.Count(out, ": valid project manifest\n") != 2 {
		t.Errorf("want the broken manifest named invalid and the other two valid:\n%s", out)
	}
	if !strings.Contains(out, "DreamWeave version") {
		t.Errorf("the version finding does not say which form a version takes:\n%s", out)
	}
	// --json: the same documents, the broken one invalid with the same rules
	_, js, _ := runValidateCmd(t, "--json", "--allow-loopback", u)
	var doc struct{ Documents []validate.Result }
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Documents) != 4 {
		t.Fatalf("--json: %d documents, want the index and its 3 manifests", len(doc.Documents))
	}
	for _, d := range doc.Documents {
		if (d.Source == badURL) == d.Valid {
			t.Errorf("--json: %s valid=%v", d.Source, d.Valid)
		}
	}
}

// TestValidateSiteURLIndexUnusable: when the site index itself cannot be used, its manifests
// are not read (the crawler reads none), and the output says so under the index's findings.
func TestValidateSiteURLIndexUnusable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"schema_version":"2","document":"index","site":{"name":"S","url":"https://s.example/"},"projects":[],"mirror":1}`))
	}))
	defer srv.Close()
	rc, out, _ := runValidateCmd(t, "--allow-loopback", srv.URL+"/dreamweave.json")
	if rc != 1 || !strings.Contains(out, "[additionalProperties]") || !strings.Contains(out, "its manifests were not read") {
		t.Errorf("exit %d\n%s", rc, out)
	}
}

// TestValidateSiteURLManifestMissing: a manifest the index lists that the site does not serve
// is named unreachable with the crawler's words, and the run exits 1.
func TestValidateSiteURLManifestMissing(t *testing.T) {
	const gone = "/projects/7c9d1e3f-5a7b-4c9d-8e1f-3a5b7c9d1e2f.json"
	u := exampleSite(t, func(path string, b []byte) []byte {
		if path == gone {
			return nil
		}
		return b
	})
	goneURL := strings.TrimSuffix(u, "/dreamweave.json") + gone
	rc, out, _ := runValidateCmd(t, "--allow-loopback", u)
	if rc != 1 || !strings.Contains(out, goneURL+": unreachable: ") || !strings.Contains(out, "404") ||
		strings.Count(out, ": valid project manifest\n") != 2 {
		t.Errorf("exit %d\n%s", rc, out)
	}
}

// TestInspectListsEveryFinding: inspect lists every finding of a claim's last read under the
// claim, not only the first three its recorded problem holds.
func TestInspectListsEveryFinding(t *testing.T) {
	const bad = "/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json"
	u := exampleSiteDigests(t, func(path string, b []byte) []byte {
		if path != bad {
			return b
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"homepage", "mirror", "origin", "vendor"} {
			m["project"].(map[string]any)[k] = "x"
		}
		rels := m["releases"].([]any)
		rels[len(rels)-1].(map[string]any)["version"] = "v1.0"
		out, _ := json.MarshalIndent(m, "", "  ")
		return out
	}, true)
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, []string{"inspect", "--allow-loopback", u})
	text := out.String()
	t.Logf("inspect: exit %d\n%s", rc, text)
	for _, want := range []string{"/project/homepage [additionalProperties]", "/project/mirror [additionalProperties]",
		"/project/origin [additionalProperties]", "/project/vendor [additionalProperties]", "/releases/4/version [pattern]"} {
		if !strings.Contains(text, "\n      "+want) {
			t.Errorf("inspect does not list %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "and 3 more") || !strings.Contains(text, "    every finding (6):") {
		t.Errorf("inspect lists no findings under the claim:\n%s", text)
	}
}
