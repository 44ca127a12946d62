package guard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// streamed is a Request.Stream that keeps the response and writes the body into buf.
func streamed(buf *bytes.Buffer, got **Response) func(*Response) (io.Writer, error) {
	return func(r *Response) (io.Writer, error) {
		*got = r
		return buf, nil
	}
}

func TestStreamCopiesBodyWithoutContentCoding(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 10000)
	var enc string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		enc = r.Header.Get("Accept-Encoding")
		w.Write(body)
	}))
	defer srv.Close()
	var buf bytes.Buffer
	var got *Response
	resp, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL + "/a.zip", Stream: streamed(&buf, &got)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), body) || resp.Body != nil || got != resp || resp.Status != 200 {
		t.Errorf("streamed %d bytes (want %d), Response.Body %d bytes, status %d", buf.Len(), len(body), len(resp.Body), resp.Status)
	}
	if enc != "identity" {
		t.Errorf("Accept-Encoding %q; a download asks for the bytes as published", enc)
	}
}

func TestStreamCutAtLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("y"), 32<<10)
		for i := 0; i < 1024; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	var buf bytes.Buffer
	var got *Response
	_, err := loopbackClient(Options{}).Get(context.Background(), Request{URL: srv.URL, MaxBytes: 100 << 10, Stream: streamed(&buf, &got)})
	if _, ok := ofKind(err, KindTooLarge); !ok {
		t.Fatalf("got %v; want a body over the limit", err)
	}
	if buf.Len() > 100<<10 {
		t.Errorf("%d bytes written past the 100 KiB limit", buf.Len())
	}
}

func TestStreamRangeResumes(t *testing.T) {
	body := []byte("abcdefghijklmnopqrstuvwxyz")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ranged":
			http.ServeContent(w, r, "a.zip", time.Time{}, bytes.NewReader(body))
		case "/whole":
			w.Write(body) // ignores Range
		case "/wrong":
			w.Header().Set("Content-Range", "bytes 0-25/26")
			w.WriteHeader(http.StatusPartialContent)
			w.Write(body)
		}
	}))
	defer srv.Close()
	c := loopbackClient(Options{})
	for path, want := range map[string]string{"/ranged": "klmnopqrstuvwxyz", "/whole": string(body)} {
		var buf bytes.Buffer
		var got *Response
		resp, err := c.Get(context.Background(), Request{URL: srv.URL + path, From: 10, Stream: streamed(&buf, &got)})
		if err != nil || buf.String() != want {
			t.Errorf("%s: %v, body %q; want %q", path, err, buf.String(), want)
			continue
		}
		if wantStatus := map[string]int{"/ranged": 206, "/whole": 200}[path]; resp.Status != wantStatus {
			t.Errorf("%s: status %d; want %d", path, resp.Status, wantStatus)
		}
	}
	var buf bytes.Buffer
	var got *Response
	_, err := c.Get(context.Background(), Request{URL: srv.URL + "/wrong", From: 10, Stream: streamed(&buf, &got)})
	if err == nil || !strings.Contains(err.Error(), `Content-Range "bytes 0-25/26"`) || buf.Len() != 0 || got != nil {
		t.Errorf("a range from the wrong offset: %v, %d bytes written; want it refused before the body", err, buf.Len())
	}
}

func TestStreamDeadlineIsPerStall(t *testing.T) {
	const tick = 30 * time.Millisecond
	base := rawServer(t, func(conn net.Conn) {
		fmt.Fprint(conn, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
		for i := 0; i < 10; i++ { // 300 ms in all, a byte every 30 ms
			if _, err := fmt.Fprint(conn, "1\r\nx\r\n"); err != nil {
				return
			}
			time.Sleep(tick)
		}
		fmt.Fprint(conn, "0\r\n\r\n")
	})
	stall := rawServer(t, func(conn net.Conn) {
		fmt.Fprint(conn, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nx")
		time.Sleep(2 * time.Second)
	})
	c := loopbackClient(Options{Timeout: 200 * time.Millisecond})
	var buf bytes.Buffer
	var got *Response
	if _, err := c.Get(context.Background(), Request{URL: base + "/slow", Stream: streamed(&buf, &got)}); err != nil || buf.Len() != 10 {
		t.Errorf("a steady download longer than the timeout: %v, %d bytes", err, buf.Len())
	}
	_, err := c.Get(context.Background(), Request{URL: stall + "/stall", Stream: streamed(&buf, &got)})
	te, ok := ofKind(err, KindTimeout)
	if !ok || !te.Stalled || !strings.Contains(err.Error(), "no data for 200ms") || Words(err, Outcome) != "stalled: no data for 200ms" {
		t.Errorf("a stalled download: %v; want it abandoned as stalled", err)
	}
	// Without Stream the one deadline covers the body as before.
	_, err = c.Get(context.Background(), Request{URL: base + "/slow"})
	if te, ok := ofKind(err, KindTimeout); !ok || te.Stalled {
		t.Errorf("a slow body read whole: %v; want the one deadline", err)
	}
}

func TestStreamCallerErrorsReturnedAsTheyAre(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("z"), 100<<10))
	}))
	defer srv.Close()
	c := loopbackClient(Options{})
	mine := errors.New("disk full")
	_, err := c.Get(context.Background(), Request{URL: srv.URL, Stream: func(*Response) (io.Writer, error) { return failWriter{mine}, nil }})
	if err != mine {
		t.Errorf("writer error: %v; want it as it is", err)
	}
	_, err = c.Get(context.Background(), Request{URL: srv.URL, Stream: func(*Response) (io.Writer, error) { return nil, mine }})
	if err != mine {
		t.Errorf("Stream error: %v; want it as it is", err)
	}
	resp, err := c.Get(context.Background(), Request{URL: srv.URL, Stream: func(*Response) (io.Writer, error) { return nil, nil }})
	if err != nil || resp.Status != 200 || resp.Body != nil {
		t.Errorf("a body skipped: %v %+v", err, resp)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }
