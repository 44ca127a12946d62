package validate

import "testing"

// TestPointsAtComparesCanonicalURLs: an index entry names a manifest given on the command line
// when both spell one URL in the crawler's canonical form (host case, dot segments, default
// port), and not when the paths differ.
func TestPointsAtComparesCanonicalURLs(t *testing.T) {
	for _, c := range []struct {
		index, manifest, src string
		want                 bool
	}{
		{"https://Mods.Example/site/dreamweave.json", "p/x.json", "https://mods.example/site/p/x.json", true},
		{"https://mods.example/site/dreamweave.json", "./p/../p/x.json", "https://mods.example:443/site/p/x.json", true},
		{"https://mods.example/site/dreamweave.json", "https://MODS.example/site/p/x.json", "https://mods.example/site/p/x.json", true},
		{"https://mods.example/site/dreamweave.json", "p/x.json", "https://mods.example/site/p/y.json", false},
		{"https://mods.example/site/dreamweave.json", "p/x.json", "https://other.example/site/p/x.json", false},
	} {
		if got := pointsAt(c.index, c.manifest, c.src) >= 0; got != c.want {
			t.Errorf("pointsAt(%q, %q, %q) matched = %v, want %v", c.index, c.manifest, c.src, got, c.want)
		}
	}
}
