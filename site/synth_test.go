package site

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/linkcheck"
)

// TestWriteSynthSite writes a synthetic state of $ASHYAMS_SYNTH claims (synthState; 20 when
// unset) and the site built from it under $ASHYAMS_SYNTH_OUT (state/ and public/; a temporary
// directory when unset), and checks that every claim has its page and every link resolves. Set
// both to look at or measure a large site:
//
//	ASHYAMS_SYNTH=10000 ASHYAMS_SYNTH_OUT=/tmp/synth go test ./site -run TestWriteSynthSite
func TestWriteSynthSite(t *testing.T) {
	t.Parallel()
	n, dir := 20, os.Getenv("ASHYAMS_SYNTH_OUT")
	if s := os.Getenv("ASHYAMS_SYNTH"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			t.Fatalf("ASHYAMS_SYNTH=%q is not a number of claims", s)
		}
	}
	if dir == "" {
		dir = t.TempDir()
	}
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "public")
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	synthState(t, state, n)
	res, err := Build(Options{State: state, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Open(state).Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Claims) != n {
		t.Errorf("the state holds %d claims, want %d", len(snap.Claims), n)
	}
	pages := map[string]bool{}
	for _, p := range res.Pages {
		pages[p] = true
	}
	for _, c := range snap.Claims {
		if !pages[paths.Claim(c.Project, c.Origin)] {
			t.Errorf("claim %s/%s has no page", c.Project, c.Origin)
		}
	}
	probs, err := linkcheck.Check(out, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("check-site: %s", p)
	}
}
