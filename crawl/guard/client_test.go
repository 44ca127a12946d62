package guard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl"
)

// loopbackClient is a client for httptest servers on 127.0.0.1 (--allow-loopback).
func loopbackClient(o Options) *Client {
	o.AllowLoopback = true
	return New(o)
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
	if ua != crawl.UserAgent {
		t.Errorf("User-Agent = %q, want %q", ua, crawl.UserAgent)
	}
	if resp.Status != 200 || string(resp.Body) != `{"schema_version":"2"}` || resp.ETag() != `"abc"` {
		t.Errorf("got %d %q etag %q", resp.Status, resp.Body, resp.ETag())
	}
	if resp.URL != srv.URL+"/dreamweave.json" || len(resp.Hops) != 0 {
		t.Errorf("URL %q hops %v", resp.URL, resp.Hops)
	}
}
