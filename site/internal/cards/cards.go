package cards

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"path"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// MediaDir is where the site publishes the cached card images as the crawler stored them
// (state media/<sha256>.<ext>), at the reference index's path for them. The pages show the
// resized renditions under cards/; the originals are there for readers of the reference's
// paths.
const MediaDir = "network-media"

// Build renders the card image of every claim whose record names a cached media file,
// and publishes the cached file itself under MediaDir when it is an image of the type its
// extension names. A cached file whose bytes do not match its name fails the build (the state
// contradicts itself); a file that is missing, too large or does not decode gives a card
// without an image and a visible note, and is not published. Identical files are rendered
// once.
func Build(dir *store.Dir, claims []*network.Claim, write, writeRaw func(rel string, data []byte) error) (map[network.Key]*Image, error) {
	cards := map[network.Key]*Image{}
	done := map[string]*Image{} // by state file
	written := map[string]bool{}
	for _, c := range claims {
		m := c.Record.Media
		if m == nil {
			continue
		}
		ci := &Image{Alt: m.Alt}
		switch {
		case m.File == nil && m.Problem != nil:
			ci.Problem, ci.stated = "the crawler could not cache the image", *m.Problem
		case m.File == nil:
			ci.Problem = "no cached image"
		default:
			rel := *m.File
			if prev := done[rel]; prev != nil {
				ci.Files, ci.Problem = prev.Files, prev.Problem
				break
			}
			if !strings.HasPrefix(rel, store.MediaDir+"/") || strings.Contains(rel, "..") || path.Clean(rel) != rel {
				return nil, fmt.Errorf("%s: media file %q is not under %s/", store.ClaimPath(c.Project, c.Site), rel, store.MediaDir)
			}
			data, err := dir.ReadBytes(rel)
			if err != nil {
				ci.Problem = "the cached image is missing from the state"
				if !errors.Is(err, fs.ErrNotExist) { // a link, a device, over the limit: never read
					ci.Problem = "the cached image in the state is not a regular file, or is too large to read"
				}
				done[rel] = ci
				break
			}
			digest, err := mediaDigest(rel, data)
			if err != nil {
				return nil, err
			}
			files, names, err := render(data, digest)
			if err != nil {
				ci.Problem = "the cached image cannot be shown: " + err.Error()
			} else {
				if ext := path.Ext(rel); imageExt(data) == ext {
					if err := writeRaw(MediaDir+"/"+digest+ext, data); err != nil {
						return nil, err
					}
				}
				for _, name := range names {
					if !written[name] {
						written[name] = true
						if err := write(name, files[name]); err != nil {
							return nil, err
						}
					}
				}
				ci.Files = names
			}
			done[rel] = ci
		}
		ci.words()
		cards[c.Key] = ci
	}
	return cards, nil
}

// imageExt is the state's media extension for the image type b decodes as: ".webp", ".png",
// ".jpg" or ".gif"; "" for anything else.
func imageExt(b []byte) string {
	_, f, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return ""
	}
	switch f {
	case "webp", "png", "gif":
		return "." + f
	case "jpeg":
		return ".jpg"
	}
	return ""
}
