package example

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
)

// overlay is a read-only fs.FS answering from top where top has a file, else from base; a
// directory lists the union (top wins a clash).
type overlay struct{ top, base fs.FS }

func (o overlay) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if f, err := o.top.Open(name); err == nil {
		st, err := f.Stat()
		if err == nil && !st.IsDir() {
			return f, nil
		}
		f.Close()
	}
	ents, err := o.ReadDir(name)
	if err != nil {
		// Not a directory in either: base's file, or nothing.
		return o.base.Open(name)
	}
	f, err := o.base.Open(name)
	if err != nil {
		if f, err = o.top.Open(name); err != nil {
			return nil, err
		}
	}
	st, err := f.Stat()
	if err != nil || !st.IsDir() {
		return f, err
	}
	return &dir{File: f, ents: ents}, nil
}

// ReadDir lists name's entries from both layers, sorted by name.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	a, errA := fs.ReadDir(o.base, name)
	b, errB := fs.ReadDir(o.top, name)
	if errA != nil && errB != nil {
		return nil, errA
	}
	m := map[string]fs.DirEntry{}
	for _, e := range append(a, b...) { // top's entry last: it wins
		m[e.Name()] = e
	}
	return slices.SortedFunc(maps.Values(m), func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) }), nil
}

// dir is an open directory of the overlay, listing the merged entries.
type dir struct {
	fs.File
	ents []fs.DirEntry
	off  int
}

func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: errors.New("is a directory")}
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.ents[d.off:]
	if n <= 0 {
		d.off = len(d.ents)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}
