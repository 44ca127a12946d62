package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol/validate"
)

func runValidateCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, append([]string{"validate"}, args...))
	return rc, out.String(), errb.String()
}

// validateDocs are the documents the validate tests give: generated ones, by name, then the
// corpus's at rels when ../shared is present, each written to (or found at) a file.
func validateDocs(t *testing.T, generated map[string][]byte, rels ...string) map[string][]string {
	t.Helper()
	docs := map[string][]string{}
	dir := t.TempDir()
	for name, b := range generated {
		p := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		docs["generated"] = append(docs["generated"], p)
	}
	sort.Strings(docs["generated"])
	for _, rel := range rels {
		if p, ok := corpustest.Optional(t, rel); ok {
			docs["corpus"] = append(docs["corpus"], p)
		}
	}
	return docs
}

// genSite is a generated site as published (corpustest.Site), at gen.example/<name>.
func genSite(t *testing.T, name string, projects ...corpustest.Doc) map[string][]byte {
	files := map[string][]byte{}
	corpustest.Site(t, files, "gen.example/"+name, name, projects...)
	return files
}

const validMinimal = `{"schema_version":"2","document":"project","project":{"id":"7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73","name":"N","type":"mod","status":"active","game":"morrowind","tags":[],"maintainers":[],"links":{"page":"https://a.example/","source":"https://a.example/s","issues":"https://a.example/i"},"integrations":{},"media":[],"credits":[]},"channels":{},"releases":[]}`

// alone is the line validate prints for a manifest given without its site index.
const alone = ": not-checked: digest, identity: no site index was given with this manifest: give its dreamweave.json beside it, as a file or URL\n"

