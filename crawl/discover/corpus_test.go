package discover

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// TestFrontPages discovers the enrolled URLs of corpustest.Sites (the corpus's Mod Template and
// dream-ini sites, or their stand-ins), whose front pages link nothing, beside a site whose front
// page links its index, all served on loopback: the first two are found by walking up, the
// third by its <link>, each with the trail written here. A second discovery with what the first
// gave is all 304s: the enrolled pages and the site indexes. With ../shared the same holds for
// every enrolled URL of the corpus, against the reference index's sources/<source>.json.
func TestFrontPages(t *testing.T) {
	root := fstest.MapFS{}
	for p, b := range corpustest.Sites(t) {
		root[p] = &fstest.MapFile{Data: b}
	}
	const linked = corpustest.SitesHost + "/linked/"
	root[linked+"index.html"] = page(link("dreamweave.json"))
	root[linked+"dreamweave.json"] = root[corpustest.DreamIniDir+"/dreamweave.json"]
	s := serve(t, root)
	c := guard.New(guard.Options{AllowLoopback: true})
	for _, dir := range []string{corpustest.TemplateDir, corpustest.DreamIniDir} {
		u := s.URL() + dir + "/"
		frontPage(t, s, c, u, MethodWalkUp, st(u, OutcomeNoLink), st(u+"dreamweave.json", OutcomeIndex))
	}
	u := s.URL() + linked
	frontPage(t, s, c, u, MethodLink, st(u, "links the site index at "+u+"dreamweave.json"), st(u+"dreamweave.json", OutcomeIndex))

	sources, ok := corpustest.Optional(t, "state/sources")
	www, ok2 := corpustest.Optional(t, "www")
	if !ok || !ok2 {
		return
	}
	corpusFrontPages(t, sources, www)
}

// frontPage discovers u on s through c and checks the method, the trail, the index body, and a
// second discovery with what the first gave: the page and the index both answer 304.
func frontPage(t *testing.T, s *loopback.Server, c *guard.Client, u, method string, trail ...store.TrailStep) {
	t.Helper()
	res, err := Discover(context.Background(), c, u, Held{})
	if err != nil {
		t.Errorf("%s: %v", u, err)
		return
	}
	if res.Method != method {
		t.Errorf("%s: method %q; want %q", u, res.Method, method)
	}
	checkTrail(t, res.Trail, trail...)
	wantBody, _ := s.Bytes(strings.TrimPrefix(res.IndexURL, strings.TrimSuffix(s.URL(), "/")))
	if string(res.Response.Body) != string(wantBody) || len(wantBody) == 0 {
		t.Errorf("%s: index body differs from what was served", u)
	}

	s.ResetRequests()
	second, err := Discover(context.Background(), c, u, held(u, res))
	if err != nil || second.IndexURL != res.IndexURL || second.Method != res.Method || !second.Response.NotModified {
		t.Errorf("%s: second discovery %v %+v", u, err, second)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Errorf("%s: second discovery made %d requests; want the page's and the index's", u, len(reqs))
	}
	for _, r := range reqs {
		if r.Status != 304 {
			t.Errorf("%s: second discovery: %s answered %d", u, r.Path, r.Status)
		}
	}
}

// corpusFrontPages discovers every enrolled URL of the corpus, served on loopback, and compares
// with the reference index's sources/<source>.json: S3ctors-S3cret-St4sh is found by its <link>,
// the others by walking up; the trail has the reference's URLs and words (a first discovery
// reads the index in full where the reference, holding validators, got a 304).
func corpusFrontPages(t *testing.T, sources, www string) {
	files, _ := filepath.Glob(filepath.Join(sources, "*.json"))
	s, err := loopback.Start(os.DirFS(www), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := guard.New(guard.Options{AllowLoopback: true})
	links := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ref store.Source
		if err := json.Unmarshal(b, &ref); err != nil || ref.Method == nil {
			t.Fatalf("%s: %v, method %v", f, err, ref.Method)
		}
		if strings.Contains(ref.URL, "S3ctors-S3cret-St4sh") {
			links++
			if *ref.Method != MethodLink {
				t.Errorf("%s: reference method %q; want %q", ref.URL, *ref.Method, MethodLink)
			}
		}
		var want []store.TrailStep
		for _, st := range ref.Trail {
			o := st.Outcome
			if o == OutcomeIndexUnchanged {
				o = OutcomeIndex
			}
			if strings.HasPrefix(o, "links the site index at ") {
				o = "links the site index at " + s.Rewrite(strings.TrimPrefix(o, "links the site index at "))
			}
			want = append(want, store.TrailStep{URL: s.Rewrite(st.URL), Outcome: o})
		}
		frontPage(t, s, c, s.Rewrite(ref.URL), *ref.Method, want...)
	}
	if links != 1 {
		t.Errorf("%d sources found by <link>; the corpus has exactly one (S3ctors-S3cret-St4sh)", links)
	}
}
