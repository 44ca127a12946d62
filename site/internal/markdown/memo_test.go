package markdown

import (
	"html/template"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

// hostileMarkdown are publisher texts meant to get something past the sanitizer, or to
// collide in a memo: scripts, javascript: links, bidi overrides, texts differing only in
// spaces, and texts that render to nothing.
var hostileMarkdown = []string{
	"<script>alert(1)</script>",
	"<script>alert(1)</script>\n\nafter",
	"[js](javascript:alert(1))",
	`<a href="javascript:alert(1)">js</a> text`,
	"<a href=\"java\tscript:alert(1)\">tab</a>",
	"[ent](&#106;avascript:alert(1))",
	"<img src=x onerror=alert(1) alt=pic>",
	"<svg><a xlink:href=\"javascript:x\">y</a></svg>",
	"<p onmouseover=alert(1) style=color:red>x</p>",
	"<iframe src=https://evil.example/>frame text</iframe>",
	"\u202eetiS\u202c reversed",
	"\u2066isolate\u2069 and \u202aembed\u202c and \u202doverride",
	"[\u202elink\u202c](https://example.org/\u202e)",
	"*em*", "*em* ", " *em*", "*em*\n",
	"# heading", "![alt](https://example.org/x.png)",
	"<!-- comment -->", "<p></p>", "---",
	"[site](https://example.org/a?b=c) and <mailto:a@example.org>",
}

// networkMarkdown is every release-notes text of one network of sitetest.Networks.
func networkMarkdown(t *testing.T, n sitetest.Network) []string {
	t.Helper()
	var out []string
	for _, c := range n.Claims {
		if c.Manifest == nil {
			continue
		}
		for _, r := range c.Manifest.Releases {
			out = append(out, notesTexts(r.Notes)...)
		}
	}
	if len(out) == 0 {
		t.Fatalf("the %s network has no release notes: nothing to compare", n.Name)
	}
	return out
}

// notesTexts is every CommonMark string of n (nil: none).
func notesTexts(n *protocol.Notes) []string {
	if n == nil {
		return nil
	}
	out := []string{n.Summary, n.Highlights, n.Migration, n.Notes}
	for _, l := range [][]string{n.Added, n.Changed, n.Fixed, n.Breaking, n.KnownIssues} {
		out = append(out, l...)
	}
	return out
}

// checkMemoMatches asserts that a memo gives for every text what Markdown gives, when the
// text is first asked for and again from the memo, and that Items matches Items.
func checkMemoMatches(t *testing.T, texts []string) {
	t.Helper()
	m := NewMemo(nil)
	for pass := 0; pass < 2; pass++ {
		for _, s := range texts {
			if got, want := m.Markdown(s), Markdown(s); got != want {
				t.Errorf("pass %d: memo(%q) = %q, Markdown = %q", pass, s, got, want)
			}
		}
	}
	got, want := m.Items(texts), Items(texts)
	if len(got) != len(want) {
		t.Fatalf("memo Items gives %d items, Items %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("Items[%d] = %q, Items = %q", i, got[i], want[i])
		}
	}
}

// TestMDMemoMatchesMarkdownHostile: for hostile texts the memo's HTML is Markdown's, byte for
// byte, the first time and every time after.
func TestMDMemoMatchesMarkdownHostile(t *testing.T) {
	checkMemoMatches(t, hostileMarkdown)
}

// TestMDMemoMatchesMarkdownNotes: the same for every release-notes text of a generated
// network (inline code, emphasis, lists, fenced code) and of the real corpus when present.
func TestMDMemoMatchesMarkdownNotes(t *testing.T) {
	for _, n := range sitetest.Networks(t, 60) {
		t.Run(n.Name, func(t *testing.T) { checkMemoMatches(t, networkMarkdown(t, n)) })
	}
}

// countingRender is Markdown that counts how often it ran for each text.
type countingRender struct {
	mu    sync.Mutex
	calls map[string]int
}

func newCountingRender() *countingRender { return &countingRender{calls: map[string]int{}} }

func (c *countingRender) render(s string) template.HTML {
	c.mu.Lock()
	c.calls[s]++
	c.mu.Unlock()
	return Markdown(s)
}

func (c *countingRender) count(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[s]
}

// TestMDMemoConcurrent: many renders asking for the same texts at once (run it with -race)
// all get Markdown's HTML, and each text is rendered exactly once; blank texts never reach the
// renderer.
func TestMDMemoConcurrent(t *testing.T) {
	texts := append([]string{"", "  \n"}, hostileMarkdown...)
	want := make([]template.HTML, len(texts))
	for i, s := range texts {
		want[i] = Markdown(s)
	}
	c := newCountingRender()
	m := NewMemo(c.render)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				i := (k + g*7) % len(texts) // each goroutine in another order
				if got := m.Markdown(texts[i]); got != want[i] {
					t.Errorf("memo(%q) = %q, want %q", texts[i], got, want[i])
				}
			}
			m.Items(texts)
		}()
	}
	wg.Wait()
	for _, s := range texts {
		n, w := c.count(s), 1
		if strings.TrimSpace(s) == "" {
			w = 0
		}
		if n != w {
			t.Errorf("%q rendered %d times, want %d", s, n, w)
		}
	}
}
