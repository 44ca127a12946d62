package refresh

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // card image formats this index reads
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"

	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

// imageExt maps a sniffed format (image.DecodeConfig's name) to the cached file's extension.
var imageExt = map[string]string{"png": "png", "jpeg": "jpg", "gif": "gif", "webp": "webp"}

// pickImage is the project's card image: the featured image (kind "image"), else the first
// image. Videos are never fetched.
func pickImage(m *protocol.Manifest) *protocol.Media {
	for i := range m.Project.Media {
		if md := &m.Project.Media[i]; md.Kind == "image" && md.Featured {
			return md
		}
	}
	for i := range m.Project.Media {
		if md := &m.Project.Media[i]; md.Kind == "image" {
			return md
		}
	}
	return nil
}

// cardImage sets c.Media from the held manifest m (SPEC section 2, "Card images"): fetched through
// the guard with its own size limit, dimensions checked before decoding, cached as
// media/<sha256>.<ext>, not fetched again while its URL is unchanged and the file exists. A
// definitive refusal (too large, not an image, a refused address, a 4xx) is remembered until the
// manifest changes; a transient failure is tried again once on the next refresh. A bad image is a
// problem on c.Media; only a failed write is an error.
func (r *run) cardImage(ctx context.Context, c *store.Claim, m *protocol.Manifest, manifestURL, indexURL string, fresh bool) error {
	pick := pickImage(m)
	if pick == nil {
		c.Media = nil
		return nil
	}
	u := resolve(resolve(indexURL, manifestURL), pick.URL)
	if p := c.Media; p != nil && p.URL == u {
		if p.File != nil && r.st.Exists(*p.File) {
			c.Media = &store.Media{URL: u, Alt: pick.Alt, File: p.File}
			return nil
		}
		if p.File == nil && p.Definitive && !fresh {
			c.Media = &store.Media{URL: u, Alt: pick.Alt, Problem: p.Problem, Definitive: true}
			return nil
		}
	}
	file, body, problem, definitive, cut := r.fetchImage(ctx, u)
	if cut {
		if r.interrupted() != nil {
			return nil // the refresh is ending: what was recorded stays
		}
		// A time budget, not the image: a problem already recorded for this URL stays;
		// otherwise (a first sighting, a new URL) the budget is recorded as the problem, as a
		// timeout is, and like a timeout it is tried again on the next refresh.
		if p := c.Media; p != nil && p.URL == u && p.File == nil && p.Problem != nil {
			c.Media = &store.Media{URL: u, Alt: pick.Alt, Problem: p.Problem}
			return nil
		}
	}
	if file != "" {
		c.Media = &store.Media{URL: u, Alt: pick.Alt, File: &file}
		if r.st.Exists(file) {
			return nil
		}
		return r.st.WriteBytes(file, body) // before the claim that names it
	}
	c.Media = &store.Media{URL: u, Alt: pick.Alt, Problem: &problem, Definitive: definitive}
	r.fact(fact{kind: "image", site: c.Origin, project: c.Project, label: "card image", what: problem})
	return nil
}

// fetchImage returns the cache file name and the image's bytes, or the problem that kept it out:
// definitive for a refusal of the image itself (a limit, not an image, a refused address, a 4xx),
// cut when a budget or an interrupt stopped the fetch.
func (r *run) fetchImage(ctx context.Context, u string) (file string, body []byte, problem string, definitive, cut bool) {
	resp, err := r.get.Get(ctx, guard.Request{URL: u, Accept: "image/webp, image/png, image/jpeg, image/gif;q=0.9", MaxBytes: r.o.MaxImageBytes})
	if err != nil {
		k := guard.KindOf(err)
		definitive := k == guard.KindTooLarge || k == guard.KindRefused || k == guard.KindAddress
		return "", nil, fetchProblem("the card image", u, nil, err), definitive, isBudget(err) || r.interrupted() != nil
	}
	if resp.Status != 200 {
		// A server error, 408 or 429 is about the server now; any other status (404, 410,
		// 403...) is the site's answer about this URL, remembered until the manifest changes.
		transient := resp.Status >= 500 || resp.Status == 408 || resp.Status == 429
		return "", nil, fmt.Sprintf("HTTP %d from %s", resp.Status, u), !transient, false
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(resp.Body))
	if err != nil {
		return "", nil, fmt.Sprintf("%s is not an image this index reads (PNG, JPEG, GIF or WebP): %v", u, err), true, false
	}
	ext, ok := imageExt[format]
	if !ok {
		return "", nil, fmt.Sprintf("%s is a %s image; this index reads PNG, JPEG, GIF or WebP", u, format), true, false
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > r.o.MaxImageSide || cfg.Height > r.o.MaxImageSide ||
		int64(cfg.Width)*int64(cfg.Height) > r.o.MaxImagePixels {
		return "", nil, fmt.Sprintf("%s: refused by crawler policy: the image is %d×%d pixels; the limit is %d pixels a side and %d pixels in all",
			u, cfg.Width, cfg.Height, r.o.MaxImageSide, r.o.MaxImagePixels), true, false
	}
	if format == "jpeg" {
		if err := jpegscan.Check(resp.Body); err != nil {
			return "", nil, fmt.Sprintf("%s: refused by crawler policy: %v", u, err), true, false
		}
	}
	if _, _, err := image.Decode(bytes.NewReader(resp.Body)); err != nil {
		return "", nil, fmt.Sprintf("%s does not decode as %s: %v", u, format, err), true, false
	}
	return store.MediaDir + "/" + store.Digest(resp.Body) + "." + ext, resp.Body, "", false, false
}
