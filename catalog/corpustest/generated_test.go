package corpustest

import (
	"encoding/json"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Every generated stand-in is a manifest the protocol accepts, so a test on it checks the
// behaviour it names and not a refusal.
func TestGeneratedFixturesAreValid(t *testing.T) {
	for name, p := range Fixtures {
		b, err := json.Marshal(Manifest(p))
		if err != nil {
			t.Fatal(err)
		}
		if m, fs := protocol.ValidateManifest(b, p.ID); m == nil || len(fs) > 0 {
			t.Errorf("%s: %s", name, protocol.Summary(fs))
		}
	}
}
