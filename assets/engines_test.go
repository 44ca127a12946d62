package assets

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// nodeCase is one call run.js makes: the function's name and its arguments.
type nodeCase struct {
	Fn   string `json:"fn"`
	Args []any  `json:"args"`
}

// nodePath is node, or the test is skipped (CI installs it, so there it fails instead).
func nodePath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("node is not installed, and CI installs it: %v", err)
		}
		t.Skipf("node is not installed (%v): the script engines are tested in node", err)
	}
	return p
}

// runNode runs testdata/run.js on cases and returns one raw JSON result per case.
func runNode(t *testing.T, cases []nodeCase) []json.RawMessage {
	t.Helper()
	res, _ := runNodeTimed(t, cases, 5*time.Minute)
	return res
}

// runNodeTimed is runNode with the milliseconds each case took in node; node is stopped, and
// the test fails, when the whole run takes longer than limit.
func runNodeTimed(t *testing.T, cases []nodeCase, limit time.Duration) ([]json.RawMessage, []float64) {
	t.Helper()
	in, err := json.Marshal(map[string]any{"cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodePath(t), filepath.Join("testdata", "run.js"))
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			t.Fatalf("node testdata/run.js did not finish %d cases in %v: a script is not linear in its input", len(cases), limit)
		}
		t.Fatalf("node testdata/run.js: %v\n%s", err, stderr.String())
	}
	var res struct {
		Results []json.RawMessage `json:"results"`
		Ms      []float64         `json:"ms"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("node output: %v", err)
	}
	if len(res.Results) != len(cases) || len(res.Ms) != len(cases) {
		t.Fatalf("node answered %d cases of %d", len(res.Results), len(cases))
	}
	return res.Results, res.Ms
}

// corpusStrings returns every string that documents hold under a key that is a version or a
// constraint ("version", "openmw", "lua_api", and any runtimes value), sorted: of generated
// manifests (the corpustest fixtures and a decimal-versioned one whose relationships state
// ranges) and, when ../shared is present, of every JSON document of the corpus.
func corpusStrings(t *testing.T) []string {
	t.Helper()
	set := map[string]bool{}
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if key == "runtimes" {
					k = "openmw"
				}
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case string:
			if key == "version" || key == "openmw" || key == "lua_api" {
				set[x] = true
			}
		}
	}
	read := func(b []byte) {
		var v any
		if json.Unmarshal(b, &v) == nil {
			walk(v, "")
		}
	}
	var rels []any
	for _, c := range []string{">=1.0, <2", ">= 0.4.6", "!=1.1.0-dev.1", "<=0.963", ">0.5 , <0.82", "=1.01-dev.14"} {
		rels = append(rels, map[string]any{"kind": "requires", "project": corpustest.TallowID, "name": "Tallow", "version": c})
	}
	decimal := corpustest.Manifest(corpustest.Project{ID: "55e873c9-0000-4000-8000-000000000002", Name: "Decimal", Type: "mod",
		Versions: []string{"1.01-dev.14", "1.0", "0.963", "0.97", "0.50", "0.4.61-dev.3", "0.4.58"}, Relationships: rels})
	decimal.Project["versioning"] = "decimal"
	docs := []any{decimal}
	for _, name := range []string{"candlelight.json", "tallow.json", "lantern-forge.json"} {
		docs = append(docs, corpustest.Manifest(corpustest.Fixtures[name]))
	}
	for _, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		read(b)
	}
	if len(set) < 20 {
		t.Fatalf("the generated manifests gave only %d versions and constraints", len(set))
	}
	if root, ok := corpustest.Optional(t, ""); ok {
		generated := len(set)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			b, err := os.ReadFile(p)
			read(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(set) < generated+20 {
			t.Fatalf("the corpus gave only %d more versions and constraints", len(set)-generated)
		}
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// genVersion makes a version-like string from pieces that hit every rule: leading zeros,
// empty numbers, too many numbers, pre-release and build identifiers, stray characters.
func genVersion(r *rand.Rand) string {
	nums := []string{"0", "1", "2", "9", "10", "01", "00", "5", "50", "05", "82", "963", "100000000000000000000", ""}
	ids := []string{"alpha", "beta", "1", "2", "01", "0", "a-b", "", "rc", "x.y", "Z"}
	var b strings.Builder
	n := 1 + r.IntN(7)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(nums[r.IntN(len(nums))])
	}
	if r.IntN(3) == 0 {
		b.WriteByte('-')
		for i := 0; i < 1+r.IntN(3); i++ {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(ids[r.IntN(len(ids))])
		}
	}
	if r.IntN(5) == 0 {
		b.WriteString("+" + ids[r.IntN(len(ids))])
	}
	if r.IntN(20) == 0 {
		b.WriteString([]string{" ", "^", "x", "é"}[r.IntN(4)])
	}
	return b.String()
}

// genConstraint makes a constraint-like string out of generated versions and operators.
func genConstraint(r *rand.Rand) string {
	if r.IntN(15) == 0 {
		return []string{"*", " * ", "", ",", "*,>=1", "^1.0", "~1", ">=1 || <2"}[r.IntN(8)]
	}
	ops := []string{">=", "<=", "!=", "=", ">", "<", "", "=>", "=="}
	var parts []string
	for i := 0; i < 1+r.IntN(3); i++ {
		sp := []string{"", " ", "\t", " \r\n\f "}[r.IntN(4)]
		parts = append(parts, sp+ops[r.IntN(len(ops))]+sp+genVersion(r)+sp)
	}
	return strings.Join(parts, ",")
}

func goParse(s string, sch version.Scheme) any {
	v, err := version.Parse(s, sch)
	if err != nil {
		return nil
	}
	return v.String()
}

func goConstraint(s string, sch version.Scheme) any {
	c, err := version.ParseConstraintIn(s, sch)
	if err != nil {
		return nil
	}
	return c.String()
}

func goMatches(c, v string, sch version.Scheme) any {
	pc, err1 := version.ParseConstraintIn(c, sch)
	pv, err2 := version.Parse(v, sch)
	if err1 != nil || err2 != nil {
		return nil
	}
	return pc.Match(pv)
}

func goCompare(a, b string, sch version.Scheme) any {
	x, err1 := version.Parse(a, sch)
	y, err2 := version.Parse(b, sch)
	if err1 != nil || err2 != nil {
		return nil
	}
	return version.Compare(x, y)
}

// specExamples are the orderings SPEC section 1 and SemVer 2.0.0 section 11 spell out.
var specExamples = []string{"0.5", "0.50", "0.54", "0.6", "0.82", "0.9", "0.963", "0.97", "1.0", "0.05",
	"1.2", "1.2.0", "1.2.9", "1.2.10", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
	"1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.0+build.1", "1.01-dev.14", "1.1"}

// jsonText is v as JSON without HTML escapes, as node prints it.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestVersionAgreesWithGo runs version.js and catalog/version on the same input and wants the
// same answer from both: every version and constraint of generated manifests and of the
// corpus read under both schemes, every such constraint against every such version, and
// random versions, constraints and pairs.
func TestVersionAgreesWithGo(t *testing.T) {
	corpus := corpusStrings(t)
	r := rand.New(rand.NewPCG(20, 24))
	vs := append([]string{}, corpus...)
	cs := append([]string{}, corpus...)
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		vs = append(vs, genVersion(r))
		cs = append(cs, genConstraint(r))
	}
	type want struct {
		c    nodeCase
		want any
	}
	var cases []want
	add := func(fn string, w any, args ...any) {
		cases = append(cases, want{nodeCase{Fn: fn, Args: args}, w})
	}
	for _, sch := range []version.Scheme{version.Numeric, version.Decimal} {
		s := string(sch)
		for _, v := range vs {
			add("version.parse", goParse(v, sch), v, s)
		}
		for _, c := range cs {
			add("version.constraint", goConstraint(c, sch), c, s)
		}
		for _, c := range corpus {
			for _, v := range corpus {
				add("version.matches", goMatches(c, v, sch), c, v, s)
			}
		}
		for _, a := range specExamples {
			for _, b := range specExamples {
				add("version.compare", goCompare(a, b, sch), a, b, s)
			}
		}
		for i := 0; i < n; i++ {
			a, b := vs[r.IntN(len(vs))], vs[r.IntN(len(vs))]
			add("version.compare", goCompare(a, b, sch), a, b, s)
			c, v := cs[r.IntN(len(cs))], vs[r.IntN(len(vs))]
			add("version.matches", goMatches(c, v, sch), c, v, s)
		}
	}
	nc := make([]nodeCase, len(cases))
	for i, c := range cases {
		nc[i] = c.c
	}
	got := runNode(t, nc)
	bad := 0
	for i, c := range cases {
		w := jsonText(t, c.want)
		if w != string(got[i]) {
			bad++
			if bad <= 20 {
				t.Errorf("%s%q: version.js says %s, catalog/version %s", c.c.Fn, c.c.Args, got[i], w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cases disagree", bad, len(cases))
	}
	t.Logf("%d cases run (%d strings from documents)", len(cases), len(corpus))
}

// TestOneVersionEngine wants version comparison written once in the site's scripts: no
// script but version.js compares release numbers or pre-release identifiers itself.
func TestOneVersionEngine(t *testing.T) {
	scripts, err := fs.Glob(FS, "*.js")
	if err != nil || len(scripts) < 2 {
		t.Fatalf("scripts %v (%v)", scripts, err)
	}
	for _, name := range scripts {
		if name == "version.js" {
			continue
		}
		b, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, marker := range []string{"compareInt", "comparePre", "compareVersions", "versionRE", "trimZeros"} {
			if strings.Contains(string(b), marker) {
				t.Errorf("%s has %s: versions are compared in version.js only", name, marker)
			}
		}
	}
}
