package main

import (
	"bytes"
	"io"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// redactWriter is every command's stdout and stderr: each line goes through termtext.RedactURL
// before it is written, so no command prints the user info of a URL (a password given on the
// command line, in the source list, in a document or in a redirect), whichever message,
// summary, progress line or JSON field carries it. Lines are held until their newline (a URL
// written in two pieces is still one line); a line longer than maxPending is written in
// pieces. Safe for concurrent use; flush writes a last line without a newline.
type redactWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// maxPending bounds the bytes held for a line without a newline.
const maxPending = 1 << 20

func newRedactWriter(w io.Writer) *redactWriter {
	if r, ok := w.(*redactWriter); ok {
		return r
	}
	return &redactWriter{w: w}
}

// Write writes p's complete lines, redacted, and holds the rest. It reports len(p) written
// unless the underlying writer fails.
func (r *redactWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, p...)
	end := bytes.LastIndexByte(r.pending, '\n') + 1
	if end == 0 && len(r.pending) > maxPending {
		end = len(r.pending)
	}
	if end == 0 {
		return len(p), nil
	}
	err := r.emit(r.pending[:end])
	r.pending = append(r.pending[:0], r.pending[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes what is held.
func (r *redactWriter) flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	err := r.emit(r.pending)
	r.pending = r.pending[:0]
	return err
}

func (r *redactWriter) emit(b []byte) error {
	if bytes.IndexByte(b, '@') >= 0 {
		b = []byte(termtext.RedactURL(string(b)))
	}
	_, err := r.w.Write(b)
	return err
}
