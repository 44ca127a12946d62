package engine

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
)

var (
	fuzzOnce   sync.Once
	fuzzEngine *Engine
)

// fuzzEng is one engine for every fuzz input (a runtime per input would be most of the cost).
func fuzzEng(t *testing.T) *Engine {
	fuzzOnce.Do(func() { fuzzEngine = newEngine(t) })
	return fuzzEngine
}

// valid is s as the engine receives it: each invalid UTF-8 byte is U+FFFD.
func valid(s string) string { return string([]rune(s)) }

// trimCfg trims as OpenMW's readers do (openmw.cfg: boost's " \t\r\n"; settings.cfg:
// isspace, which adds VT and FF).
func trimCfg(s string, settings bool) string {
	set := " \t\r\n"
	if settings {
		set += "\v\f"
	}
	return strings.Trim(s, set)
}

// unquote reads a quoted openmw.cfg path as OpenMW 0.47 does: "&" takes the next character,
// and the path ends at the closing quote; ok is false when anything follows it.
func unquote(v string) (string, bool) {
	if !strings.HasPrefix(v, `"`) {
		return v, true
	}
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		switch {
		case v[i] == '&' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case v[i] == '"':
			return b.String(), i == len(v)-1
		default:
			b.WriteByte(v[i])
		}
	}
	return b.String(), false
}

// segments splits p at "/" (and "\" too on Windows), without empty and "." names.
func segments(p string, win bool) []string {
	return slices.DeleteFunc(strings.FieldsFunc(p, func(r rune) bool { return r == '/' || win && r == '\\' }), func(s string) bool { return s == "." })
}

