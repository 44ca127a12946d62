package format_test

import (
	"bytes"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
)

// The reference index's catalog test, ported black-box (the mapping of every reference test
// is site/testdata/reference-tests.md): two fixture sites crawled on loopback by a real
// refresh, one publishing Candlelight and Tallow, the other Tallow again. Both files match
// this index's schema and, with ../shared, the one the reference publishes (whose constraints
// TestSchemaSameFormatAsPublished pins ours to without it), the catalog holds the three claims
// and Tallow's conflict, and two models of the same state give the same bytes.
func TestReferencePortCatalogOfTwoSitesMatchesBothSchemas(t *testing.T) {
	_, model := twoSites(t)
	cat, ev := generate(t, model())
	_, pub, ok := corpus(t)
	for name, b := range map[string][]byte{format.CatalogFile: cat, format.EventsFile: ev} {
		if err := format.Validate(name, b); err != nil {
			t.Errorf("our schema: %v", err)
		}
		if !ok {
			continue
		}
		if err := pub.Validate(name, b); err != nil {
			t.Errorf("the reference's schema: %v", err)
		}
	}
	c := decode(t, cat)
	if claims, conflicts := c["claims"].([]any), c["conflicts"].([]any); len(claims) != 3 || len(conflicts) != 1 {
		t.Errorf("%d claims, %d conflicts; want 3 and 1 (Tallow at both sites)", len(claims), len(conflicts))
	}
	if events := decode(t, ev)["events"].([]any); len(events) != 3 {
		t.Errorf("%d events; want 3, one observed per claim", len(events))
	}
	cat2, ev2 := generate(t, model())
	if !bytes.Equal(cat, cat2) || !bytes.Equal(ev, ev2) {
		t.Error("two models of the same state give different bytes")
	}
}
