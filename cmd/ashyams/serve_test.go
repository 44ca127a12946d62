package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

// lockedBuffer is a bytes.Buffer safe to read while a command writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestServeCommand(t *testing.T) {
	out := t.TempDir()
	for name, body := range map[string]string{"index.html": "home", "projects/index.html": "list", "404.html": "missing"} {
		p := filepath.Join(out, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	old := serveContext
	serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	defer func() { serveContext = old }()

	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(&env{stdout: &stdout, stderr: &stderr}, []string{"serve", "--out", out, "--addr", "127.0.0.1:0"})
	}()
	re := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		t.Fatalf("serve printed no address: %q %q", stdout.String(), stderr.String())
	}
	for path, want := range map[string]struct {
		code int
		body string
	}{"": {200, "home"}, "projects/": {200, "list"}, "projects/index.html": {200, "list"}, "nope/": {404, "missing"}, ".ashyams-site": {404, "missing"}} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want.code || string(b) != want.body {
			t.Errorf("GET /%s: %d %q, want %d %q", path, resp.StatusCode, b, want.code, want.body)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

// startServe runs `ashyams serve args...` until the returned stop is called, and returns the
// URL it printed to open.
func startServe(t *testing.T, args ...string) (open, stdoutText string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := serveContext
	serveContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { serveContext = old })
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(&env{stdout: &stdout, stderr: &stderr}, append([]string{"serve"}, args...)) }()
	re := regexp.MustCompile(`(?:at|open) (http://\S+/)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			open = m[1]
			break
		}
	}
	if open == "" {
		cancel()
		t.Fatalf("serve printed no address: %q %q", stdout.String(), stderr.String())
	}
	return open, stdout.String(), func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop when its context ended")
		}
		return -1
	}
}

// TestServeUnderBaseURL: a site built for a base URL with a path is served under that path
// and serve prints the URL to open there; the 404 page's root-relative stylesheet resolves on
// the preview. --base-url overrides what the build recorded.
func TestServeUnderBaseURL(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := runSiteCmd("build", "--state", smallState(t), "--out", out, "--curation", "", "--base-url", "https://idx.example/ashyams-go/"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	open, _, stop := startServe(t, "--out", out, "--addr", "127.0.0.1:0")
	if !strings.HasSuffix(open, "/ashyams-go/") {
		t.Errorf("serve prints %s, not the site's path /ashyams-go/", open)
	}
	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(open); code != 200 || !strings.Contains(body, "AsHyAmS") {
		t.Errorf("GET %s: %d", open, code)
	}
	code, body := get(open + "no/such/page/")
	if code != 404 || htmlcheck.Count(t, htmlcheck.Parse(t, []byte(body)), `head link[rel=stylesheet][href="/ashyams-go/assets/site.css"]`) != 1 {
		t.Fatalf("404 page: %d, stylesheet link not under /ashyams-go/: %.300s", code, body)
	}
	root := strings.TrimSuffix(open, "/ashyams-go/")
	if code, _ := get(root + "/ashyams-go/assets/site.css"); code != 200 {
		t.Errorf("the 404 page's stylesheet does not resolve on the preview: %d", code)
	}
	if c := stop(); c != 0 {
		t.Errorf("serve exited %d", c)
	}
	open, _, stop = startServe(t, "--out", out, "--addr", "127.0.0.1:0", "--base-url", "http://localhost/")
	if strings.Contains(open, "ashyams-go") {
		t.Errorf("--base-url http://localhost/ still serves under the build's path: %s", open)
	}
	if code, _ := get(open + "assets/site.css"); code != 200 {
		t.Errorf("under --base-url http://localhost/ the stylesheet is not at the root: %d", code)
	}
	stop()
}

// TestServeAddress: a busy port says so and how to choose another; 0.0.0.0 prints a URL a
// browser can open (loopback), not 0.0.0.0.
func TestServeAddress(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "index.html"), []byte("home"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, stderr := runSiteCmd("serve", "--out", out, "--addr", ln.Addr().String())
	if code != 1 || !strings.Contains(stderr, "address already in use: choose another with --addr") {
		t.Errorf("busy port: exit %d, %q", code, stderr)
	}
	open, text, stop := startServe(t, "--out", out, "--addr", "0.0.0.0:0")
	defer stop()
	if !strings.HasPrefix(open, "http://127.0.0.1:") || !strings.Contains(text, "every interface") {
		t.Errorf("0.0.0.0: printed %q", text)
	}
	resp, err := http.Get(open)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET %s: %d", open, resp.StatusCode)
	}
}

// TestServeRefusesABaseBuildRefuses: serve takes a --base-url only where build would, and says
// so in build's words (without build's prefix), exiting 2 before it listens.
func TestServeRefusesABaseBuildRefuses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := runSiteCmd("build", "--state", smallState(t), "--out", out, "--curation", ""); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	for _, base := range []string{"ftp://x.example/", "/relative/", "https://u:pw@x.example/", "https://x.example/?q=1", "https://x.example/#top"} {
		_, _, bstderr := runSiteCmd("build", "--state", smallState(t), "--out", filepath.Join(t.TempDir(), "o"), "--curation", "", "--base-url", base)
		code, _, stderr := runSiteCmd("serve", "--out", out, "--addr", "127.0.0.1:0", "--base-url", base)
		if code != 2 || !strings.Contains(stderr, "is not an absolute http(s) URL without user info, query or fragment") {
			t.Errorf("serve --base-url %q: exit %d, %q", base, code, stderr)
		}
		if !strings.Contains(bstderr, "is not an absolute http(s) URL without user info, query or fragment") {
			t.Errorf("build --base-url %q is not refused in the same words: %q", base, bstderr)
		}
	}
}
