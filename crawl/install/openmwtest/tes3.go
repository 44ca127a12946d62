package openmwtest

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Plugin returns a minimal TES3 content file: a HEDR (1.3; the master flag for .esm) and a
// MAST and DATA pair per master, which 0.47 checks are loaded before it.
func Plugin(name string, masters ...string) []byte {
	sub := func(tag string, data []byte) []byte {
		return append(binary.LittleEndian.AppendUint32([]byte(tag), uint32(len(data))), data...)
	}
	hedr := binary.LittleEndian.AppendUint32(nil, 0x3fa66666) // 1.3 as a float32
	flag := uint32(0)
	if strings.EqualFold(filepath.Ext(name), ".esm") {
		flag = 1
	}
	hedr = binary.LittleEndian.AppendUint32(hedr, flag)
	hedr = append(hedr, make([]byte, 32+256+4)...) // author, description, record count
	body := sub("HEDR", hedr)
	for _, m := range masters {
		body = append(body, sub("MAST", append([]byte(m), 0))...)
		body = append(body, sub("DATA", make([]byte, 8))...) // the master's size; 0.47 ignores it
	}
	rec := binary.LittleEndian.AppendUint32([]byte("TES3"), uint32(len(body)))
	return append(append(rec, make([]byte, 8)...), body...)
}

// BaseGame writes a stand-in base game into dir (the three .esm files, each mastering those
// before, and empty BSAs) and returns a launcher's lines for it. It has no records, so the
// engine stops once every content file is loaded (Result.Loaded).
func BaseGame(t testing.TB, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	q := strings.NewReplacer("&", "&&", `"`, `&"`).Replace(dir)
	lines := "data=\"" + q + "\"\n"
	var masters []string
	for _, g := range []string{"Morrowind", "Tribunal", "Bloodmoon"} {
		bsa := binary.LittleEndian.AppendUint32(nil, 0x100) // version; no files
		if err := os.WriteFile(filepath.Join(dir, g+".bsa"), append(bsa, make([]byte, 8)...), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, g+".esm"), Plugin(g+".esm", masters...), 0o644); err != nil {
			t.Fatal(err)
		}
		masters = append(masters, g+".esm")
		lines += "fallback-archive=" + g + ".bsa\n"
	}
	return lines + "content=Morrowind.esm\ncontent=Tribunal.esm\ncontent=Bloodmoon.esm\n"
}
