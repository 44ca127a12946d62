package protocol

import (
	"os"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

func rel(v, ch, status string) Release { return Release{Version: v, Channel: ch, Status: status} }

func manifestOf(versioning string, rs ...Release) *Manifest {
	return &Manifest{Project: Project{Versioning: versioning}, Releases: rs}
}

func headVersions(m *Manifest) map[string]string {
	out := map[string]string{}
	for ch, r := range Heads(m) {
		out[ch] = r.Version
	}
	return out
}

func TestHeads(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *Manifest
		want map[string]string
	}{
		{"highest precedence per channel, in any order", manifestOf("numeric",
			rel("1.2.9", "stable", "available"), rel("1.2.10", "stable", "available"), rel("1.3.0-dev.2", "development", "available"), rel("1.3.0-dev.10", "development", "available")),
			map[string]string{"stable": "1.2.10", "development": "1.3.0-dev.10"}},
		{"numeric 0.82 above 0.9", manifestOf("", rel("0.9", "stable", "available"), rel("0.82", "stable", "available")), map[string]string{"stable": "0.82"}},
		{"decimal 0.9 above 0.82", manifestOf("decimal", rel("0.82", "stable", "available"), rel("0.9", "stable", "available")), map[string]string{"stable": "0.9"}},
		{"yanked and deprecated are never heads", manifestOf("numeric",
			rel("2.0", "stable", "yanked"), rel("1.9", "stable", "deprecated"), rel("1.8", "stable", "available"), rel("3.0", "beta", "yanked")),
			map[string]string{"stable": "1.8"}},
		{"a release whose version does not parse is skipped", manifestOf("numeric", rel("1.02", "stable", "available"), rel("1.1", "stable", "available")), map[string]string{"stable": "1.1"}},
		{"no releases, no heads", manifestOf("numeric"), map[string]string{}},
		{"nil manifest", nil, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := headVersions(tc.m)
			if len(got) != len(tc.want) {
				t.Fatalf("heads %v, want %v", got, tc.want)
			}
			for ch, v := range tc.want {
				if got[ch] != v {
					t.Errorf("head of %s = %q, want %q", ch, got[ch], v)
				}
			}
		})
	}
}

func TestHeadsPointIntoReleases(t *testing.T) {
	m := manifestOf("numeric", rel("1.0", "stable", "available"))
	Heads(m)["stable"].Date = "2026-01-01"
	if m.Releases[0].Date != "2026-01-01" {
		t.Error("Heads returned a copy, not a pointer into Releases")
	}
}

func TestCurrent(t *testing.T) {
	for _, tc := range []struct {
		name        string
		m           *Manifest
		ch, version string
	}{
		{"stable head first", manifestOf("numeric", rel("2.0", "beta", "available"), rel("1.0", "stable", "available"), rel("3.0-dev.1", "development", "available")), "stable", "1.0"},
		{"else the highest other head except development", manifestOf("numeric", rel("2.0", "beta", "available"), rel("2.1-rc.1", "rc", "available"), rel("3.0-dev.1", "development", "available")), "rc", "2.1-rc.1"},
		{"a tie between other heads goes to the channel name sorting first", manifestOf("numeric", rel("2.0", "nightly", "available"), rel("2.0.0", "beta", "available")), "beta", "2.0.0"},
		{"else development", manifestOf("decimal", rel("0.821-dev.59", "development", "available"), rel("0.9", "stable", "yanked")), "development", "0.821-dev.59"},
		{"decimal precedence among other heads", manifestOf("decimal", rel("0.82", "beta", "available"), rel("0.9", "rc", "available")), "rc", "0.9"},
		{"nothing available", manifestOf("numeric", rel("1.0", "stable", "yanked")), "", ""},
		{"nil manifest", nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, r := Current(tc.m)
			got := ""
			if r != nil {
				got = r.Version
			}
			if ch != tc.ch || got != tc.version {
				t.Errorf("Current = %q %q, want %q %q", ch, got, tc.ch, tc.version)
			}
		})
	}
}

func TestSchemeOf(t *testing.T) {
	if SchemeOf(nil) != version.Numeric || SchemeOf(manifestOf("")) != version.Numeric || SchemeOf(manifestOf("decimal")) != version.Decimal {
		t.Error("SchemeOf")
	}
}

// BenchmarkValidateLargestManifest validates the largest manifest of the corpora, bytes in.
func BenchmarkValidateLargestManifest(b *testing.B) {
	var big corpusDoc
	for _, set := range docSets(b) {
		for _, d := range set.docs {
			if d.kind == DocProject && len(d.b) > len(big.b) {
				big = d
			}
		}
	}
	b.Logf("%s, %d bytes", big.path, len(big.b))
	b.SetBytes(int64(len(big.b)))
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := ValidateManifest(big.b, ""); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
}

// BenchmarkParseStrict is the strict JSON pass alone on the same document.
func BenchmarkParseStrict(b *testing.B) {
	data, err := os.ReadFile(corpustest.Path(b, openmwConfig))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, fs := parseStrict(data); fs != nil {
			b.Fatal(fs)
		}
	}
}
