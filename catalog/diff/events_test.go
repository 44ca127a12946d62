package diff_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff/internal/corpus"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// genRefresh is what two real refreshes of a generated site write: Tallow, Candlelight and
// Lantern Forge first observed; then Tallow's development build rebuilt under its version (a
// new date, file and revision), Candlelight's stable head moved to 1.2.0, which requires Tallow
// >=1.1, and Lantern Forge licensed.
type genRefresh struct {
	files  map[string][]byte             // every event file, by name
	events map[string][]byte             // project name -> its changed event file
	after  map[string]*protocol.Manifest // project name -> its manifest at the second refresh
}

func generatedRefresh(t *testing.T) genRefresh {
	t.Helper()
	var ms []map[string]any
	for _, name := range []string{"tallow.json", "candlelight.json", "lantern-forge.json"} {
		ms = append(ms, corpustest.Generated(t, name))
	}
	n := refreshtest.New(t)
	site := n.Site("/mods/")
	site.Publish(ms...)
	n.Refresh(site.URL(""))

	tallow, candle, forge := ms[0], ms[1], ms[2]
	dev := refreshtest.Obj(t, tallow, "releases", 0)
	dev["date"] = "2026-10-01"
	refreshtest.Obj(t, dev, "source")["revision"] = strings.Repeat("c", 40)
	a := refreshtest.Obj(t, dev, "artifacts", 0)
	a["digests"], a["size"] = map[string]any{"sha256": strings.Repeat("ab", 32)}, 2000
	next := refreshtest.Copy(t, refreshtest.Obj(t, candle, "releases", 1))
	next["version"], next["date"] = "1.2.0", "2026-10-01"
	refreshtest.Obj(t, next, "relationships", 0)["version"] = ">=1.1"
	rs := candle["releases"].([]any)
	candle["releases"] = append([]any{rs[0], next}, rs[1:]...)
	refreshtest.Obj(t, candle, "channels", "stable")["version"] = "1.2.0"
	refreshtest.Obj(t, forge, "project")["license"] = "MIT"
	site.Publish(ms...)
	n.Refresh(site.URL(""))

	snap, err := store.Open(n.State).Load()
	if err != nil {
		t.Fatal(err)
	}
	g := genRefresh{files: map[string][]byte{}, events: map[string][]byte{}, after: map[string]*protocol.Manifest{}}
	for _, e := range snap.Events {
		b, err := os.ReadFile(filepath.Join(n.State, filepath.FromSlash(store.EventPath(e.ID))))
		if err != nil {
			t.Fatal(err)
		}
		g.files[e.ID+".json"] = b
		if e.Kind == store.EventChanged {
			g.events[e.Name] = b
		}
	}
	for _, m := range ms {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		d := corpus.Decode(t, b)
		g.after[d.Project.Name] = d
	}
	if len(snap.Events) != 6 || len(g.events) != 3 {
		t.Fatalf("%d events, %d of them changed; want 6 and 3", len(snap.Events), len(g.events))
	}
	return g
}
