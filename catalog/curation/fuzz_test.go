package curation

import (
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/tomlfile"
)

// FuzzParse: no input panics, and whatever is accepted holds the invariants Parse promises.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(""))
	f.Add([]byte("[[featured]]\nproject = \"" + idA + "\"\nnote = \"n\"\n"))
	f.Add([]byte("migration = 1\n"))
	f.Add([]byte("[[migration]]\nreviewed = 2026-02-30\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("fuzz.toml", b)
		if err != nil {
			return
		}
		for _, m := range c.Migrations {
			if !store.IsProjectID(m.Project) || tomlfile.CheckURL(m.From) != "" || tomlfile.CheckURL(m.To) != "" || m.From == m.To || m.Reason == "" {
				t.Fatalf("accepted a bad migration %+v", m)
			}
			if _, err := time.Parse(time.DateOnly, m.Reviewed); err != nil {
				t.Fatalf("accepted reviewed %q", m.Reviewed)
			}
		}
		for _, f := range c.Featured {
			if !store.IsProjectID(f.Project) || f.Note == "" {
				t.Fatalf("accepted a bad featured entry %+v", f)
			}
		}
	})
}
