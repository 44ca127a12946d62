package protocol

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// Generated stand-ins for the corpus documents the tests edit, published below www/gen.example,
// each with the feature its corpus document was chosen for.
const (
	genCandlelight = "www/gen.example/template/dreamweave/projects/" + corpustest.CandlelightID + ".json" // numeric, three releases
	genCrate       = "www/gen.example/crate/dreamweave/projects/" + genCrateID + ".json"                  // numeric, a yanked release, crate artifacts
	genDecimal     = "www/gen.example/decimal/dreamweave/projects/" + genDecimalID + ".json"              // decimal, binary artifacts
	genBinary      = "www/gen.example/binary/dreamweave/projects/" + genBinaryID + ".json"                // binary artifacts per platform
	genStash       = "www/gen.example/stash/dreamweave.json"                                              // a site index of several projects

	genCrateID   = "3aaf4fe0-0000-4000-8000-000000000001"
	genDecimalID = "55e873c9-0000-4000-8000-000000000002"
	genBinaryID  = "b3efde19-0000-4000-8000-000000000003"
)

// standIn is the generated stand-in of each corpus document a test edits.
var standIn = map[string]string{candlelight: genCandlelight, openmwConfig: genCrate, lightFixes: genDecimal, dreamIni: genBinary, stashIndex: genStash}

var (
	genOnce  sync.Once
	genFiles map[string][]byte
)

// generatedCorpus is a corpus of generated documents, "www/<host>/<path>" and
// "state/claims/<id>/<site>/manifest.json" -> bytes: five sites, ten manifests, each also as a claim.
func generatedCorpus(tb testing.TB) map[string][]byte {
	tb.Helper()
	genOnce.Do(func() {
		sites := map[string][]byte{}
		fx := corpustest.Fixtures
		corpustest.Site(tb, sites, "gen.example/template", "Template",
			corpustest.Manifest(fx["candlelight.json"]), corpustest.Manifest(fx["lantern-forge.json"]), corpustest.Manifest(fx["tallow.json"]))

		crate := corpustest.Manifest(corpustest.Project{ID: genCrateID, Name: "Crate", Type: "library", Summary: "A Rust crate.",
			Page: "https://gen.example/crate/home/", Versions: []string{"1.1.0-dev.0", "1.0.1", "1.0.0"}})
		eachArtifact(crate, func(a map[string]any) {
			a["id"], a["format"], a["media_type"] = "crate", "crate", "application/gzip"
			a["filename"] = strings.TrimSuffix(a["filename"].(string), ".zip") + ".crate"
		})
		old := crate.Releases[2].(map[string]any)
		old["status"], old["yanked"] = "yanked", map[string]any{"reason": "Yanked on crates.io.", "replacement": "1.0.1"}
		corpustest.Site(tb, sites, "gen.example/crate", "Crate", crate)

		platforms := []string{"windows/x86_64", "macos/aarch64", "linux/x86_64"}
		decimal := corpustest.Manifest(corpustest.Project{ID: genDecimalID, Name: "Decimal", Type: "tool", Summary: "Versions as decimals.",
			Page: "https://gen.example/decimal/home/", Versions: []string{"0.4.61-dev.3", "0.4.6", "0.4.58"}, Platforms: platforms})
		decimal.Project["versioning"] = "decimal"
		binary := corpustest.Manifest(corpustest.Project{ID: genBinaryID, Name: "Binary", Type: "tool", Summary: "A program per platform.",
			Page: "https://gen.example/binary/home/", Versions: []string{"1.0.2-dev.0", "1.0.1", "1.0.0"}, Platforms: platforms})
		for _, d := range []corpustest.Doc{decimal, binary} {
			eachArtifact(d, func(a map[string]any) { a["format"] = "binary" })
		}
		corpustest.Site(tb, sites, "gen.example/decimal", "Decimal", decimal)
		corpustest.Site(tb, sites, "gen.example/binary", "Binary", binary)

		var stash []corpustest.Doc
		for i := range 4 {
			stash = append(stash, corpustest.Manifest(corpustest.Project{ID: fmt.Sprintf("%d0e93a78-0000-4000-8000-000000000000", i),
				Name: fmt.Sprintf("Stash %d", i), Type: "mod", Summary: "One of several.", Page: fmt.Sprintf("https://gen.example/stash/%d/", i),
				Versions: []string{fmt.Sprintf("1.%d-dev.1", i), "1.0"}}))
		}
		corpustest.Site(tb, sites, "gen.example/stash", "Stash", stash...)

		genFiles = map[string][]byte{}
		for p, b := range sites {
			genFiles["www/"+p] = b
			if dir, file, ok := strings.Cut(p, "/dreamweave/projects/"); ok {
				site := strings.ReplaceAll(dir, "/", "-")
				genFiles["state/claims/"+strings.TrimSuffix(file, ".json")+"/"+site+"/manifest.json"] = b
			}
		}
	})
	return genFiles
}

// eachArtifact calls edit with every artifact of every release of d.
func eachArtifact(d corpustest.Doc, edit func(a map[string]any)) {
	for _, r := range d.Releases {
		for _, a := range r.(map[string]any)["artifacts"].([]any) {
			edit(a.(map[string]any))
		}
	}
}

// The generated stand-ins are valid and have the feature each stands in for: a failure here
// means a test on them would check less than its corpus case.
func TestGeneratedStandInsHaveTheirFeatures(t *testing.T) {
	files := generatedCorpus(t)
	tree := func(rel string) any {
		v, fs := parseStrict(files[rel])
		if fs != nil {
			t.Fatalf("%s: %v", rel, fs)
		}
		return v
	}
	for _, rel := range standIn {
		var fs []Finding
		if strings.HasSuffix(rel, "/dreamweave.json") {
			_, fs = ValidateIndex(files[rel])
		} else {
			_, fs = ValidateManifest(files[rel], "")
		}
		if len(fs) != 0 {
			t.Errorf("%s: %v", rel, fs)
		}
	}
	if v := tree(genDecimal); obj(v, "/project")["versioning"] != "decimal" {
		t.Errorf("%s is not decimal", genDecimal)
	}
	crate := tree(genCrate)
	if yankedAt(t, crate) != yankedNoticeAt(t, crate) || artifactOf(t, crate, "crate") == "" {
		t.Errorf("%s: the yanked release has no notice", genCrate)
	}
	for _, rel := range []string{genBinary, genDecimal} {
		v := tree(rel)
		oses := map[any]bool{}
		for _, a := range arr(v, "/releases/0/artifacts") {
			oses[a.(map[string]any)["platform"].(map[string]any)["os"]] = true
		}
		if artifactOf(t, v, "binary") == "" || len(oses) != 3 {
			t.Errorf("%s: binary artifacts for %v, want three platforms", rel, oses)
		}
	}
	if n := len(arr(tree(genStash), "/projects")); n < 3 {
		t.Errorf("%s lists %d projects, want several", genStash, n)
	}
}
