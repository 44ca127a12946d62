package site

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestFindWordsAgreeWithScript: the build's words (findWords, which find.json's index is made
// of) are the words assets/find.js makes of a query, for every name, summary, tag and
// further word of the real corpus and for text past ASCII whose lowercase needs care (final
// sigma, dotted I, title case, numbers that are not digits, marks, emoji), so any query
// typed as a listing spells it finds that listing.
func TestFindWordsAgreeWithScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("node is not installed, and CI installs it: %v", err)
		}
		t.Skipf("node is not installed (%v)", err)
	}
	texts := []string{"ΟΔΟΣ Σίσυφος", "İstanbul IJssel ǅemal ǈ", "Ⅻ ² ٣ ⑦ x²", "e\u0301te\u0301 a\u200db", "🙂 Smile 🙂", "ＦＵＬＬ width", "ẞtraße", "Ꭰꭰ", "\U0001D400BC"}
	n, err := network.Load(store.Open(filepath.Join(corpusRoot(t), "state")), &curation.Curation{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range n.Claims {
		more, _ := findMore(c)
		texts = append(texts, c.Name, more, c.Key.Site)
		if m := c.Manifest; m != nil {
			texts = append(texts, m.Project.Summary)
			texts = append(texts, m.Project.Tags...)
		}
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	script := `const f = require(process.argv[1]); let s = ""; process.stdin.on("data", d => s += d).on("end", () => process.stdout.write(JSON.stringify(JSON.parse(s).map(f.words))));`
	cmd := exec.Command(node, "-e", script, filepath.Join("..", "assets", "find.js"))
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var js [][]string
	if err := json.Unmarshal(out, &js); err != nil || len(js) != len(texts) {
		t.Fatalf("node answered %d lists for %d texts (%v)", len(js), len(texts), err)
	}
	for i, s := range texts {
		if goWords := findWords(s); !slices.Equal(goWords, js[i]) && !(len(goWords) == 0 && len(js[i]) == 0) {
			t.Errorf("%q: the build's words are %q, the script's %q", s, goWords, js[i])
		}
	}
}
