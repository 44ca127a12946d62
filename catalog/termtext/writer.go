package termtext

import (
	"bytes"
	"io"
	"sync"
)

// Writer is what a command's stdout and stderr go through: each line has its URLs' user info
// redacted and the workflow-command rule applied. Lines are held until their newline (up to
// maxPending), so a URL written in pieces is one line. Safe for concurrent use; Flush writes a
// last line without a newline.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	rule    commandRule
	pending []byte
	out     []byte
	max     int // the most bytes held for a line without a newline; 0 means maxPending
}

// maxPending bounds the bytes held for a line without a newline.
const maxPending = 1 << 20

// NewWriter returns a Writer writing to w; w itself when it is one already.
func NewWriter(w io.Writer) *Writer {
	if t, ok := w.(*Writer); ok {
		return t
	}
	return &Writer{w: w}
}

// Write writes p's complete lines, made safe, and holds the rest.
func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = append(t.pending, p...)
	end := bytes.LastIndexByte(t.pending, '\n') + 1
	limit := t.max
	if limit == 0 {
		limit = maxPending
	}
	if end == 0 && len(t.pending) > limit {
		end = len(t.pending)
	}
	if end == 0 {
		return len(p), nil
	}
	rest, err := t.emit(t.pending[:end], false)
	t.pending = append(append([]byte(nil), rest...), t.pending[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held.
func (t *Writer) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) == 0 && !t.rule.colon {
		return nil
	}
	_, err := t.emit(t.pending, true)
	t.pending = t.pending[:0]
	return err
}

// emit writes b made safe and returns what of it is held for the next piece.
func (t *Writer) emit(b []byte, final bool) (rest []byte, err error) {
	if bytes.IndexByte(b, '@') >= 0 {
		b = []byte(RedactURL(string(b)))
	}
	t.out, rest = t.rule.apply(t.out[:0], b, final)
	_, err = t.w.Write(t.out)
	return rest, err
}
