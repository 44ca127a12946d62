package refresh

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// threeFaults is a manifest with three kinds of fault: an unknown field, a version that is not
// a DreamWeave version, and a deprecated notice on an available release.
func threeFaults(t *testing.T, good []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(good, &v); err != nil {
		t.Fatal(err)
	}
	v["project"].(map[string]any)["homepage"] = "https://example.org/\u202e"
	rel := v["releases"].([]any)[0].(map[string]any)
	rel["version"] = "1.0.0.0.0.0.0"
	rel["deprecated"] = map[string]any{"reason": "old"}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFindingsEveryFaultOfTheRead: a manifest with three kinds of fault is recorded with all
// three findings in the claim's own file (kind, pointer, words with slots, the publisher's
// text apart), while the record keeps its one problem string, in the reference's shape (the
// lab checks every state with refstate). The findings follow the record: the same refused
// bytes keep them, a failed fetch replaces them with its own, an accepted manifest clears
// them, and a record rewritten without its own file (as the reference index does) has none.
func TestFindingsEveryFaultOfTheRead(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	good := l.raw(manifestPath(tplDir, candle))
	l.publish(tplDir, candle, threeFaults(t, good), true)
	l.refresh(src)

	c := l.claim(candle, tplDir)
	wantClaim(t, c, store.ClaimInvalid, "the manifest fails the protocol: ")
	kinds := map[string]store.Finding{}
	for _, f := range c.Findings {
		kinds[f.Kind] = f
	}
	for kind, at := range map[string]string{"additionalProperties": "/project/homepage", "pattern": "/releases/0/version", protocol.RuleStatusNotice: "/releases/0/deprecated"} {
		f, ok := kinds[kind]
		if !ok {
			t.Errorf("no %s finding in %+v", kind, c.Findings)
			continue
		}
		if f.At != at {
			t.Errorf("%s finding at %q, want %q", kind, f.At, at)
		}
		if len(f.Quotes) == 0 || !strings.Contains(f.Words, "{1}") {
			t.Errorf("%s finding quotes nothing apart: %+v", kind, f)
		}
		for _, q := range f.Quotes {
			if strings.Contains(q, "/") && strings.Contains(f.Words, q) {
				t.Errorf("%s finding: quotation %q left in the words %q", kind, q, f.Words)
			}
		}
	}
	if f := kinds["additionalProperties"]; len(f.Quotes) == 0 || f.Quotes[0] != "homepage" {
		t.Errorf("the unknown field's name is not its quotation: %+v", f)
	}
	own := filepath.Join(l.state, filepath.FromSlash(ownClaimPath(candle, l.site(tplDir))))
	b, err := os.ReadFile(own)
	if err != nil {
		t.Fatalf("the claim's own file: %v", err)
	}
	if n := strings.Count(string(b), `"kind"`); n != len(c.Findings) || n < 3 {
		t.Errorf("the own file holds %d findings, the claim %d:\n%s", n, len(c.Findings), b)
	}

	// The same refused bytes are not read again, and their findings stay.
	l.refresh(src)
	if again := l.claim(candle, tplDir); len(again.Findings) != len(c.Findings) || deref(again.Problem) != deref(c.Problem) {
		t.Errorf("the refused bytes' findings changed on the next refresh: %d, problem %s", len(again.Findings), deref(again.Problem))
	}

	// A failed fetch is the read's one finding, its URL quoted apart.
	l.publish(tplDir, candle, append(threeFaults(t, good), ' '), true)
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, candle+".json") {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	l.refresh(src)
	c = l.claim(candle, tplDir)
	if len(c.Findings) != 1 || c.Findings[0].Kind != store.ClaimManifestUnreachable || len(c.Findings[0].Quotes) != 1 ||
		!strings.HasSuffix(c.Findings[0].Quotes[0], candle+".json") || strings.Contains(c.Findings[0].Words, "http") {
		t.Errorf("a 503: findings %+v (problem %s)", c.Findings, deref(c.Problem))
	}
	if got := c.Findings[0].Text(); got != deref(c.Problem) {
		t.Errorf("the finding says %q, the record %q", got, deref(c.Problem))
	}

	// A record rewritten without this index (its bytes change) leaves its own file stale:
	// the claim has no findings, and its problem string still says why.
	rel := store.ClaimPath(candle, l.site(tplDir))
	rec, err := os.ReadFile(filepath.Join(l.state, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.state, filepath.FromSlash(rel)), append(rec, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if stale := l.claim(candle, tplDir); stale.Findings != nil || deref(stale.Problem) != deref(c.Problem) {
		t.Errorf("a stale own file still applies: %+v", stale.Findings)
	}

	// An accepted manifest clears them, own file and all.
	l.setIntercept(nil)
	l.publish(tplDir, candle, good, true)
	l.refresh(src)
	if c := l.claim(candle, tplDir); c.Health != store.ClaimCurrent || c.Findings != nil {
		t.Errorf("current again: health %s, findings %+v", c.Health, c.Findings)
	}
	if b, err := os.ReadFile(own); err == nil && strings.Contains(string(b), "findings") {
		t.Errorf("the own file of a current claim keeps findings:\n%s", b)
	}
}

// TestFindingsOfAnInvalidIndex: a site index with faults records every finding on the origin,
// and each listed claim, cached, carries them as why it is stale.
func TestFindingsOfAnInvalidIndex(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	src := l.source(tplDir)
	l.refresh(src)
	l.editIndex(tplDir, func(doc map[string]any) {
		doc["mirror"] = "x"
		doc["site"].(map[string]any)["colour"] = "red"
	})
	l.refresh(src)
	o := l.origin(tplDir)
	if o.Health != store.OriginInvalidIndex || len(o.Findings) < 2 {
		t.Fatalf("origin %s with findings %+v (problem %s)", o.Health, o.Findings, deref(o.Problem))
	}
	var at []string
	for _, f := range o.Findings {
		at = append(at, f.At)
	}
	if got := strings.Join(at, " "); !strings.Contains(got, "/mirror") || !strings.Contains(got, "/site/colour") {
		t.Errorf("origin findings at %s", got)
	}
	c := l.claim(candle, tplDir)
	if c.Health != store.ClaimOriginUnavailable || len(c.Findings) != len(o.Findings) {
		t.Errorf("claim %s with %d findings, the site %d", c.Health, len(c.Findings), len(o.Findings))
	}
}

// TestInspectListsEverySiteFinding: inspect of a site whose index has two faults lists both
// under the site, each on its line with its pointer and kind.
func TestInspectListsEverySiteFinding(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.editIndex(tplDir, func(doc map[string]any) {
		doc["mirror"] = "x"
		doc["site"].(map[string]any)["colour"] = "red"
	})
	rep, err := Inspect(context.Background(), l.source(tplDir), l.options())
	if err != nil {
		t.Fatal(err)
	}
	text := rep.String()
	if !strings.Contains(text, "\n  every finding (") {
		t.Errorf("inspect lists no findings under the site:\n%s", text)
	}
	for _, want := range []string{"\n    /mirror [additionalProperties] unknown field \"mirror\"", "\n    /site/colour [additionalProperties] unknown field \"colour\""} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect does not list %q:\n%s", want, text)
		}
	}
}

// ownClaimPath is the own file of a claim record.
func ownClaimPath(project, site string) string {
	p, _ := store.OwnPath(store.ClaimPath(project, site))
	return p
}
