package site

import (
	"encoding/xml"
	"strings"
	"testing"

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

// sitemap is a sitemap file read back: its root element's name ("urlset" or "sitemapindex")
// and every <loc>, in order.
func sitemap(t testing.TB, b []byte) (root string, locs []string) {
	t.Helper()
	var doc struct {
		XMLName xml.Name
		Locs    []string `xml:"url>loc"`
		Maps    []string `xml:"sitemap>loc"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("a sitemap that does not parse: %v", err)
	}
	return doc.XMLName.Local, append(doc.Locs, doc.Maps...)
}

// cspDirectives is a Content-Security-Policy read as its directives: name -> sources.
func cspDirectives(csp string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		if name, sources, _ := strings.Cut(strings.TrimSpace(d), " "); name != "" {
			out[name] = sources
		}
	}
	return out
}
