package guard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Every kind has one full sentence (Error) and two short forms (Words): these words reach state
// records, trails and pages, so each is pinned here, with and without redirects before it.
func TestErrorWordsForEveryKind(t *testing.T) {
	hops := []Hop{{From: "https://a.example/", To: "https://b.example/x", Status: 301}}
	cause := errors.New("connection refused")
	for _, tc := range []struct {
		name                     string
		err                      *Error
		full, outcome, predicate string
	}{
		{"refused", &Error{Kind: KindRefused, URL: "ftp://a.example/", Reason: `scheme "ftp" is not http or https`},
			`ftp://a.example/ refused: scheme "ftp" is not http or https`,
			`refused: scheme "ftp" is not http or https`, `was refused: scheme "ftp" is not http or https`},
		{"refused after a redirect", &Error{Kind: KindRefused, URL: "ftp://b.example/", Hops: hops, Reason: "why"},
			"redirect 1 (HTTP 301 from https://a.example/) to ftp://b.example/ refused: why",
			"refused: why", "was refused: why"},
		{"address", &Error{Kind: KindAddress, URL: "http://10.0.0.1/", Reason: "10.0.0.1 is private"},
			"http://10.0.0.1/ refused by the address guard: 10.0.0.1 is private",
			"refused by the address guard: 10.0.0.1 is private", "was refused by the address guard: 10.0.0.1 is private"},
		{"address alone", &Error{Kind: KindAddress, Reason: "10.0.0.1 is private"},
			"10.0.0.1 is private",
			"refused by the address guard: 10.0.0.1 is private", "was refused by the address guard: 10.0.0.1 is private"},
		{"too large, announced", &Error{Kind: KindTooLarge, URL: "https://a.example/i", Limit: 16 << 20, ContentLength: 17 << 20, Announced: true},
			"https://a.example/i: refused by crawler policy: the response is over the 16 MiB limit (Content-Length announced 17825792 bytes; nothing read)",
			"refused by crawler policy: over the 16 MiB limit", "is over the 16 MiB limit (refused by crawler policy)"},
		{"too large, decoded", &Error{Kind: KindTooLarge, URL: "https://a.example/i", Limit: 1000, ContentLength: -1, Decoded: true},
			"https://a.example/i: refused by crawler policy: the response is over the 1000 bytes limit (reading stopped at the limit, counting gzip-decoded bytes)",
			"refused by crawler policy: over the 1000 bytes limit", "is over the 1000 bytes limit (refused by crawler policy)"},
		{"too large, claimed less", &Error{Kind: KindTooLarge, URL: "https://a.example/i", Limit: 512 << 10, ContentLength: 10},
			"https://a.example/i: refused by crawler policy: the response is over the 512 KiB limit (reading stopped at the limit although Content-Length claimed 10 bytes)",
			"refused by crawler policy: over the 512 KiB limit", "is over the 512 KiB limit (refused by crawler policy)"},
		{"too large, no length", &Error{Kind: KindTooLarge, URL: "https://a.example/i", Limit: 512 << 10, ContentLength: -1},
			"https://a.example/i: refused by crawler policy: the response is over the 512 KiB limit (reading stopped at the limit)",
			"refused by crawler policy: over the 512 KiB limit", "is over the 512 KiB limit (refused by crawler policy)"},
		{"timeout", &Error{Kind: KindTimeout, URL: "https://a.example/", Timeout: 30 * time.Second},
			"https://a.example/: timed out after 30s (one deadline covers connecting, redirects and the body)",
			"timed out after 30s", "timed out after 30s"},
		{"redirect", &Error{Kind: KindRedirect, URL: "https://b.example/x", Hops: hops, Status: 302, Reason: "HTTP 302 without a Location header"},
			"redirect 2 from https://b.example/x: HTTP 302 without a Location header",
			"redirect (HTTP 302) not followed: HTTP 302 without a Location header",
			"redirected in a way the crawler does not follow: HTTP 302 without a Location header"},
		{"network", &Error{Kind: KindNetwork, URL: "https://a.example/", Cause: cause},
			"GET https://a.example/: connection refused",
			"unreachable: connection refused", "could not be reached: connection refused"},
		{"network after a redirect", &Error{Kind: KindNetwork, URL: "https://b.example/x", Hops: hops, Cause: cause},
			"GET https://b.example/x: connection refused",
			"unreachable: GET https://b.example/x: connection refused", "could not be reached: GET https://b.example/x: connection refused"},
		{"canceled", &Error{Kind: KindCanceled, URL: "https://a.example/", Cause: context.Canceled},
			"GET https://a.example/: not finished: context canceled",
			"unreachable: context canceled", "could not be reached: context canceled"},
	} {
		wrapped := fmt.Errorf("wrapped: %w", tc.err)
		if got := tc.err.Error(); got != tc.full {
			t.Errorf("%s: Error() = %q\nwant %q", tc.name, got, tc.full)
		}
		if got := Words(wrapped, Outcome); got != tc.outcome {
			t.Errorf("%s: Words(Outcome) = %q\nwant %q", tc.name, got, tc.outcome)
		}
		if got := Words(wrapped, Predicate); got != tc.predicate {
			t.Errorf("%s: Words(Predicate) = %q\nwant %q", tc.name, got, tc.predicate)
		}
		if KindOf(wrapped) != tc.err.Kind || fmt.Sprint(HopsOf(wrapped)) != fmt.Sprint(tc.err.Hops) {
			t.Errorf("%s: KindOf %v, HopsOf %v through a wrapping", tc.name, KindOf(wrapped), HopsOf(wrapped))
		}
	}
	// An error that is not the guard's is a failure to reach the URL, in its wrapped words.
	other := fmt.Errorf("fetching: %w", cause)
	if got := Words(other, Outcome); got != "unreachable: connection refused" {
		t.Errorf("Words(other error) = %q", got)
	}
	if KindOf(other) != 0 || HopsOf(other) != nil || KindOf(nil) != 0 {
		t.Errorf("KindOf/HopsOf of an error without a *Error: %v %v", KindOf(other), HopsOf(other))
	}
}

