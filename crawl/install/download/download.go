// Package download fetches artifacts as the protocol's artifacts page says (SPEC section 8):
// publishers first, then mirrors; bytes kept only when their length and SHA-256 match the
// declared ones, else the next source is tried; a cache keyed by SHA-256, shared by every
// install; an interrupted download resumed with a Range request, from any source.
package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// Source is one place an artifact is published: kind "publisher" or "mirror".
type Source struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

// Artifact is what to fetch: declared size, SHA-256 (lowercase hex) and sources in manifest order.
type Artifact struct {
	Size    int64
	SHA256  string
	Sources []Source
}

// Attempt is a source tried and why its bytes were not kept.
type Attempt struct {
	Source Source
	Reason string
}

// Result is a verified artifact: its cache file, its source (nil: the cache) and those tried.
type Result struct {
	Path     string
	Source   *Source
	Rejected []Attempt
}

// Failed is every source of an artifact tried, none giving its bytes.
type Failed struct{ Attempts []Attempt }

func (f *Failed) Error() string {
	if len(f.Attempts) == 0 {
		return "the artifact has no source"
	}
	var b strings.Builder
	b.WriteString("no source gave the declared bytes:")
	for _, a := range f.Attempts {
		fmt.Fprintf(&b, "\n  %s (%s): %s", a.Source.URL, a.Source.Kind, a.Reason)
	}
	return b.String()
}

// Cache is a directory of verified artifacts named by SHA-256, with "<sha256>.part" downloads.
type Cache struct {
	Dir    string
	Client *guard.Client
	// Progress returns the writer a transfer's bytes are copied to, closed at its end.
	Progress func(url string, size, from int64) io.WriteCloser
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Order is the order sources are tried in: publishers', then mirrors, each in manifest order.
func Order(srcs []Source) []Source {
	out := slices.Clone(srcs)
	slices.SortStableFunc(out, func(a, b Source) int {
		return boolInt(a.Kind != "publisher") - boolInt(b.Kind != "publisher")
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Get returns the verified artifact, downloading it when the cache lacks it. Every source
// failing is a *Failed; a download cut by the network stays a part for the next to resume.
func (c *Cache) Get(ctx context.Context, a Artifact) (*Result, error) {
	if !sha256Hex.MatchString(a.SHA256) || a.Size < 0 {
		return nil, fmt.Errorf("the artifact's declared digest %q or size %d is not one a download can be checked against", a.SHA256, a.Size)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	final := filepath.Join(c.Dir, a.SHA256)
	if ok, err := c.held(final, a); ok || err != nil {
		return &Result{Path: final}, err
	}
	res := &Result{Path: final}
	for _, s := range Order(a.Sources) {
		reason, err := c.fetch(ctx, a, s, final)
		if err != nil {
			return nil, err
		}
		if reason == "" {
			res.Source = &s
			return res, nil
		}
		res.Rejected = append(res.Rejected, Attempt{Source: s, Reason: reason})
	}
	return nil, &Failed{Attempts: res.Rejected}
}

// held reports whether the cache holds a's verified bytes at final, removing a bad file.
func (c *Cache) held(final string, a Artifact) (bool, error) {
	f, err := os.Open(final)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	f.Close()
	if err == nil && n == a.Size && hex.EncodeToString(h.Sum(nil)) == a.SHA256 {
		return true, nil
	}
	return false, os.Remove(final)
}

// fetch downloads a from s into the part file and, verified, renames it to final; it returns
// why s's bytes were not kept ("" when they were), its error being the cache's own.
func (c *Cache) fetch(ctx context.Context, a Artifact, s Source, final string) (string, error) {
	part := final + ".part"
	for again := true; ; again = false {
		from, h, err := resume(part, a.Size)
		if err != nil {
			return "", err
		}
		got, reason, err := c.transfer(ctx, a, s, part, from, h)
		if err != nil || reason != "" {
			return reason, err
		}
		switch sum := hex.EncodeToString(h.Sum(nil)); {
		case got != a.Size:
			reason = fmt.Sprintf("its length is %d bytes, not the declared %d", got, a.Size)
		case sum != a.SHA256:
			reason = fmt.Sprintf("its SHA-256 is %s, not the declared %s", sum, a.SHA256)
		default:
			return "", os.Rename(part, final)
		}
		if err := os.Remove(part); err != nil {
			return "", err
		}
		if from == 0 || !again {
			return reason, nil
		}
		// The bytes resumed from may be what was wrong: once more from the start.
	}
}

// resume returns where a download's part ends and its bytes hashed; a part too long is removed.
func resume(part string, size int64) (int64, hash.Hash, error) {
	h := sha256.New()
	f, err := os.Open(part)
	if errors.Is(err, os.ErrNotExist) {
		return 0, h, nil
	} else if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, nil, err
	}
	if n >= size {
		return 0, sha256.New(), os.Remove(part)
	}
	return n, h, nil
}

// transfer streams s's bytes from byte from on into part, hashed into h, returning the part's
// length or why s gave nothing worth checking.
func (c *Cache) transfer(ctx context.Context, a Artifact, s Source, part string, from int64, h hash.Hash) (int64, string, error) {
	var f *os.File
	got := from
	var bar io.WriteCloser
	_, err := c.Client.Get(ctx, guard.Request{URL: s.URL, From: from, MaxBytes: max(a.Size, 1), Stream: func(r *guard.Response) (io.Writer, error) {
		flag := os.O_WRONLY | os.O_CREATE | os.O_APPEND
		switch r.Status {
		case http.StatusPartialContent:
		case http.StatusOK:
			flag |= os.O_TRUNC
			got = 0
			h.Reset()
		default:
			return nil, statusError(r.Status)
		}
		var err error
		if f, err = os.OpenFile(part, flag, 0o644); err != nil {
			return nil, err
		}
		var w io.Writer = io.MultiWriter(counter{&got, a.Size}, f, h)
		if c.Progress != nil {
			bar = c.Progress(s.URL, a.Size, got)
			w = io.MultiWriter(w, bar)
		}
		return w, nil
	}})
	if bar != nil {
		bar.Close()
	}
	if f != nil { // not synced: a cached file is verified again whenever it is used
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	var se statusError
	switch {
	case err == nil:
		return got, "", nil
	case ctx.Err() != nil:
		return got, "", context.Cause(ctx)
	case errors.As(err, &se):
		return got, se.Error(), nil
	case err == errLonger || guard.KindOf(err) == guard.KindTooLarge:
		return got, fmt.Sprintf("it sends more than the declared %d bytes", a.Size), os.Remove(part)
	case guard.KindOf(err) != 0:
		return got, guard.Words(err, guard.Outcome), nil
	}
	return got, "", err
}

type statusError int

func (s statusError) Error() string { return fmt.Sprintf("HTTP %d", int(s)) }

var errLonger = errors.New("longer than declared")

// counter counts the bytes of a download into *n and refuses any past size.
type counter struct {
	n    *int64
	size int64
}

func (c counter) Write(p []byte) (int, error) {
	if *c.n+int64(len(p)) > c.size {
		return 0, errLonger
	}
	*c.n += int64(len(p))
	return len(p), nil
}
