package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every record type writes exactly the reference index's keys, in its order (claim moved_to and
// moved_from excepted: read from earlier states, listed in Differences), every key of an own
// file is listed in Differences, and docs/reference-operators.md lists each with its why.
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
	for rec, typ := range types {
		var keys []string
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if rec == "claim" && (name == "moved_to" || name == "moved_from") {
				if !listed["claims/<project>/<site>/claim.json "+name] {
					t.Errorf("claim %s is not listed in Differences", name)
				}
				continue
			}
			keys = append(keys, name)
		}
		if strings.Join(keys, ",") != strings.Join(reference[rec], ",") {
			t.Errorf("%s keys %v, want exactly the reference's %v in that order", rec, keys, reference[rec])
		}
	}
	owns := map[string]reflect.Type{
		ownNetwork: reflect.TypeFor[networkOwn](), ownSource: reflect.TypeFor[sourceOwn](),
		ownOrigin: reflect.TypeFor[originOwn](), ownClaim: reflect.TypeFor[claimOwn](),
	}
	seen := map[string]bool{}
	for file, typ := range owns {
		for i := range typ.NumField() {
			name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "record_sha256" {
				continue
			}
			field := file + " " + name
			seen[field] = true
			if !listed[field] {
				t.Errorf("%s is not listed in Differences", field)
			}
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				t.Errorf("%s is written even when unset", field)
			}
		}
	}
	for f := range listed {
		if !seen[f] && !strings.HasPrefix(f, ClaimsDir+"/") {
			t.Errorf("Differences lists %s, which no own file holds", f)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "reference-operators.md"))
	must(t, err)
	for _, d := range Differences {
		if !strings.Contains(string(doc), "- `"+d.Field+"`: "+d.Why) {
			t.Errorf("docs/reference-operators.md does not list %s with its why", d.Field)
		}
	}
}
