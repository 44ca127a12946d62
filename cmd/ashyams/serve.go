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
)

func init() {
	register(command{name: "serve", summary: "preview a built site over HTTP", run: runServe})
}

// serveContext is the lifetime of `ashyams serve`: until SIGINT or SIGTERM. Tests replace it.
var serveContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runServe is `ashyams serve [--out public] [--addr 127.0.0.1:8080]`: serves the built site
// until interrupted. Exit 1 when the site is missing or the address cannot be listened on.
func runServe(e *env, args []string) int {
	fs := newFlags(e, "serve", "")
	out := fs.String("out", "public", "the built site to serve")
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "ashyams serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if _, err := os.Stat(filepath.Join(*out, "index.html")); err != nil {
		fmt.Fprintf(e.stderr, "ashyams serve: %s holds no built site (no index.html); run ashyams build first\n", *out)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "ashyams serve: %v\n", err)
		return 1
	}
	ctx, cancel := serveContext()
	defer cancel()
	srv := &http.Server{Handler: site.Handler(*out), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", *out, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(e.stderr, "ashyams serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "ashyams serve: %v\n", err)
		return 1
	}
	return 0
}
