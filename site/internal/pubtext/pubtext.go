// Package pubtext makes publisher text fit for the site's text contexts: the bidi rule every
// markup file passes through (Text, Markup), the control characters markup may not hold
// (DropControls), isolated plain text (Plain) and clipped titles (ClipTitle). The set of
// bidi controls itself is catalog/textdir's.
package pubtext

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"

	"github.com/DreamWeave-MP/ashyams-go/catalog/textdir"
)

// Publisher text reaches every text context of the site: element text inside <bdi>, the
// <title> element, Atom entry titles and summaries, SVG <title> and <text>, alt attributes,
// meta descriptions. One rule applies to all of them (Text): every explicit embedding and
// override (U+202A..U+202E) and every LRI or RLI isolate (U+2066, U+2067) is removed, because
// <bdi> isolates an override but does not neutralise it (an RLO in "Site" shows "etiS") and
// an unterminated one in a plain-text context reverses the index's own words after it; FSI
// .. PDI isolates (U+2068, U+2069) stay only in balanced pairs, a PDI with no FSI open is
// removed and an FSI left open is closed at the end of its stretch of text. Every page, feed
// and drawing the build writes passes through it whole (render.Site.Write), so no template or
// new field can miss it; the JSON files escape the same characters instead (termtext.JSON).
//
// Plain also isolates: text that still holds a right-to-left character is wrapped in FSI
// .. PDI, so its direction stays inside it where no <bdi> can stand. Text with no
// right-to-left character is returned without the wrapper: left-to-right text cannot reorder
// what follows it on these left-to-right pages.

const (
	FSI = "\u2068" // FIRST STRONG ISOLATE
	PDI = "\u2069" // POP DIRECTIONAL ISOLATE
)

// hasRTL reports whether s holds a strong right-to-left character (bidi class R or AL) or an
// Arabic number, whose direction could reach the text after it.
func hasRTL(s string) bool {
	for _, r := range s {
		p, _ := bidi.LookupRune(r)
		switch p.Class() {
		case bidi.R, bidi.AL, bidi.AN:
			return true
		}
	}
	return false
}

// Plain is publisher text s made fit for a plain-text context (see the rule above).
func Plain(s string) string {
	if strings.ContainsFunc(s, textdir.IsControl) {
		s = string(Text([]byte(s), nil))
	}
	if hasRTL(s) {
		return FSI + s + PDI
	}
	return s
}

// Text applies the rule above to b. ends reports the bytes that end a stretch of text
// (nil: b is one stretch); an FSI still open at a stretch's end is closed there. b is
// returned as it is when it holds no explicit bidi formatting character; otherwise a new
// slice.
func Text(b []byte, ends func(byte) bool) []byte {
	first := -1
	for i := bytes.IndexByte(b, textdir.Lead); i >= 0; {
		if textdir.At(b[i:]) != textdir.None {
			first = i
			break
		}
		j := bytes.IndexByte(b[i+1:], textdir.Lead)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if first < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	out = append(out, b[:first]...)
	open := 0 // FSIs open in this stretch
	closeAll := func() {
		for ; open > 0; open-- {
			out = append(out, PDI...)
		}
	}
	for i := first; i < len(b); {
		c := b[i]
		if ends != nil && ends(c) {
			closeAll()
			out = append(out, c)
			i++
			continue
		}
		switch textdir.At(b[i:]) {
		case textdir.Drop:
			i += 3
			continue
		case textdir.FSI:
			open++
			out = append(out, FSI...)
			i += 3
			continue
		case textdir.PDI:
			if open > 0 {
				open--
				out = append(out, PDI...)
			}
			i += 3
			continue
		}
		out = append(out, c)
		i++
	}
	closeAll()
	return out
}

// DropControls removes from markup b every C0 control but tab, line feed and carriage
// return, DEL and every C1 control (U+0080..U+009F): publisher text may hold them, XML 1.0
// forbids the C0 ones and HTML parses each as an error. b is returned as it is when it holds
// none; otherwise a new slice.
func DropControls(b []byte) []byte {
	at := func(i int) int { // the control's length at b[i], or 0
		switch c := b[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7f:
			return 1
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			return 2
		}
		return 0
	}
	i := 0
	for i < len(b) && at(i) == 0 {
		i++
	}
	if i == len(b) {
		return b
	}
	out := append(make([]byte, 0, len(b)), b[:i]...)
	for i < len(b) {
		if n := at(i); n > 0 {
			i += n
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// MarkupEnds ends a stretch of text in HTML and XML: markup and attribute quotes, which
// escaped publisher text never holds raw.
func MarkupEnds(c byte) bool { return c == '<' || c == '>' || c == '"' || c == '\'' }

// MaxTitle is how many characters of a page's own title (Page.Title, before " · AsHyAmS")
// the <title> keeps: room for the longest real event headline, while a publisher's
// 3,000-character project name does not make every page naming it that long.
const MaxTitle = 200

// ClipTitle is title cut to MaxTitle characters, at the last space of its final 30 when there
// is one, and ended with "…"; an isolate the cut leaves open is closed (Plain's FSI). A
// shorter title is returned as it is.
func ClipTitle(title string) string {
	if utf8.RuneCountInString(title) <= MaxTitle {
		return title
	}
	r := []rune(title)
	r = r[:MaxTitle-1]
	for i := len(r) - 1; i >= len(r)-30; i-- {
		if r[i] == ' ' {
			r = r[:i]
			break
		}
	}
	s := string(r)
	if open := strings.Count(s, FSI) - strings.Count(s, PDI); open > 0 {
		s += strings.Repeat(PDI, open)
	}
	return s + "…"
}

// Markup is markup b with the controls dropped and the bidi rule applied stretch by stretch:
// what every HTML, XML and SVG file the build writes passes through.
func Markup(b []byte) []byte { return Text(DropControls(b), MarkupEnds) }
