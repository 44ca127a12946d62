// Package jpegscan bounds the decoding time of a JPEG before it is decoded.
//
// A progressive JPEG may hold any number of scans, and a decoder walks every block of the image
// once per scan: a small file of thousands of scans at the pixel limit costs tens of seconds.
// Count walks the markers without decoding, so a card image is refused in time linear in its
// bytes.
package jpegscan

import "fmt"

// MaxScans is the most scans a card image may hold. Encoders write at most a dozen or so; each
// scan costs a walk of every block.
const MaxScans = 64

// Count returns the number of start-of-scan (SOS) markers in b, a JPEG file, reading markers and
// segment lengths only. It stops at the end of the image or at the first malformed segment; the
// decoder reports malformed files.
func Count(b []byte) int {
	if len(b) < 2 || b[0] != 0xFF || b[1] != 0xD8 {
		return 0
	}
	n := 0
	for i := 2; i+1 < len(b); {
		if b[i] != 0xFF {
			i++ // entropy-coded data
			continue
		}
		m := b[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0x00 || (m >= 0xD0 && m <= 0xD7) || m == 0x01: // stuffed byte, restart, TEM
			i += 2
			continue
		case m == 0xD9: // end of image
			return n
		}
		if i+3 >= len(b) {
			return n
		}
		size := int(b[i+2])<<8 | int(b[i+3])
		if size < 2 {
			return n
		}
		if m == 0xDA {
			n++
		}
		i += 2 + size
	}
	return n
}

// Check returns an error naming the count when b holds more than MaxScans scans.
func Check(b []byte) error {
	if n := Count(b); n > MaxScans {
		return fmt.Errorf("the JPEG has %d scans; the limit is %d", n, MaxScans)
	}
	return nil
}
