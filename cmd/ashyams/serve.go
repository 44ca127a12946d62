package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/site"
	"github.com/DreamWeave-MP/ashyams-go/site/preview"
)

func init() {
	register(command{name: "serve", summary: "preview a built site over HTTP", run: runServe})
}

// serveContext is the lifetime of `ashyams serve`: until SIGINT or SIGTERM. Tests replace it.
var serveContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runServe is `ashyams serve [--out public] [--addr 127.0.0.1:8080] [--base-url URL]`: it serves
// the built site under its base URL's path until interrupted, and prints the URL to open.
func runServe(e *env, args []string) int {
	fs := newFlags(e, "serve", "")
	out := fs.String("out", "public", "the built site to serve")
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on (port 0: any free port)")
	baseFlag := fs.String("base-url", "", "serve under this URL's path (default: the base URL the site was built for)")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	if _, err := os.Stat(filepath.Join(*out, "index.html")); err != nil {
		e.errorf("serve", "%s holds no built site (no index.html); run ashyams build first", *out)
		return 1
	}
	base := *baseFlag
	if base == "" {
		b, err := site.BuiltBaseURL(*out)
		if err != nil {
			e.errorf("serve", "%v", err)
			return 1
		}
		base = b
	} else if _, err := site.NormalizeBaseURL(base); err != nil {
		e.errorf("serve", "%v", err) // the build's rule: a site is never served under a base it refuses
		return 2
	}
	root := site.BasePath(base)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			e.errorf("serve", "%s: address already in use: choose another with --addr (port 0 picks a free one)", *addr)
		} else {
			e.errorf("serve", "%v", err)
		}
		return 1
	}
	ctx, cancel := serveContext()
	defer cancel()
	srv := &http.Server{Handler: preview.HandlerAt(*out, root), ReadHeaderTimeout: 10 * time.Second}
	open, all := openURL(*addr, ln.Addr(), root)
	if all {
		fmt.Fprintf(e.stdout, "serving %s on every interface (%s); open %s (Ctrl-C to stop)\n", *out, ln.Addr(), open)
	} else {
		fmt.Fprintf(e.stdout, "serving %s at %s (Ctrl-C to stop)\n", *out, open)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		e.errorf("serve", "%v", err)
		return 1
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		e.errorf("serve", "%v", err)
		return 1
	}
	return 0
}

// openURL is the URL a browser on this machine opens to reach listener a under root; an
// unspecified host is reached through loopback, and all says so.
func openURL(requested string, a net.Addr, root string) (u string, all bool) {
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + root, false
	}
	host, _, err := net.SplitHostPort(requested)
	if err != nil {
		host = ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		all = true
		if ip != nil && ip.To4() == nil {
			host = "::1"
		} else {
			host = "127.0.0.1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + root, all
}
