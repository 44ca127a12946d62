package guard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
)

// The reference index's fetch tests, ported black-box: the same servers and URLs, the same
// question asked of Client.Get, the answer checked in this package's terms (Kind). The one
// difference on purpose: a 4xx or 5xx status is a Response here, not an error, since discovery
// and the refresh read the status (a 404 lets a walk pass a level, a 503 does not).

// refOrigin is one loopback origin that logs the paths it was asked for.
type refOrigin struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

func newRefOrigin(t *testing.T, h http.HandlerFunc) *refOrigin {
	t.Helper()
	o := &refOrigin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.paths = append(o.paths, r.URL.Path)
		o.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *refOrigin) asked() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.paths...)
}

func wantKind(t *testing.T, what string, err error, k Kind) {
	t.Helper()
	if KindOf(err) != k {
		t.Errorf("%s: err = %v (kind %d); want kind %d", what, err, KindOf(err), k)
	}
}

func TestReferenceFollowsRedirectsAndReportsTheChain(t *testing.T) {
	var o *refOrigin
	o = newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old/":
			http.Redirect(w, r, "/new/", http.StatusFound)
		case "/new/":
			http.Redirect(w, r, o.URL+"/final.json", http.StatusFound)
		case "/final.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("{}"))
		}
	})
	resp, err := loopbackClient(Options{MaxBytes: 1024}).Get(context.Background(), Request{URL: o.URL + "/old/"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.URL != o.URL+"/final.json" || len(resp.Hops) != 2 || resp.Hops[0].From != o.URL+"/old/" || resp.Hops[1].From != o.URL+"/new/" {
		t.Errorf("url %s, hops %+v", resp.URL, resp.Hops)
	}
	if resp.Header.Get("Content-Type") != "application/json" || string(resp.Body) != "{}" {
		t.Errorf("content type %q, body %q", resp.Header.Get("Content-Type"), resp.Body)
	}
}

func TestReferenceRefusesLoopbackUnderTheRealPolicy(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	_, err := New(Options{}).Get(context.Background(), Request{URL: o.URL + "/dreamweave.json"})
	wantKind(t, "loopback", err, KindAddress)
	if !KindOf(err).Refusal() {
		t.Errorf("%v is not a policy refusal", err)
	}
	if got := o.asked(); len(got) != 0 {
		t.Errorf("a refused address was connected to: %q", got)
	}
}

func TestReferenceRefusesLocalhostByName(t *testing.T) {
	res := &stubResolver{addrs: map[string][]string{"localhost": {"127.0.0.1", "::1"}}}
	_, err := New(Options{Resolver: res}).Get(context.Background(), Request{URL: "http://localhost:9/"})
	wantKind(t, "localhost", err, KindAddress)
}

func TestReferenceRefusesPrivateLinkLocalAndMetadataLiterals(t *testing.T) {
	for _, u := range []string{"http://10.0.0.1/", "http://192.168.1.1/dreamweave.json", "http://172.16.5.4/",
		"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[::1]/", "http://0.0.0.0/"} {
		_, err := New(Options{}).Get(context.Background(), Request{URL: u})
		wantKind(t, u, err, KindAddress)
	}
}

func TestReferenceRefusesARedirectIntoAPrivateNetwork(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	_, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: o.URL + "/dreamweave.json"})
	wantKind(t, "redirect to metadata", err, KindAddress)
}

func TestReferenceRefusesARedirectToAnotherScheme(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	_, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: o.URL + "/dreamweave.json"})
	wantKind(t, "redirect to file:", err, KindRefused)
	if err != nil && !strings.Contains(err.Error(), "file") {
		t.Errorf("the refusal does not name the scheme: %v", err)
	}
}

func TestReferenceRefusesNonHTTPSchemesAndCredentials(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "ftp://example.org/dreamweave.json", "https://user:secret@example.org/dreamweave.json"} {
		_, err := New(Options{}).Get(context.Background(), Request{URL: u})
		wantKind(t, u, err, KindRefused)
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the refusal prints the password: %v", u, err)
		}
	}
}

func TestReferenceCapsRedirectChains(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		var hop int
		if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &hop); err == nil && hop <= DefaultMaxRedirects {
			http.Redirect(w, r, fmt.Sprintf("/hop/%d", hop+1), http.StatusFound)
			return
		}
		w.Write([]byte("{}"))
	})
	_, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: o.URL + "/hop/0"})
	wantKind(t, "a chain one hop over the limit", err, KindRedirect)
	if hops := HopsOf(err); len(hops) != DefaultMaxRedirects {
		t.Errorf("%d hops followed; want %d", len(hops), DefaultMaxRedirects)
	}
}

func TestReferenceRefusesOversizedBodies(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(strings.Repeat(" ", 4096)))
	})
	_, err := loopbackClient(Options{MaxBytes: 1024}).Get(context.Background(), Request{URL: o.URL + "/huge.json"})
	wantKind(t, "4096 bytes over a 1024-byte limit", err, KindTooLarge)
	if !KindOf(err).Refusal() {
		t.Errorf("%v is not a policy refusal", err)
	}
}

// A 404 is an answer (a Response), where the reference returns it as an error; a connection
// closed without an answer is a network failure, not a refusal.
func TestReferenceReportsStatusCodesAndOutages(t *testing.T) {
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		http.NotFound(w, r)
	})
	c := loopbackClient(Options{MaxBytes: 1024})
	resp, err := c.Get(context.Background(), Request{URL: o.URL + "/missing"})
	if err != nil || resp.Status != http.StatusNotFound {
		t.Errorf("/missing: %v, %v; want a 404 response", resp, err)
	}
	_, err = c.Get(context.Background(), Request{URL: o.URL + "/down"})
	wantKind(t, "/down", err, KindNetwork)
	if KindOf(err).Refusal() {
		t.Errorf("an outage counted as a policy refusal: %v", err)
	}
}

func TestReferenceSendsValidatorsAndUnderstandsNotModified(t *testing.T) {
	var got http.Header
	o := newRefOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("ETag", `"abc"`)
		w.WriteHeader(http.StatusNotModified)
	})
	resp, err := loopbackClient(Options{UserAgent: product.UserAgent}).Get(context.Background(), Request{URL: o.URL + "/dreamweave.json", ETag: `"abc"`})
	if err != nil || !resp.NotModified {
		t.Fatalf("%+v, %v; want not modified", resp, err)
	}
	if got.Get("If-None-Match") != `"abc"` || got.Get("User-Agent") != product.UserAgent {
		t.Errorf("sent If-None-Match %q, User-Agent %q", got.Get("If-None-Match"), got.Get("User-Agent"))
	}
}
