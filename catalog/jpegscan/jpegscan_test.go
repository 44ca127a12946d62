package jpegscan_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan"
	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan/jpegscantest"
)

// TestCount counts the scans of files the generator and the standard encoder write, and of
// truncated and non-JPEG input.
func TestCount(t *testing.T) {
	var baseline bytes.Buffer
	if err := jpeg.Encode(&baseline, image.NewGray(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	bomb := jpegscantest.Progressive(64, 48, 200)
	cases := []struct {
		name string
		in   []byte
		want int
	}{
		{"baseline", baseline.Bytes(), 1},
		{"progressive of 10 AC scans", jpegscantest.Progressive(33, 17, 10), 11},
		{"progressive of 200 AC scans", bomb, 201},
		{"cut in the middle", bomb[:len(bomb)/2], 100},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n"), 0},
		{"empty", nil, 0},
		{"a zero segment length", []byte{0xFF, 0xD8, 0xFF, 0xDA, 0, 0, 0xFF, 0xDA, 0, 2}, 0},
	}
	for _, c := range cases {
		got := jpegscan.Count(c.in)
		if c.name == "cut in the middle" {
			if got < 50 || got > 150 {
				t.Errorf("%s: Count = %d, want about %d", c.name, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: Count = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestGeneratedFilesDecode proves the generator writes real JPEGs: the standard decoder reads
// them, so the bound refuses files a decoder would spend its time on.
func TestGeneratedFilesDecode(t *testing.T) {
	img, err := jpeg.Decode(bytes.NewReader(jpegscantest.Progressive(40, 24, 70)))
	if err != nil {
		t.Fatalf("the generated file does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 40 || b.Dy() != 24 {
		t.Fatalf("decoded bounds %v, want 40×24", b)
	}
}

// TestCheck refuses one scan over the limit, naming the count, and admits the limit.
func TestCheck(t *testing.T) {
	if err := jpegscan.Check(jpegscantest.Progressive(8, 8, jpegscan.MaxScans-1)); err != nil {
		t.Errorf("%d scans refused: %v", jpegscan.MaxScans, err)
	}
	err := jpegscan.Check(jpegscantest.Progressive(8, 8, jpegscan.MaxScans))
	if err == nil || !strings.Contains(err.Error(), "65 scans; the limit is 64") {
		t.Errorf("65 scans: err = %v, want the count and the limit", err)
	}
}

// FuzzCount feeds arbitrary bytes: Count never panics and never counts more scans than the
// input has SOS markers.
func FuzzCount(f *testing.F) {
	f.Add(jpegscantest.Progressive(16, 16, 3))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9})
	f.Fuzz(func(t *testing.T, b []byte) {
		if n, sos := jpegscan.Count(b), bytes.Count(b, []byte{0xFF, 0xDA}); n > sos {
			t.Fatalf("Count = %d with %d SOS markers in the input", n, sos)
		}
	})
}

// BenchmarkRefuseScanBomb measures refusing a 4096×4096 file of 3,000 scans (about 140 KB),
// which the standard decoder takes tens of seconds to read.
func BenchmarkRefuseScanBomb(b *testing.B) {
	bomb := jpegscantest.Progressive(4096, 4096, 3000)
	b.SetBytes(int64(len(bomb)))
	for b.Loop() {
		if jpegscan.Check(bomb) == nil {
			b.Fatal("the bomb passed")
		}
	}
}
