package network_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	nt "github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// FuzzModel feeds a held manifest (publisher data, as the state keeps it) and a relationship's
// constraint and capability through the model: nothing panics, a manifest that does not parse is
// an error naming its path, and every relationship's Satisfied agrees with its Check.
func FuzzModel(f *testing.F) {
	seed, _ := json.Marshal(nt.Manifest(idA, "A", "decimal",
		nt.Release("0.82", "stable", []string{"dw:a"}, nt.Requires(idB, ">=1")),
		nt.Release("0.9-dev.1", "development", nil)))
	f.Add(seed, ">=0.9", "dw:a", "numeric")
	f.Add(seed, "=0.82, !=0.820", "", "decimal")
	f.Add([]byte(`{"document":"project","project":{"id":"x","versioning":"decimal"},"releases":[{"version":"1.2.3.4.5.6.7","channel":"stable","status":"available"}]}`), "*", "dw:a", "")
	f.Add([]byte(`{"releases":[`), ">=1", "", "")
	f.Fuzz(func(t *testing.T, manifest []byte, constraint, capability, versioning string) {
		s := nt.New(t)
		one := s.Origin(urlOne)
		var m protocol.Manifest
		parses := json.Unmarshal(manifest, &m) == nil
		if parses {
			m.Document, m.Project.ID = protocol.DocProject, idA
			s.Claim(one, &m)
		} else {
			s.ClaimBytes(one, nt.Manifest(idA, "A", ""), manifest)
		}
		s.Claim(one, nt.Manifest(idB, "B", versioning, nt.Release("1.0.0", "stable", []string{capability},
			nt.Requires(idA, constraint),
			protocol.Relationship{Kind: "requires", Capability: capability, Project: idB},
		)))
		n, err := network.Load(s.Dir, nil)
		if !parses {
			if err == nil || !strings.Contains(err.Error(), "manifest.json") {
				t.Fatalf("unparseable manifest: err = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range n.Claims {
			for _, r := range c.Releases {
				for _, rel := range r.Relationships {
					decided := rel.Check == network.CheckSatisfied || rel.Check == network.CheckUnsatisfied
					if (rel.Satisfied != nil) != decided || (decided && *rel.Satisfied != (rel.Check == network.CheckSatisfied)) {
						t.Fatalf("satisfied %v with check %s", rel.Satisfied, rel.Check)
					}
				}
			}
		}
		o := format.Options{Index: format.Index{Name: "fuzz", URL: "https://i.example.org/", Repository: "https://r.example.org/"}}
		if _, err := format.Catalog(n, o); err != nil {
			t.Fatal(err)
		}
	})
}
