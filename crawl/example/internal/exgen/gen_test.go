package exgen

import (
	"bytes"
	"flag"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "rewrite crawl/example/www and www-next from this package")

// The committed web roots are exactly what this package writes: digests and heads cannot drift.
// Run with -update (go generate ./crawl/example) after changing the network description.
func TestCommittedFilesAreGenerated(t *testing.T) {
	one, err := Files(1)
	if err != nil {
		t.Fatal(err)
	}
	next, err := Next()
	if err != nil {
		t.Fatal(err)
	}
	for dir, files := range map[string]map[string][]byte{"../../www": one, "../../www-next": next} {
		if *update {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			for p, b := range files {
				full := filepath.Join(dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		onDisk := map[string]bool{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			onDisk[filepath.ToSlash(rel)] = true
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./crawl/example)", dir, err)
		}
		var names []string
		for p := range files {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil {
				t.Errorf("%s/%s missing: run go generate ./crawl/example", dir, p)
				continue
			}
			delete(onDisk, p)
			if filepath.Ext(p) == ".png" {
				samePixels(t, p, got, files[p])
				continue
			}
			if !bytes.Equal(got, files[p]) {
				t.Errorf("%s/%s differs from what exgen writes: run go generate ./crawl/example", dir, p)
			}
		}
		for p := range onDisk {
			t.Errorf("%s/%s is not written by exgen: remove it or describe it in network.go", dir, p)
		}
	}
}

// samePixels compares two PNGs by their pixels: the encoder's bytes may differ between Go
// versions, the picture may not.
func samePixels(t *testing.T, name string, a, b []byte) {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("%s: committed image does not decode: %v", name, err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("%s: bounds %v, want %v", name, ia.Bounds(), ib.Bounds())
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				t.Fatalf("%s: pixel (%d,%d) differs: run go generate ./crawl/example", name, x, y)
			}
		}
	}
}

func TestHeadsSkipsUnavailableAndRefusesTies(t *testing.T) {
	rs := []release{
		{Version: "0.97", Channel: "stable", Status: "available"},
		{Version: "0.963", Channel: "stable", Status: "available"},
		{Version: "0.99", Channel: "stable", Status: "yanked"},
		{Version: "1.0-dev.1", Channel: "development", Status: "available"},
	}
	h, err := Heads("decimal", rs)
	if err != nil {
		t.Fatal(err)
	}
	if h["stable"] != "0.97" || h["development"] != "1.0-dev.1" || len(h) != 2 {
		t.Fatalf("decimal heads %v", h)
	}
	// Under the numeric scheme 0.963 outranks 0.97.
	if h, _ := Heads("numeric", rs[:2]); h["stable"] != "0.963" {
		t.Fatalf("numeric heads %v", h)
	}
	if _, err := Heads("decimal", append(rs, release{Version: "0.970", Channel: "beta", Status: "available"})); err == nil {
		t.Fatal("0.97 and 0.970 (equal precedence) accepted")
	}
	if _, err := Heads("numeric", []release{{Version: "01.0"}}); err == nil {
		t.Fatal("unparseable version accepted")
	}
}

func TestFilesRefusesUnknownGeneration(t *testing.T) {
	if _, err := Files(3); err == nil {
		t.Fatal("generation 3 accepted")
	}
}
