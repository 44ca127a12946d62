package unzip

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// entry is one entry of a test archive: a file (body), a directory (name ending in "/"), or
// any other kind (mode). raw writes it deflated with headers announcing size bytes.
type entry struct {
	name string
	body string
	mode fs.FileMode
	raw  bool
	size uint64
	flag uint16
}

func archive(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store, Flags: e.flag}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.raw {
			var comp bytes.Buffer
			fw, _ := flate.NewWriter(&comp, flate.BestCompression)
			fw.Write([]byte(e.body))
			fw.Close()
			h.Method, h.CompressedSize64, h.UncompressedSize64 = zip.Deflate, uint64(comp.Len()), e.size
			h.CRC32 = crc32.ChecksumIEEE([]byte(e.body))
			w, err := zw.CreateRaw(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(comp.Bytes())
			continue
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// extract writes b to a file and extracts it into a fresh directory beside it, returning the
// files, the directory and the error.
func extract(t *testing.T, b []byte, prefixes []string, lim Limits) ([]File, string, error) {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join(root, "a.zip")
	if err := os.WriteFile(src, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(root, "out")
	if err := os.Mkdir(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := Extract(src, dest, prefixes, lim)
	return files, root, err
}

// tree lists every path under root (slash-separated, directories ending in "/").
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestExtractOnlySelectedComponents(t *testing.T) {
	b := archive(t, entry{name: "00 Core/"}, entry{name: "00 Core/core.esp", body: "core"},
		entry{name: "00 Core/Textures/a.dds", body: "tex"}, entry{name: "01 Extra/extra.esp", body: "extra"},
		entry{name: "01 Extras/x.esp", body: "x"}, entry{name: "dreamweave.release.json", body: "{}"})
	files, root, err := extract(t, b, []string{"00 Core", "01 Extra"}, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{"00 Core/core.esp", 4, sum("core")}, {"00 Core/Textures/a.dds", 3, sum("tex")}, {"01 Extra/extra.esp", 5, sum("extra")}}
	if len(files) != len(want) {
		t.Fatalf("files %+v; want %+v", files, want)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("file %d: %+v; want %+v", i, files[i], want[i])
		}
	}
	got := strings.Join(tree(t, filepath.Join(root, "out")), " | ")
	if got != "00 Core/ | 00 Core/Textures/ | 00 Core/Textures/a.dds | 00 Core/core.esp | 01 Extra/ | 01 Extra/extra.esp" {
		t.Errorf("written: %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "out", "00 Core", "core.esp")); string(b) != "core" {
		t.Errorf("core.esp holds %q", b)
	}
	// "." is the whole archive (a flat artifact's one component).
	files, _, err = extract(t, b, []string{"."}, DefaultLimits)
	if err != nil || len(files) != 5 {
		t.Errorf("the whole archive: %v, %d files", err, len(files))
	}
}

func TestRefusedArchives(t *testing.T) {
	ok := entry{name: "Data/ok.esp", body: "fine"}
	bomb := strings.Repeat("\x00", 4<<20)
	cases := []struct {
		name  string
		es    []entry
		lim   Limits
		words string
	}{
		{"dot-dot", []entry{ok, {name: "../evil.esp", body: "x"}}, DefaultLimits, `entry "../evil.esp" has a ".." segment`},
		{"dot-dot inside", []entry{{name: "Data/../../evil.esp", body: "x"}}, DefaultLimits, `has a ".." segment`},
		{"absolute", []entry{{name: "/etc/evil", body: "x"}}, DefaultLimits, "is an absolute path"},
		{"drive", []entry{{name: "C:/evil", body: "x"}}, DefaultLimits, "starts with a drive letter"},
		{"backslash", []entry{{name: "..\\evil", body: "x"}}, DefaultLimits, "holds a backslash"},
		{"symlink", []entry{ok, {name: "Data/link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, DefaultLimits, "is a symbolic link, not a file or a directory"},
		{"device", []entry{{name: "Data/dev", mode: fs.ModeDevice | 0o600}}, DefaultLimits, "is a device file"},
		{"pipe", []entry{{name: "Data/fifo", mode: fs.ModeNamedPipe | 0o600}}, DefaultLimits, "is a named pipe"},
		{"reserved", []entry{{name: "Data/CON", body: "x"}}, DefaultLimits, "Windows reserves for a device (CON)"},
		{"reserved with extension", []entry{{name: "Data/aux.esp", body: "x"}}, DefaultLimits, "Windows reserves"},
		{"reserved com", []entry{{name: "com1/x", body: "x"}}, DefaultLimits, "Windows reserves"},
		{"colon", []entry{{name: "Data/a:b.esp", body: "x"}}, DefaultLimits, "a character Windows cannot hold"},
		{"trailing dot", []entry{{name: "Data./a.esp", body: "x"}}, DefaultLimits, "ending in a dot or a space"},
		{"trailing space", []entry{{name: "Data/a.esp ", body: "x"}}, DefaultLimits, "ending in a dot or a space"},
		{"control", []entry{{name: "Data/a\nb.esp", body: "x"}}, DefaultLimits, "a character Windows cannot hold"},
		{"empty segment", []entry{{name: "Data//a.esp", body: "x"}}, DefaultLimits, "empty or \".\" segment"},
		{"case", []entry{ok, {name: "data/other.esp", body: "x"}}, DefaultLimits, `collides with "Data/"`},
		{"case file", []entry{ok, {name: "Data/OK.esp", body: "x"}}, DefaultLimits, `collides with "Data/ok.esp"`},
		{"twice", []entry{ok, ok}, DefaultLimits, "appears twice"},
		{"file and folder", []entry{{name: "Data", body: "x"}, ok}, DefaultLimits, `collides with "Data"`},
		{"encrypted", []entry{{name: "Data/a.esp", body: "x", flag: 1}}, DefaultLimits, "is encrypted"},
		{"entries", []entry{ok, {name: "b", body: "x"}, {name: "c", body: "x"}}, Limits{MaxBytes: 1 << 20, MaxEntries: 2}, "it has 3 entries, over the limit of 2"},
		{"announced", []entry{{name: "a", body: bomb, raw: true, size: uint64(len(bomb))}}, Limits{MaxBytes: 1 << 20, MaxEntries: 10}, "announce more than the limit of 1048576 bytes"},
		{"understated", []entry{{name: "a", body: bomb, raw: true, size: 100}}, Limits{MaxBytes: 1 << 20, MaxEntries: 10}, `entry "a" cannot be read`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, root, err := extract(t, archive(t, c.es...), []string{"."}, c.lim)
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("got %v; want a refusal saying %q", err, c.words)
			}
			got := tree(t, root)
			if c.name != "understated" && strings.Join(got, " ") != "a.zip out/" {
				t.Errorf("written: %v; want nothing", got)
			}
			for _, p := range got {
				if !strings.HasPrefix(p, "out/") && p != "a.zip" {
					t.Errorf("%s written outside the target", p)
				}
			}
			if fi, err := os.Stat(filepath.Join(root, "out", "a")); err == nil && fi.Size() > 1<<20 {
				t.Errorf("%d bytes written past the limit", fi.Size())
			}
		})
	}
}

func TestWrittenBytesCountedAgainstLimit(t *testing.T) {
	// Headers within the limit, entries that are not: the count while writing stops them.
	b := archive(t, entry{name: "a", body: strings.Repeat("a", 600)}, entry{name: "b", body: strings.Repeat("b", 600)})
	_, root, err := extract(t, b, []string{"."}, Limits{MaxBytes: 1000, MaxEntries: 10})
	if err == nil || !strings.Contains(err.Error(), "announce more than the limit of 1000 bytes") {
		t.Fatalf("got %v", err)
	}
	zr, _ := zip.OpenReader(filepath.Join(root, "a.zip"))
	defer zr.Close()
	left := int64(1000)
	dest := t.TempDir()
	for _, f := range zr.File {
		write(f, filepath.Join(dest, f.Name), &left)
	}
	if left >= 0 {
		t.Errorf("left %d after 1200 bytes against 1000", left)
	}
	if fi, _ := os.Stat(filepath.Join(dest, "b")); fi.Size() != 401 {
		t.Errorf("b holds %d bytes; the copy stops one byte past the limit", fi.Size())
	}
}

func TestNotAZip(t *testing.T) {
	_, _, err := extract(t, []byte("PK\x03\x04 but not really"), []string{"."}, DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), "not a zip archive we can read") {
		t.Errorf("got %v", err)
	}
}
