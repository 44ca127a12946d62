package site

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestFindIndex: find.json holds one row per listed claim, in the project list's order, each
// with every column; it is minified; and it carries the words a search finds that the entry
// does not show (a maintainer's name).
func TestFindIndex(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	synthState(t, state, 30)
	res, out := build(t, state, Options{})
	raw := readOut(t, out, FindFile)
	if bytes.Contains(raw, []byte("\n ")) {
		t.Error("find.json is indented")
	}
	var doc struct {
		Format  string   `json:"format"`
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != findFormat || len(doc.Columns) != len(findColumns) {
		t.Fatalf("find.json: format %q, %d columns", doc.Format, len(doc.Columns))
	}
	listed := byName(res.Network.Listed)
	if len(doc.Rows) != len(listed) {
		t.Fatalf("find.json has %d rows for %d listed claims", len(doc.Rows), len(listed))
	}
	col := map[string]int{}
	for i, c := range doc.Columns {
		col[c] = i
	}
	for i, r := range doc.Rows {
		if len(r) != len(doc.Columns) {
			t.Fatalf("row %d has %d values for %d columns", i, len(r), len(doc.Columns))
		}
		if k := listed[i].Key.Project + "/" + listed[i].Key.Site; r[col["key"]] != k {
			t.Errorf("row %d is %v, want %s (name order)", i, r[col["key"]], k)
		}
		if more, _ := r[col["more"]].(string); !bytes.Contains([]byte(more), []byte("someone")) {
			t.Errorf("row %d's further words %q lack the maintainer", i, more)
		}
	}
}
