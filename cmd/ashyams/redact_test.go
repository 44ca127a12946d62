package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// secret is the password every case below carries; no command may print it.
const secret = "s3cr3t"

// hostileURLServer serves, on loopback, a page whose site index link carries a password, a
// redirect to a URL with a password, and a site index whose manifest URL and page carry one.
func hostileURLServer(t *testing.T) string {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		withPass := "http://u:" + secret + "@" + srv.Listener.Addr().String()
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, withPass+"/dreamweave.json", http.StatusFound)
		case "/page/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><html><head><link rel="alternate" type="application/vnd.dreamweave.index+json" href="%s/dreamweave.json"></head><body></body></html>`, withPass)
		case "/index/dreamweave.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"schema_version":"2","document":"index","site":{"name":"S","url":"%[1]s/"},"projects":[{"id":"7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73","name":"N","summary":"x","type":"mod","status":"active","page":"%[1]s/n/","manifest":"%[1]s/m.json","manifest_sha256":"%064d","updated":"2026-09-18","channels":{}}]}`, withPass, 0)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestNoCommandPrintsAPassword feeds URLs carrying a password (on the command line, in the
// source list, in a redirect, a link and a site index; parsable or not, the source-list fuzz
// crasher ":s3cr3t@" included) to validate, validate --json, inspect, add and refresh, and
// asserts the password appears in no command's stdout or stderr, while each command still
// prints what it did.
func TestNoCommandPrintsAPassword(t *testing.T) {
	base := hostileURLServer(t)
	urls := []string{
		"https://u:" + secret + "@host.example/",
		"https://" + secret + "@host.example/",
		"u:" + secret + "@host.example/",
		":" + secret + "@",
		"http://u:" + secret + "@[::1]:1/",
		base + "/redirect",
		base + "/page/",
		base + "/index/dreamweave.json",
	}
	dir := t.TempDir()
	index := writeFile(t, dir, "dreamweave.json", `{"schema_version":"2","document":"index","site":{"name":"S","url":"https://u:`+secret+`@a.example/"},"projects":[{"id":"7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8b73","name":"N","summary":"x","type":"mod","status":"active","page":"https://a.example/","manifest":"https://u:`+secret+`@a.example/m.json","manifest_sha256":"`+strings.Repeat("0", 64)+`","updated":"2026-09-18","channels":{}}]}`)
	check := func(what string, rc int, out, errs string) {
		t.Helper()
		if strings.Contains(out+errs, secret) {
			t.Errorf("%s: exit %d, the password is printed:\nstdout:\n%s\nstderr:\n%s", what, rc, out, errs)
		}
		if out+errs == "" {
			t.Errorf("%s: exit %d and printed nothing", what, rc)
		}
	}
	var tomls []string
	for i, u := range urls {
		for _, args := range [][]string{
			{"validate", "--allow-loopback", u},
			{"validate", "--json", "--allow-loopback", u},
			{"inspect", "--allow-loopback", u},
			{"add", u, "--note", "n", "--allow-loopback", "--sources", writeFile(t, dir, fmt.Sprintf("add%d.toml", i), ""), "--state", filepath.Join(dir, "none")},
		} {
			rc, out, errs := runCmd(args...)
			check(strings.Join(args[:len(args)-1], " "), rc, out, errs)
		}
		tomls = append(tomls, fmt.Sprintf("[[source]]\nurl = %q\nadded = \"2026-09-28\"\nnote = \"n\"\n", u))
	}
	for _, args := range [][]string{{"validate", index}, {"validate", "--json", index}} {
		rc, out, errs := runCmd(args...)
		check(strings.Join(args, " "), rc, out, errs)
	}
	// Each entry alone (the list is refused at the first bad entry), then the loopback ones
	// together, which refresh crawls.
	for i, entry := range tomls {
		srcs := writeFile(t, dir, fmt.Sprintf("sources%d.toml", i), entry)
		state := filepath.Join(dir, fmt.Sprintf("state%d", i))
		rc, out, errs := runCmd("refresh", "--sources", srcs, "--curation", filepath.Join(dir, "no-curation.toml"), "--state", state, "--allow-loopback")
		check("refresh "+urls[i], rc, out, errs)
	}
}