// posOf is the line and column, "LINE:COLUMN", of the first byte of needle in b.
func posOf(t *testing.T, b []byte, needle string) string {
	t.Helper()
	i := bytes.Index(b, []byte(needle))
	if i < 0 {
		t.Fatalf("%q is not in the document", needle)
	}
	return fmt.Sprintf("%d:%d", bytes.Count(b[:i], []byte("\n"))+1, len([]rune(string(b[bytes.LastIndexByte(b[:i], '\n')+1:i])))+1)
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateRealDocuments: a site index of several projects and a decimal-versioned manifest
// with binary artifacts are valid, each given alone.
func TestValidateRealDocuments(t *testing.T) {
	fx := corpustest.Fixtures
	idx := genSite(t, "index", corpustest.Manifest(fx["candlelight.json"]), corpustest.Manifest(fx["lantern-forge.json"]), corpustest.Manifest(fx["tallow.json"]))
	decimal := corpustest.Manifest(corpustest.Project{ID: "55e873c9-0000-4000-8000-000000000002", Name: "Decimal", Type: "tool", Summary: "Versions as decimals.",
		Page: "https://gen.example/decimal/home/", Versions: []string{"0.4.61-dev.3", "0.4.6", "0.4.58"}, Platforms: []string{"windows/x86_64", "linux/x86_64"}})
	decimal.Project["versioning"] = "decimal"
	for _, r := range decimal.Releases {
		for _, a := range r.(map[string]any)["artifacts"].([]any) {
			a.(map[string]any)["format"] = "binary"
		}
	}
	man := genSite(t, "decimal", decimal)
	gen := map[string][]byte{"index.json": idx["gen.example/index/dreamweave.json"], "decimal.json": man["gen.example/decimal/dreamweave/projects/55e873c9-0000-4000-8000-000000000002.json"]}
	for name, docs := range validateDocs(t, gen, "www/dreamweave-mp.github.io/Morrobroom/dreamweave.json",
		"www/dreamweave-mp.github.io/S3LightFixes/dreamweave/projects/55e873c9-1ddc-4b13-b59a-0eb790bb2565.json") {
		t.Run(name, func(t *testing.T) {
			if len(docs) != 2 {
				t.Fatalf("documents %v, want an index and a manifest", docs)
			}
			// each alone: given together, a manifest of another site is one the index does not list
			for _, doc := range docs {
				want := doc + alone + doc + ": valid project manifest\n"
				if strings.HasSuffix(doc, "dreamweave.json") || strings.HasSuffix(doc, "index.json") {
					want = doc + ": valid site index\n"
				}
				rc, out, errs := runValidateCmd(t, doc)
				if rc != 0 {
					t.Fatalf("exit %d\n%s%s", rc, out, errs)
				}
				if out != want {
					t.Errorf("output\n%s\nwant\n%s", out, want)
				}
			}
		})
	}
}

func TestValidateInvalidPrintsPointerRuleAndVerdict(t *testing.T) {
	doc := strings.Replace(validMinimal, `"type":"mod"`, `"type":"modlist","extra":1`, 1)
	bad := writeTemp(t, "bad.json", doc)
	good := writeTemp(t, "good.json", validMinimal)
	rc, out, _ := runValidateCmd(t, bad, good)
	if rc != 1 {
		t.Fatalf("exit %d, want 1\n%s", rc, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		bad + ":" + posOf(t, []byte(doc), `"extra"`) + `: /project/extra [additionalProperties] unknown field "extra" is not allowed here`,
		bad + ":" + posOf(t, []byte(doc), `"type"`) + `: /project/type [enum] field "type" (/project/type): value must be one of`,
		bad + alone[:len(alone)-1],
		bad + ": invalid project manifest (2 findings)",
		good + alone[:len(alone)-1],
		good + ": valid project manifest",
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
}

// TestValidateRuleFindings: a schema-valid manifest breaking a protocol rule is invalid with the
// rule named, and no "rules pending" note.
func TestValidateRuleFindings(t *testing.T) {
	site := genSite(t, "template", corpustest.Manifest(corpustest.Fixtures["candlelight.json"]))
	gen := map[string][]byte{"candlelight.json": site["gen.example/template/dreamweave/projects/"+corpustest.CandlelightID+".json"]}
	for name, docs := range validateDocs(t, gen, "www/dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave/projects/"+corpustest.CandlelightID+".json") {
		t.Run(name, func(t *testing.T) { validateRuleFindings(t, docs[0]) })
	}
}

// validateRuleFindings is TestValidateRuleFindings on the Candlelight manifest at p.
func validateRuleFindings(t *testing.T, p string) {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(b, []byte(`"stable": {
      "version": "1.1.0"`), []byte(`"stable": {
      "version": "1.0.0"`), 1)
	if bytes.Equal(edited, b) {
		t.Fatal("the stable channel head was not found in the manifest")
	}
	bad := writeTemp(t, "heads.json", string(edited))
	rc, out, _ := runValidateCmd(t, bad)
	at := posOf(t, edited, `"stable": {`)
	line := 0
	fmt.Sscanf(at, "%d", &line)
	want := bad + fmt.Sprintf(":%d:7", line+1) + `: /channels/stable/version [channel-heads] channels.stable.version is "1.0.0" but the channel's head (its highest-precedence available release) is "1.1.0"
` + bad + alone + bad + ": invalid project manifest (1 finding)\n"
	if rc != 1 || out != want {
		t.Errorf("exit %d\n%s\nwant\n%s", rc, out, want)
	}
}

func TestValidateJSON(t *testing.T) {
	bad := writeTemp(t, "bad.json", `{"schema_version":"2","document":"index",`+"\n"+`"site":}`)
	good := writeTemp(t, "good.json", validMinimal)
	rc, out, _ := runValidateCmd(t, good, "--json", bad) // flags may follow documents
	if rc != 1 {
		t.Fatalf("exit %d, want 1", rc)
	}
	var got struct {
		Documents []struct {
			Source, Kind, Verdict string
			Valid                 bool
			Findings              []protocol.Finding
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got.Documents) != 2 {
		t.Fatalf("documents: %+v", got.Documents)
	}
	g, b := got.Documents[0], got.Documents[1]
	if g.Source != good || !g.Valid || g.Verdict != "valid" || g.Kind != "project" || len(g.Findings) != 0 {
		t.Errorf("good: %+v", g)
	}
	if b.Source != bad || b.Valid || b.Verdict != "invalid" || len(b.Findings) != 1 || b.Findings[0].Rule != protocol.RuleSyntax ||
		!strings.Contains(b.Findings[0].Message, "line 2, column 8") {
		t.Errorf("bad: %+v", b)
	}
	if !strings.Contains(out, `"findings": []`) {
		t.Errorf("a valid document's findings should be an empty list, not null:\n%s", out)
	}
}

func TestValidateVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"newer protocol", `{"schema_version":"3","document":"project"}`, `:1:2: /schema_version [newer-protocol] schema_version "3": the document speaks a newer protocol`},
		{"not DreamWeave", `{"name":"package.json"}`, ": not a DreamWeave document"},
		{"duplicate key", `{"schema_version":"2","schema_version":"2"}`, `:1:2: /schema_version [duplicate-key] duplicate key "schema_version"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeTemp(t, "doc.json", tc.content)
			rc, out, _ := runValidateCmd(t, p)
			if rc != 1 || !strings.Contains(out, p+tc.want) {
				t.Errorf("exit %d, output:\n%s\nwant %q", rc, out, tc.want)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "nope.json")
	rc, out, _ := runValidateCmd(t, missing)
	if rc != 1 || !strings.Contains(out, missing+": unreadable: stat "+missing+": no such file or directory") {
		t.Errorf("missing file: exit %d\n%s", rc, out)
	}
}

// paddedManifest is validMinimal followed by spaces up to n bytes: a valid manifest of size n.
func paddedManifest(n int) []byte {
	b := bytes.Repeat([]byte(" "), n)
	copy(b, validMinimal)
	return b
}

// TestValidateSizeLimit: the 16 MiB limit at its boundary, for files. Exactly 16 MiB is read (and
// valid); one byte more, or a 17 MB file, is refused by crawler policy in one sentence naming the
// limit once and the file's true size, never called invalid, exit 1.
func TestValidateSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, paddedManifest(n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exact := write("exact.json", protocol.MaxDocumentBytes)
	rc, out, _ := runValidateCmd(t, exact)
	if rc != 0 || out != exact+alone+exact+": valid project manifest\n" {
		t.Errorf("exactly 16 MiB: exit %d\n%s", rc, out)
	}
	for _, tc := range []struct {
		name string
		size int
	}{{"plus-one.json", protocol.MaxDocumentBytes + 1}, {"17mb.json", 17_000_000}} {
		p := write(tc.name, tc.size)
		rc, out, _ := runValidateCmd(t, p)
		want := fmt.Sprintf("%s: refused by crawler policy: more than the 16 MiB document limit (the file is %d bytes)\n", p, tc.size)
		if rc != 1 || out != want {
			t.Errorf("%d bytes: exit %d\n%s\nwant\n%s", tc.size, rc, out, want)
		}
		rc, out, _ = runValidateCmd(t, "--json", p)
		var got struct {
			Documents []validate.Result `json:"documents"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || rc != 1 || len(got.Documents) != 1 {
			t.Fatalf("--json, %d bytes: exit %d, %v\n%s", tc.size, rc, err, out)
		}
		d := got.Documents[0]
		if d.Verdict != "refused by crawler policy" || d.Valid || d.Error != fmt.Sprintf("more than the 16 MiB document limit (the file is %d bytes)", tc.size) {
			t.Errorf("--json, %d bytes: %+v", tc.size, d)
		}
	}
}

func TestValidateUsage(t *testing.T) {
	if rc, _, errs := runValidateCmd(t); rc != 2 || !strings.HasPrefix(errs, "ashyams validate: at least one file or URL is required\nusage: ashyams validate [flags] FILE-OR-URL...\n") {
		t.Errorf("no documents: exit %d, %s", rc, errs)
	}
	if rc, _, errs := runValidateCmd(t, "--no-such-flag", "x.json"); rc != 2 || !strings.HasPrefix(errs, "ashyams validate: flag provided but not defined: -no-such-flag\n") {
		t.Errorf("unknown flag: exit %d, %s", rc, errs)
	}
	if rc, out, _ := runValidateCmd(t, "-h"); rc != 0 || !strings.Contains(out, "usage: ashyams validate") {
		t.Errorf("-h: exit %d, %s", rc, out)
	}
}

// TestValidateURL fetches through the guarded client from a loopback server: refused without
// --allow-loopback (SSRF guard), read with it; a 404 is unreachable.
func TestValidateURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/huge.json":
			w.Write(paddedManifest(protocol.MaxDocumentBytes + 1))
			return
		case "/exact.json":
			w.Write(paddedManifest(protocol.MaxDocumentBytes))
			return
		case "/announced.json":
			w.Header().Set("Content-Length", fmt.Sprint(protocol.MaxDocumentBytes+1))
			w.Write(paddedManifest(protocol.MaxDocumentBytes + 1))
			return
		}
		if r.URL.Path != "/dreamweave/projects/x.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(validMinimal))
	}))
	defer srv.Close()
	u := srv.URL + "/dreamweave/projects/x.json"
	rc, out, _ := runValidateCmd(t, "--allow-loopback", u)
	if rc != 0 || out != u+alone+u+": valid project manifest\n" {
		t.Errorf("with --allow-loopback: exit %d\n%s", rc, out)
	}
	rc, out, _ = runValidateCmd(t, u)
	if rc != 1 || !strings.Contains(out, u+": refused: ") || !strings.Contains(out, "refused by the address guard") {
		t.Errorf("without --allow-loopback: exit %d\n%s", rc, out)
	}
	rc, out, _ = runValidateCmd(t, "--allow-loopback", srv.URL+"/missing.json")
	if rc != 1 || !strings.Contains(out, "unreachable: GET "+srv.URL+"/missing.json: HTTP 404") {
		t.Errorf("404: exit %d\n%s", rc, out)
	}
	rc, out, _ = runValidateCmd(t, "--allow-loopback", srv.URL+"/huge.json")
	if want := srv.URL + "/huge.json: refused by crawler policy: more than the 16 MiB document limit ("; rc != 1 || !strings.HasPrefix(out, want) ||
		strings.Count(out, "16 MiB") != 1 || strings.Contains(out, "invalid") {
		t.Errorf("16 MiB + 1 byte body: exit %d\n%s\nwant prefix %q", rc, out, want)
	}
	// How the body was found too large is the guard's one wording of it.
	if !strings.HasSuffix(out, "(reading stopped at the limit)\n") {
		t.Errorf("16 MiB + 1 byte body read to the limit: %s", out)
	}
	rc, out, _ = runValidateCmd(t, "--allow-loopback", srv.URL+"/announced.json")
	if want := fmt.Sprintf("%s/announced.json: refused by crawler policy: more than the 16 MiB document limit (Content-Length announced %d bytes; nothing read)\n", srv.URL, protocol.MaxDocumentBytes+1); rc != 1 || out != want {
		t.Errorf("announced 16 MiB + 1 byte: exit %d\n%s\nwant\n%s", rc, out, want)
	}
	rc, out, _ = runValidateCmd(t, "--allow-loopback", srv.URL+"/exact.json")
	if rc != 0 || out != srv.URL+"/exact.json"+alone+srv.URL+"/exact.json: valid project manifest\n" {
		t.Errorf("exactly 16 MiB body: exit %d\n%s", rc, out)
	}
	rc, out, _ = runValidateCmd(t, "file:///etc/passwd")
	if rc != 1 || !strings.Contains(out, "file:///etc/passwd: refused: ") {
		t.Errorf("file URL: exit %d\n%s", rc, out)
	}
}

