package guard

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
)

// loopbackClient is a client for httptest servers on 127.0.0.1 (--allow-loopback).
func loopbackClient(o Options) *Client {
	o.AllowLoopback = true
	return New(o)
}

// refusal returns err's *Error when it refuses the URL or its address (KindRefused,
// KindAddress).
func refusal(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e) && (e.Kind == KindRefused || e.Kind == KindAddress)
	return e, ok
}

// ofKind returns err's *Error when it is of kind k.
func ofKind(err error, k Kind) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e) && e.Kind == k
	return e, ok
}

func TestGetSendsUserAgentAndReturnsBody(t *testing.T) {
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.Header.Get("User-Agent")
		w.Header().Set("ETag", `"abc"`)
		w.Write([]byte(`{"schema_version":"2"}`))
	}))
	defer srv.Close()
	resp, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL + "/dreamweave.json"})
	if err != nil {
		t.Fatal(err)
	}
	if ua != product.UserAgent {
		t.Errorf("User-Agent = %q, want %q", ua, product.UserAgent)
	}
	if resp.Status != 200 || string(resp.Body) != `{"schema_version":"2"}` || resp.ETag() != `"abc"` {
		t.Errorf("got %d %q etag %q", resp.Status, resp.Body, resp.ETag())
	}
	if resp.URL != srv.URL+"/dreamweave.json" || len(resp.Hops) != 0 {
		t.Errorf("URL %q hops %v", resp.URL, resp.Hops)
	}
}

// redirector answers /hop/N with a redirect to the N-th target, /ok with a body, and records the
// User-Agent of each request.
func TestRedirectChainFollowedAndRecorded(t *testing.T) {
	var mu sync.Mutex
	var uas []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		uas = append(uas, r.Header.Get("User-Agent"))
		mu.Unlock()
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b", http.StatusMovedPermanently)
		case "/b":
			http.Redirect(w, r, srv.URL+"/c", http.StatusFound)
		case "/c":
			http.Redirect(w, r, "d", http.StatusTemporaryRedirect)
		case "/d":
			w.Write([]byte("done"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	resp, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL + "/a"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Hop{{srv.URL + "/a", srv.URL + "/b", 301}, {srv.URL + "/b", srv.URL + "/c", 302}, {srv.URL + "/c", srv.URL + "/d", 307}}
	if !reflect.DeepEqual(resp.Hops, want) {
		t.Errorf("hops = %+v\nwant %+v", resp.Hops, want)
	}
	if resp.URL != srv.URL+"/d" || string(resp.Body) != "done" {
		t.Errorf("final %q body %q", resp.URL, resp.Body)
	}
	if len(uas) != 4 {
		t.Fatalf("%d requests, want 4", len(uas))
	}
	for i, ua := range uas {
		if ua != product.UserAgent {
			t.Errorf("request %d User-Agent %q", i, ua)
		}
	}
}

func TestRedirectIntoRefusedTargets(t *testing.T) {
	targets := map[string]string{
		"http://169.254.169.254/latest/meta-data/": "link-local",
		"http://10.0.0.1/":                         "private",
		"http://[::ffff:127.0.0.1]/":               "IPv4-mapped",
		"file:///etc/passwd":                       `scheme "file"`,
		"http://2130706433/":                       "non-canonical",
		"http://user:pw@127.0.0.1/":                "user name or password",
		"gopher://127.0.0.1:70/":                   `scheme "gopher"`,
	}
	for target, words := range targets {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/first" {
				http.Redirect(w, r, "/second", http.StatusFound)
				return
			}
			if r.URL.Path == "/second" {
				w.Header().Set("Location", target)
				w.WriteHeader(http.StatusMovedPermanently)
				return
			}
			t.Errorf("unexpected request %s", r.URL)
		}))
		var dialed []string
		c := loopbackClient(Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed = append(dialed, addr)
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}})
		_, err := c.Get(context.Background(), Request{URL: srv.URL + "/first"})
		srv.Close()
		re, ok := refusal(err)
		if !ok {
			t.Errorf("redirect to %s: %v; want a refusal", target, err)
			continue
		}
		if len(re.Hops) != 2 || re.Hops[0].To != srv.URL+"/second" || re.Hops[1].From != srv.URL+"/second" {
			t.Errorf("redirect to %s: hops %+v", target, re.Hops)
		}
		if last := re.Hops[len(re.Hops)-1]; len(re.Hops) != 2 || last.From != srv.URL+"/second" || last.Status != 301 {
			t.Errorf("redirect to %s: hop %d from %q status %d; want hop 2 from %s/second, 301", target, len(re.Hops), last.From, last.Status, srv.URL)
		}
		msg := err.Error()
		if !strings.Contains(msg, "redirect 2") || !strings.Contains(msg, words) || strings.Contains(msg, "pw@") {
			t.Errorf("redirect to %s: message %q should say redirect 2 and %q", target, msg, words)
		}
		for _, d := range dialed {
			if !strings.HasPrefix(d, "127.0.0.1:") {
				t.Errorf("redirect to %s: dialed %s", target, d)
			}
		}
	}
}

func TestTooManyRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
	}))
	defer srv.Close()
	_, err := loopbackClient(Options{MaxRedirects: 3}).Get(context.Background(), Request{URL: srv.URL + "/"})
	rerr, ok := ofKind(err, KindRedirect)
	if !ok || len(rerr.Hops)+1 != 4 || !strings.Contains(err.Error(), "more than 3 redirects") {
		t.Errorf("got %v; want a redirect not followed at hop 4 saying more than 3 redirects", err)
	}
	_, err = loopbackClient(Options{MaxRedirects: -1}).Get(context.Background(), Request{URL: srv.URL + "/"})
	if rerr, ok := ofKind(err, KindRedirect); !ok || len(rerr.Hops) != 0 || !strings.Contains(err.Error(), "more than 0 redirects") {
		t.Errorf("MaxRedirects -1: %v; want no redirect followed", err)
	}
	noLoc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) }))
	defer noLoc.Close()
	_, err = loopbackClient(Options{}).Get(context.Background(), Request{URL: noLoc.URL})
	if _, ok := ofKind(err, KindRedirect); !ok || !strings.Contains(err.Error(), "without a Location") {
		t.Errorf("302 without Location: %v", err)
	}
}

// rawServer accepts one kind of connection and lets handle write raw bytes. It returns the base
// URL and a channel closed when handle returns.
func rawServer(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				buf := make([]byte, 4096)
				conn.Read(buf) // the request; small enough for one read
				handle(conn)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func TestOversizeHonestContentLengthRefusedBeforeReading(t *testing.T) {
	release := make(chan struct{})
	base := rawServer(t, func(conn net.Conn) {
		fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 17<<20)
		<-release // the body never comes: reading it would hit the deadline instead
	})
	defer close(release)
	_, err := loopbackClient(Options{Timeout: 5 * time.Second}).Get(context.Background(), Request{URL: base + "/dreamweave.json"})
	tl, ok := ofKind(err, KindTooLarge)
	if !ok {
		t.Fatalf("got %v; want a body over the limit", err)
	}
	if tl.Limit != 16<<20 || !tl.Announced || tl.ContentLength != 17<<20 {
		t.Errorf("too large: %+v", tl)
	}
	for _, words := range []string{"over the 16 MiB limit", "refused by crawler policy", base + "/dreamweave.json", "Content-Length announced 17825792 bytes"} {
		if !strings.Contains(err.Error(), words) {
			t.Errorf("message %q lacks %q", err, words)
		}
	}
}

// streamChunks writes a chunked body of total bytes, returning how many were written before the
// client went away.
func streamChunks(conn net.Conn, total int) int {
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	written := 0
	for written < total {
		if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
			return written
		}
		written += len(chunk)
	}
	fmt.Fprint(conn, "0\r\n\r\n")
	return written
}

