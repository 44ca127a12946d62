package tags_test

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

// generatedEvents are the events two real refreshes of a generated site record: Tallow and
// Candlelight first observed; then Tallow's development build rebuilt under its version on a
// new date, and Candlelight's stable head moved to 1.2.0, which requires Tallow >=1.1, ships a
// bigger file and lists a breaking change, with a license added.
func generatedEvents(t *testing.T) []store.Event {
	t.Helper()
	tallow, candle := corpustest.Generated(t, "tallow.json"), corpustest.Generated(t, "candlelight.json")
	n := refreshtest.New(t)
	site := n.Site("/mods/")
	site.Publish(tallow, candle)
	n.Refresh(site.URL(""))

	dev := refreshtest.Obj(t, tallow, "releases", 0)
	dev["date"] = "2026-10-01"
	a := refreshtest.Obj(t, dev, "artifacts", 0)
	a["digests"], a["size"] = map[string]any{"sha256": strings.Repeat("ab", 32)}, 2000
	next := refreshtest.Copy(t, refreshtest.Obj(t, candle, "releases", 1))
	next["version"], next["date"] = "1.2.0", "2026-10-01"
	next["notes"] = map[string]any{"breaking": []any{"The flames group is exactly-one."}}
	refreshtest.Obj(t, next, "relationships", 0)["version"] = ">=1.1"
	refreshtest.Obj(t, next, "artifacts", 0)["size"] = 2048
	rs := candle["releases"].([]any)
	candle["releases"] = append([]any{rs[0], next}, rs[1:]...)
	refreshtest.Obj(t, candle, "channels", "stable")["version"] = "1.2.0"
	refreshtest.Obj(t, candle, "project")["license"] = "MIT"
	site.Publish(tallow, candle)
	n.Refresh(site.URL(""))

	snap, err := store.Open(n.State).Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Events) != 4 {
		t.Fatalf("%d events, want 4", len(snap.Events))
	}
	return snap.Events
}
