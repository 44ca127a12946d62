package render

import (
	"fmt"
	"regexp"

	"github.com/tdewolff/parse/v2/buffer"

	"github.com/tdewolff/minify/v2"
	mcss "github.com/tdewolff/minify/v2/css"
	mhtml "github.com/tdewolff/minify/v2/html"
	mjs "github.com/tdewolff/minify/v2/js"
	mjson "github.com/tdewolff/minify/v2/json"
	msvg "github.com/tdewolff/minify/v2/svg"
	mxml "github.com/tdewolff/minify/v2/xml"
)

// Media types the minifier knows, by the output file's extension.
var mediaTypes = map[string]string{
	".html": "text/html",
	".css":  "text/css",
	".js":   "application/javascript",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".xml":  "text/xml",
}

// newMinifier returns the minifier for every text file the build writes. Attribute quotes,
// end tags and the <head> and <body> tags go wherever HTML's parsing rules make them
// optional, which is about 1.3 KB of a claim page: every HTML parser (browsers,
// golang.org/x/net/html, the link checker) builds the same tree without them. <html lang>
// stays, for its attribute. JSON numbers are kept exactly as written (sizes, versions).
func newMinifier() *minify.M {
	m := minify.New()
	m.Add("text/html", &mhtml.Minifier{})
	m.AddFunc("text/css", mcss.Minify)
	m.AddFunc("application/javascript", mjs.Minify)
	m.Add("application/json", &mjson.Minifier{KeepNumbers: true})
	m.AddFunc("image/svg+xml", msvg.Minify)
	m.AddFuncRegexp(regexp.MustCompile(`[/+]xml$`), mxml.Minify)
	return m
}

// minifyInto minifies b as the file type of ext into dst (whose contents are replaced);
// unknown extensions are returned unchanged. The minifier reads b in place (a bytes.Reader
// would copy it whole first) and needs one byte of spare capacity after b, or it copies b to
// add its terminator.
func minifyInto(m *minify.M, ext string, b, dst []byte) ([]byte, error) {
	mt, ok := mediaTypes[ext]
	if !ok {
		return b, nil
	}
	out := buffer.NewWriter(dst[:0])
	if err := m.Minify(mt, out, buffer.NewReader(b)); err != nil {
		return nil, fmt.Errorf("minify %s: %w", mt, err)
	}
	return out.Bytes(), nil
}