func TestLyingContentLengthCutAtLimit(t *testing.T) {
	const total = 256 << 20
	written := make(chan int, 1)
	base := rawServer(t, func(conn net.Conn) {
		// Content-Length claims 10 bytes; chunked transfer-coding wins (RFC 9112 6.3) and the
		// body goes on for 256 MiB.
		fmt.Fprint(conn, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n")
		written <- streamChunks(conn, total)
	})
	_, err := loopbackClient(Options{MaxBytes: 1 << 20}).Get(context.Background(), Request{URL: base + "/m.json"})
	tl, ok := ofKind(err, KindTooLarge)
	if !ok || tl.Announced || tl.Limit != 1<<20 {
		t.Fatalf("got %v; want a body over the limit found while reading", err)
	}
	if !strings.Contains(err.Error(), "over the 1 MiB limit") {
		t.Errorf("message %q", err)
	}
	if n := <-written; n >= total {
		t.Errorf("the server wrote all %d bytes: the client did not abandon the body", n)
	}
}

func TestUnderstatedContentLengthNeverReadsPastIt(t *testing.T) {
	base := rawServer(t, func(conn net.Conn) {
		fmt.Fprint(conn, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789and a great deal more")
	})
	resp, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: base + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "0123456789" {
		t.Errorf("body %q; want the 10 announced bytes only", resp.Body)
	}
}

func TestStreamWithoutLengthCutAtLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("y"), 32<<10)
		for i := 0; i < 1024; i++ { // 32 MiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	_, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL, MaxBytes: 100 << 10})
	tl, ok := ofKind(err, KindTooLarge)
	if !ok || tl.Limit != 100<<10 || !strings.Contains(err.Error(), "over the 100 KiB limit") {
		t.Errorf("got %v; want a body over the limit at the request's 100 KiB limit", err)
	}
	// At exactly the limit the body is whole.
	exact := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("z"), 4096))
	}))
	defer exact.Close()
	resp, err := loopbackClient(Options{MaxBytes: 4096}).Get(context.Background(), Request{URL: exact.URL})
	if err != nil || len(resp.Body) != 4096 {
		t.Errorf("body at exactly the limit: %v", err)
	}
	_, err = loopbackClient(Options{MaxBytes: 4095}).Get(context.Background(), Request{URL: exact.URL})
	if KindOf(err) != KindTooLarge {
		t.Errorf("one byte over: %v", err)
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestGzipBombCutAtDecodedLimit(t *testing.T) {
	// 64 gzip members of 1 MiB of zeros each: 64 MiB decoded from about 64 KiB.
	bomb := bytes.Repeat(gzipped(t, make([]byte, 1<<20)), 64)
	var acceptEncoding string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		acceptEncoding = r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(bomb)))
		w.Write(bomb)
	}))
	defer srv.Close()
	if len(bomb) > 1<<20 {
		t.Fatalf("test bomb is %d bytes encoded; it must be far under the limit", len(bomb))
	}
	_, err := loopbackClient(Options{MaxBytes: 1 << 20}).Get(context.Background(), Request{URL: srv.URL})
	tl, ok := ofKind(err, KindTooLarge)
	if !ok || !tl.Decoded {
		t.Fatalf("gzip bomb: %v; want a body over the limit counting decoded bytes", err)
	}
	if !strings.Contains(err.Error(), "gzip-decoded") || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("message %q", err)
	}
	if acceptEncoding != "gzip" {
		t.Errorf("Accept-Encoding %q", acceptEncoding)
	}
}

func TestGzipBodyDecoded(t *testing.T) {
	doc := []byte(`{"schema_version":"2","document":"index"}`)
	enc := gzipped(t, doc)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gz":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(enc)
		case "/bad":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte("not gzip at all"))
		case "/br":
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte("whatever"))
		case "/big":
			// incompressible bytes: the encoded stream alone passes the limit
			w.Header().Set("Content-Encoding", "gzip")
			rnd := make([]byte, 64<<10)
			for i := range rnd {
				rnd[i] = byte(i*7919 + i>>3*31)
			}
			w.Write(gzipped(t, rnd))
		}
	}))
	defer srv.Close()
	c := loopbackClient(Options{})
	resp, err := c.Get(context.Background(), Request{URL: srv.URL + "/gz"})
	if err != nil || !bytes.Equal(resp.Body, doc) {
		t.Errorf("gzip body: %v %+v", err, resp)
	}
	if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/bad"}); err == nil || !strings.Contains(err.Error(), "gzip") || !strings.Contains(err.Error(), srv.URL+"/bad") {
		t.Errorf("broken gzip: %v", err)
	}
	if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/br"}); err == nil || !strings.Contains(err.Error(), `"br" is not supported`) {
		t.Errorf("unrequested encoding: %v", err)
	}
	if _, err := c.Get(context.Background(), Request{URL: srv.URL + "/big", MaxBytes: 1000}); KindOf(err) != KindTooLarge {
		t.Errorf("encoded over limit: %v", err)
	}
}

