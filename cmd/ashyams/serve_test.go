package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
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