// TestValidateOutputPrintable: a document whose keys and values carry newlines and terminal
// escapes prints one line per finding, each with the publisher text escaped (no raw control
// character reaches the terminal); an error text (here a file name with an escape) is escaped too.
func TestValidateOutputPrintable(t *testing.T) {
	doc := strings.Replace(validMinimal, `"type":"mod"`, `"type":"\u001b[2J\nmod","\u001b]0;owned\u0007":1`, 1)
	p := writeTemp(t, "hostile.json", doc)
	missing := filepath.Join(t.TempDir(), "no\x1b[31mfile")
	rc, out, _ := runValidateCmd(t, p, missing)
	if rc != 1 {
		t.Fatalf("exit %d\n%s", rc, out)
	}
	for _, r := range out {
		if r != '\n' && r != ' ' && !strconv.IsPrint(r) {
			t.Errorf("raw %U in the output:\n%q", r, out)
		}
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		p + `:1:` + posOf(t, []byte(doc), `"\u001b]0`)[2:] + `: /project/\x1b]0;owned\a [additionalProperties] unknown field "\x1b]0;owned\a" is not allowed here`,
		p + `:1:` + posOf(t, []byte(doc), `"type"`)[2:] + `: /project/type [enum] field "type" (/project/type): value must be one of`,
		p + alone[:len(alone)-1],
		p + `: invalid project manifest (2 findings)`,
		strings.ReplaceAll(missing, "\x1b", `\x1b`) + `: unreadable: stat ` + strings.ReplaceAll(missing, "\x1b", `\x1b`) + `: no such file or directory`,
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q\nwant prefix %q", i, lines[i], w)
		}
	}
}

