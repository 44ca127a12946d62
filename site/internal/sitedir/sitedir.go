// Package sitedir is what a built site directory holds that the build (site), the link checker
// (site/linkcheck) and the preview server (site/preview) share: the marker file and the base URL
// it records, the 404 page's name, and the URL path the site is published under.
package sitedir

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Marker is the file every built site holds. The build replaces an existing output directory
// only when it holds this file (or is empty), so a mistyped --out never deletes someone's files.
const Marker = ".ashyams-site"

// MarkerBase starts the marker's line recording the base URL the site was built for, which
// check-site and serve read (BaseURL).
const MarkerBase = "base_url: "

// NotFoundPage is the page a host serves for a path it has no file for.
const NotFoundPage = "404.html"

// BaseURL is the base URL the site in out was built for, as its Marker records it; "" when out
// holds no marker or its marker has no base_url line.
// Errors: a marker that cannot be read.
func BaseURL(out string) (string, error) {
	b, err := os.ReadFile(filepath.Join(out, Marker))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, MarkerBase); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", nil
}

// BasePath is the path of a base URL, with a final "/": "/ashyams-go/" for
// https://dreamweave-mp.github.io/ashyams-go/, "/" for a site at a host's root or "".
func BasePath(base string) string {
	u, err := url.Parse(base)
	if base == "" || err != nil || u.Path == "" {
		return "/"
	}
	p := CanonPath(u.EscapedPath())
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// CanonPath is an escaped URL path in one spelling, so two spellings of one path compare
// equal: html/template writes "it's" as "it%27s" in a link, a person may type "%c3%a9" for
// "é". Escapes are decoded and the path escaped again the way net/url does ("/my%20index/",
// "/ind%C3%A9x/", "/it%27s/"); a path that does not decode is returned as it is.
func CanonPath(p string) string {
	dec, err := url.PathUnescape(p)
	if err != nil || strings.Contains(dec, "%2F") {
		return p
	}
	return (&url.URL{Path: dec}).EscapedPath()
}
