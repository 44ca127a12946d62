package download

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// server serves the artifact body at /good, and at /tampered the same length changed, at
// /short half, at /long twice, at /cut half with the whole length announced and the
// connection closed; it records each request's path and Range.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	log  []string
	body []byte
}

func newServer(t *testing.T, body []byte) *server {
	s := &server{body: body}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r.URL.Path+" "+r.Header.Get("Range"))
		s.mu.Unlock()
		switch r.URL.Path {
		case "/good":
			http.ServeContent(w, r, "a.zip", time.Time{}, bytes.NewReader(body))
		case "/whole":
			w.Write(body)
		case "/tampered":
			b := bytes.Clone(body)
			b[len(b)/2] ^= 1
			w.Write(b)
		case "/short":
			w.Write(body[:len(body)/2])
		case "/long":
			w.Write(append(bytes.Clone(body), body...))
		case "/cut":
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write(body[:len(body)/2])
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.log
	s.log = nil
	return out
}

func artifact(body []byte, srcs ...Source) Artifact {
	h := sha256.Sum256(body)
	return Artifact{Size: int64(len(body)), SHA256: hex.EncodeToString(h[:]), Sources: srcs}
}

func cache(t *testing.T) *Cache {
	return &Cache{Dir: t.TempDir(), Client: guard.New(guard.Options{AllowLoopback: true})}
}

var body = bytes.Repeat([]byte("DreamWeave artifact bytes. "), 4000)

