// Package sitetest is what the tests of the site's packages share: small built-site trees
// (WriteSite, Doc), image fixtures, data part strings read back (JSUnquote) and the networks
// texts are read from (Networks), the shared corpus among them when present.
package sitetest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// Network is a network a test reads, by the name its case goes by.
type Network struct {
	Name string
	*network.Network
}

// Networks are the networks a test reads texts from, loaded without curation: "generated", a
// statetest.Varied state of n claims (names, summaries, tags and Markdown notes as the real
// network has them), then "corpus", the real state, when ../shared holds it
// (corpustest.Optional). A state that does not load fails tb.
func Networks(tb testing.TB, n int) []Network {
	tb.Helper()
	states := []Network{{Name: "generated"}}
	dirs := []string{filepath.Join(tb.TempDir(), "state")}
	statetest.Varied(tb, dirs[0], n)
	if p, ok := corpustest.Optional(tb, "state/network.json"); ok {
		states, dirs = append(states, Network{Name: "corpus"}), append(dirs, filepath.Dir(p))
	}
	for i, dir := range dirs {
		n, err := network.Load(store.Open(dir), &curation.Curation{})
		if err != nil {
			tb.Fatalf("the %s state: %v", states[i].Name, err)
		}
		states[i].Network = n
	}
	return states
}

// CorpusRoot is ../shared/corpus, holding the real state tree (catalog/corpustest.Path: the
// test is skipped without it, or fails under CI).
func CorpusRoot(tb testing.TB) string {
	tb.Helper()
	return filepath.Dir(filepath.Dir(corpustest.Path(tb, "state/network.json")))
}

// WriteSite writes files (slash path -> content) under a new temporary directory and returns
// the directory.
func WriteSite(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Doc is a minimal complete HTML page (doctype, lang, title, one h1) with body after the h1.
func Doc(body string) string {
	return `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><h1>T</h1>` + body + `</body></html>`
}

// JSUnquote reads a single-quoted script string as shards.ScriptString writes it: \\, \' and \uXXXX
// escapes, nothing raw that a script string cannot hold.
func JSUnquote(q string) (string, error) {
	if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
		return "", fmt.Errorf("not a single-quoted string: %.40q", q)
	}
	var b strings.Builder
	rs := []rune(q[1 : len(q)-1])
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\'' || r < 0x20 || r == '\u2028' || r == '\u2029':
			return "", fmt.Errorf("raw %q at %d", r, i)
		case r != '\\':
			b.WriteRune(r)
		case i+1 < len(rs) && (rs[i+1] == '\\' || rs[i+1] == '\''):
			b.WriteRune(rs[i+1])
			i++
		case i+5 < len(rs) && rs[i+1] == 'u':
			n, err := strconv.ParseUint(string(rs[i+2:i+6]), 16, 16)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(n))
			i += 5
		default:
			return "", fmt.Errorf("escape at %d not written by shards.ScriptString", i)
		}
	}
	return b.String(), nil
}

func Solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func EncodePNG(tb testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// PNGHeader is a PNG whose IHDR claims w x h pixels and which holds no pixel data at all.
func PNGHeader(w, h uint32) []byte {
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

// Gradient is an opaque test image that shows whether a card is cropped and scaled.
func Gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(40 + 200*x/w), uint8(80 + 100*y/h), uint8(220 - 180*x/w), 255})
		}
	}
	return img
}
