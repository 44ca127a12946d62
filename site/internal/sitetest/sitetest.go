// Package sitetest writes small built-site trees for the tests of the site and of its link
// checker (site/linkcheck).
package sitetest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteSite writes files (slash path -> content) under a new temporary directory and returns
// the directory.
func WriteSite(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Doc is a minimal complete HTML page (doctype, lang, title, one h1) with body after the h1.
func Doc(body string) string {
	return `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><h1>T</h1>` + body + `</body></html>`
}
