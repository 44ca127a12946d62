// Package htmlcheck lets tests check HTML by structure instead of by substrings of its bytes:
// parse a page (golang.org/x/net/html), find elements with a small subset of CSS selectors,
// and read their text and attributes. A test that looks for `<a href="/x/">` as a string
// breaks when attributes move and passes when the link is inside a comment; one that asks
// for `a[href="/x/"]` does neither.
//
// Selectors: a group of comma-separated complex selectors; each is compound selectors joined
// by descendant (white space) or child (">") combinators; a compound is an optional type
// ("a", "*") followed by any of "#id", ".class" and attribute tests "[name]", "[name=v]",
// "[name~=v]", "[name^=v]", "[name$=v]", "[name*=v]" (values bare or in single or double
// quotes). Names match ASCII case-insensitively, values exactly. Anything else is an error.
package htmlcheck

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"golang.org/x/net/html"
)

// Parse parses an HTML document, failing the test when it cannot.
func Parse(t testing.TB, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("parsing HTML: %v", err)
	}
	return doc
}

// Selector is a compiled selector.
type Selector struct {
	src  string
	alts [][]step // the group's complex selectors, each its steps left to right
}

// step is one compound selector and the combinator that joins it to the step before it.
type step struct {
	child bool // ">" before it; else a descendant of the step before
	tag   string
	id    string
	class []string
	attrs []attrTest
}

type attrTest struct {
	name, op, val string // op "" tests presence
}

// Compile compiles a selector, or says what in it is not in the supported subset.
func Compile(sel string) (*Selector, error) {
	s := &Selector{src: sel}
	for _, part := range strings.Split(sel, ",") {
		steps, err := parseComplex(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("selector %q: %v", sel, err)
		}
		s.alts = append(s.alts, steps)
	}
	return s, nil
}

// MustCompile is Compile, failing the test on a bad selector.
func MustCompile(t testing.TB, sel string) *Selector {
	t.Helper()
	s, err := Compile(sel)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *Selector) String() string { return s.src }

func parseComplex(src string) ([]step, error) {
	if src == "" {
		return nil, fmt.Errorf("an empty selector")
	}
	var steps []step
	child := false
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n':
			i++
			continue
		case c == '>':
			if child || len(steps) == 0 {
				return nil, fmt.Errorf("a '>' with nothing on its left")
			}
			child = true
			i++
			continue
		}
		st, n, err := parseCompound(src[i:])
		if err != nil {
			return nil, err
		}
		st.child = child
		child = false
		steps = append(steps, st)
		i += n
	}
	if child {
		return nil, fmt.Errorf("a '>' with nothing on its right")
	}
	return steps, nil
}

// parseCompound parses the compound selector at the start of src and returns its length.
func parseCompound(src string) (step, int, error) {
	var st step
	i := 0
	name := func() string {
		j := i
		for j < len(src) && (isNameByte(src[j])) {
			j++
		}
		n := src[i:j]
		i = j
		return n
	}
	if i < len(src) && src[i] == '*' {
		i++
	} else if n := name(); n != "" {
		st.tag = strings.ToLower(n)
	}
	for i < len(src) {
		switch src[i] {
		case '#':
			i++
			if st.id = name(); st.id == "" {
				return st, 0, fmt.Errorf("'#' without an id")
			}
		case '.':
			i++
			c := name()
			if c == "" {
				return st, 0, fmt.Errorf("'.' without a class")
			}
			st.class = append(st.class, c)
		case '[':
			end := strings.IndexByte(src[i:], ']')
			if end < 0 {
				return st, 0, fmt.Errorf("'[' without ']'")
			}
			a, err := parseAttr(src[i+1 : i+end])
			if err != nil {
				return st, 0, err
			}
			st.attrs = append(st.attrs, a)
			i += end + 1
		case ' ', '\t', '\n', '>':
			return st, i, nil
		default:
			return st, 0, fmt.Errorf("%q is not in the supported subset", src[i:])
		}
	}
	if i == 0 {
		return st, 0, fmt.Errorf("nothing to match")
	}
	return st, i, nil
}

