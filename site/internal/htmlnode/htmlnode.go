// Package htmlnode holds the two walks over parsed HTML (golang.org/x/net/html) that the link
// checker (site/linkcheck) and the site's page tests both make.
package htmlnode

import "golang.org/x/net/html"

// Walk calls f on n and, while f returns true, on its descendants in document order.
func Walk(n *html.Node, f func(*html.Node) bool) {
	if !f(n) {
		return
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		Walk(ch, f)
	}
}

// Attr is n's attribute key (no namespace), and whether n has it.
func Attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
