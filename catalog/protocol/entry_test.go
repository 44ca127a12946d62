package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// TestValidateForEntry: the crawler's check of a manifest against the index entry pointing at
// it finds exactly a wrong digest and a wrong id, naming the entry when told where it is.
func TestValidateForEntry(t *testing.T) {
	docs := map[string][]byte{"generated": generatedCorpus(t)[genCandlelight]}
	if p, ok := corpustest.Optional(t, candlelight); ok {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs["corpus"] = b
	}
	for name, b := range docs {
		t.Run(name, func(t *testing.T) { validateForEntry(t, b) })
	}
}

// validateForEntry is TestValidateForEntry on the bytes of a Candlelight manifest.
func validateForEntry(t *testing.T, b []byte) {
	sum := sha256.Sum256(b)
	digest := hex.EncodeToString(sum[:])
	const id = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	const other = "00000000-0000-4000-8000-000000000000"
	const murl = "https://site.example/projects/x.json"
	wrong := strings.Repeat("0", 64)

	cases := []struct {
		name  string
		entry IndexEntry
		where string
		want  []string // "rule: message"
	}{
		{"the entry's id and digest", IndexEntry{ID: id, Manifest: murl, ManifestSHA256: digest}, "", nil},
		{"another digest", IndexEntry{ID: id, Manifest: murl, ManifestSHA256: wrong}, "",
			[]string{RuleManifestSHA256 + ": the manifest's bytes hash to " + digest + ", but the index entry (" + murl + ") advertises manifest_sha256 " + wrong}},
		{"another digest, the entry named", IndexEntry{ID: id, Manifest: murl, ManifestSHA256: wrong}, "dreamweave.json /projects/3",
			[]string{RuleManifestSHA256 + ": the manifest's bytes hash to " + digest + ", but dreamweave.json /projects/3 (" + murl + ") advertises manifest_sha256 " + wrong}},
		{"another id", IndexEntry{ID: other, Manifest: murl, ManifestSHA256: digest}, "",
			[]string{RuleIDMatch + `: project.id "` + id + `" differs from the id "` + other + `" of the index entry that points at this manifest`}},
		{"both, the entry named, digest first", IndexEntry{ID: other, Manifest: murl, ManifestSHA256: wrong}, "i.json /projects/0", []string{
			RuleManifestSHA256 + ": the manifest's bytes hash to " + digest + ", but i.json /projects/0 (" + murl + ") advertises manifest_sha256 " + wrong,
			RuleIDMatch + `: project.id "` + id + `" differs from the id "` + other + `" of the index entry that points at this manifest (i.json /projects/0)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, fs := ValidateForEntry(b, c.entry, c.where)
			if m == nil || m.Project.ID != id {
				t.Fatalf("manifest %v, want the decoded manifest", m)
			}
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule+": "+f.Message)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestValidateForEntryNotAManifest: bytes that are no manifest give no manifest, their own
// findings and the digest finding, so nothing can be accepted from them.
func TestValidateForEntryNotAManifest(t *testing.T) {
	m, fs := ValidateForEntry([]byte(`{"schema_version":"2","document":"index"`), IndexEntry{ID: "x", ManifestSHA256: strings.Repeat("0", 64)}, "")
	if m != nil || !hasRule(fs, RuleSyntax) || !hasRule(fs, RuleManifestSHA256) {
		t.Errorf("ValidateForEntry = %v, %v; want no manifest, a syntax and a digest finding", m, fs)
	}
}
