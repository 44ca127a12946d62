package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// ParsePart reads a data part's file as site/shards.go writes it, AshyamsData('<name>','<JSON
// text>'); and a line end, each argument single-quoted with only \\, \' and \uXXXX escapes,
// and returns name and text. Nothing is run; anything else is an error saying what is wrong.
func ParsePart(b []byte) (name, text string, err error) {
	rest, ok := bytes.CutPrefix(b, []byte("AshyamsData("))
	if !ok {
		return "", "", errors.New("does not start with AshyamsData(")
	}
	if name, rest, err = scriptString(rest); err != nil {
		return "", "", fmt.Errorf("its name: %w", err)
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(",")); !ok {
		return "", "", errors.New("has no , after its name")
	}
	if text, rest, err = scriptString(rest); err != nil {
		return "", "", fmt.Errorf("its text: %w", err)
	}
	if !bytes.Equal(rest, []byte(");\n")) && !bytes.Equal(rest, []byte(");")) {
		return "", "", errors.New("does not end with );")
	}
	if !utf8.ValidString(name) || !utf8.ValidString(text) || !json.Valid([]byte(text)) {
		return "", "", errors.New("its text is not JSON in UTF-8")
	}
	return name, text, nil
}

// scriptString reads the single-quoted string at the start of b: its value and what follows.
func scriptString(b []byte) (string, []byte, error) {
	if len(b) == 0 || b[0] != '\'' {
		return "", nil, errors.New("no string")
	}
	var out strings.Builder
	var units []uint16 // a run of \u escapes, decoded together (surrogate pairs)
	flush := func() {
		out.WriteString(string(utf16.Decode(units)))
		units = units[:0]
	}
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\'':
			flush()
			return out.String(), b[i+1:], nil
		case c == '\\' && i+1 < len(b) && (b[i+1] == '\\' || b[i+1] == '\''):
			flush()
			out.WriteByte(b[i+1])
			i++
		case c == '\\' && i+5 < len(b) && b[i+1] == 'u':
			n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
			if err != nil {
				return "", nil, fmt.Errorf("a bad escape at byte %d", i)
			}
			units = append(units, uint16(n))
			i += 5
		case c == '\\' || c < 0x20:
			return "", nil, fmt.Errorf("a bad escape or a raw control character at byte %d", i)
		default:
			flush()
			out.WriteByte(c)
		}
	}
	return "", nil, errors.New("no end")
}

// PageShards reads the published plan page for its data parts' id prefix length (Options.Shards).
func PageShards(page []byte) (int, error) {
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return 0, errors.New("the plan page holds no plan data (a script with id plan-data)")
		case html.StartTagToken:
			tok := z.Token()
			if tok.Data != "script" || !hasAttr(tok, "id", "plan-data") {
				continue
			}
			z.Next()
			var d struct {
				Shards *struct {
					Claims int `json:"claims"`
				} `json:"shards"`
			}
			if err := json.Unmarshal(z.Text(), &d); err != nil || d.Shards == nil || d.Shards.Claims < 0 || d.Shards.Claims > 8 {
				return 0, fmt.Errorf("the plan page's plan data does not say how its parts are cut (%v)", err)
			}
			return d.Shards.Claims, nil
		}
	}
}

func hasAttr(t html.Token, k, v string) bool {
	for _, a := range t.Attr {
		if a.Key == k && a.Val == v {
			return true
		}
	}
	return false
}
