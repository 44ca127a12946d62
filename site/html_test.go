package site

import (
	"strings"

	"golang.org/x/net/html"
)

// Tests read built pages as HTML trees with these helpers.

// walk calls f on n and, while f returns true, on its descendants in document order.
func walk(n *html.Node, f func(*html.Node) bool) {
	if !f(n) {
		return
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		walk(ch, f)
	}
}

// attr is n's attribute key (no namespace), and whether n has it.
func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// textOf is the text of n and its descendants, joined.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(m *html.Node) bool {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
		return true
	})
	return b.String()
}

// isPublisher reports whether n carries the data-publisher attribute (publisher text).
func isPublisher(n *html.Node) bool {
	_, ok := attr(n, "data-publisher")
	return ok
}
