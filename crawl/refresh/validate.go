package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol/validate"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// ValidateReader reads what `ashyams validate` checks as the crawler does: a regular file
// within the limit, a URL through the guard, a site's manifests by Inspect with o.
func ValidateReader(o Options) validate.Reader { return &validateReader{o: o} }

type validateReader struct {
	o Options
	c *guard.Client
}

// Read reads src; a failure is a *validate.ReadError in the crawler's words.
func (v *validateReader) Read(ctx context.Context, src string, limit int64) ([]byte, error) {
	over := protocol.TooLargeReason
	if limit != protocol.MaxDocumentBytes {
		over = fmt.Sprintf("more than the %d MiB limit", limit>>20)
	}
	if !validate.IsURL(src) {
		b, size, err := readRegular(src, limit)
		switch {
		case size > limit:
			return nil, &validate.ReadError{Verdict: validate.VerdictRefused, Message: fmt.Sprintf("%s (the file is %d bytes)", over, size)}
		case err != nil:
			return nil, &validate.ReadError{Verdict: validate.VerdictUnreadable, Message: err.Error()}
		}
		return b, nil
	}
	if v.c == nil {
		v.c = guard.New(guard.Options{AllowLoopback: v.o.AllowLoopback})
	}
	resp, err := v.c.Get(ctx, guard.Request{URL: src, Accept: "application/json", MaxBytes: limit})
	var ge *guard.Error
	switch {
	case errors.As(err, &ge) && ge.Kind == guard.KindTooLarge:
		return nil, &validate.ReadError{Verdict: validate.VerdictRefused, Message: fmt.Sprintf("%s (%s)", over, ge.HowTooLarge())}
	case ge != nil && (ge.Kind == guard.KindRefused || ge.Kind == guard.KindAddress):
		return nil, &validate.ReadError{Verdict: validate.VerdictURLRefused, Message: err.Error()}
	case err != nil:
		return nil, &validate.ReadError{Verdict: validate.VerdictUnreachable, Message: err.Error()}
	case resp.Status != 200:
		return nil, &validate.ReadError{Verdict: validate.VerdictUnreachable, Message: fmt.Sprintf("GET %s: HTTP %d", resp.URL, resp.Status)}
	}
	return resp.Body, nil
}

// Site reads the site whose index is at indexURL as a refresh would (Inspect).
func (v *validateReader) Site(ctx context.Context, indexURL string) (*validate.Site, error) {
	rep, err := Inspect(ctx, indexURL, v.o)
	if err != nil {
		return nil, err
	}
	if !rep.OK() {
		why := "its manifests were not read: the crawler reads no manifest of a site it cannot use"
		if o := rep.Origin; o != nil && o.Problem != nil {
			why += " (" + store.OriginHealthLabel(o.Health) + ": " + *o.Problem + ")"
		}
		return &validate.Site{Unused: why}, nil
	}
	s := &validate.Site{}
	for _, m := range rep.Manifests {
		sm := validate.SiteManifest{URL: m.URL, Entry: m.want, Place: m.Entry, Body: m.body}
		if m.body == nil {
			sm.Err = &validate.ReadError{Verdict: validate.VerdictUnreachable, Message: m.Problem}
			if m.Health == store.ClaimRefused {
				sm.Err.(*validate.ReadError).Verdict = validate.VerdictRefused
			}
		}
		s.Manifests = append(s.Manifests, sm)
	}
	return s, nil
}

// readRegular reads the regular file at path, at most limit bytes (size: its size when over).
// Anything else is refused unread: a FIFO would block, /dev/zero never ends.
func readRegular(path string, limit int64) (b []byte, size int64, err error) {
	notRegular := func(st os.FileInfo) error {
		return fmt.Errorf("%s, not a regular file: validate reads only regular files (a pipe or device can block or never end)", store.FileKind(st.Mode()))
	}
	st, err := os.Stat(path) // opening a FIFO blocks until a writer comes
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, notRegular(st)
	}
	// O_NONBLOCK: a path turned FIFO after Stat still opens, and the next check refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, notRegular(st)
	}
	b, err = io.ReadAll(io.LimitReader(f, limit+1))
	if int64(len(b)) > limit {
		return nil, max(st.Size(), int64(len(b))), nil
	}
	return b, 0, err
}