func TestDeadlineCoversHeadersBodyAndRedirects(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow-headers":
		case "/slow-body":
			w.Write([]byte("{"))
			w.(http.Flusher).Flush()
		case "/redirect":
			http.Redirect(w, r, "/slow-headers", http.StatusFound)
			return
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	c := loopbackClient(Options{Timeout: 50 * time.Millisecond})
	for _, path := range []string{"/slow-headers", "/slow-body", "/redirect"} {
		_, err := c.Get(context.Background(), Request{URL: srv.URL + path})
		te, ok := ofKind(err, KindTimeout)
		if !ok {
			t.Errorf("%s: %v; want a timeout", path, err)
			continue
		}
		if !strings.Contains(err.Error(), "timed out after 50ms") {
			t.Errorf("%s: message %q", path, err)
		}
		wantURL := srv.URL + path
		if path == "/redirect" {
			wantURL = srv.URL + "/slow-headers"
		}
		if te.URL != wantURL {
			t.Errorf("%s: timeout names %s; want %s", path, te.URL, wantURL)
		}
	}
	// A caller's cancellation is not our timeout.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Get(ctx, Request{URL: srv.URL + "/slow-headers"})
	if KindOf(err) != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want context.Canceled, not a timeout", err)
	}
}

func TestConditionalGet(t *testing.T) {
	var inm, ims string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inm, ims = r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
		w.Header().Set("ETag", `"v1"`)
		if inm == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write([]byte("fresh"))
	}))
	defer srv.Close()
	c := loopbackClient(Options{})
	lm := "Sat, 10 Oct 2026 12:36:05 GMT"
	resp, err := c.Get(context.Background(), Request{URL: srv.URL, ETag: `"v1"`, LastModified: lm})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.NotModified || resp.Status != 304 || len(resp.Body) != 0 || resp.ETag() != `"v1"` {
		t.Errorf("conditional GET: %+v", resp)
	}
	if inm != `"v1"` || ims != lm {
		t.Errorf("sent If-None-Match %q If-Modified-Since %q", inm, ims)
	}
	resp, err = c.Get(context.Background(), Request{URL: srv.URL})
	if err != nil || resp.NotModified || string(resp.Body) != "fresh" || inm != "" || ims != "" {
		t.Errorf("unconditional GET: %v %+v (sent %q %q)", err, resp, inm, ims)
	}
}

func TestNon2xxIsAResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NotFound(w, r)
	}))
	defer srv.Close()
	resp, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL + "/dreamweave.json"})
	if err != nil || resp.Status != 404 {
		t.Errorf("404: %v %+v", err, resp)
	}
}

func TestLoopbackRefusedWithoutAllowLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the server was reached")
	}))
	defer srv.Close()
	_, err := New(Options{}).Get(context.Background(), Request{URL: srv.URL})
	re, ok := refusal(err)
	if !ok || re.Kind != KindAddress || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("got %v; want refused by the address guard (loopback)", err)
	}
}

