package site

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// listFields are the list fields of a manifest one publisher can make long, each with a
// function that makes a manifest whose field has n entries (and everything else small).
var listFields = []struct {
	name string
	make func(n int) *protocol.Manifest
}{
	{"content_files", func(n int) *protocol.Manifest {
		return withOpenMW(sampleManifest(uuid(1), "Long content", 1), []component{{id: "main", files: seqNames("File", n, ".esp")}}, nil, nil)
	}},
	{"requires_content", func(n int) *protocol.Manifest {
		return withOpenMW(sampleManifest(uuid(1), "Long needs", 1), []component{{id: "main", files: []string{"Main.esp"}}}, seqNames("Need", n, ".esm"), nil)
	}},
	{"component_requires_content", func(n int) *protocol.Manifest {
		// Two components declaring the same file: what it needs is what both need.
		need := seqNames("Need", n, ".esm")
		return withOpenMW(sampleManifest(uuid(1), "Shared needs", 1), []component{
			{id: "main", files: []string{"Main.esp"}, requires: need}, {id: "alt", files: []string{"Main.esp"}, requires: need}}, nil, nil)
	}},
	{"releases", func(n int) *protocol.Manifest { return sampleManifest(uuid(1), "Many releases", n) }},
	{"artifacts", func(n int) *protocol.Manifest {
		m := sampleManifest(uuid(1), "Many artifacts", 1)
		a := m.Releases[0].Artifacts[0]
		m.Releases[0].Artifacts = nil
		for i := 0; i < n; i++ {
			a.ID, a.Filename = fmt.Sprintf("a%06d", i), fmt.Sprintf("a%06d.zip", i)
			m.Releases[0].Artifacts = append(m.Releases[0].Artifacts, a)
		}
		return m
	}},
	{"relationships", func(n int) *protocol.Manifest {
		m := sampleManifest(uuid(1), "Many relationships", 1)
		for i := 0; i < n; i++ {
			r := protocol.Relationship{Kind: protocol.KindRequires, Project: uuid(100 + i), Version: ">=1.0.0"}
			if i%2 == 1 {
				r = protocol.Relationship{Kind: protocol.KindConflicts, Capability: fmt.Sprintf("long:cap-%d", i)}
			}
			m.Releases[0].Relationships = append(m.Releases[0].Relationships, r)
		}
		return m
	}},
	{"components", func(n int) *protocol.Manifest {
		var cs []component
		for i := 0; i < n; i++ {
			cs = append(cs, component{id: fmt.Sprintf("c%06d", i), files: []string{fmt.Sprintf("C%06d.esp", i), "Shared.esp"}, requires: []string{"Base.esm"}})
		}
		return withOpenMW(sampleManifest(uuid(1), "Many components", 1), cs, nil, nil)
	}},
	{"tags", func(n int) *protocol.Manifest {
		m := sampleManifest(uuid(1), "Many tags", 1)
		m.Project.Tags = seqNames("tag-", n, "")
		return m
	}},
}

// seqNames is n distinct names prefix000000suffix, prefix000001suffix, ...
func seqNames(prefix string, n int, suffix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%06d%s", prefix, i, suffix)
	}
	return out
}

// longListState writes a state of one site whose one claim's manifest is m, compact. It
// returns "" when the manifest is over the document limit: no publisher can send it.
func longListState(tb testing.TB, m *protocol.Manifest) string {
	tb.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	if len(b) > protocol.MaxDocumentBytes {
		return ""
	}
	state := filepath.Join(tb.TempDir(), "state")
	f := statetest.In(tb, state)
	f.ClaimBytes(f.Site("https://long.example/dreamweave.json", "Long Lists"), m, b, nil)
	return state
}

// BenchmarkBuildListField builds a state whose one manifest has 1,000, 10,000 and 100,000
// entries in one list field (listFields) and reports the build time per entry (ns/entry): a
// build linear (or n log n) in what one publisher sends keeps that figure about flat as the
// list grows tenfold (cpu-ns/entry is the CPU time, steadier on a shared machine). A size
// whose manifest is over the document limit is skipped: no publisher can send it.
//
//	go test ./site -run '^$' -bench BenchmarkBuildListField -benchtime 1x
func BenchmarkBuildListField(b *testing.B) {
	for _, lf := range listFields {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/%d", lf.name, n), func(b *testing.B) {
				state := longListState(b, lf.make(n))
				if state == "" {
					b.Skipf("%d %s make a manifest over the %d-byte document limit", n, lf.name, protocol.MaxDocumentBytes)
				}
				tmp := b.TempDir()
				cpu0 := cpuTime()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := Build(Options{State: state, Out: filepath.Join(tmp, fmt.Sprint("public", i))}); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/entry")
			})
		}
	}
}

// TestBuildLongRequiresContent builds the kept input of a hostile manifest: one release
// whose openmw extension needs 20,000 content files (about 500 KB). The build finishes and
// the setup data keep every name once; the time it took is logged (BenchmarkBuildListField
// measures it), never asserted.
func TestBuildLongRequiresContent(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-name manifest: skipped under -short")
	}
	need := seqNames("Hostile Need ", 20000, ".esm")
	state := longListState(t, withOpenMW(sampleManifest(uuid(1), "Long needs", 1),
		[]component{{id: "main", files: []string{"Main.esp"}, requires: need}, {id: "alt", files: []string{"Main.esp"}, requires: need}}, need, nil))
	out := filepath.Join(t.TempDir(), "public")
	start, cpu0 := time.Now(), cpuTime()
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	t.Logf("build of a 20,000-name requires_content manifest: %v (%v CPU)", time.Since(start), cpuTime()-cpu0)
	doc := setupDataOf(t, out)
	if len(doc.Claims) != 1 {
		t.Fatalf("the setup data have %d claims, want 1", len(doc.Claims))
	}
	for _, c := range doc.Claims {
		if len(c.RequiresContent) != len(need) {
			t.Errorf("release-wide requires_content has %d names, want %d", len(c.RequiresContent), len(need))
		}
		if len(c.ContentFiles) != 1 || len(c.ContentFiles[0].RequiresContent) != len(need) {
			t.Errorf("content files %d, want Main.esp needing all %d names", len(c.ContentFiles), len(need))
		}
	}
}
