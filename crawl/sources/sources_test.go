package sources

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// Load reads a sources file of several entries under a header of comments, as enrolled: each
// entry's fields, its place in the list and the line of its url key. A file written here, and
// the corpus's when ../shared is present.
func TestLoadSources(t *testing.T) {
	doc := "# Sites this index reads.\n#\n# [[source]]\n# url = \"https://commented.example/\"\n\n" +
		"[[source]]\nurl = \"https://first.example/mods/\"\nadded = \"2026-09-28\"\nnote = \"The first site: two mods.\"\n\n" +
		"[[source]]\nnote = \"Keys in any order.\"\nadded = 2026-09-30\nurl = \"https://second.example/\"\n\n" +
		"[[source]]\nurl = \"https://third.example/dreamweave.json\"\nadded = \"2026-10-01\"\nnote = \"An index URL.\"\n"
	written := filepath.Join(t.TempDir(), "sources.toml")
	if err := os.WriteFile(written, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	type first struct{ url, added, note string }
	type loadCase struct {
		name, path string
		n          int
		first      first
	}
	cases := []loadCase{{"generated", written, 3, first{"https://first.example/mods/", "2026-09-28", "The first site: two mods."}}}
	if p, ok := corpustest.Optional(t, "network/sources.toml"); ok {
		cases = append(cases, loadCase{"corpus", p, 14, first{"https://dreamweave-mp.github.io/DreamWeave-Mod-Template/", "2026-09-28", "The Mod Template's own example projects"}})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ss, err := Load(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if len(ss) != tc.n {
				t.Fatalf("got %d sources, want %d", len(ss), tc.n)
			}
			b, _ := os.ReadFile(tc.path)
			lines := strings.Split(string(b), "\n")
			for i, s := range ss {
				if s.Entry != i+1 || s.Line < 1 || !strings.HasPrefix(lines[s.Line-1], `url = "`+s.URL+`"`) {
					t.Errorf("source %d (%s): entry %d, line %d is not its url key", i+1, s.URL, s.Entry, s.Line)
				}
			}
			if f := ss[0]; f.URL != tc.first.url || f.Added != tc.first.added || !strings.HasPrefix(f.Note, tc.first.note) {
				t.Errorf("first source: %+v", f)
			}
		})
	}
}

// meta is the added and note lines every good entry carries.
const meta = "added = \"2026-01-01\"\nnote = \"x\"\n"

