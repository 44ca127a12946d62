package site

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
)

func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func encodePNG(tb testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is a PNG whose IHDR claims w x h pixels and which holds no pixel data at all.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestCardImageFormats(t *testing.T) {
	opaque := encodePNG(t, solid(400, 300, color.NRGBA{10, 120, 200, 255}))
	clear := encodePNG(t, solid(50, 50, color.NRGBA{10, 120, 200, 100}))
	var jb, gb bytes.Buffer
	if err := jpeg.Encode(&jb, solid(1000, 500, color.NRGBA{200, 10, 10, 255}), nil); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gb, solid(30, 90, color.NRGBA{0, 0, 0, 255}), nil); err != nil {
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
		d := sha(c.data)
		files, names, err := cardImage(c.data, d)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(names) != len(CardSizes) {
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
			if cfg.Width != CardSizes[i].W || cfg.Height != CardSizes[i].H {
				t.Errorf("%s: %s is %dx%d, want %dx%d", c.name, n, cfg.Width, cfg.Height, CardSizes[i].W, CardSizes[i].H)
			}
		}
		// Same input, same names and same bytes.
		files2, names2, _ := cardImage(c.data, d)
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
		{"too many pixels", pngHeader(60000, 60000), "over the 8192x8192"},
		{"too wide", pngHeader(9000, 10), "over the 8192x8192"},
		{"pixel budget", pngHeader(8000, 8000), "pixel) limit"},
		{"not an image", []byte("<svg onload=alert(1)>"), "header cannot be read"},
		{"truncated", pngHeader(100, 100), "does not decode"},
		{"too many bytes", append(pngHeader(10, 10), make([]byte, MaxImageBytes)...), "byte limit"},
	} {
		_, _, err := cardImage(c.data, sha(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestMediaDigest(t *testing.T) {
	b := []byte("image bytes")
	if d, err := mediaDigest("media/"+sha(b)+".png", b); err != nil || d != sha(b) {
		t.Errorf("matching file: %s %v", d, err)
	}
	if _, err := mediaDigest("media/"+sha([]byte("other"))+".png", b); err == nil || !strings.Contains(err.Error(), "not the digest its name gives") {
		t.Errorf("mismatch: %v", err)
	}
}

// FuzzCardImage: whatever bytes a publisher's image holds, rendering a card never panics, and
// either fails with a reason or gives renditions of exactly the card sizes.
func FuzzCardImage(f *testing.F) {
	f.Add(encodePNG(f, solid(20, 10, color.NRGBA{1, 2, 3, 255})))
	f.Add(pngHeader(60000, 60000))
	f.Add(pngHeader(100, 100))
	var gb bytes.Buffer
	_ = gif.Encode(&gb, solid(3, 3, color.NRGBA{0, 0, 0, 255}), nil)
	f.Add(gb.Bytes())
	if webp, err := os.ReadFile("testdata/card.webp"); err == nil {
		f.Add(webp)
	}
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Fuzz(func(t *testing.T, b []byte) {
		files, names, err := cardImage(b, sha(b))
		if err != nil {
			if err.Error() == "" {
				t.Error("an error without a reason")
			}
			return
		}
		for i, n := range names {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(files[n]))
			if err != nil || cfg.Width != CardSizes[i].W || cfg.Height != CardSizes[i].H {
				t.Errorf("rendition %s: %v %dx%d", n, err, cfg.Width, cfg.Height)
			}
		}
	})
}

// gradient is an opaque test image that shows whether a card is cropped and scaled.
func gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(40 + 200*x/w), uint8(80 + 100*y/h), uint8(220 - 180*x/w), 255})
		}
	}
	return img
}

// TestCachedImagesPublishedAtReferencePath: a cached card image is published as the crawler
// stored it at network-media/<sha256>.<ext>, the reference index's path, beside the resized
// renditions the pages show; one that does not decode, or decodes as another type than its
// extension names, is not published.
func TestCachedImagesPublishedAtReferencePath(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	good := encodePNG(t, solid(64, 36, color.NRGBA{200, 120, 40, 255}))
	goodRel := f.Media(good, "png")
	f.Claim(site, sampleManifest(uuid(1), "Good", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://a.example/g.png", Alt: "g", File: &goodRel}
	})
	misnamed := encodePNG(t, solid(64, 36, color.NRGBA{20, 120, 40, 255}))
	misRel := f.Media(misnamed, "jpg")
	f.Claim(site, sampleManifest(uuid(2), "Misnamed", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://a.example/m.jpg", Alt: "m", File: &misRel}
	})
	broken := []byte("\x89PNG\r\n\x1a\nthis is not really a png")
	brokenRel := f.Media(broken, "png")
	f.Claim(site, sampleManifest(uuid(3), "Broken", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://a.example/b.png", Alt: "b", File: &brokenRel}
	})
	_, out := build(t, state, Options{})
	if got := readOut(t, out, MediaDir+"/"+sha(good)+".png"); !bytes.Equal(got, good) {
		t.Error("the cached image is not published byte for byte at network-media/<sha256>.png")
	}
	if htmlcheck.Count(t, parsePage(t, out, claimPath(uuid(1), site)), `img[src*="cards/`+sha(good)[:16]+`"]`) == 0 {
		t.Error("the claim page does not show the resized card")
	}
	for _, p := range []string{MediaDir + "/" + sha(misnamed) + ".jpg", MediaDir + "/" + sha(broken) + ".png"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s is published", p)
		}
	}
	ents, err := os.ReadDir(filepath.Join(out, MediaDir))
	if err != nil || len(ents) != 1 {
		t.Errorf("network-media holds %d files (%v), want 1", len(ents), err)
	}
}
