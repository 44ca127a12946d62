package site

import (
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/htmlnode"
	"golang.org/x/net/html"
)

// Tests read built pages as HTML trees with these helpers.

// walk and attr are htmlnode's, as the link checker uses them.
var (
	walk = htmlnode.Walk
	attr = htmlnode.Attr
)

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
