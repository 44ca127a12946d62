package store

import (
	"os"
	"testing"
)

// Remove deletes a file and the directories it leaves empty below the top-level ones; a file
// already gone is no error, and a directory still holding something stays.
func TestRemove(t *testing.T) {
	d := Open(t.TempDir())
	m1, c1 := ManifestPath("p", "a"), ClaimPath("p", "a")
	c2 := ClaimPath("p", "b")
	for _, rel := range []string{m1, c1, c2} {
		must(t, d.WriteBytes(rel, []byte("{}\n")))
	}
	must(t, d.Remove(m1))
	if d.Exists(m1) || !d.Exists(c1) {
		t.Fatal("Remove took the wrong file")
	}
	must(t, d.Remove(c1))
	if _, err := os.Stat(d.Path(ClaimsDir + "/p/a")); !os.IsNotExist(err) {
		t.Errorf("claims/p/a stays empty: %v", err)
	}
	if !d.Exists(c2) {
		t.Fatal("Remove took a sibling")
	}
	must(t, d.Remove(c1)) // gone already
	must(t, d.Remove(c2))
	for _, dir := range []string{ClaimsDir + "/p", ClaimsDir} {
		_, err := os.Stat(d.Path(dir))
		if dir == ClaimsDir && err != nil {
			t.Errorf("the top-level %s was removed: %v", dir, err)
		}
		if dir != ClaimsDir && !os.IsNotExist(err) {
			t.Errorf("%s stays empty: %v", dir, err)
		}
	}
}