func TestPublisherFirstThenCache(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	a := artifact(body, Source{URL: s.URL + "/mirror", Kind: "mirror"}, Source{URL: s.URL + "/good", Kind: "publisher"})
	res, err := c.Get(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if res.Source == nil || res.Source.Kind != "publisher" || len(res.Rejected) != 0 {
		t.Errorf("source %+v rejected %+v; want the publisher first", res.Source, res.Rejected)
	}
	if b, _ := os.ReadFile(res.Path); !bytes.Equal(b, body) || res.Path != filepath.Join(c.Dir, a.SHA256) {
		t.Errorf("cached at %s: %d bytes", res.Path, len(b))
	}
	if got := s.requests(); len(got) != 1 || got[0] != "/good " {
		t.Errorf("requests %q; want the publisher's alone", got)
	}
	res, err = c.Get(context.Background(), a)
	if err != nil || res.Source != nil || len(s.requests()) != 0 {
		t.Errorf("second get: %v, source %+v; want the cache and no request", err, res.Source)
	}
}

func TestTamperedPublisherGoodMirror(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	a := artifact(body, Source{URL: s.URL + "/good", Kind: "mirror", Name: "Mirror"}, Source{URL: s.URL + "/tampered", Kind: "publisher"})
	res, err := c.Get(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if res.Source.URL != s.URL+"/good" || len(res.Rejected) != 1 || res.Rejected[0].Source.URL != s.URL+"/tampered" ||
		!strings.HasPrefix(res.Rejected[0].Reason, "its SHA-256 is ") || !strings.HasSuffix(res.Rejected[0].Reason, "not the declared "+a.SHA256) {
		t.Errorf("source %+v rejected %+v", res.Source, res.Rejected)
	}
	if b, _ := os.ReadFile(res.Path); !bytes.Equal(b, body) {
		t.Error("the cache holds other bytes")
	}
}

func TestEverySourceBad(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	a := artifact(body,
		Source{URL: s.URL + "/tampered", Kind: "publisher"}, Source{URL: s.URL + "/short", Kind: "mirror"},
		Source{URL: s.URL + "/long", Kind: "mirror"}, Source{URL: s.URL + "/gone", Kind: "mirror"},
		Source{URL: "http://10.0.0.1/a.zip", Kind: "mirror"}, Source{URL: "ftp://example.org/a.zip", Kind: "mirror"})
	_, err := c.Get(context.Background(), a)
	var f *Failed
	if !errors.As(err, &f) || len(f.Attempts) != 6 {
		t.Fatalf("got %v; want every source failed", err)
	}
	want := []string{"its SHA-256 is", fmt.Sprintf("its length is %d bytes, not the declared %d", len(body)/2, len(body)),
		fmt.Sprintf("it sends more than the declared %d bytes", len(body)), "HTTP 404", "refused by the address guard", `refused: scheme "ftp"`}
	for i, w := range want {
		if !strings.Contains(f.Attempts[i].Reason, w) {
			t.Errorf("attempt %d (%s): %q; want %q", i, f.Attempts[i].Source.URL, f.Attempts[i].Reason, w)
		}
		if !strings.Contains(err.Error(), f.Attempts[i].Source.URL) {
			t.Errorf("the error does not name %s:\n%v", f.Attempts[i].Source.URL, err)
		}
	}
	if left, _ := os.ReadDir(c.Dir); len(left) != 0 {
		t.Errorf("the cache holds %v after every source failed; rejected bytes are not kept", left)
	}
}

func TestInterruptedDownloadResumes(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	a := artifact(body, Source{URL: s.URL + "/cut", Kind: "publisher"})
	_, err := c.Get(context.Background(), a)
	var f *Failed
	if !errors.As(err, &f) || !strings.Contains(f.Attempts[0].Reason, "unreachable") {
		t.Fatalf("got %v; want the cut download failed", err)
	}
	part := filepath.Join(c.Dir, a.SHA256+".part")
	if fi, err := os.Stat(part); err != nil || fi.Size() != int64(len(body)/2) {
		t.Fatalf("part: %v %v; want the half received kept", fi, err)
	}
	s.requests()
	// The next run resumes from another source (the same digest is the same artifact).
	a.Sources = []Source{{URL: s.URL + "/good", Kind: "mirror"}}
	res, err := c.Get(context.Background(), a)
	if err != nil || res.Source.URL != s.URL+"/good" {
		t.Fatalf("resume: %v", err)
	}
	if got := s.requests(); len(got) != 1 || got[0] != fmt.Sprintf("/good bytes=%d-", len(body)/2) {
		t.Errorf("requests %q; want one Range request from the part's end", got)
	}
	if b, _ := os.ReadFile(res.Path); !bytes.Equal(b, body) {
		t.Error("resumed bytes differ")
	}
	if _, err := os.Stat(part); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the part is still there: %v", err)
	}
}

func TestResumeIgnoredOrCorrupt(t *testing.T) {
	s := newServer(t, body)
	for name, part := range map[string][]byte{"ignored": body[:100], "corrupt": []byte(strings.Repeat("x", 100))} {
		t.Run(name, func(t *testing.T) {
			c := cache(t)
			path := "/whole"
			if name == "corrupt" {
				path = "/good"
			}
			a := artifact(body, Source{URL: s.URL + path, Kind: "publisher"})
			os.WriteFile(filepath.Join(c.Dir, a.SHA256+".part"), part, 0o644)
			s.requests()
			res, err := c.Get(context.Background(), a)
			if err != nil || len(res.Rejected) != 0 {
				t.Fatalf("%v %+v", err, res)
			}
			if b, _ := os.ReadFile(res.Path); !bytes.Equal(b, body) {
				t.Error("bytes differ")
			}
			want := map[string]string{"ignored": "/whole bytes=100- ", "corrupt": "/good bytes=100- /good  "}[name]
			if got := strings.Join(s.requests(), " ") + " "; got != want {
				t.Errorf("requests %q; want %q", got, want)
			}
		})
	}
}

func TestCorruptCacheFetchedAgain(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	a := artifact(body, Source{URL: s.URL + "/good", Kind: "publisher"})
	os.WriteFile(filepath.Join(c.Dir, a.SHA256), []byte("not it"), 0o644)
	res, err := c.Get(context.Background(), a)
	if err != nil || res.Source == nil {
		t.Fatalf("%v %+v; want it downloaded again", err, res)
	}
}

type bar struct {
	bytes.Buffer
	closed bool
}

func (b *bar) Close() error { b.closed = true; return nil }

func TestProgressSeesTheBytes(t *testing.T) {
	s := newServer(t, body)
	c := cache(t)
	var b bar
	var got []int64
	c.Progress = func(url string, size, from int64) io.WriteCloser {
		got = append(got, size, from)
		return &b
	}
	if _, err := c.Get(context.Background(), artifact(body, Source{URL: s.URL + "/good", Kind: "publisher"})); err != nil {
		t.Fatal(err)
	}
	if b.Len() != len(body) || !b.closed || len(got) != 2 || got[0] != int64(len(body)) || got[1] != 0 {
		t.Errorf("progress saw %d bytes, closed %v, %v", b.Len(), b.closed, got)
	}
}

func TestCancelledStopsAtOnce(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := cache(t)
	a := artifact(body, Source{URL: "http://" + ln.Addr().String() + "/a", Kind: "publisher"}, Source{URL: "http://" + ln.Addr().String() + "/b", Kind: "mirror"})
	if _, err := c.Get(ctx, a); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v; want the cancellation, not a failed source", err)
	}
}

func TestBadDeclaration(t *testing.T) {
	c := cache(t)
	if _, err := c.Get(context.Background(), Artifact{Size: 1, SHA256: "ABC"}); err == nil || !strings.Contains(err.Error(), `"ABC"`) {
		t.Errorf("got %v", err)
	}
}
