package discover

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// TestCorpusFrontPages discovers every enrolled URL of the corpus, served on loopback, and
// compares with the reference index's sources/<source>.json: S3ctors-S3cret-St4sh is found by its
// <link>, the others by walking up; the trail has the reference's URLs and words (a first
// discovery reads the index in full where the reference, holding validators, got a 304). A second
// discovery with what the first gave is all 304s: the enrolled pages and the site indexes.
func TestCorpusFrontPages(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpustest.Path(t, "state/sources"), "*.json"))
	s, err := loopback.Start(os.DirFS(corpustest.Path(t, "www")), loopback.Options{})
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
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		u := s.Rewrite(ref.URL)
		res, err := Discover(context.Background(), c, u, Held{})
		if err != nil {
			t.Errorf("%s: %v", ref.URL, err)
			continue
		}
		if ref.Method == nil || res.Method != *ref.Method {
			t.Errorf("%s: method %q; reference %v", ref.URL, res.Method, ref.Method)
		}
		if strings.Contains(ref.URL, "S3ctors-S3cret-St4sh") {
			links++
			if res.Method != MethodLink {
				t.Errorf("%s: method %q; want %q", ref.URL, res.Method, MethodLink)
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
		checkTrail(t, res.Trail, want...)
		wantBody, _ := s.Bytes(strings.TrimPrefix(res.IndexURL, strings.TrimSuffix(s.URL(), "/")))
		if string(res.Response.Body) != string(wantBody) || len(wantBody) == 0 {
			t.Errorf("%s: index body differs from what was served", ref.URL)
		}

		s.ResetRequests()
		second, err := Discover(context.Background(), c, u, held(u, res))
		if err != nil || second.IndexURL != res.IndexURL || second.Method != res.Method || !second.Response.NotModified {
			t.Errorf("%s: second discovery %v %+v", ref.URL, err, second)
		}
		reqs := s.Requests()
		if len(reqs) != 2 {
			t.Errorf("%s: second discovery made %d requests; want the page's and the index's", ref.URL, len(reqs))
		}
		for _, r := range reqs {
			if r.Status != 304 {
				t.Errorf("%s: second discovery: %s answered %d", ref.URL, r.Path, r.Status)
			}
		}
	}
	if links != 1 {
		t.Errorf("%d sources found by <link>; the corpus has exactly one (S3ctors-S3cret-St4sh)", links)
	}
}
