package tomlfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var shape = Shape{"source": {"url", "note"}, "featured": {"project"}}

// TestUnknownKeys: keys outside the shape are listed once each, by their first part, however
// they are written, at the top and in each table's entries; a known key holding a table is no
// unknown key.
func TestUnknownKeys(t *testing.T) {
	doc := "a.b = 1\n[extra]\nx = 1\n[[source]]\nurl.a = 1\nwhy = {a = 1}\nwho.b = 2\nwho.c = 3\n" +
		"[[featured]]\nproject = \"p\"\nrank = 1\n"
	f, err := Decode([]byte(doc), shape)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.UnknownTop(); !reflect.DeepEqual(got, []string{"a", "extra"}) {
		t.Errorf("UnknownTop = %q", got)
	}
	src, _ := Array(f.Doc["source"])
	if got := f.Unknown("source", src[0].(map[string]any)); !reflect.DeepEqual(got, []string{"who", "why"}) {
		t.Errorf("Unknown(source) = %q", got)
	}
	feat, _ := Array(f.Doc["featured"])
	if got := f.Unknown("featured", feat[0].(map[string]any)); !reflect.DeepEqual(got, []string{"rank"}) {
		t.Errorf("Unknown(featured) = %q", got)
	}
}

// TestLines: each [[table]] header and the keys written under it are found by line, skipping
// multi-line strings and other tables; an inline array, or a header count that does not match
// the entries, gives no lines.
func TestLines(t *testing.T) {
	doc := "# c\n[[source]]\nnote = \"\"\"\n[[source]]\nurl = \"x\"\n\"\"\"\n'url' = \"a\"\n[other]\nnote = 1\n\n[[ source ]] # two\nurl.a = 1\n"
	f, err := Decode([]byte(doc), shape)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, header, url, note int }{{1, 2, 7, 3}, {2, 11, 0, 0}, {3, 0, 0, 0}} {
		if h, u, n := f.Header("source", c.n), f.KeyLine("source", c.n, "url"), f.KeyLine("source", c.n, "note"); h != c.header || u != c.url || n != c.note {
			t.Errorf("entry %d: header %d url %d note %d, want %d %d %d", c.n, h, u, n, c.header, c.url, c.note)
		}
	}
	inline, err := Decode([]byte("source = [{url = \"a\"}]\n"), shape)
	if err != nil {
		t.Fatal(err)
	}
	if h := inline.Header("source", 1); h != 0 {
		t.Errorf("an inline array's entry has header line %d", h)
	}
}

// TestSyntaxError: a file that is not TOML is a *SyntaxError with the decoder's line.
func TestSyntaxError(t *testing.T) {
	_, err := Decode([]byte("[[source]]\nurl = \"x\n"), shape)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || !strings.HasPrefix(se.Error(), "line 2: ") {
		t.Fatalf("err = %#v", err)
	}
}

// TestDateAndURL: the date and URL rules, each failure worded.
func TestDateAndURL(t *testing.T) {
	f, err := Decode([]byte("a = 2026-01-02\nb = 2026-01-02T10:00:00Z\nc = 7\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v          any
		date, want string
	}{
		{"2026-01-02", "2026-01-02", ""}, {f.Doc["a"], "2026-01-02", ""},
		{"2026-13-01", "", `added "2026-13-01" is not a date (want YYYY-MM-DD)`},
		{f.Doc["b"], "", "added is a date-time; want a date (YYYY-MM-DD)"},
		{f.Doc["c"], "", "added is an integer, not a date (want YYYY-MM-DD)"},
	} {
		if d, msg := Date("added", c.v); d != c.date || msg != c.want {
			t.Errorf("Date(%v) = %q, %q; want %q, %q", c.v, d, msg, c.date, c.want)
		}
	}
	for in, want := range map[string]string{
		"https://example.org/": "", "": "is empty", " https://a/": "has surrounding whitespace",
		"ftp://a/": "is not an absolute http or https URL", "https://u:p@a/": "carries a user name or password",
		"https:///x": "has no host", "https://a/#": "has a #fragment, which is never sent to a site; write the URL without it",
		"https://a b/": `does not parse as a URL: invalid character " " in host name`,
	} {
		if got := CheckURL(in); got != want {
			t.Errorf("CheckURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecode: any input decodes or is a *SyntaxError, and every line found is in the file.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("[[source]]\nurl = \"https://a/\"\nnote = '''\n[[source]]\n'''\n"))
	f.Add([]byte("source = [{url = 1}, 2]\n[x]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Decode(b, shape)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError", err)
			}
			return
		}
		lines := strings.Count(string(b), "\n") + 1
		for n := 1; n <= 3; n++ {
			for _, l := range []int{file.Header("source", n), file.KeyLine("source", n, "url")} {
				if l < 0 || l > lines {
					t.Fatalf("line %d of a %d-line file", l, lines)
				}
			}
		}
	})
}
