package store

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// corpusState is the reference index's state in ../shared.
func corpusState(t *testing.T) string { return corpustest.Path(t, "state") }

func TestLoadCorpusState(t *testing.T) {
	s, err := Open(corpusState(t)).Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Sources) != 14 || len(s.Origins) != 14 || len(s.Claims) != 45 || len(s.Events) != 15 {
		t.Fatalf("got %d sources, %d origins, %d claims, %d events; want 14, 14, 45, 15",
			len(s.Sources), len(s.Origins), len(s.Claims), len(s.Events))
	}
	if s.Network == nil || s.Network.ObservedAt != "2026-10-10T12:36:05Z" {
		t.Fatalf("network.json: %+v", s.Network)
	}
	for _, c := range s.Claims {
		if SiteID(originIndexURL(s, c.Origin)) != c.Origin {
			t.Errorf("claim %s: origin %s is not named from its index URL", c.Project, c.Origin)
		}
	}
}

func originIndexURL(s *Snapshot, id string) string {
	for _, o := range s.Origins {
		if o.ID == id {
			return o.IndexURL
		}
	}
	return ""
}
