// Package jpegscantest writes progressive JPEGs of any number of scans, for tests of the scan
// bound.
package jpegscantest

import "bytes"

// Progressive returns a valid grayscale progressive JPEG of w×h pixels, all mid-grey: one DC
// scan then acScans AC scans of band 1-63, each coding every block as empty with end-of-band
// runs. The file stays small whatever the scan count.
func Progressive(w, h, acScans int) []byte {
	var b bytes.Buffer
	seg := func(marker byte, body ...byte) {
		n := len(body) + 2
		b.Write([]byte{0xFF, marker, byte(n >> 8), byte(n)})
		b.Write(body)
	}
	b.Write([]byte{0xFF, 0xD8})
	q := make([]byte, 65)
	for i := 1; i < 65; i++ {
		q[i] = 1
	}
	seg(0xDB, q...)
	seg(0xC2, 8, byte(h>>8), byte(h), byte(w>>8), byte(w), 1, 1, 0x11, 0)
	// DC table: category 0 only, code "0".
	dc := append([]byte{0x00, 1}, make([]byte, 15)...)
	seg(0xC4, append(dc, 0)...)
	// AC table: the 15 end-of-band-run symbols 0x00..0xE0, four-bit codes 0000..1110.
	ac := make([]byte, 17)
	ac[0], ac[4] = 0x10, 15
	for r := 0; r < 15; r++ {
		ac = append(ac, byte(r<<4))
	}
	seg(0xC4, ac...)

	blocks := ((w + 7) / 8) * ((h + 7) / 8)
	seg(0xDA, 1, 1, 0x00, 0, 0, 0)
	var bw bitWriter
	for range blocks {
		bw.put(0, 1)
	}
	b.Write(bw.flush())
	for range acScans {
		seg(0xDA, 1, 1, 0x00, 1, 63, 0)
		for left := blocks; left > 0; {
			run := min(left, 32767)
			r := 0
			for 1<<(r+1) <= run {
				r++
			}
			bw.put(uint32(r), 4)
			bw.put(uint32(run-1<<r), r)
			left -= run
		}
		b.Write(bw.flush())
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// bitWriter packs Huffman codes most significant bit first, stuffing a zero after each 0xFF.
type bitWriter struct {
	out   []byte
	acc   uint32
	nbits int
}

func (w *bitWriter) put(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | (v>>i)&1
		w.nbits++
		if w.nbits == 8 {
			w.emit()
		}
	}
}

func (w *bitWriter) emit() {
	c := byte(w.acc)
	w.out = append(w.out, c)
	if c == 0xFF {
		w.out = append(w.out, 0)
	}
	w.acc, w.nbits = 0, 0
}

// flush pads the last byte with one bits and returns the scan's bytes.
func (w *bitWriter) flush() []byte {
	for w.nbits != 0 {
		w.put(1, 1)
	}
	out := w.out
	w.out = nil
	return out
}
