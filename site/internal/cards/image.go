package cards

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"image"
	"image/jpeg"
	"image/png"
	"path"

	// Decoders for the formats a card image may arrive in.
	_ "image/gif"

	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/health"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp"
)

// Card image limits. A cached image is decoded only after its header's dimensions pass them,
// so a small file claiming to be 60000x60000 pixels is refused before any pixel memory is
// allocated (a decompression bomb).
const (
	MaxImageBytes  = 16 << 20 // the crawler's per-document limit
	MaxImageSide   = 8192     // pixels, either side
	MaxImagePixels = 40 << 20 // width*height
)

// Size is one fixed card rendition.
type Size struct{ W, H int }

// Sizes are the renditions written for every card image: 1x and 2x of a 320x180 card.
var Sizes = []Size{{320, 180}, {640, 360}}

// Image is a rendered card image: files relative to the output root, one per Sizes
// entry, in that order. Problem says why there is no image ("" when there is one).
type Image struct {
	Files   []string
	Alt     string
	Problem string
	// PlainAlt is Alt as an attribute shows it (plainPub); Why is Problem and the state's
	// media problem as a sentence (health.ClauseHTML).
	PlainAlt string
	Why      template.HTML
	stated   string // the state's media problem, "" for none
}

// words computes what the pages print of ci: PlainAlt and Why.
func (ci *Image) words() {
	ci.PlainAlt = pubtext.Plain(ci.Alt)
	if ci.Problem != "" {
		ci.Why = health.ClauseHTML(ci.Problem, ci.stated)
	}
}

// render decodes a cached media file and resizes it to Sizes. digest is the file's
// SHA-256 (its name in the state); the output names derive from it (same input, same names).
// The encoding is deterministic: PNG when any pixel is not opaque, else JPEG at quality 85.
// Errors describe why the image cannot be shown; they never fail a build.
func render(b []byte, digest string) (map[string][]byte, []string, error) {
	if len(b) > MaxImageBytes {
		return nil, nil, fmt.Errorf("the image is %d bytes, over the %d byte limit", len(b), MaxImageBytes)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("the image header cannot be read: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide || int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return nil, nil, fmt.Errorf("the %s image is %dx%d pixels, over the %dx%d (%d pixel) limit", format, cfg.Width, cfg.Height, MaxImageSide, MaxImageSide, MaxImagePixels)
	}
	if format == "jpeg" {
		if err := jpegscan.Check(b); err != nil {
			return nil, nil, err
		}
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("the %s image does not decode: %v", format, err)
	}
	opaque := true
	if o, ok := img.(interface{ Opaque() bool }); ok {
		opaque = o.Opaque()
	}
	files := map[string][]byte{}
	var names []string
	for _, s := range Sizes {
		out := imaging.Fill(img, s.W, s.H, imaging.Center, imaging.Lanczos)
		var buf bytes.Buffer
		ext := "jpg"
		if opaque {
			err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: 85})
		} else {
			ext = "png"
			err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("the resized image cannot be encoded: %v", err)
		}
		name := path.Join("cards", fmt.Sprintf("%s-%dx%d.%s", digest[:16], s.W, s.H, ext))
		files[name] = buf.Bytes()
		names = append(names, name)
	}
	return files, names, nil
}

// mediaDigest checks that a cached media file (state media/<sha256>.<ext>) holds the bytes its
// name says and returns the digest. A mismatch is the state contradicting itself, in
// store.Check's words (store.MediaProblem).
func mediaDigest(rel string, b []byte) (string, error) {
	got, p := store.MediaProblem(rel, b)
	if p != nil {
		return "", errors.New(p.String())
	}
	return got, nil
}
