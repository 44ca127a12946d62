package refresh_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// TestRefreshRefusesHostileConfigValues: a manifest holding every value of
// catalog/protocol/testdata/cfg-hostile.json (values no line of a player's openmw.cfg,
// settings.cfg or SHA256SUMS holds safely) is refused by a refresh: the claim is invalid with
// a finding at each value's pointer, and the held manifest stays byte-identical.
func TestRefreshRefusesHostileConfigValues(t *testing.T) {
	t.Parallel()
	read := func(p string) map[string]any {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := read("../example/www/lanterns.example/projects/6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c.json")
	hostile := read("../../catalog/protocol/testdata/cfg-hostile-manifest.json")
	n := rt.New(t)
	s := n.Site("/mods/")
	s.Publish(good)
	n.Refresh(s.URL(""))
	held := func() []byte {
		t.Helper()
		ms, _ := filepath.Glob(filepath.Join(n.State, store.ClaimsDir, rt.ID(t, good), "*", "manifest.json"))
		if len(ms) != 1 {
			t.Fatalf("held manifests %v", ms)
		}
		b, err := os.ReadFile(ms[0])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := held()
	s.Publish(hostile)
	n.Refresh(s.URL(""))
	if !bytes.Equal(held(), before) {
		t.Error("the held manifest changed")
	}
	st := snap(t, n)
	if len(st.Claims) != 1 || st.Claims[0].Health != store.ClaimInvalid {
		t.Fatalf("claims %+v", st.Claims)
	}
	recorded := map[string]bool{}
	for _, f := range st.Claims[0].Findings {
		recorded[f.At] = true
	}
	_, fs := protocol.Decode(s.Bytes(hostile))
	if len(fs) < 200 {
		t.Fatalf("the hostile manifest has %d findings", len(fs))
	}
	for _, f := range fs {
		if !recorded[f.Pointer] {
			t.Errorf("no recorded finding at %s (%s)", f.Pointer, f.Rule)
		}
	}
}
