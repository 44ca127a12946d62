package assets

import (
	"bufio"
	"bytes"
	"io/fs"
	"strings"
	"testing"
)

// TestScriptsDeclareEachFunctionOnce: no script declares two functions of one name in the
// scope of its body (two spaces in): the later would silently replace the earlier for every
// caller, as a second tokenOf in planpage.js once did.
func TestScriptsDeclareEachFunctionOnce(t *testing.T) {
	names, err := fs.Glob(FS, "*.js")
	if err != nil || len(names) == 0 {
		t.Fatalf("no scripts (%v)", err)
	}
	for _, name := range names {
		src, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			rest, ok := strings.CutPrefix(sc.Text(), "  function ")
			if !ok {
				continue
			}
			fn, _, _ := strings.Cut(rest, "(")
			if first, dup := seen[fn]; dup {
				t.Errorf("%s:%d declares function %s again (first at line %d)", name, line, fn, first)
			}
			seen[fn] = line
		}
	}
}
