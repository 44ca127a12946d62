package site

import (
	"bytes"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

// TestCachedImagesPublishedAtReferencePath: a cached card image is published as the crawler
// stored it at network-media/<sha256>.<ext>, the reference index's path, beside the resized
// renditions the pages show; one that does not decode, or decodes as another type than its
// extension names, is not published.
func TestCachedImagesPublishedAtReferencePath(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://a.example/dreamweave.json", "A")
	good := sitetest.EncodePNG(t, sitetest.Solid(64, 36, color.NRGBA{200, 120, 40, 255}))
	goodRel := f.Media(good, "png")
	f.Claim(site, sampleManifest(uuid(1), "Good", 1), func(c *store.Claim) {
		c.Media = &store.Media{URL: "https://a.example/g.png", Alt: "g", File: &goodRel}
	})
	misnamed := sitetest.EncodePNG(t, sitetest.Solid(64, 36, color.NRGBA{20, 120, 40, 255}))
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
	if got := readOut(t, out, cards.MediaDir+"/"+sha(good)+".png"); !bytes.Equal(got, good) {
		t.Error("the cached image is not published byte for byte at network-media/<sha256>.png")
	}
	if htmlcheck.Count(t, parsePage(t, out, paths.Claim(uuid(1), site)), `img[src*="cards/`+sha(good)[:16]+`"]`) == 0 {
		t.Error("the claim page does not show the resized card")
	}
	for _, p := range []string{cards.MediaDir + "/" + sha(misnamed) + ".jpg", cards.MediaDir + "/" + sha(broken) + ".png"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s is published", p)
		}
	}
	ents, err := os.ReadDir(filepath.Join(out, cards.MediaDir))
	if err != nil || len(ents) != 1 {
		t.Errorf("network-media holds %d files (%v), want 1", len(ents), err)
	}
}