// TestValidateIndexWithManifests: the README's pre-deploy check, an index given
// with its manifests, checks each manifest against the index entry pointing at it, as the
// crawler does: bytes against manifest_sha256, project.id against the entry's id; a manifest no
// entry points at is a finding too. The unchanged set is valid; a manifest alone stays valid.
func TestValidateIndexWithManifests(t *testing.T) {
	src := filepath.Join("..", "..", "crawl", "example", "www", "lanterns.example")
	dir := t.TempDir()
	const edited, other = "6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c", "2b8e4d6f-1a3c-4e5b-8d7f-9a0b1c2d3e4f"
	files := []string{"dreamweave.json", "projects/" + other + ".json", "projects/" + edited + ".json", "projects/7c9d1e3f-5a7b-4c9d-8e1f-3a5b7c9d1e2f.json"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if rc, out, _ := runValidateCmd(t, files...); rc != 0 {
		t.Fatalf("the example site as published: exit %d\n%s", rc, out)
	}
	// the deploy mistake: a manifest edited after the index was written, its id changed
	p := "projects/" + edited + ".json"
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte(`"id": "`+edited+`"`), []byte(`"id": "`+other+`"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	nb, _ := os.ReadFile(p)
	if rc, out, _ := runValidateCmd(t, p); rc != 0 {
		t.Fatalf("a manifest alone is validated alone: exit %d\n%s", rc, out)
	}
	rc, out, _ := runValidateCmd(t, files...)
	if rc != 1 {
		t.Errorf("exit %d, want 1", rc)
	}
	for _, want := range []string{
		p + ":1:1: (document) [manifest-sha256] the manifest's bytes hash to ",
		"but dreamweave.json /projects/1 (http://lanterns.example/projects/" + edited + ".json) advertises manifest_sha256 ",
		p + ":" + posOf(t, nb, `"id": "`+other) + `: /project/id [id-match] project.id "` + other + `" differs from the id "` + edited + `" of the index entry`,
		p + ": invalid project manifest (2 findings)",
		"projects/" + other + ".json: valid project manifest",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// --json carries the same findings
	_, js, _ := runValidateCmd(t, append([]string{"--json"}, files...)...)
	var doc struct{ Documents []validate.Result }
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range doc.Documents[2].Findings {
		rules = append(rules, f.Rule)
	}
	if doc.Documents[2].Valid || fmt.Sprint(rules) != "[manifest-sha256 id-match]" {
		t.Errorf("--json: %+v", doc.Documents[2])
	}
	// a manifest the index does not list
	if err := os.MkdirAll("old", 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile("projects/" + other + ".json")
	if err := os.WriteFile("old/stray.json", b, 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, _ = runValidateCmd(t, "dreamweave.json", "old/stray.json")
	if rc != 1 || !strings.Contains(out, "old/stray.json:1:1: (document) [not-listed] no entry of the site index dreamweave.json points at this manifest") {
		t.Errorf("not listed: exit %d\n%s", rc, out)
	}
}

// TestValidateJSONEscapesC1: a C1 control (U+009B, an 8-bit CSI) or a bidi override in what
// validate --json prints (here the document's file name and a finding quoting its text) is
// written as a JSON escape, never raw, and the output decodes to the same text.
func TestValidateJSONEscapesC1(t *testing.T) {
	name := "m\u009b31m\u202e.json"
	p := writeTemp(t, name, strings.Replace(validMinimal, `"type":"mod"`, `"type":"mod","x\u009by":1`, 1))
	rc, out, _ := runValidateCmd(t, "--json", p)
	if rc != 1 {
		t.Fatalf("exit %d, want 1 (an unknown field)\n%s", rc, out)
	}
	for _, r := range out {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
			t.Fatalf("%U printed raw:\n%s", r, out)
		}
	}
	if !strings.Contains(out, `\u009b`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("no escapes in\n%s", out)
	}
	var got struct{ Documents []struct{ Source string } }
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Documents) != 1 || got.Documents[0].Source != p {
		t.Errorf("decodes to %+v (%v), want the source %q", got, err, p)
	}
}

// TestValidateRefusesHostileConfigValues: validate refuses a manifest holding every value of
// catalog/protocol/testdata/cfg-hostile.json, naming each value's pointer and the project.
func TestValidateRefusesHostileConfigValues(t *testing.T) {
	p := "../../catalog/protocol/testdata/cfg-hostile-manifest.json"
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	_, fs := protocol.Decode(b)
	if len(fs) < 200 {
		t.Fatalf("%d findings", len(fs))
	}
	rc, out, _ := runValidateCmd(t, p)
	if rc != 1 {
		t.Errorf("exit %d, want 1", rc)
	}
	for _, f := range fs {
		if !strings.Contains(out, " "+protocol.Printable(f.Pointer)+" ["+f.Rule+"]") {
			t.Errorf("no %s finding at %s in the output", f.Rule, f.Pointer)
		}
		if f.Rule == protocol.RuleConfigLine && !strings.Contains(f.Message, `project "6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c"`) {
			t.Errorf("the finding does not name the project: %s", f)
		}
	}
}
