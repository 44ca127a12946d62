package unzip

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzExtract: whatever the bytes, nothing is written outside the target, nothing but plain
// files and directories, at most one byte past the limit; an extraction that succeeds wrote
// exactly the files it returns, under the selected prefix, with their digests. Seeds in
// testdata/fuzz/FuzzExtract: a component archive, a symlink, a "..", a case collision, a bomb.
func FuzzExtract(f *testing.F) {
	lim := Limits{MaxBytes: 64 << 10, MaxEntries: 64}
	f.Fuzz(func(t *testing.T, b []byte) {
		files, root, err := extract(t, b, []string{"00 Core"}, lim)
		var total int64
		err2 := filepath.WalkDir(root, func(p string, d fs.DirEntry, werr error) error {
			if werr != nil {
				return werr
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if rel != "." && rel != "a.zip" && rel != "out" && !strings.HasPrefix(rel, "out/00 Core") {
				t.Errorf("%q written outside the selected component", rel)
			}
			if d.Type()&^fs.ModeDir != 0 {
				t.Errorf("%q is a %v", rel, d.Type())
			}
			if !d.IsDir() && rel != "a.zip" {
				fi, _ := d.Info()
				total += fi.Size()
			}
			return nil
		})
		if err2 != nil {
			t.Fatal(err2)
		}
		if total > lim.MaxBytes+1 {
			t.Errorf("%d bytes written against a limit of %d", total, lim.MaxBytes)
		}
		if err != nil {
			return
		}
		for _, file := range files {
			got, rerr := os.ReadFile(filepath.Join(root, "out", filepath.FromSlash(file.Path)))
			if rerr != nil || sum(string(got)) != file.SHA256 || int64(len(got)) != file.Size {
				t.Errorf("%s: written %d bytes, reported %+v (%v)", file.Path, len(got), file, rerr)
			}
		}
	})
}
