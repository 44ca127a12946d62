package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// MaxRecordBytes bounds a record: an event repeats at most two documents, indented, so four
// documents' worth.
const MaxRecordBytes = 4 * protocol.MaxDocumentBytes

// MaxHeldBytes is the most a held file (a manifest, a site index, a cached image) may hold:
// the crawler's document limit.
const MaxHeldBytes = protocol.MaxDocumentBytes

// ErrNotRegular is the error (errors.Is) of a read of a state file that is not a regular file
// under directories of the state: a symbolic link (a pushed state branch can carry one), a
// device, a pipe or a directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error (errors.Is) of a read of a state file over its limit
// (MaxRecordBytes, MaxHeldBytes).
var ErrTooLarge = errors.New("over the size limit")

// readFile reads the state file at rel, at most limit bytes, following no symbolic link below
// the root: each directory on the way and the file are checked with Lstat, and the file opened
// is the one checked (os.SameFile). A missing file's error is fs.ErrNotExist.
func (d *Dir) readFile(rel string, limit int64) ([]byte, error) {
	return d.readInto(new(bytes.Buffer), rel, limit)
}

// readInto is readFile into buf, emptied first: the bytes are buf's until its next use.
func (d *Dir) readInto(buf *bytes.Buffer, rel string, limit int64) ([]byte, error) {
	st, err := d.lstatBelow(rel)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(rel, st.Mode())
	}
	if st.Size() > limit {
		return nil, tooLarge(rel, st.Size(), limit)
	}
	f, err := os.Open(d.Path(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(st, fst) {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w: it was replaced while being opened", ErrNotRegular)}
	}
	// Sized by Stat: one allocation where io.ReadAll's doubling makes about three.
	buf.Reset()
	buf.Grow(int(min(fst.Size(), limit)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: err}
	}
	b := buf.Bytes()
	if int64(len(b)) > limit { // the file grew after Stat
		return nil, tooLarge(rel, int64(len(b)), limit)
	}
	return b, nil
}

// lstatBelow is Lstat of rel, having checked that every directory between the root and rel is
// no symbolic link. The root itself may be one: the operator chose it.
func (d *Dir) lstatBelow(rel string) (fs.FileInfo, error) {
	p := filepath.Clean(d.Root) + string(filepath.Separator)
	root := len(p)
	p += filepath.FromSlash(rel) // each directory on the way is a prefix
	for i := 0; ; i++ {
		n := strings.IndexByte(rel[i:], '/')
		if n < 0 {
			return os.Lstat(p)
		}
		i += n
		st, err := os.Lstat(p[:root+i])
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, notRegular(rel[:i], st.Mode())
		}
	}
}

func notRegular(rel string, m fs.FileMode) error {
	return &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w: it is %s; a state holds only directories and regular files, and nothing is read through anything else", ErrNotRegular, FileKind(m))}
}

func tooLarge(rel string, size, limit int64) error {
	return &fs.PathError{Op: "read", Path: rel, Err: fmt.Errorf("%w: it holds %d bytes or more, over the %d-byte limit", ErrTooLarge, size, limit)}
}

// FileKind names a file mode that is not a regular file's in words, for readers' errors.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return fmt.Sprintf("an irregular file (mode %s)", m)
}

// readErrorWords is a failed read's cause without the path, which the Problem names.
func readErrorWords(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, ErrNotRegular) || errors.Is(pe.Err, ErrTooLarge) {
			return pe.Err.Error()
		}
	}
	return err.Error()
}
