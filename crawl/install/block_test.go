package install

import (
	"bytes"
	"strings"
	"testing"
)

const (
	testBegin = "# ashyams 1234abcd begin"
	testEnd   = "# ashyams 1234abcd end"
)

func TestMergeBlockKeepsThePlayersBytes(t *testing.T) {
	player := "# my setup\r\ndata=\"C:\\Games\\Morrowind\\Data Files\"\r\ncontent=Morrowind.esm\r\nfallback=a,b"
	out, added, err := mergeBlock([]byte(player), testBegin, testEnd, []string{"content=A.esp", "content=B.esp"})
	if err != nil || !added {
		t.Fatalf("merge: %v, added %v", err, added)
	}
	want := player + "\r\n" + testBegin + "\r\ncontent=A.esp\r\ncontent=B.esp\r\n" + testEnd + "\r\n"
	if string(out) != want {
		t.Errorf("merged:\n%q\nwant\n%q", out, want)
	}
	// The player adds a line after the block; a new block replaces the old in place.
	out = append(out, "content=Mine.esp\r\n"...)
	again, added, err := mergeBlock(out, testBegin, testEnd, []string{"content=C.esp"})
	if err != nil || added {
		t.Fatalf("merge again: %v, added %v", err, added)
	}
	want = player + "\r\n" + testBegin + "\r\ncontent=C.esp\r\n" + testEnd + "\r\ncontent=Mine.esp\r\n"
	if string(again) != want {
		t.Errorf("replaced:\n%q\nwant\n%q", again, want)
	}
	// Removed, the player's bytes are back: the line end added before the block goes when
	// the block ends the file.
	back, err := removeBlock([]byte(player+"\r\n"+testBegin+"\r\nx\r\n"+testEnd+"\r\n"), testBegin, testEnd, true)
	if err != nil || string(back) != player {
		t.Errorf("removed: %q %v", back, err)
	}
	back, err = removeBlock(again, testBegin, testEnd, true)
	if err != nil || string(back) != player+"\r\ncontent=Mine.esp\r\n" {
		t.Errorf("removed before the player's line: %q %v", back, err)
	}
	if out, _, err := mergeBlock(again, testBegin, testEnd, nil); err != nil || string(out) != player+"\r\ncontent=Mine.esp\r\n" {
		t.Errorf("no lines: %q %v", out, err)
	}
}

func TestBrokenBlockRefused(t *testing.T) {
	for text, want := range map[string]string{
		testBegin + "\nx\n":    "has no end",
		"x\n" + testEnd + "\n": "comes before its beginning",
		testBegin + "\n" + testBegin + "\n" + testEnd + "\n":           "appears twice",
		testBegin + "\n" + testEnd + "\n" + testEnd + "\n":             "appears twice",
		testBegin + "\n" + testEnd + "\n" + testBegin + "\n" + testEnd: "appears twice",
	} {
		if _, _, err := mergeBlock([]byte(text), testBegin, testEnd, []string{"content=A.esp"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want %q", text, err, want)
		}
		if _, err := removeBlock([]byte(text), testBegin, testEnd, false); err == nil {
			t.Errorf("%q removed", text)
		}
	}
}

// FuzzMergeBlock: whatever the player's file, a merged block holds exactly the lines given,
// the bytes around it are the player's, merging again changes nothing, and removing the block
// gives the player's file back byte for byte. Seeds in testdata/fuzz/FuzzMergeBlock.
func FuzzMergeBlock(f *testing.F) {
	f.Add([]byte("content=Morrowind.esm"), "content=A.esp\x00data=\"/m/A\"")
	f.Add([]byte("a\r\nb\r\n"), "x")
	f.Add([]byte(""), "content=A.esp")
	f.Add([]byte("\n\n"+testBegin+"\nold\n"+testEnd), "new")
	f.Fuzz(func(t *testing.T, player []byte, joined string) {
		var lines []string
		for _, l := range strings.Split(joined, "\x00") {
			if l != "" && !strings.ContainsAny(l, "\r\n") && l != testBegin && l != testEnd {
				lines = append(lines, l)
			}
		}
		_, _, had, ferr := findBlock(player, testBegin, testEnd)
		out, added, err := mergeBlock(player, testBegin, testEnd, lines)
		if err != nil {
			if ferr == nil {
				t.Fatalf("merge failed on a file findBlock reads: %v", err)
			}
			return
		}
		again, added2, err := mergeBlock(out, testBegin, testEnd, lines)
		if err != nil || !bytes.Equal(again, out) || added2 {
			t.Errorf("merging again changed the file: %v\n%q\n%q", err, out, again)
		}
		start, stop, found, err := findBlock(out, testBegin, testEnd)
		if len(lines) == 0 {
			if found {
				t.Errorf("no lines, yet a block")
			}
			return
		}
		if err != nil || !found {
			t.Fatalf("the merged block is not found: %v", err)
		}
		inner := strings.Split(strings.TrimRight(strings.ReplaceAll(string(out[start:stop]), "\r\n", "\n"), "\n"), "\n")
		if strings.Join(inner[1:len(inner)-1], "\n") != strings.Join(lines, "\n") {
			t.Errorf("the block holds %q; want %q", inner, lines)
		}
		if !had {
			back, err := removeBlock(out, testBegin, testEnd, added)
			if err != nil || !bytes.Equal(back, player) {
				t.Errorf("removed: %q; want the player's %q (%v)", back, player, err)
			}
			if !bytes.HasPrefix(out, player) {
				t.Errorf("the player's bytes moved: %q", out)
			}
		}
	})
}
