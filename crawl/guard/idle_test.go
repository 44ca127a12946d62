package guard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestIdleConnectionsBoundedAcrossHosts: a client that reads many hosts in turn keeps at most
// maxIdleConns connections open once their answers are read, so a refresh of thousands of
// sites does not hold a file per site it has finished with.
func TestIdleConnectionsBoundedAcrossHosts(t *testing.T) {
	const hosts = 4 * maxIdleConns
	var mu sync.Mutex
	open := 0
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok"))
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch s {
		case http.StateNew:
			open++
		case http.StateClosed, http.StateHijacked:
			open--
		}
	}
	srv.Start()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	res := &stubResolver{addrs: map[string][]string{}}
	for i := range hosts {
		res.addrs[fmt.Sprintf("site%03d.example", i)] = []string{"127.0.0.1"}
	}
	c := loopbackClient(Options{Resolver: res})
	for i := range hosts {
		u := fmt.Sprintf("http://site%03d.example:%s/", i, port)
		if _, err := c.Get(context.Background(), Request{URL: u}); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	// The server sees a closed connection a moment after the client drops it.
	for range 200 {
		mu.Lock()
		n := open
		mu.Unlock()
		if n <= maxIdleConns {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Errorf("%d connections still open after reading %d hosts; want at most %d", open, hosts, maxIdleConns)
}
