package cards

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"os"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan/jpegscantest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

func TestCardImageFormats(t *testing.T) {
	opaque := sitetest.EncodePNG(t, sitetest.Solid(400, 300, color.NRGBA{10, 120, 200, 255}))
	clear := sitetest.EncodePNG(t, sitetest.Solid(50, 50, color.NRGBA{10, 120, 200, 100}))
	var jb, gb bytes.Buffer
	if err := jpeg.Encode(&jb, sitetest.Solid(1000, 500, color.NRGBA{200, 10, 10, 255}), nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gb, sitetest.Solid(30, 90, color.NRGBA{0, 0, 0, 255}), nil); err != nil {
		t.Fatal(err)
	}
	webp, err := os.ReadFile("testdata/card.webp")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, ext string
		data      []byte
	}{{"opaque png", "jpg", opaque}, {"transparent png", "png", clear}, {"jpeg", "jpg", jb.Bytes()}, {"gif", "jpg", gb.Bytes()}, {"webp", "jpg", webp}} {
		d := digestHex(c.data)
		files, names, err := render(c.data, d)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(names) != len(Sizes) {
			t.Fatalf("%s: %d renditions", c.name, len(names))
		}
		for i, n := range names {
			if !strings.HasPrefix(n, "cards/"+d[:16]+"-") || !strings.HasSuffix(n, "."+c.ext) {
				t.Errorf("%s: name %s does not derive from the digest with extension %s", c.name, n, c.ext)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(files[n]))
			if err != nil {
				t.Fatalf("%s: %s does not decode: %v", c.name, n, err)
			}
			if cfg.Width != Sizes[i].W || cfg.Height != Sizes[i].H {
				t.Errorf("%s: %s is %dx%d, want %dx%d", c.name, n, cfg.Width, cfg.Height, Sizes[i].W, Sizes[i].H)
			}
		}
		// Same input, same names and same bytes.
		files2, names2, _ := render(c.data, d)
		for i := range names {
			if names[i] != names2[i] || !bytes.Equal(files[names[i]], files2[names2[i]]) {
				t.Errorf("%s: rendering twice differs", c.name)
			}
		}
	}
}

func TestCardImageRefusesBeforeDecoding(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"too many pixels", sitetest.PNGHeader(60000, 60000), "over the 8192x8192"},
		{"too wide", sitetest.PNGHeader(9000, 10), "over the 8192x8192"},
		{"pixel budget", sitetest.PNGHeader(8000, 8000), "pixel) limit"},
		{"not an image", []byte("<svg onload=alert(1)>"), "header cannot be read"},
		{"truncated", sitetest.PNGHeader(100, 100), "does not decode"},
		{"too many bytes", append(sitetest.PNGHeader(10, 10), make([]byte, MaxImageBytes)...), "byte limit"},
		{"a JPEG of 3,000 scans", jpegscantest.Progressive(4096, 4096, 3000), "the JPEG has 3001 scans; the limit is 64"},
	} {
		_, _, err := render(c.data, digestHex(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestMediaDigest(t *testing.T) {
	b := []byte("image bytes")
	if d, err := mediaDigest("media/"+digestHex(b)+".png", b); err != nil || d != digestHex(b) {
		t.Errorf("matching file: %s %v", d, err)
	}
	if _, err := mediaDigest("media/"+digestHex([]byte("other"))+".png", b); err == nil || !strings.Contains(err.Error(), "not the digest its name gives") {
		t.Errorf("mismatch: %v", err)
	}
}

// FuzzCardImage: whatever bytes a publisher's image holds, rendering a card never panics, and
// either fails with a reason or gives renditions of exactly the card sizes.
func FuzzCardImage(f *testing.F) {
	f.Add(sitetest.EncodePNG(f, sitetest.Solid(20, 10, color.NRGBA{1, 2, 3, 255})))
	f.Add(sitetest.PNGHeader(60000, 60000))
	f.Add(sitetest.PNGHeader(100, 100))
	var gb bytes.Buffer
	_ = gif.Encode(&gb, sitetest.Solid(3, 3, color.NRGBA{0, 0, 0, 255}), nil)
	f.Add(gb.Bytes())
	if webp, err := os.ReadFile("testdata/card.webp"); err == nil {
		f.Add(webp)
	}
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, b []byte) {
		files, names, err := render(b, digestHex(b))
		if err != nil {
			if err.Error() == "" {
				t.Error("an error without a reason")
			}
			return
		}
		for i, n := range names {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(files[n]))
			if err != nil || cfg.Width != Sizes[i].W || cfg.Height != Sizes[i].H {
				t.Errorf("rendition %s: %v %dx%d", n, err, cfg.Width, cfg.Height)
			}
		}
	})
}

// digestHex is the SHA-256 of b in lowercase hex.
func digestHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