// TestDialGoesToCheckedAddress: the resolver answers 127.0.0.1 for the first lookup and 10.0.0.1
// (rebinding) after that. The request reaches the server over the checked address with one
// lookup; a later connection sees the rebinding answer and is refused.
func TestDialGoesToCheckedAddress(t *testing.T) {
	var host string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host = r.Host
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	var mu sync.Mutex
	lookups := 0
	res := resolverFunc(func(ctx context.Context, network, name string) ([]netip.Addr, error) {
		mu.Lock()
		defer mu.Unlock()
		lookups++
		if lookups == 1 {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
	})
	var dialed []string
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	c := loopbackClient(Options{Resolver: res, Dial: dial})
	resp, err := c.Get(context.Background(), Request{URL: "http://rebind.example:" + port + "/"})
	if err != nil || string(resp.Body) != "ok" {
		t.Fatalf("first fetch: %v", err)
	}
	if lookups != 1 || len(dialed) != 1 || dialed[0] != "127.0.0.1:"+port {
		t.Errorf("lookups %d, dialed %v; want one lookup and a dial to 127.0.0.1:%s", lookups, dialed, port)
	}
	if host != "rebind.example:"+port {
		t.Errorf("Host header %q; the request must still name the site", host)
	}
	c2 := loopbackClient(Options{Resolver: res, Dial: dial})
	_, err = c2.Get(context.Background(), Request{URL: "http://rebind.example:" + port + "/"})
	if re, ok := refusal(err); !ok || re.Kind != KindAddress || !strings.Contains(err.Error(), "10.0.0.1") {
		t.Errorf("rebound name: %v; want refused naming 10.0.0.1", err)
	}
	if len(dialed) != 1 {
		t.Errorf("dialed %v after the rebinding answer", dialed)
	}
}

func TestProxyEnvironmentIgnored(t *testing.T) {
	proxied := 0
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied++
		w.Write([]byte("from the proxy"))
	}))
	defer proxy.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("from the site"))
	}))
	defer site.Close()
	for _, k := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	res := &stubResolver{addrs: map[string][]string{"site.example": {"127.0.0.1"}}}
	resp, err := loopbackClient(Options{Resolver: res}).Get(context.Background(), Request{URL: "http://site.example:" + port + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "from the site" || proxied != 0 {
		t.Errorf("body %q, proxy hits %d; the proxy environment must be ignored", resp.Body, proxied)
	}
}

func TestInternationalizedNumericHostRefusedAtDial(t *testing.T) {
	// Fullwidth digits and ideographic full stops map to 127.0.0.1 / 0x7f.1 under IDNA.
	for _, raw := range []string{"http://１２７.０.０.１/", "http://127。0。0。1/", "http://０x7f.1/"} {
		dialed := 0
		c := New(Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed++
			return nil, errors.New("no")
		}})
		_, err := c.Get(context.Background(), Request{URL: raw})
		re, ok := refusal(err)
		if !ok || re.Kind != KindAddress || dialed != 0 {
			t.Errorf("%s: %v (dialed %d); want refused by the address guard", raw, err, dialed)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{16 << 20: "16 MiB", 512 << 10: "512 KiB", 1000: "1000 bytes", 1: "1 byte", 1<<20 + 1: "1048577 bytes"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestTransportHasNoProxy backs TestProxyEnvironmentIgnored: net/http caches the proxy
// environment once per process, so the behavioural test alone depends on test order.
func TestTransportHasNoProxy(t *testing.T) {
	tr, ok := New(Options{}).rt.(*http.Transport)
	if !ok || tr.Proxy != nil {
		t.Errorf("transport %T has a Proxy function; it must never use a proxy", New(Options{}).rt)
	}
}

// TestResolverMappedAnswerCheckedAsIPv4: resolver results hold IPv4 in 16 bytes, so a mapped
// answer is checked and dialed as the IPv4 address it is (and a mapped private one is refused as
// private, see TestResolvedNameRefusedIfAnyAddressRefused).
func TestResolverMappedAnswerCheckedAsIPv4(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	res := &stubResolver{addrs: map[string][]string{"hosts-file.example": {"::ffff:127.0.0.1"}}}
	var dialed []string
	c := loopbackClient(Options{Resolver: res, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}})
	resp, err := c.Get(context.Background(), Request{URL: "http://hosts-file.example:" + port + "/"})
	if err != nil || string(resp.Body) != "ok" {
		t.Fatalf("got %v", err)
	}
	if len(dialed) != 1 || dialed[0] != "127.0.0.1:"+port {
		t.Errorf("dialed %v; want 127.0.0.1:%s", dialed, port)
	}
	_, err = New(Options{Resolver: res}).Get(context.Background(), Request{URL: "http://hosts-file.example:" + port + "/"})
	re, ok := refusal(err)
	if !ok || !re.Loopback || !strings.Contains(err.Error(), "the name hosts-file.example resolves to 127.0.0.1, which is loopback (127.0.0.0/8)") {
		t.Errorf("without --allow-loopback: %v; want a grammatical refusal marked Loopback", err)
	}
}

// A redirect over the limit keeps the hops that were followed (the trail records them), and a
// Location that does not parse is reported as exactly that, not as an unreachable host.
func TestRedirectErrorsKeepHopsAndNameTheLocation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bad" {
			w.Header().Set("Location", "http://[::1")
			w.WriteHeader(http.StatusFound)
			return
		}
		http.Redirect(w, r, r.URL.Path+"x", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := loopbackClient(Options{MaxRedirects: 2}).Get(context.Background(), Request{URL: srv.URL + "/r"})
	rerr, ok := ofKind(err, KindRedirect)
	if !ok {
		t.Fatalf("got %v; want a redirect not followed", err)
	}
	want := []Hop{{From: srv.URL + "/r", To: srv.URL + "/rx", Status: 307}, {From: srv.URL + "/rx", To: srv.URL + "/rxx", Status: 307}}
	if len(rerr.Hops)+1 != 3 || rerr.Status != 307 || rerr.URL != srv.URL+"/rxx" || fmt.Sprint(rerr.Hops) != fmt.Sprint(want) {
		t.Errorf("redirect error %+v; want hop 3 from %s/rxx after the hops %v", rerr, srv.URL, want)
	}
	if got, want := err.Error(), "redirect 3 from "+srv.URL+"/rxx: more than 2 redirects (this one to "+srv.URL+"/rxxx)"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}

	_, err = loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL + "/bad"})
	if rerr, ok := ofKind(err, KindRedirect); !ok || rerr.Status != 302 || len(rerr.Hops) != 0 {
		t.Fatalf("bad Location: %v; want a redirect not followed at hop 1", err)
	}
	if got, want := err.Error(), `redirect 1 from `+srv.URL+`/bad: its Location header "http://[::1" does not parse as a URL (missing ']' in host)`; got != want {
		t.Errorf("bad Location: %q, want %q", got, want)
	}
}