// Refusals are the kinds that are facts about the URL or the document; a timeout, a network
// failure and the caller's cancellation are not.
func TestKindRefusal(t *testing.T) {
	for k, want := range map[Kind]bool{KindRefused: true, KindAddress: true, KindTooLarge: true, KindRedirect: true,
		KindTimeout: false, KindNetwork: false, KindCanceled: false, 0: false} {
		if k.Refusal() != want {
			t.Errorf("Kind %d Refusal() = %v, want %v", k, k.Refusal(), want)
		}
	}
}

// A failure after redirects carries them, whatever its kind, so discovery's trail can name every
// URL tried: here a network failure (the redirect's target does not answer HTTP) and a body
// over the limit.
func TestFailureAfterRedirectsKeepsHops(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, "/broken", http.StatusFound)
		case "/start-big":
			http.Redirect(w, r, "/big", http.StatusMovedPermanently)
		case "/broken":
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte("x"))
		case "/big":
			w.Write(make([]byte, 2000))
		}
	}))
	defer srv.Close()
	c := loopbackClient(Options{MaxBytes: 1000})
	_, err := c.Get(context.Background(), Request{URL: srv.URL + "/start"})
	e, ok := ofKind(err, KindNetwork)
	if !ok || e.URL != srv.URL+"/broken" || len(e.Hops) != 1 || e.Hops[0].To != srv.URL+"/broken" || e.Cause == nil {
		t.Fatalf("network failure after a redirect: %#v", err)
	}
	if want := "unreachable: GET " + srv.URL + "/broken: " + e.Cause.Error(); Words(err, Outcome) != want {
		t.Errorf("Words = %q, want %q", Words(err, Outcome), want)
	}
	_, err = c.Get(context.Background(), Request{URL: srv.URL + "/start-big"})
	if e, ok := ofKind(err, KindTooLarge); !ok || e.URL != srv.URL+"/big" || len(HopsOf(err)) != 1 || HopsOf(err)[0].Status != 301 {
		t.Errorf("too large after a redirect: %#v", err)
	}
}
