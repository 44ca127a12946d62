package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every field this index writes beyond the reference index's records is listed in Differences
// (and so in docs/reference-operators.md), and every listed field exists and is left out while unset.
func TestDifferencesListEveryExtraField(t *testing.T) {
	reference := map[string][]string{
		"network":         {"format", "crawler", "observed_at"},
		"source":          {"url", "origin", "health", "problem", "method", "trail", "last_attempt", "last_success"},
		"origin":          {"id", "index_url", "site_name", "site_url", "generator", "sources", "redirects", "validators", "index_sha256", "health", "problem", "issues", "previous", "first_observed", "last_attempt", "last_success"},
		"claim":           {"project", "origin", "entry", "advertised_sha256", "ingested_sha256", "rejected", "health", "problem", "media", "first_observed", "last_changed", "last_attempt", "last_success"},
		"claim.rejected":  {"sha256", "crawler", "problem"},
		"claim.media":     {"url", "alt", "file", "problem"},
		"origin.previous": {"origin", "index_url", "observed_at", "evidence"},
		"event":           {"id", "kind", "project", "origin", "name", "observed_at", "before", "after", "changes", "moved_from"},
	}
	types := map[string]reflect.Type{
		"network": reflect.TypeFor[Network](), "source": reflect.TypeFor[Source](), "origin": reflect.TypeFor[Origin](),
		"claim": reflect.TypeFor[Claim](), "claim.rejected": reflect.TypeFor[Rejected](), "claim.media": reflect.TypeFor[Media](),
		"origin.previous": reflect.TypeFor[Move](), "event": reflect.TypeFor[Event](),
	}
	listed := map[string]bool{}
	for _, d := range Differences {
		listed[d.Field] = true
		if d.Why == "" {
			t.Errorf("%s: no why", d.Field)
		}
	}
	seen := map[string]bool{}
	for rec, typ := range types {
		var keys []string
		for i := range typ.NumField() {
			tag := typ.Field(i).Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			keys = append(keys, name)
			field := rec + "." + name
			if !contains(reference[rec], name) {
				seen[field] = true
				if !listed[field] {
					t.Errorf("%s is not a reference key and is not listed in Differences", field)
				}
				if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
					t.Errorf("%s is written even when unset", field)
				}
			}
		}
		// The reference keys come in the reference's order.
		var ours []string
		for _, k := range keys {
			if contains(reference[rec], k) {
				ours = append(ours, k)
			}
		}
		if strings.Join(ours, ",") != strings.Join(reference[rec], ",") {
			t.Errorf("%s keys %v, want the reference's %v in that order", rec, ours, reference[rec])
		}
	}
	for f := range listed {
		if !seen[f] {
			t.Errorf("Differences lists %s, which is not a field", f)
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "reference-operators.md"))
	must(t, err)
	for _, d := range Differences {
		if !strings.Contains(string(readme), "- `"+d.Field+"`: "+d.Why) {
			t.Errorf("docs/reference-operators.md does not list %s with its why", d.Field)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