// Every refusal of a resolved name is one grammatical sentence naming the name, the address and
// what it is; Loopback marks exactly the refusals --allow-loopback would lift.
func TestResolvedNameRefusalWording(t *testing.T) {
	for addr, want := range map[string]struct {
		what     string
		loopback bool
	}{
		"127.0.0.1":       {"loopback (127.0.0.0/8) (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)", true},
		"::1":             {"loopback (::1) (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)", true},
		"169.254.169.254": {"link-local (169.254.0.0/16, where cloud metadata services live)", false},
		"10.1.2.3":        {"private (RFC 1918, 10.0.0.0/8)", false},
		"64:ff9b::7f00:1": {"NAT64 (64:ff9b::/96) for 127.0.0.1, which is loopback (127.0.0.0/8)", false},
		"fe80::1":         {"link-local (fe80::/10)", false},
	} {
		res := &stubResolver{addrs: map[string][]string{"name.example": {addr}}}
		_, err := New(Options{Resolver: res}).Get(context.Background(), Request{URL: "http://name.example/"})
		re, ok := refusal(err)
		if !ok || re.Kind != KindAddress {
			t.Errorf("%s: %v; want an address guard refusal", addr, err)
			continue
		}
		wantMsg := "http://name.example/ refused by the address guard: the name name.example resolves to " + addr + ", which is " + want.what
		if err.Error() != wantMsg || re.Loopback != want.loopback {
			t.Errorf("%s: %q (loopback %v)\nwant %q (loopback %v)", addr, err, re.Loopback, wantMsg, want.loopback)
		}
	}
	// Literal addresses: "<addr> is <what>", and the same Loopback mark.
	for raw, loop := range map[string]bool{"http://127.0.0.2/": true, "http://[::1]/": true, "http://[::ffff:127.0.0.1]/": false, "http://10.0.0.1/": false} {
		_, err := CheckURL(raw, false)
		re, ok := refusal(err)
		if !ok || re.Kind != KindAddress || re.Loopback != loop || strings.Contains(err.Error(), "resolves") {
			t.Errorf("%s: %v (loopback %v), want loopback %v", raw, err, re != nil && re.Loopback, loop)
		}
		// Only a refusal --allow-loopback would lift names the flag.
		if re != nil && strings.HasSuffix(re.Reason, " ("+LoopbackHint+")") != loop {
			t.Errorf("%s: reason %q; the --allow-loopback hint belongs exactly to loopback refusals", raw, re.Reason)
		}
	}
}

// When the caller's context ends (a refresh's budget, an interrupt), the error wraps its cause
// rather than calling the site slow.
func TestCallerContextCauseWrapped(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	budget := errors.New("the site's time budget ran out")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel(budget)
	}()
	_, err := loopbackClient(Options{Timeout: time.Minute}).Get(ctx, Request{URL: srv.URL})
	if !errors.Is(err, budget) || KindOf(err) != KindCanceled || !strings.Contains(err.Error(), srv.URL) {
		t.Errorf("got %v; want the caller's cause, naming the URL", err)
	}
}
