package find

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

// TestFindWordsAgreeWithScript: the build's words (words, which find.json's index is made
// of) are the words assets/find.js makes of a query, for every name, summary, tag and
// further word of a generated network and the real corpus (when present) and for text past ASCII whose lowercase needs care (final
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
	for _, n := range sitetest.Networks(t, 60) {
		for _, c := range n.Claims {
			more, _ := Extra(c)
			texts = append(texts, c.Name, more, c.Key.Site)
			if m := c.Manifest; m != nil {
				texts = append(texts, m.Project.Summary)
				texts = append(texts, m.Project.Tags...)
			}
		}
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	script := `const f = require(process.argv[1]); let s = ""; process.stdin.on("data", d => s += d).on("end", () => process.stdout.write(JSON.stringify(JSON.parse(s).map(f.words))));`
	cmd := exec.Command(node, "-e", script, filepath.Join("..", "..", "assets", "find.js"))
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
		if goWords := Words(s); !slices.Equal(goWords, js[i]) && !(len(goWords) == 0 && len(js[i]) == 0) {
			t.Errorf("%q: the build's words are %q, the script's %q", s, goWords, js[i])
		}
	}
}

// TestFindPartRefused: a part that breaks its kind's schema is refused, the error naming the
// value, so a build never writes one.
func TestFindPartRefused(t *testing.T) {
	for _, c := range []struct{ schema, doc, want string }{
		{schemas.FindTerms, `{"format":"ashyams-find-terms-1","rows":1,"chunk":64,"same":[],"no_release":"","words":["a"],"postings":[""]}`, "/postings/0"},
		{schemas.FindIDs, `{"format":"ashyams-find-ids-1","ids":["not-an-id"],"postings":["0"]}`, "/ids/0"},
		{schemas.FindFilters, `{"format":"ashyams-find-filters-1"}`, "missing"},
		{schemas.FindRows, `{"format":"ashyams-find-rows-1","columns":[],"row_tags":12,"from":0,"rows":[]}`, "/columns"},
	} {
		err := validateFind(c.schema, []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %s: error %v, want one naming %q", c.schema, c.doc, err, c.want)
		}
	}
}

// TestFindWords: the build's words are runs of letters and digits, lowercased a character at
// a time, and sort as JavaScript compares strings (a character past U+FFFF after U+E000..).
func TestFindWords(t *testing.T) {
	for in, want := range map[string]string{
		"Candlelight: 0.49-Lua!":  "candlelight 0 49 lua",
		"ΟΔΟΣ İstanbul":           "οδοσ istanbul",
		"a\u0301b  x_y\u200dz 12": "a b x y z 12",
		"":                        "",
	} {
		if got := strings.Join(Words(in), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
	ws := []string{"\U0001F600", "\uFF21", "b", "a"}
	sortUTF16(ws)
	if want := []string{"a", "b", "\U0001F600", "\uFF21"}; !slices.Equal(ws, want) {
		t.Errorf("sortUTF16 = %q, want %q", ws, want)
	}
}
