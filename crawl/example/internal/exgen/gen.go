package exgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sort"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Files returns generation gen's web root (1 or 2): "<host>/<path>" -> bytes, every digest and
// head computed, but for broken.example's wrong channels in generation 2.
func Files(gen int) (map[string][]byte, error) {
	if gen != 1 && gen != 2 {
		return nil, fmt.Errorf("exgen: no generation %d (want 1 or 2)", gen)
	}
	out := map[string][]byte{}
	for _, s := range network(gen) {
		ix := index{
			SchemaVersion: "2", Document: "index", Generator: generator,
			Site: site{Name: s.name, URL: s.url},
		}
		for _, d := range s.projects {
			heads, err := Heads(d.p.Versioning, d.releases)
			if err != nil {
				return nil, fmt.Errorf("exgen: %s on %s: %w", d.p.Name, s.host, err)
			}
			stated := heads
			if d.channels != nil {
				stated = d.channels
			}
			m := manifest{SchemaVersion: "2", Document: "project", Generator: generator, Project: d.p,
				Channels: map[string]head{}, Releases: d.releases}
			for ch, v := range stated {
				m.Channels[ch] = head{v}
			}
			b, err := marshal(m)
			if err != nil {
				return nil, err
			}
			rel := s.dir + "projects/" + d.p.ID + ".json"
			out[s.host+"/"+rel] = b
			ix.Projects = append(ix.Projects, entry{
				ID: d.p.ID, Name: d.p.Name, Summary: d.p.Summary, Type: d.p.Type, Status: d.p.Status,
				Page: d.p.Links.Page, Manifest: web + s.host + "/" + rel,
				ManifestSHA256: store.Digest(b), Updated: d.updated, Channels: heads,
			})
		}
		sort.Slice(ix.Projects, func(i, j int) bool { return ix.Projects[i].ID < ix.Projects[j].ID })
		b, err := marshal(ix)
		if err != nil {
			return nil, err
		}
		out[s.host+"/"+s.dir+"dreamweave.json"] = b
		for p, html := range s.pages {
			out[s.host+"/"+p] = []byte(html)
		}
	}
	img, err := CardPNG()
	if err != nil {
		return nil, err
	}
	out[CardImage] = img
	return out, nil
}

// Next returns the files generation 2 changes or adds (the www-next overlay); it fails if
// generation 2 would delete one, which an overlay cannot express.
func Next() (map[string][]byte, error) {
	one, err := Files(1)
	if err != nil {
		return nil, err
	}
	two, err := Files(2)
	if err != nil {
		return nil, err
	}
	for p := range one {
		if _, ok := two[p]; !ok {
			return nil, fmt.Errorf("exgen: generation 2 deletes %s; the overlay cannot", p)
		}
	}
	out := map[string][]byte{}
	for p, b := range two {
		if !bytes.Equal(one[p], b) {
			out[p] = b
		}
	}
	return out, nil
}

// Heads recomputes channel heads: per channel, the highest-precedence available release under
// the versioning scheme. Errors name a bad version or two of equal precedence.
func Heads(versioning string, rs []release) (map[string]string, error) {
	sch := version.SchemeOf(versioning)
	best := map[string]version.Version{}
	var all []version.Version
	for _, r := range rs {
		v, err := version.Parse(r.Version, sch)
		if err != nil {
			return nil, err
		}
		for _, o := range all {
			if version.Compare(v, o) == 0 {
				return nil, fmt.Errorf("releases %s and %s have equal precedence", v, o)
			}
		}
		all = append(all, v)
		if r.Status != "available" {
			continue
		}
		if b, ok := best[r.Channel]; !ok || version.Compare(v, b) > 0 {
			best[r.Channel] = v
		}
	}
	out := map[string]string{}
	for ch, v := range best {
		out[ch] = v.String()
	}
	return out, nil
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // publishers write "<" as is; the hostile notes must stay raw
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CardPNG draws Emberglow's card image: a 160x100 violet-to-amber dusk with a lantern glow.
func CardPNG() ([]byte, error) {
	const w, h = 160, 100
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	// Integer arithmetic only, so every platform draws the same pixels.
	for y := range h {
		for x := range w {
			c := color.NRGBA{R: uint8(70 + 150*y/h), G: uint8(40 + 60*y/h), B: uint8(120 - 80*y/h), A: 255}
			dx, dy := x-112, y-46
			if d := dx*dx + dy*dy; d < 400 {
				k := 400 - d // glow strength out of 400
				c.R = uint8(int(c.R) + (255-int(c.R))*k/400)
				c.G = uint8(int(c.G) + (200-int(c.G))*k/400)
				c.B = uint8(int(c.B) + (90-int(c.B))*k/800)
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
