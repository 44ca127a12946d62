package sources

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadCorpusSources(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "corpus", "network", "sources.toml")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("../shared/corpus is absent (%v): this test reads the real source list", err)
	}
	ss, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 14 {
		t.Fatalf("got %d sources, want 14", len(ss))
	}
	first := ss[0]
	if first.URL != "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/" || first.Added != "2026-09-28" ||
		!strings.HasPrefix(first.Note, "The Mod Template's own example projects") || first.Entry != 1 {
		t.Errorf("first source: %+v", first)
	}
	b, _ := os.ReadFile(p)
	line := strings.Split(string(b), "\n")[first.Line-1]
	if !strings.HasPrefix(line, `url = "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/"`) {
		t.Errorf("Line %d points at %q, not the url key", first.Line, line)
	}
}

func TestParseRefusesBadEntriesNamingTheLine(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // each a problem's String(), in order
	}{
		{"not http", "[[source]]\nurl = \"ftp://example.org/\"\n",
			[]string{`line 2: [[source]] #1: url "ftp://example.org/" is not an absolute http or https URL`}},
		{"file url", "[[source]]\nurl = \"file:///etc/passwd\"\n",
			[]string{`line 2: [[source]] #1: url "file:///etc/passwd" is not an absolute http or https URL`}},
		{"relative", "[[source]]\nurl = \"/mods/\"\n",
			[]string{`line 2: [[source]] #1: url "/mods/" is not an absolute http or https URL`}},
		{"userinfo", "[[source]]\nadded = \"2026-01-01\"\nurl = \"https://me:secret@example.org/\"\n",
			[]string{`line 3: [[source]] #1: url "https://me:secret@example.org/" carries a user name or password`}},
		{"unparseable", "[[source]]\nurl = \"https://exa mple.org/%zz\"\n",
			[]string{`line 2: [[source]] #1: url "https://exa mple.org/%zz" does not parse as a URL: invalid character " " in host name`}},
		{"no host", "[[source]]\nurl = \"https:///x\"\n",
			[]string{`line 2: [[source]] #1: url "https:///x" has no host`}},
		{"missing url", "[[source]]\nnote = \"x\"\n",
			[]string{`line 1: [[source]] #1: url is missing`}},
		{"url not a string", "[[source]]\nurl = 3\n",
			[]string{`line 2: [[source]] #1: url is an integer, not a string`}},
		{"whitespace", "[[source]]\nurl = \" https://example.org/\"\n",
			[]string{`line 2: [[source]] #1: url " https://example.org/" has surrounding whitespace`}},
		{"duplicate", "[[source]]\nurl = \"https://example.org/a/\"\n\n[[source]]\nurl = \"https://EXAMPLE.org/a/\"\n",
			[]string{`line 5: [[source]] #2: url https://EXAMPLE.org/a/ repeats [[source]] #1 (line 2)`}},
		{"unknown key", "[[source]]\nurl = \"https://example.org/\"\nnotes = \"typo\"\n",
			[]string{`line 2: [[source]] #1: unknown key "notes" (want url, added, note)`}},
		{"unknown top-level key", "sources = []\n", []string{`unknown key "sources" (want [[source]] entries)`}},
		{"bad date", "[[source]]\nurl = \"https://example.org/\"\nadded = \"28/09/2026\"\n",
			[]string{`line 2: [[source]] #1: added "28/09/2026" is not a date (want YYYY-MM-DD)`}},
		{"bad toml", "[[source]]\nurl = \"https://example.org/\n", nil},
		{"every problem at once, in order",
			"# sites\n[[source]]\nurl = \"https://ok.example/\"\n\n[[source]]\nnote = \"\"\"\n[[source]]\nurl = \"ftp://x/\"\n\"\"\"\nurl = \"gopher://x/\"\n\n[[source]]\nurl = \"https://ok.example/\"\n",
			[]string{
				`line 10: [[source]] #2: url "gopher://x/" is not an absolute http or https URL`,
				`line 13: [[source]] #3: url https://ok.example/ repeats [[source]] #1 (line 3)`,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss, err := Parse("sources.toml", []byte(tc.doc))
			if err == nil {
				t.Fatalf("accepted: %+v", ss)
			}
			var e *Error
			if !errors.As(err, &e) || e.Path != "sources.toml" {
				t.Fatalf("error %v is not a *Error naming the file", err)
			}
			if tc.want == nil { // TOML syntax: the decoder's own line
				if len(e.Problems) != 1 || e.Problems[0].Line != 2 || !strings.Contains(e.Problems[0].Message, "not valid TOML") {
					t.Fatalf("got %v", e.Problems)
				}
				return
			}
			var got []string
			for _, p := range e.Problems {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestParseAcceptsDatesAndEmptyFile(t *testing.T) {
	ss, err := Parse("s", []byte("[[source]]\nurl = \"http://example.org/x?y=1\"\nadded = 2026-09-28\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Added != "2026-09-28" || ss[0].URL != "http://example.org/x?y=1" {
		t.Fatalf("%+v", ss)
	}
	if ss, err := Parse("s", []byte("# nobody yet\n")); err != nil || len(ss) != 0 {
		t.Fatalf("empty list: %v %v", ss, err)
	}
	if _, err := Parse("s", []byte("[[source]]\nurl = \"https://example.org/\"\nadded = 2026-09-28T10:00:00Z\n")); err == nil {
		t.Fatal("a date-time accepted as added")
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "sources.toml"))
	if err == nil || !strings.Contains(err.Error(), "sources.toml") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[[source]]\nurl = \"https://example.org/\"\nadded = \"2026-09-28\"\nnote = \"x\"\n"))
	f.Add([]byte("[[source]]\nurl = \"https://a:b@example.org/\"\n[[source]]\nurl = 1\n"))
	f.Add([]byte("source = [{url = \"https://example.org/\"}]\n"))
	f.Add([]byte("[[source]]\nnote = '''\n[[source]]\n'''\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ss, err := Parse("fuzz", b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, s := range ss {
			if checkURL(s.URL) != "" || seen[dupKey(s.URL)] {
				t.Fatalf("accepted a bad or repeated url %q", s.URL)
			}
			seen[dupKey(s.URL)] = true
		}
	})
}

func TestCheckURL(t *testing.T) {
	if err := CheckURL("https://example.org/mods/"); err != nil {
		t.Errorf("refused a good URL: %v", err)
	}
	for in, want := range map[string]string{
		"example.org/mods/":    `url "example.org/mods/" is not an absolute http or https URL`,
		"https://u:p@example/": `url "https://u:p@example/" carries a user name or password`,
		"file:///etc/passwd":   `url "file:///etc/passwd" is not an absolute http or https URL`,
		"":                     `url "" is empty`,
	} {
		if err := CheckURL(in); err == nil || err.Error() != want {
			t.Errorf("CheckURL(%q) = %v, want %s", in, err, want)
		}
	}
}
