package install

import (
	"bytes"
	"fmt"
)

// The index's lines in a player's config file are one block between two marker lines; every
// other byte is the player's and stays.

// findBlock returns the byte range [start, stop) of the block from the begin line through the
// end line's line end; found is false when text has neither. A lone or doubled marker is an
// error: nothing is guessed.
func findBlock(text []byte, begin, end string) (start, stop int, found bool, err error) {
	start, stop = -1, -1
	for at := 0; at < len(text); {
		next := bytes.IndexByte(text[at:], '\n')
		lineEnd := len(text)
		if next >= 0 {
			lineEnd = at + next + 1
		}
		line := string(bytes.TrimRight(text[at:lineEnd], "\r\n"))
		switch {
		case line == begin && start >= 0, line == end && stop >= 0:
			return 0, 0, false, fmt.Errorf("the line %q appears twice", line)
		case line == begin:
			start = at
		case line == end && start < 0:
			return 0, 0, false, fmt.Errorf("the line %q comes before its beginning %q", end, begin)
		case line == end:
			stop = lineEnd
		}
		at = lineEnd
	}
	if start >= 0 && stop < 0 {
		return 0, 0, false, fmt.Errorf("the line %q has no end %q after it", begin, end)
	}
	return start, stop, start >= 0, nil
}

// eolOf is the line end text uses: "\r\n" when it has one or ends with "\r", else "\n".
func eolOf(text []byte) string {
	if bytes.Contains(text, []byte("\r\n")) || bytes.HasSuffix(text, []byte("\r")) {
		return "\r\n"
	}
	return "\n"
}

// mergeBlock returns text with its block holding lines, in place or at its end (added: a line
// end was put before it). No lines removes the block.
func mergeBlock(text []byte, begin, end string, lines []string) (out []byte, added bool, err error) {
	if len(lines) == 0 {
		out, err = removeBlock(text, begin, end, false)
		return out, false, err
	}
	start, stop, found, err := findBlock(text, begin, end)
	if err != nil {
		return nil, false, err
	}
	eol := eolOf(text)
	var b bytes.Buffer
	for _, l := range append(append([]string{begin}, lines...), end) {
		b.WriteString(l + eol)
	}
	if found {
		return concat(text[:start], b.Bytes(), text[stop:]), false, nil
	}
	if len(text) > 0 && text[len(text)-1] != '\n' {
		return concat(text, []byte(eol), b.Bytes()), true, nil
	}
	return concat(text, b.Bytes()), false, nil
}

// removeBlock returns text without its block; added (mergeBlock's) removes that line end too.
func removeBlock(text []byte, begin, end string, added bool) ([]byte, error) {
	start, stop, found, err := findBlock(text, begin, end)
	if err != nil || !found {
		return text, err
	}
	before := text[:start]
	if added && stop == len(text) {
		before = bytes.TrimSuffix(before, []byte(eolOf(text)))
	}
	return concat(before, text[stop:]), nil
}

func concat(parts ...[]byte) []byte {
	return bytes.Join(parts, nil)
}
