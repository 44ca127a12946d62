package guard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// closedPort is a loopback address nothing listens on: a listener opened and closed.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestTransportFailuresMarked: a fetch that never had a connection to the host (the name does
// not resolve, nothing accepts the connection, the TLS handshake fails) is a Transport failure;
// one where a server accepted and then failed the exchange, or answered with an error status,
// is not: that server exists, and its failure is a fact about the site.
func TestTransportFailuresMarked(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer plain.Close()
	hangUp := rawServer(t, func(conn net.Conn) {}) // reads the request, closes without answering
	res := &stubResolver{addrs: map[string][]string{}}
	cases := []struct {
		name, url string
		transport bool
	}{
		{"name does not resolve", "http://nowhere.example/", true},
		{"connection refused", "http://" + closedPort(t) + "/", true},
		{"TLS handshake with a plain HTTP server", strings.Replace(plain.URL, "http://", "https://", 1) + "/", true},
		{"server hangs up after the request", hangUp + "/", false},
	}
	c := loopbackClient(Options{Resolver: res})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Get(context.Background(), Request{URL: tc.url})
			if err == nil {
				t.Fatal("got no error")
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindNetwork {
				t.Fatalf("err = %v (%T); want a KindNetwork *Error", err, err)
			}
			if e.Transport != tc.transport || IsTransport(err) != tc.transport {
				t.Errorf("Transport = %v, IsTransport = %v; want %v (%v)", e.Transport, IsTransport(err), tc.transport, err)
			}
		})
	}
	resp, err := c.Get(context.Background(), Request{URL: plain.URL + "/"})
	if err != nil || resp.Status != http.StatusServiceUnavailable {
		t.Fatalf("a 503 is an answer: %v, %v", resp, err)
	}
	// A refusal by the address guard is crawler policy, never a transport failure.
	_, err = New(Options{}).Get(context.Background(), Request{URL: plain.URL + "/"})
	if _, ok := refusal(err); !ok || IsTransport(err) {
		t.Errorf("loopback refused without --allow-loopback: %v, IsTransport %v; want a refusal, not a transport failure", err, IsTransport(err))
	}
}
