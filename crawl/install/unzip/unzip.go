// Package unzip extracts a verified artifact (SPEC section 8): every entry is checked before
// anything is written, the archive refused whole when one could land outside the target, is no
// plain file or directory, cannot exist on Windows, or collides by case; sizes are counted
// while writing, never taken from headers.
package unzip

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Limits bound one extraction: bytes written (counted while writing) and entries.
type Limits struct {
	MaxBytes   int64
	MaxEntries int
}

// DefaultLimits are 8 GiB and 100,000 entries.
var DefaultLimits = Limits{MaxBytes: 8 << 30, MaxEntries: 100_000}

// File is one file written: its path under the target (slash-separated), size and SHA-256.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Refusal is an archive refused: the entry (empty for the archive as a whole) and why.
type Refusal struct {
	Entry  string
	Reason string
}

func (r *Refusal) Error() string {
	if r.Entry == "" {
		return "the archive is refused: " + r.Reason
	}
	return fmt.Sprintf("the archive is refused: entry %q %s", r.Entry, r.Reason)
}

// Extract writes under dest (an existing directory holding none of its paths) the files of the
// zip at src under one of prefixes ("." is all), returning them in archive order, after Check.
// A failure can leave files under dest: the caller extracts into a directory of its own.
func Extract(src, dest string, prefixes []string, lim Limits) ([]File, error) {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return nil, &Refusal{Reason: "it is not a zip archive we can read: " + err.Error()}
	}
	defer zr.Close()
	if err := Check(&zr.Reader, lim); err != nil {
		return nil, err
	}
	var out []File
	left := lim.MaxBytes
	over := func(entry string) error {
		return &Refusal{Entry: entry, Reason: fmt.Sprintf("takes the archive past the limit of %d bytes uncompressed", lim.MaxBytes)}
	}
	for _, f := range zr.File {
		if !selected(f.Name, prefixes) {
			continue
		}
		target := filepath.Join(dest, filepath.FromSlash(strings.TrimSuffix(f.Name, "/")))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return nil, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, err
		}
		file, err := write(f, target, &left)
		if left < 0 {
			return nil, over(f.Name)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, file)
	}
	return out, nil
}

// write copies entry f to a new file at target, taking its bytes from *left.
func write(f *zip.File, target string, left *int64) (File, error) {
	rc, err := f.Open()
	if err != nil {
		return File{}, &Refusal{Entry: f.Name, Reason: "cannot be read: " + err.Error()}
	}
	defer rc.Close()
	w, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return File{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(rc, *left+1))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	*left -= n
	if err != nil {
		return File{}, &Refusal{Entry: f.Name, Reason: "cannot be read: " + err.Error()}
	}
	return File{Path: strings.TrimSuffix(f.Name, "/"), Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// selected reports whether entry name is under one of prefixes.
func selected(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if p == "." || name == p+"/" || strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// Check refuses an archive with too many entries or announced bytes, an encrypted entry, a
// refused name (checkName) or kind (not a file or directory), or two paths (or a path and
// another's parent) equal but for case.
func Check(zr *zip.Reader, lim Limits) error {
	if len(zr.File) > lim.MaxEntries {
		return &Refusal{Reason: fmt.Sprintf("it has %d entries, over the limit of %d", len(zr.File), lim.MaxEntries)}
	}
	var announced uint64
	seen := map[string]string{} // folded path -> the path as written, "/" ending a directory
	for _, f := range zr.File {
		if err := checkName(f.Name); err != "" {
			return &Refusal{Entry: f.Name, Reason: err}
		}
		mode := f.Mode()
		if mode.Type()&^fs.ModeDir != 0 {
			return &Refusal{Entry: f.Name, Reason: "is a " + kind(mode) + ", not a file or a directory"}
		}
		if f.Flags&1 != 0 {
			return &Refusal{Entry: f.Name, Reason: "is encrypted"}
		}
		if announced += f.UncompressedSize64; announced > uint64(lim.MaxBytes) {
			return &Refusal{Reason: fmt.Sprintf("its entries announce more than the limit of %d bytes uncompressed", lim.MaxBytes)}
		}
		name, dir := strings.TrimSuffix(f.Name, "/"), strings.HasSuffix(f.Name, "/") || mode.IsDir()
		segs := strings.Split(name, "/")
		for i := range segs {
			p := strings.Join(segs[:i+1], "/")
			if i < len(segs)-1 || dir {
				p += "/"
			}
			k := strings.ToLower(strings.TrimSuffix(p, "/"))
			prev, ok := seen[k]
			switch {
			case !ok:
				seen[k] = p
			case prev != p:
				return &Refusal{Entry: f.Name, Reason: fmt.Sprintf("collides with %q: on Windows and macOS they are one path", prev)}
			case i == len(segs)-1 && !dir:
				return &Refusal{Entry: f.Name, Reason: "appears twice"}
			}
		}
	}
	return nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "device file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
