package site

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// corpusCase is a built site standing for the real network: "generated", the reference port's
// network (referenceNetwork) crawled on loopback by two real refreshes, always; and "corpus",
// the real state with its curation, when ../shared holds it. Tests read them and never write.
type corpusCase struct {
	name     string
	state    string // the state directory
	curation string // the curation file, "" for none
	out      string // the built site
	res      *Result
	root     string // ../shared/corpus, "" for the generated case
	// A claim with a stable and a development release, both with artifacts, and the stable
	// version: the claim a first screen is read on.
	project, site, stable string
	observed              string // the start of the last refresh, as the feed's updated
}

var (
	genCorpusOnce sync.Once
	genCorpus     corpusCase
	genCorpusErr  error
)

// generatedCorpus is the generated corpusCase, made once per test binary.
func generatedCorpus(t *testing.T) corpusCase {
	t.Helper()
	genCorpusOnce.Do(func() {
		dir, err := sharedTempDir("ashyams-gencorpus-")
		if err != nil {
			genCorpusErr = err
			return
		}
		net := rt.New(t)
		net.State = filepath.Join(dir, "state")
		template, _ := referenceNetwork(t, net)
		c := corpusCase{name: "generated", state: net.State, out: filepath.Join(dir, "public"),
			project: rt.CandlelightID, site: store.SiteID(template.URL("dreamweave.json")), stable: "1.2.0",
			observed: rt.First.Add(6 * 3600e9).Format("2006-01-02T15:04:05Z")}
		if c.res, genCorpusErr = Build(Options{State: c.state, Out: c.out}); genCorpusErr == nil {
			genCorpus = c
		}
	})
	if genCorpusErr != nil {
		t.Fatalf("the generated corpus: %v", genCorpusErr)
	}
	if genCorpus.res == nil {
		t.Fatal("the generated corpus was not made (its first build stopped)")
	}
	return genCorpus
}

// corpusCases are the generated corpusCase, then the real corpus's when ../shared holds it
// (corpustest.Optional).
func corpusCases(t *testing.T) []corpusCase {
	t.Helper()
	cs := []corpusCase{generatedCorpus(t)}
	if _, ok := corpustest.Optional(t, "state/network.json"); ok {
		root := corpusRoot(t)
		out, res := corpusBuild(t)
		cs = append(cs, corpusCase{name: "corpus", state: filepath.Join(root, "state"), curation: filepath.Join(root, "network", "curation.toml"),
			out: out, res: res, root: root, project: "55e873c9-1ddc-4b13-b59a-0eb790bb2565", site: "dreamweave-mp-github-io-s3lightfixes-bb9d2c5d",
			stable: "0.4.6", observed: "2026-10-10T12:36:05Z"})
	}
	return cs
}