func TestParseRefusesBadEntriesNamingTheLine(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // each a problem's String(), in order
	}{
		{"not http", "[[source]]\nurl = \"ftp://example.org/\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "ftp://example.org/" is not an absolute http or https URL`}},
		{"file url", "[[source]]\nurl = \"file:///etc/passwd\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "file:///etc/passwd" is not an absolute http or https URL`}},
		{"relative", "[[source]]\nurl = \"/mods/\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "/mods/" is not an absolute http or https URL`}},
		{"userinfo, password never shown", "[[source]]\nadded = \"2026-01-01\"\nnote = \"x\"\nurl = \"https://me:secret@example.org/\"\n",
			[]string{`line 4: [[source]] #1: url "https://xxxxx@example.org/" carries a user name or password`}},
		{"unparseable with a password", "[[source]]\nurl = \"https://me:secret@exa mple.org/%zz\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "https://xxxxx@exa mple.org/%zz" does not parse as a URL: invalid character " " in host name`}},
		{"no host", "[[source]]\nurl = \"https:///x\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "https:///x" has no host`}},
		{"missing url", "[[source]]\n" + meta,
			[]string{`line 1: [[source]] #1: url is missing`}},
		{"url not a string", "[[source]]\nurl = 3\n" + meta,
			[]string{`line 2: [[source]] #1: url is an integer, not a string`}},
		{"whitespace", "[[source]]\nurl = \" https://example.org/\"\n" + meta,
			[]string{`line 2: [[source]] #1: url " https://example.org/" has surrounding whitespace`}},
		{"fragment", "[[source]]\nurl = \"https://example.org/#top\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "https://example.org/#top" has a #fragment, which is never sent to a site; write the URL without it`}},
		{"empty fragment", "[[source]]\nurl = \"https://example.org/#\"\n" + meta,
			[]string{`line 2: [[source]] #1: url "https://example.org/#" has a #fragment, which is never sent to a site; write the URL without it`}},
		{"duplicate by case", "[[source]]\nurl = \"https://example.org/a/\"\n" + meta + "\n[[source]]\nurl = \"https://EXAMPLE.org/a/\"\n" + meta,
			[]string{`line 7: [[source]] #2: url "https://EXAMPLE.org/a/" repeats [[source]] #1 (line 2)`}},
		{"unknown key", "[[source]]\nurl = \"https://example.org/\"\nnotes = \"typo\"\n" + meta,
			[]string{`line 2: [[source]] #1: unknown key "notes" (want url, added, note)`}},
		{"unknown top-level key", "sources = []\n", []string{`unknown key "sources" (want [[source]] entries)`}},
		{"unknown top-level table and dotted key", "b.c = 2\n[extra]\na = 1\n[[source]]\nurl = \"https://example.org/\"\n" + meta,
			[]string{`unknown key "b" (want [[source]] entries)`, `unknown key "extra" (want [[source]] entries)`}},
		{"unknown keys holding tables, named once each", "[[source]]\nurl = \"https://example.org/\"\nz = {a = 1}\nx.y = 2\nx.w = 3\n" + meta,
			[]string{`line 2: [[source]] #1: unknown key "x" (want url, added, note)`, `line 2: [[source]] #1: unknown key "z" (want url, added, note)`}},
		{"a known key holding a table is a type, not an unknown key", "[[source]]\nurl.a = 1\n" + meta,
			[]string{`line 1: [[source]] #1: url is a table, not a string`}},
		{"unknown keys in an inline array, each entry its own", "source = [{url = \"https://a.example/\", added = 2026-01-01, note = \"x\"}, {url = \"https://b.example/\", added = 2026-01-01, note = \"x\", notes = \"y\"}, 3]\n",
			[]string{`[[source]] #3: is not a table`, `[[source]] #2: unknown key "notes" (want url, added, note)`,
				`[[source]] #3: url is missing`, `[[source]] #3: added is missing (the day the site was enrolled, YYYY-MM-DD)`,
				`[[source]] #3: note is missing (one line for the humans reviewing the list)`}},
		{"bad date", "[[source]]\nurl = \"https://example.org/\"\nadded = \"28/09/2026\"\nnote = \"x\"\n",
			[]string{`line 2: [[source]] #1: added "28/09/2026" is not a date (want YYYY-MM-DD)`}},
		{"empty note", "[[source]]\nurl = \"https://example.org/\"\nadded = 2026-01-01\nnote = \"  \"\n",
			[]string{`line 2: [[source]] #1: note is empty (one line for the humans reviewing the list)`}},
		{"note with an escape sequence", "[[source]]\nurl = \"https://example.org/\"\nadded = 2026-01-01\nnote = \"red \\u001b[31m\"\n",
			[]string{`line 2: [[source]] #1: note holds the control or formatting character U+001B; one line of plain text is wanted`}},
		{"bad toml", "[[source]]\nurl = \"https://example.org/\n", nil},
		{"every problem at once, in order",
			"# sites\n[[source]]\nurl = \"https://ok.example/\"\n" + meta + "\n[[source]]\nnote = \"\"\"\n[[source]]\nurl = \"ftp://x/\"\n\"\"\"\nurl = \"gopher://x/\"\nadded = 2026-01-01\n\n[[source]]\nurl = \"https://ok.example/\"\n" + meta,
			[]string{
				`line 12: [[source]] #2: url "gopher://x/" is not an absolute http or https URL`,
				`line 12: [[source]] #2: note spans several lines; one line is wanted`,
				`line 16: [[source]] #3: url "https://ok.example/" repeats [[source]] #1 (line 3)`,
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
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("the message shows the password: %v", err)
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

// Lists that look plausible but are wrong (a URL repeated with a fragment or its default port,
// missing fields, a multi-line note) are refused, naming the entry and line.
func TestParseRefusesPlausibleMistakes(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"sources-fragment.toml": {"[[source]]\nurl = \"http://example.org/mods/\"\nadded = \"2026-01-01\"\nnote = \"x\"\n\n[[source]]\nurl = \"http://example.org/mods/#again\"\nadded = \"2026-01-01\"\nnote = \"the same URL: a fragment is never sent\"\n",
			`line 7: [[source]] #2: url "http://example.org/mods/#again" has a #fragment, which is never sent to a site; write the URL without it`},
		"sources-missing.toml": {"[[source]]\nurl = \"http://example.org/mods/\"\n",
			"line 2: [[source]] #1: added is missing (the day the site was enrolled, YYYY-MM-DD)\nline 2: [[source]] #1: note is missing (one line for the humans reviewing the list)"},
		"sources-multiline.toml": {"[[source]]\nurl = \"http://example.org/mods/\"\nadded = \"2026-01-01\"\nnote = \"\"\"two\nlines\"\"\"\n",
			"line 2: [[source]] #1: note spans several lines; one line is wanted"},
		"sources-port.toml": {"[[source]]\nurl = \"http://example.org/mods/\"\nadded = \"2026-01-01\"\nnote = \"x\"\n\n[[source]]\nurl = \"http://example.org:80/mods/\"\nadded = \"2026-01-01\"\nnote = \"the same URL with its default port spelled out\"\n",
			`line 7: [[source]] #2: url "http://example.org:80/mods/" repeats [[source]] #1 (line 2)`},
	}
	for name, tc := range cases {
		_, err := Parse(name, []byte(tc.doc))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: accepted", name)
			continue
		}
		var got []string
		for _, p := range e.Problems {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, strings.Join(got, "\n"), tc.want)
		}
	}
}

func TestDuplicatesAreComparedAsTheSiteSeesThem(t *testing.T) {
	same := [][2]string{
		{"http://example.org/mods/", "HTTP://Example.ORG/mods/"},
		{"http://example.org/mods/", "http://example.org:80/mods/"},
		{"https://example.org/mods/", "https://example.org:443/mods/"},
		{"https://example.org", "https://example.org/"},
		{"https://example.org/", "https://example.org./"},
		{"http://[2001:db8::1]:80/", "http://[2001:DB8::1]/"},
		{"https://bücher.example/mods/", "https://xn--bcher-kva.example/mods/"},
		{"https://BÜCHER.example./mods/", "https://xn--bcher-kva.example:443/mods/"},
		// RFC 3986 section 6.2.2: dot segments, escaped unreserved characters, %-hex case.
		{"http://example.org/site/", "http://example.org/x/../site/"},
		{"http://example.org/site/", "http://example.org/./site/."},
		{"http://example.org/~mods/", "http://example.org/%7Emods/"},
		{"http://example.org/~mods/", "http://example.org/%7emods/"},
		{"http://example.org/a%2Fb/", "http://example.org/a%2fb/"},
	}
	for _, p := range same {
		if dupKey(p[0]) != dupKey(p[1]) {
			t.Errorf("%s and %s are the same request: %s vs %s", p[0], p[1], dupKey(p[0]), dupKey(p[1]))
		}
	}
	different := [][2]string{
		{"http://example.org/mods/", "https://example.org/mods/"},
		{"http://example.org/mods/", "http://example.org:8080/mods/"},
		{"https://example.org:80/", "https://example.org/"},
		{"https://example.org/Mods/", "https://example.org/mods/"},
		{"https://example.org/?a=1", "https://example.org/?a=2"},
		{"https://example.org/a%2Fb/", "https://example.org/a/b/"},
		{"https://example.org/a//b/", "https://example.org/a/b/"},
	}
	for _, p := range different {
		if dupKey(p[0]) == dupKey(p[1]) {
			t.Errorf("%s and %s are different requests, both %s", p[0], p[1], dupKey(p[0]))
		}
	}
}

// Literal addresses the guard refuses are refused when the list is loaded, not when it is read.
// Loopback is admitted only with AllowLoopback (local drills); private and metadata never.
func TestParseRefusesAddressesTheGuardRefuses(t *testing.T) {
	doc := func(u string) []byte { return []byte("[[source]]\nurl = \"" + u + "\"\n" + meta) }
	for _, c := range []struct {
		url      string
		loopback bool   // admitted with AllowLoopback
		want     string // in the message without it
	}{
		{"http://127.0.0.1:8080/mods/", true, "127.0.0.1 is loopback (127.0.0.0/8) (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)"},
		{"http://[::1]/", true, "::1 is loopback"},
		{"http://localhost:8000/", true, "localhost is loopback (--allow-loopback admits 127.0.0.0/8 and ::1 for local drills)"},
		{"http://mods.localhost/", true, "localhost is loopback"},
		{"http://10.0.0.1/mods/", false, "10.0.0.1 is private (RFC 1918, 10.0.0.0/8)"},
		{"http://169.254.169.254/latest/meta-data/", false, "169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services live)"},
		{"http://[::ffff:127.0.0.1]/", false, "::ffff:127.0.0.1"},
		{"http://0x7f.1/", false, "non-canonical form"},
		{"http://192.0.2.7/", false, "documentation"},
		{"https://example.org:99999/", false, `port "99999" is not in 1-65535`},
	} {
		_, err := Parse("s", doc(c.url))
		if err == nil || !strings.Contains(err.Error(), "is refused by the crawler's guard: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a refusal saying %q", c.url, err, c.want)
		}
		_, err = ParseWith("s", doc(c.url), Options{AllowLoopback: true})
		if c.loopback && err != nil {
			t.Errorf("%s with AllowLoopback: %v", c.url, err)
		}
		if !c.loopback && err == nil {
			t.Errorf("%s with AllowLoopback: accepted; only loopback is admitted", c.url)
		}
		if c.loopback && strings.Contains(fmt.Sprint(err), "--allow-loopback") {
			t.Errorf("%s: suggests --allow-loopback when it is on", c.url)
		}
	}
	if _, err := Parse("s", doc("https://mods.example/")); err != nil {
		t.Errorf("a host name refused at load: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.org/#":            "https://example.org/#",
		"https://me:pw@example.org/x":      "https://xxxxx@example.org/x",
		"https://me@example.org/":          "https://xxxxx@example.org/",
		"https://me:p@w@exa mple.org/":     "https://xxxxx@exa mple.org/",
		"https://me:pw@exa mple.org/a@b":   "https://xxxxx@exa mple.org/a@b",
		"not a url at all: user:pw@host/%": "not a url at all: xxxxx@host/%",
	} {
		if got := termtext.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadWith(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sources.toml")
	if err := os.WriteFile(p, []byte("[[source]]\nurl = \"http://127.0.0.1:9/x/\"\n"+meta), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p+": refused") {
		t.Errorf("Load admitted loopback: %v", err)
	}
	if ss, err := LoadWith(p, Options{AllowLoopback: true}); err != nil || len(ss) != 1 {
		t.Errorf("LoadWith AllowLoopback: %v %v", ss, err)
	}
}

func TestParseAcceptsDatesRefusesAnEmptyList(t *testing.T) {
	ss, err := Parse("s", []byte("[[source]]\nurl = \"http://example.org/x?y=1\"\nadded = 2026-09-28\nnote = \"é ✓\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Added != "2026-09-28" || ss[0].URL != "http://example.org/x?y=1" || ss[0].Note != "é ✓" {
		t.Fatalf("%+v", ss)
	}
	// An empty list would withdraw every claim: refused, unless the caller appends to it (add).
	for _, empty := range []string{"", "# nobody yet\n"} {
		if _, err := Parse("s", []byte(empty)); err == nil || !strings.Contains(err.Error(), "lists no [[source]] entries; a refresh would withdraw every claim") {
			t.Errorf("empty list %q: %v", empty, err)
		}
		if ss, err := ParseWith("s", []byte(empty), Options{AllowEmpty: true}); err != nil || len(ss) != 0 {
			t.Errorf("empty list %q with AllowEmpty: %v %v", empty, ss, err)
		}
	}
	if _, err := Parse("s", []byte("[[source]]\nurl = \"https://example.org/\"\nadded = 2026-09-28T10:00:00Z\nnote = \"x\"\n")); err == nil {
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
	f.Add([]byte("[[source]]\nurl = \"https://u:s3cr3t@exa mple.org/\"\nadded = 2026-01-01\nnote = \"x\"\n"))
	f.Add([]byte("[[source]]\nurl = \"http://u:s3cr3t@10.0.0.1/#f\"\n[[source]]\nurl = \"http://u:s3cr3t@10.0.0.1/\"\n"))
	f.Add([]byte("[[source]]\nurl = \"http://a.example:80\"\nadded = 2026-01-01\nnote = \"x\"\n[[source]]\nurl = \"HTTP://A.example./\"\nadded = 2026-01-01\nnote = \"y\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ss, err := Parse("fuzz", b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			// A password in a url is never shown (the seeds use "s3cr3t").
			if bytes.Contains(b, []byte(":s3cr3t@")) && strings.Contains(err.Error(), "s3cr3t") {
				t.Fatalf("the message shows a password: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, s := range ss {
			if CheckURL(s.URL) != nil || checkFetchable(s.URL, false) != "" || seen[dupKey(s.URL)] {
				t.Fatalf("accepted a bad or repeated url %q", s.URL)
			}
			if s.Added == "" || CheckNote(s.Note) != "" {
				t.Fatalf("accepted an entry without a date or a one-line note: %+v", s)
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
		"https://u:p@example/": `url "https://xxxxx@example/" carries a user name or password`,
		"https://example/#x":   `url "https://example/#x" has a #fragment, which is never sent to a site; write the URL without it`,
		"file:///etc/passwd":   `url "file:///etc/passwd" is not an absolute http or https URL`,
		"":                     `url "" is empty`,
	} {
		if err := CheckURL(in); err == nil || err.Error() != want {
			t.Errorf("CheckURL(%q) = %v, want %s", in, err, want)
		}
	}
}

// Notes in scripts and emoji that need the zero-width (non-)joiner, or a variation selector,
// are one line of plain text; bidirectional controls, other invisible formatting characters,
// C0/C1 controls and line separators are still refused, each named.
func TestCheckNoteWritingSystems(t *testing.T) {
	for _, ok := range []string{
		"Persian mods: می\u200cخواهم",
		"Mods by a developer 👩\u200d💻",
		"Devanagari: क्\u200dष",
		"a heart ❤\ufe0f and text",
		"é ✓ 日本語",
	} {
		if msg := CheckNote(ok); msg != "" {
			t.Errorf("CheckNote(%q) = %q, want accepted", ok, msg)
		}
	}
	for in, want := range map[string]string{
		"hidden \u202egnp.exe":     "holds the control or formatting character U+202E; one line of plain text is wanted",
		"isolate \u2066x\u2069":    "holds the control or formatting character U+2066; one line of plain text is wanted",
		"mark \u200fx":             "holds the control or formatting character U+200F; one line of plain text is wanted",
		"arabic mark \u061cx":      "holds the control or formatting character U+061C; one line of plain text is wanted",
		"zero\u200bwidth":          "holds the control or formatting character U+200B; one line of plain text is wanted",
		"bom \ufeffx":              "holds the control or formatting character U+FEFF; one line of plain text is wanted",
		"csi \u009b2J":             "holds the control or formatting character U+009B; one line of plain text is wanted",
		"esc \x1b[31m":             "holds the control or formatting character U+001B; one line of plain text is wanted",
		"tab\there":                "holds the control or formatting character U+0009; one line of plain text is wanted",
		"line\u2028separator":      "spans several lines; one line is wanted",
		"next\u0085line":           "spans several lines; one line is wanted",
		"joiner then \u202d after": "holds the control or formatting character U+202D; one line of plain text is wanted",
		"caf\xe9":                  "is not UTF-8 text",
	} {
		if got := CheckNote(in); got != want {
			t.Errorf("CheckNote(%q) = %q, want %q", in, got, want)
		}
	}
	// Through the loader, with the entry named.
	if ss, err := Parse("s", []byte("[[source]]\nurl = \"https://example.org/\"\nadded = 2026-01-01\nnote = \"Persian mods: می\u200cخواهم\"\n")); err != nil || len(ss) != 1 {
		t.Errorf("a Persian note was refused: %v", err)
	}
	_, err := Parse("s", []byte("[[source]]\nurl = \"https://example.org/\"\nadded = 2026-01-01\nnote = \"x\u202ey\"\n"))
	if err == nil || err.Error() != "s: refused\n  line 2: [[source]] #1: note holds the control or formatting character U+202E; one line of plain text is wanted" {
		t.Errorf("err = %v", err)
	}
}

// Whatever note CheckNote accepts, the appended entry loads back with that note, and every byte
// of the list before it is kept.
func FuzzAppendEntry(f *testing.F) {
	for _, s := range []string{"plain", `quote " and \ backslash`, "unicode: \u00e9\u4e2d\U0001F56F", `\u0000 literally`, "'''", `"""`, "# not a comment", "]]", "emoji \U0001F469\u200d\U0001F4BB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, note string) {
		if CheckNote(note) != "" {
			return
		}
		list := []byte("# c\n")
		b := AppendEntry(list, Source{URL: "https://a.example/", Added: "2026-10-16", Note: note})
		if !bytes.HasPrefix(b, list) {
			t.Fatalf("the list's bytes changed: %q", b)
		}
		ss, err := Parse("fuzz", b)
		if err != nil {
			t.Fatalf("note %q: %v", note, err)
		}
		if len(ss) != 1 || ss[0].Note != note || ss[0].URL != "https://a.example/" || ss[0].Added != "2026-10-16" {
			t.Fatalf("note %q read back as %+v", note, ss)
		}
	})
}

// AppendEntry separates the new entry from what is there by exactly one blank line.
func TestAppendEntryBlankLine(t *testing.T) {
	e := "[[source]]\nurl = \"https://a.example/\"\nadded = \"2026-10-16\"\nnote = \"n\"\n"
	for in, want := range map[string]string{
		"":        e,
		"# c":     "# c\n\n" + e,
		"# c\n":   "# c\n\n" + e,
		"# c\n\n": "# c\n\n" + e,
	} {
		if got := string(AppendEntry([]byte(in), Source{URL: "https://a.example/", Added: "2026-10-16", Note: "n"})); got != want {
			t.Errorf("AppendEntry(%q) = %q, want %q", in, got, want)
		}
	}
}

// Enrolled finds the entry that enrolls a URL by the loader's duplicate rule.
func TestEnrolled(t *testing.T) {
	list := []Source{{URL: "https://a.example/mods/", Entry: 1}, {URL: "https://b.example", Entry: 2}}
	for u, want := range map[string]int{
		"https://a.example/mods/":       1,
		"HTTPS://A.example:443/mods/./": 1,
		"https://a.example/mods/#top":   1,
		"https://b.example/":            2,
		"https://a.example/mods":        0,
		"https://c.example/":            0,
	} {
		got := 0
		if s := Enrolled(list, u); s != nil {
			got = s.Entry
		}
		if got != want {
			t.Errorf("Enrolled(%q) = entry %d, want %d", u, got, want)
		}
	}
}
