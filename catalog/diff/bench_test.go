package diff_test

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

type diffPair struct{ before, after *protocol.Manifest }

// BenchmarkDiffCorpus diffs every real manifest against a copy whose first release's date
// changed (the whole manifest is walked each time).
func BenchmarkDiffCorpus(b *testing.B) {
	files := corpus.Manifests(b)
	bs := make([]*diffPair, 0, len(files))
	for _, f := range files {
		p := &diffPair{corpus.Decode(b, f.Bytes), corpus.Decode(b, f.Bytes)}
		if len(p.after.Releases) > 0 {
			p.after.Releases[0].Date = "2030-01-01"
		}
		bs = append(bs, p)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range bs {
			diff.Diff(p.before, p.after)
		}
	}
}
