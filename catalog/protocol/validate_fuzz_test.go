package protocol

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// checkFindings holds what every finding promises: a rule, a one-line printable message.
func checkFindings(t *testing.T, fs []Finding) {
	t.Helper()
	for _, f := range fs {
		if f.Rule == "" || f.Message == "" {
			t.Fatalf("finding without rule or message: %+v", f)
		}
		if r, bad := unprintable(f.String()); bad {
			t.Fatalf("finding carries raw %U: %q", r, f.String())
		}
	}
}

// FuzzValidateIndex runs the crawler's index path end to end (strict JSON, dispatch, schema,
// index rules) on any bytes: never a panic; a site index with no findings is complete and keeps
// the rules (projects sorted by id, ids unique, channel versions parse); and the verdict is
// Decode's for the same bytes. Seeds: testdata/fuzz/FuzzValidateIndex (a real index and
// edits of it that break one rule each) and the ones below.
func FuzzValidateIndex(f *testing.F) {
	f.Add([]byte(minimalIndex))
	f.Add([]byte(minimalManifest))
	f.Add([]byte(`{"schema_version":"2","document":"index","site":{"name":"S","url":"https://a.example/"},"projects":[],"extra":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, fs := ValidateIndex(b)
		checkFindings(t, fs)
		d, dfs := Decode(b)
		if len(fs) == 0 {
			if ix == nil || ix.Document != DocIndex || ix.SchemaVersion != SchemaVersion {
				t.Fatalf("valid without a complete index: %+v", ix)
			}
			for i, e := range ix.Projects {
				if i > 0 && e.ID <= ix.Projects[i-1].ID {
					t.Fatalf("valid, but projects not sorted by unique id: %q after %q", e.ID, ix.Projects[i-1].ID)
				}
				for ch, v := range e.Channels {
					if _, err := version.Parse(v, version.Decimal); err != nil {
						t.Fatalf("valid, but channel %s version %q does not parse: %v", ch, v, err)
					}
				}
			}
			if len(dfs) != 0 || d == nil || d.Kind != DocIndex || d.Index == nil {
				t.Fatalf("ValidateIndex says valid, Decode says %+v %v", d, dfs)
			}
			return
		}
		if len(dfs) == 0 && d.Kind == DocIndex {
			t.Fatalf("Decode says valid index, ValidateIndex says %v", fs)
		}
	})
}

// FuzzValidateManifest runs the crawler's manifest path end to end, with the expected id the
// index entry gives: never a panic; a manifest with no findings is complete, describes the
// expected project, states exactly the recomputed channel heads, has no two releases of equal
// precedence and every version parses under its scheme; without an expected id the verdict is
// Decode's. Seeds: testdata/fuzz/FuzzValidateManifest (a real manifest, and edits of it that
// break one rule each, with the right and a wrong id) and the ones below.
func FuzzValidateManifest(f *testing.F) {
	const id = "7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73"
	f.Add([]byte(minimalManifest), id)
	f.Add([]byte(minimalManifest), "")
	f.Add([]byte(minimalManifest), "00000000-0000-4000-8000-000000000000")
	f.Add([]byte(minimalIndex), "")
	f.Fuzz(func(t *testing.T, b []byte, expectID string) {
		m, fs := ValidateManifest(b, expectID)
		checkFindings(t, fs)
		if len(fs) == 0 {
			if m == nil || m.Document != DocProject || m.SchemaVersion != SchemaVersion {
				t.Fatalf("valid without a complete manifest: %+v", m)
			}
			if expectID != "" && m.Project.ID != expectID {
				t.Fatalf("valid, but project.id %q is not the expected %q", m.Project.ID, expectID)
			}
			heads := Heads(m)
			if len(heads) != len(m.Channels) {
				t.Fatalf("valid, but channels %v are not the heads %v", m.Channels, heads)
			}
			for ch, h := range heads {
				if m.Channels[ch].Version != h.Version {
					t.Fatalf("valid, but channel %s states %q, head is %q", ch, m.Channels[ch].Version, h.Version)
				}
			}
			sch := SchemeOf(m)
			var vs []version.Version
			for _, r := range m.Releases {
				v, err := version.Parse(r.Version, sch)
				if err != nil {
					t.Fatalf("valid, but release %q does not parse under %s: %v", r.Version, sch, err)
				}
				for _, o := range vs {
					if version.Compare(v, o) == 0 {
						t.Fatalf("valid, but %q and %q have equal precedence", r.Version, o.String())
					}
				}
				vs = append(vs, v)
				if (r.Status == StatusYanked) != (r.Yanked != nil) || (r.Status == StatusDeprecated) != (r.Deprecated != nil) {
					t.Fatalf("valid, but release %q status %q disagrees with its notices", r.Version, r.Status)
				}
			}
		}
		if expectID == "" {
			d, dfs := Decode(b)
			switch {
			case len(fs) == 0 && (len(dfs) != 0 || d == nil || d.Kind != DocProject || d.Manifest == nil):
				t.Fatalf("ValidateManifest says valid, Decode says %+v %v", d, dfs)
			case len(fs) != 0 && len(dfs) == 0 && d.Kind == DocProject:
				t.Fatalf("Decode says valid manifest, ValidateManifest says %v", fs)
			}
		}
	})
}