// FuzzLineWriter gives the writer any bytes as every kind of value and wants, whatever they
// are, either a refusal naming a field or exactly one line (no terminator of any kind) that
// the line's reader (OpenMW's openmw.cfg and settings.cfg readers, sha256sum) reads back as
// the values given, and for a path one whose folder names are the root's and the relative
// paths', with no "..": no output line appears unless the input asked for it.
func FuzzLineWriter(f *testing.F) {
	for _, s := range []string{"a", "Mod & \"Quotes\" #1 @home", "../x", "C:\\x", "ok.esp\ncontent=EVIL.esp", "a\u2028b", "a\u0085b", "x]y", "k=v", "[S]", " a", "a,b", "&\"", "\\\\srv\\s"} {
		f.Add(0, "/m", s, ".")
		f.Add(1, "C:\\Games\\Mods", ".", s)
		f.Add(2, s, "v", "")
	}
	f.Fuzz(func(t *testing.T, kind int, a, b, c string) {
		e := fuzzEng(t)
		a, b, c = valid(a), valid(b), valid(c)
		var line, prefix string
		var err error
		switch kind & 7 {
		case 0, 1:
			root := "/m"
			if kind&8 != 0 {
				root = a
			}
			line, err = e.DataLine(root, "X-11111111", b, c)
			prefix = "data="
			if err == nil {
				p, ok := unquote(strings.TrimPrefix(line, prefix))
				win := len(root) > 2 && (root[1] == ':' || root[:2] == `\\`)
				want := append(append(append(segments(root, win), "X-11111111"), segments(b, false)...), segments(c, false)...)
				if got := segments(p, win); !ok || !slices.Equal(got, want) || slices.Contains(got, "..") {
					t.Fatalf("DataLine(%q, %q, %q) = %q: reads back as %q (%v), want the names %q", root, b, c, line, p, ok, want)
				}
			}
		case 2, 3:
			k := []string{"content", "groundcover", "fallback-archive"}[kind>>3&1+kind>>4&1]
			line, err = e.FileLine(k, a)
			prefix = k + "="
			if err == nil && (trimCfg(strings.TrimPrefix(line, prefix), false) != a || strings.ContainsAny(a, `/\`)) {
				t.Fatalf("FileLine(%s, %q) = %q", k, a, line)
			}
		case 4:
			line, err = e.FallbackLine(a, b)
			prefix = "fallback="
			if err == nil {
				k, v, _ := strings.Cut(trimCfg(strings.TrimPrefix(line, prefix), false), ",")
				if k != a || v != b {
					t.Fatalf("FallbackLine(%q, %q) = %q", a, b, line)
				}
			}
		case 5:
			line, err = e.SettingLine(a, b)
			if err == nil {
				s := trimCfg(line, true)
				k, v, _ := strings.Cut(s, "=")
				if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "#") || trimCfg(k, true) != a || trimCfg(v, true) != b {
					t.Fatalf("SettingLine(%q, %q) = %q", a, b, line)
				}
			}
		case 6:
			line, err = e.CategoryLine(a)
			prefix = "["
			if err == nil {
				s := trimCfg(line, true)
				end := strings.IndexByte(s, ']')
				if end < 0 || s[1:end] != a || trimCfg(s[end+1:], true) != "" {
					t.Fatalf("CategoryLine(%q) = %q", a, line)
				}
			}
		case 7:
			line, err = e.SumLine(a, b)
			if err == nil {
				sha, name, _ := strings.Cut(line, "  ")
				if sha != a || name != b || strings.ContainsAny(name, `/\`) {
					t.Fatalf("SumLine(%q, %q) = %q", a, b, line)
				}
			}
		}
		var r *Refusal
		if err != nil {
			if !errors.As(err, &r) || r.Field == "" || r.Reason == "" {
				t.Fatalf("kind %d: %v", kind, err)
			}
			return
		}
		if len(lines(line)) != 1 || lines(line)[0] != line || !strings.HasPrefix(line, prefix) {
			t.Fatalf("kind %d (%q, %q, %q): wrote %q, not one line", kind, a, b, c, line)
		}
		if com, err := e.Comment(a + b); err != nil || len(lines(com)) != 1 || lines(com)[0] != com {
			t.Fatalf("Comment(%q) = %q, %v", a+b, com, err)
		}
	})
}

// FuzzParseFragment reads any fragment and wants every value within the link's bounds,
// and the link written back from what was read to read back the same, with no refusal.
func FuzzParseFragment(f *testing.F) {
	for _, s := range []string{"#add=a,b@c&openmw=0.49&root=/m&on=a:x&off=a:y&set=a%5BS%5Dk&base=0", "#root=%0Areplace%3Ddata", "#add=%E0%A4%A", "#&&&=", "#add=a%2Cb", "#lua=" + strings.Repeat("9", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := fuzzEng(t)
		r, err := e.ParseFragment(valid(s))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Add) > 100 || len(r.On) > 400 || len(r.Off) > 400 || len(r.Set) > 100 || units(r.Root) > 400 || units(r.OpenMW) > 40 || units(r.Lua) > 40 {
			t.Fatalf("%q read over the bounds: %+v", s, r)
		}
		for _, l := range [][]string{r.Add, r.On, r.Off, r.Set} {
			for _, v := range l {
				if units(v) > 200 || v == "" {
					t.Fatalf("%q read the value %q", s, v)
				}
			}
		}
		frag, err := e.Fragment(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := e.ParseFragment(frag)
		if err != nil || len(back.Refused) != 0 {
			t.Fatalf("%q wrote %q, which reads back with %+v (%v)", s, frag, back.Refused, err)
		}
		r.Refused = back.Refused
		if !equalRequests(r, back) {
			t.Fatalf("%q read %+v; written %q, it reads %+v", s, r, frag, back)
		}
	})
}

// units is the length of s in UTF-16 code units, as a script counts it.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

func equalRequests(a, b Request) bool {
	return slices.Equal(a.Add, b.Add) && slices.Equal(a.On, b.On) && slices.Equal(a.Off, b.Off) && slices.Equal(a.Set, b.Set) &&
		a.OpenMW == b.OpenMW && a.Lua == b.Lua && a.Root == b.Root && a.Base == b.Base
}

// FuzzParsePart reads any bytes as a data part and wants an error, or a name and JSON text
// that, written again as the site writes them, read back the same.
func FuzzParsePart(f *testing.F) {
	f.Add([]byte(`AshyamsData('c','{"claims":{}}');` + "\n"))
	f.Add([]byte(`AshyamsData('c\'','{"a":"\u2028\\\\"}');`))
	f.Add([]byte(`AshyamsData('c','{}\ud83d\ude00');`))
	f.Fuzz(func(t *testing.T, b []byte) {
		name, text, err := ParsePart(b)
		if err != nil {
			return
		}
		again := "AshyamsData(" + quoteScript(name) + "," + quoteScript(text) + ");\n"
		n2, t2, err := ParsePart([]byte(again))
		if err != nil || n2 != name || t2 != text {
			t.Fatalf("%q read as %q, %q; written again %q it reads %q, %q (%v)", b, name, text, again, n2, t2, err)
		}
	})
}