func parseAttr(src string) (attrTest, error) {
	op := strings.IndexAny(src, "=~^$*")
	if op < 0 {
		n := strings.TrimSpace(src)
		if !isName(n) {
			return attrTest{}, fmt.Errorf("attribute test %q: %q is not a name", src, n)
		}
		return attrTest{name: strings.ToLower(n)}, nil
	}
	a := attrTest{name: strings.ToLower(strings.TrimSpace(src[:op]))}
	rest := src[op:]
	switch {
	case strings.HasPrefix(rest, "="):
		a.op, rest = "=", rest[1:]
	case len(rest) >= 2 && rest[1] == '=':
		a.op, rest = rest[:2], rest[2:]
	default:
		return a, fmt.Errorf("attribute test %q is not in the supported subset", src)
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && (rest[0] == '"' || rest[0] == '\'') && rest[len(rest)-1] == rest[0] {
		rest = rest[1 : len(rest)-1]
	}
	if !isName(a.name) {
		return a, fmt.Errorf("attribute test %q: %q is not a name", src, a.name)
	}
	a.val = rest
	return a, nil
}

func isName(s string) bool {
	for i := range len(s) {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Match reports whether the element n matches s.
func (s *Selector) Match(n *html.Node) bool {
	return slices.ContainsFunc(s.alts, func(steps []step) bool { return matchSteps(n, steps) })
}

// matchSteps reports whether n matches the last step and its ancestors the ones before it.
func matchSteps(n *html.Node, steps []step) bool {
	last := steps[len(steps)-1]
	if !last.match(n) {
		return false
	}
	if len(steps) == 1 {
		return true
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			break
		}
		if matchSteps(p, steps[:len(steps)-1]) {
			return true
		}
		if last.child {
			break
		}
	}
	return false
}

func (st step) match(n *html.Node) bool {
	if n.Type != html.ElementNode || st.tag != "" && n.Data != st.tag {
		return false
	}
	if st.id != "" {
		if v, ok := htmlnode.Attr(n, "id"); !ok || v != st.id {
			return false
		}
	}
	for _, c := range st.class {
		v, _ := htmlnode.Attr(n, "class")
		if !slices.Contains(strings.Fields(v), c) {
			return false
		}
	}
	for _, a := range st.attrs {
		v, ok := htmlnode.Attr(n, a.name)
		if !ok {
			return false
		}
		switch a.op {
		case "=":
			ok = v == a.val
		case "~=":
			ok = slices.Contains(strings.Fields(v), a.val)
		case "^=":
			ok = a.val != "" && strings.HasPrefix(v, a.val)
		case "$=":
			ok = a.val != "" && strings.HasSuffix(v, a.val)
		case "*=":
			ok = a.val != "" && strings.Contains(v, a.val)
		}
		if !ok {
			return false
		}
	}
	return true
}

// All returns every element under n (n included) that matches sel, in document order.
func All(t testing.TB, n *html.Node, sel string) []*html.Node {
	t.Helper()
	s := MustCompile(t, sel)
	var out []*html.Node
	htmlnode.Walk(n, func(n *html.Node) bool {
		if s.Match(n) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// One returns the one element under n that matches sel, failing the test when there is none
// or more than one.
func One(t testing.TB, n *html.Node, sel string) *html.Node {
	t.Helper()
	all := All(t, n, sel)
	if len(all) != 1 {
		t.Fatalf("%d elements match %q, want 1", len(all), sel)
	}
	return all[0]
}

// Count is the number of elements under n matching sel.
func Count(t testing.TB, n *html.Node, sel string) int {
	t.Helper()
	return len(All(t, n, sel))
}

// Text is the text of n as a reader sees it: its text nodes (not those of script, style or
// template elements) joined, white space runs collapsed to one space and trimmed.
func Text(n *html.Node) string {
	var b strings.Builder
	htmlnode.Walk(n, func(n *html.Node) bool {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			switch n.Data {
			case "script", "style", "template":
				return false
			}
		}
		return true
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// Attr is the value of n's attribute key ("" when it has none).
func Attr(n *html.Node, key string) string {
	v, _ := htmlnode.Attr(n, key)
	return v
}

// Texts is the Text of every element under n matching sel.
func Texts(t testing.TB, n *html.Node, sel string) []string {
	t.Helper()
	var out []string
	for _, e := range All(t, n, sel) {
		out = append(out, Text(e))
	}
	return out
}

// Has reports whether the Text of some element under n matching sel holds s. It fails the
// test when sel matches nothing, so that a check cannot pass on a page that lost the element.
func Has(t testing.TB, n *html.Node, sel, s string) bool {
	t.Helper()
	texts := Texts(t, n, sel)
	if len(texts) == 0 {
		t.Fatalf("no element matches %q", sel)
	}
	for _, txt := range texts {
		if strings.Contains(txt, s) {
			return true
		}
	}
	return false
}

// Want fails the test for each of wants that no element under n matching sel holds in its
// Text, and when sel matches nothing.
func Want(t testing.TB, n *html.Node, sel string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !Has(t, n, sel, w) {
			t.Errorf("no %q element says %q; they say %.300q", sel, w, Texts(t, n, sel))
		}
	}
}

// Lacks fails the test for each of bads that an element under n matching sel holds in its
// Text, and when sel matches nothing.
func Lacks(t testing.TB, n *html.Node, sel string, bads ...string) {
	t.Helper()
	for _, b := range bads {
		if Has(t, n, sel, b) {
			t.Errorf("a %q element says %q", sel, b)
		}
	}
}
