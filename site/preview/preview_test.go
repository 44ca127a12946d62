package preview

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
)

func TestHandler(t *testing.T) {
	out := t.TempDir()
	for name, body := range map[string]string{"index.html": "home", "a/index.html": "a", "a/x.css": "css", "noindex/file.txt": "f", ".ashyams-site": "marker", "404.html": "missing"} {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	srv := httptest.NewServer(Handler(out))
	defer srv.Close()
	for _, c := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"GET", "/", 200, "home"},
		{"GET", "/a/", 200, "a"},
		{"GET", "/a/x.css", 200, "css"},
		{"HEAD", "/a/", 200, ""},
		{"GET", "/noindex/", 404, "missing"}, // no directory listings
		{"GET", "/noindex/file.txt", 200, "f"},
		{"GET", "/.ashyams-site", 404, "missing"},
		{"GET", "/../../etc/passwd", 404, "missing"},
		{"GET", "/nope.html", 404, "missing"},
		{"POST", "/", 405, "method not allowed\n"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || string(b) != c.body {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, resp.StatusCode, b, c.code, c.body)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: no nosniff header", c.method, c.path)
		}
	}
}

// TestHandlerUnderBasePath: a site built for https://host/ashyams-go/ is served under
// /ashyams-go/ (read from the build's marker), the way GitHub Pages serves it: files resolve
// below it, anything else is the 404 page, whose root-relative links then resolve on the same
// server; the root answers as an alias.
func TestHandlerUnderBasePath(t *testing.T) {
	out := t.TempDir()
	for name, body := range map[string]string{"index.html": "home", "a/index.html": "a", "assets/site.css": "css",
		".ashyams-site": "marker\n" + sitedir.MarkerBase + "https://idx.example/ashyams-go/\n", "404.html": "missing"} {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	srv := httptest.NewServer(Handler(out))
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path, location string
		code           int
		body           string
	}{
		{"/", "", 200, "home"},
		{"/ashyams-go", "/ashyams-go/", 302, ""},
		{"/ashyams-go/", "", 200, "home"},
		{"/ashyams-go/a/", "", 200, "a"},
		{"/ashyams-go/assets/site.css", "", 200, "css"},
		{"/assets/site.css", "", 200, "css"},
		{"/ashyams-go/ashyams-go/", "", 404, "missing"},
		{"/ashyams-go/nope/", "", 404, "missing"},
		{"/ashyams-go/.ashyams-site", "", 404, "missing"},
		{"/ashyams-go/../../etc/passwd", "", 404, "missing"},
	} {
		resp, err := client.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || (c.code != 302 && string(b) != c.body) || resp.Header.Get("Location") != c.location {
			t.Errorf("GET %s: %d %q (Location %q), want %d %q (Location %q)", c.path, resp.StatusCode, b, resp.Header.Get("Location"), c.code, c.body, c.location)
		}
	}
}
