package curation

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

const (
	idA = "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90"
	idB = "9b7e3f21-6c4d-4a8b-b1e2-3f5a7c9d0e14"
)

const good = `
[[migration]]
project = "` + idA + `"
from = "https://old.example.org/mods/dreamweave.json"
to = "https://new.example.org/dreamweave.json"
reason = "The old front page links the new one."
reviewed = "2026-09-28"

[[migration]]
project = "` + idB + `"
from = "https://a.example.org/dreamweave.json"
to = "https://b.example.org/dreamweave.json"
reason = "Confirmed by the author."
reviewed = 2026-10-01

[[featured]]
project = "` + idB + `"
note = "A small library many mods build on."

[[featured]]
project = "` + idA + `"
note = "The reference example."
`

func TestParseGood(t *testing.T) {
	c, err := Parse("curation.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := &Curation{
		Migrations: []Migration{
			{Project: idA, From: "https://old.example.org/mods/dreamweave.json", To: "https://new.example.org/dreamweave.json", Reason: "The old front page links the new one.", Reviewed: "2026-09-28", Entry: 1},
			{Project: idB, From: "https://a.example.org/dreamweave.json", To: "https://b.example.org/dreamweave.json", Reason: "Confirmed by the author.", Reviewed: "2026-10-01", Entry: 2},
		},
		Featured: []Featured{
			{Project: idB, Note: "A small library many mods build on.", Entry: 1},
			{Project: idA, Note: "The reference example.", Entry: 2},
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if f, ok := c.FeaturedProject(idA); !ok || f.Entry != 2 {
		t.Fatalf("FeaturedProject(idA) = %+v, %v", f, ok)
	}
	if _, ok := c.FeaturedProject("00000000-0000-0000-0000-000000000000"); ok {
		t.Fatal("an unlisted project is featured")
	}
}

func TestLoadAbsentIsEmpty(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "curation.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Migrations) != 0 || len(c.Featured) != 0 {
		t.Fatalf("absent file gave %+v", c)
	}
}

func TestLoadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "curation.toml")
	if err := os.WriteFile(p, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Migrations) != 2 || len(c.Featured) != 2 {
		t.Fatalf("got %+v", c)
	}
	// A directory where the file should be is a read failure, named, not an empty curation.
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "curation") {
		t.Fatalf("reading a directory: err = %v", err)
	}
}

// A curation file of comments only is an empty curation, even when its comments show example
// [[migration]] and [[featured]] tables as the corpus's does: one written here, loaded from a
// file, and the corpus's when ../shared is present.
func TestCommentsOnlyCuration(t *testing.T) {
	doc := "# Decisions this index makes on its own account.\n\n# [[migration]]\n# project = \"" + idA +
		"\"\n# from = \"https://old.example.org/dreamweave.json\"\n# to = \"https://new.example.org/dreamweave.json\"\n" +
		"# reason = \"r\"\n# reviewed = \"2026-09-28\"\n\n# [[featured]]\n# project = \"" + idA + "\"\n# note = \"n\"\n"
	written := filepath.Join(t.TempDir(), "curation.toml")
	if err := os.WriteFile(written, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"generated": written}
	if p, ok := corpustest.Optional(t, "network/curation.toml"); ok {
		files["corpus"] = p
	}
	for name, p := range files {
		c, err := Load(p)
		if err != nil || len(c.Migrations) != 0 || len(c.Featured) != 0 {
			t.Errorf("%s: the comment-only file gave %+v, %v", name, c, err)
		}
	}
}

func TestRefused(t *testing.T) {
	mig := func(body string) string { return "[[migration]]\n" + body }
	full := func(skip string, extra string) string {
		lines := []string{
			`project = "` + idA + `"`,
			`from = "https://old.example.org/dreamweave.json"`,
			`to = "https://new.example.org/dreamweave.json"`,
			`reason = "r"`,
			`reviewed = "2026-09-28"`,
		}
		var out []string
		for _, l := range lines {
			if !strings.HasPrefix(l, skip+" ") {
				out = append(out, l)
			}
		}
		return mig(strings.Join(out, "\n") + "\n" + extra)
	}
	cases := []struct {
		name, doc, entry, msg string
	}{
		{"syntax", "[[migration]\n", "file", "not valid TOML: line 2"},
		{"unknown top-level", "[[featurd]]\nproject = \"" + idA + "\"\n", "file", `unknown key "featurd"`},
		{"single table", "[migration]\nproject = \"" + idA + "\"\n", "file", `write each entry as a [[migration]] table`},
		{"unknown key", full("", `note = "x"`), "[[migration]] #1 (project " + idA + ")", `unknown key "note"`},
		{"missing project", full("project", ""), "[[migration]] #1", "project is missing"},
		{"missing from", full("from", ""), "[[migration]] #1 (project " + idA + ")", "from is missing"},
		{"missing to", full("to", ""), "[[migration]] #1 (project " + idA + ")", "to is missing"},
		{"missing reason", full("reason", ""), "[[migration]] #1 (project " + idA + ")", "reason is missing"},
		{"missing reviewed", full("reviewed", ""), "[[migration]] #1 (project " + idA + ")", "reviewed is missing"},
		{"blank reason", full("reason", `reason = "  "`), "[[migration]] #1 (project " + idA + ")", "reason is empty"},
		{"bad uuid", full("project", `project = "4D0C9F6E-2B1A-4C8E-9F3A-7E5D1B2C6A90"`), "[[migration]] #1", `is not a lowercase UUID`},
		{"project not string", full("project", `project = 7`), "[[migration]] #1", "project is an integer, not a string"},
		{"bad url scheme", full("from", `from = "ftp://old.example.org/dreamweave.json"`), "[[migration]] #1 (project " + idA + ")", `is not an absolute http or https URL`},
		{"relative url", full("to", `to = "/dreamweave.json"`), "[[migration]] #1 (project " + idA + ")", `to "/dreamweave.json" is not an absolute http or https URL`},
		{"userinfo", full("to", `to = "https://u:p@new.example.org/dreamweave.json"`), "[[migration]] #1 (project " + idA + ")", "user name or password"},
		{"fragment", full("to", `to = "https://new.example.org/dreamweave.json#x"`), "[[migration]] #1 (project " + idA + ")", "#fragment"},
		{"space", full("to", `to = " https://new.example.org/dreamweave.json"`), "[[migration]] #1 (project " + idA + ")", "whitespace"},
		{"same site", full("to", `to = "https://old.example.org/dreamweave.json"`), "[[migration]] #1 (project " + idA + ")", "same site index URL"},
		{"bad date", full("reviewed", `reviewed = "2026-13-01"`), "[[migration]] #1 (project " + idA + ")", `reviewed "2026-13-01" is not a date`},
		{"datetime", full("reviewed", `reviewed = 2026-09-28T10:00:00Z`), "[[migration]] #1 (project " + idA + ")", "is a date-time"},
		{"date int", full("reviewed", `reviewed = 20260928`), "[[migration]] #1 (project " + idA + ")", "reviewed is an integer"},
		{"repeat migration", full("", "") + full("", ""), "[[migration]] #2 (project " + idA + ")", "repeats [[migration]] #1"},
		{"featured unknown key", "[[featured]]\nproject = \"" + idA + "\"\nnote = \"n\"\nrank = 1\n", "[[featured]] #1 (project " + idA + ")", `unknown key "rank"`},
		{"featured no note", "[[featured]]\nproject = \"" + idA + "\"\n", "[[featured]] #1 (project " + idA + ")", "note is missing"},
		{"featured bad uuid", "[[featured]]\nproject = \"candlelight\"\nnote = \"n\"\n", "[[featured]] #1", `project "candlelight" is not a lowercase UUID`},
		{"featured repeat", "[[featured]]\nproject = \"" + idA + "\"\nnote = \"n\"\n[[featured]]\nproject = \"" + idA + "\"\nnote = \"m\"\n", "[[featured]] #2 (project " + idA + ")", "repeats [[featured]] #1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("network/curation.toml", []byte(tc.doc))
			if err == nil {
				t.Fatalf("accepted: %+v", c)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if ce.Path != "network/curation.toml" || !strings.HasPrefix(err.Error(), "network/curation.toml: refused") {
				t.Fatalf("error does not name the file: %v", err)
			}
			for _, p := range ce.Problems {
				if p.Entry == tc.entry && strings.Contains(p.Message, tc.msg) {
					return
				}
			}
			t.Fatalf("no problem %q: %q in\n%v", tc.entry, tc.msg, err)
		})
	}
}

// Every problem in a file is reported at once, not only the first.
func TestRefusedReportsAll(t *testing.T) {
	doc := "[[featured]]\nproject = \"x\"\n[[migration]]\nproject = \"" + idB + "\"\n"
	_, err := Parse("c.toml", []byte(doc))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	// migration: from, to, reason, reviewed missing; featured: bad uuid and no note.
	if len(ce.Problems) != 6 {
		t.Fatalf("want 6 problems, got %d:\n%v", len(ce.Problems), err)
	}
}

// TestContradictoryMigrations: moves of one project that lead back to a site
// they leave (A to B and B to A; A to B to C to A), and one site moved to two sites, are
// refused, naming the file, each entry involved and its line. A chain (A to B, B to C), two
// sites moving to one, and the same sites for another project are accepted.
func TestContradictoryMigrations(t *testing.T) {
	const (
		a = "https://a.example.org/dreamweave.json"
		b = "https://b.example.org/dreamweave.json"
		c = "https://c.example.org/dreamweave.json"
	)
	mig := func(project, from, to string) string {
		return "[[migration]]\nproject = \"" + project + "\"\nfrom = \"" + from + "\"\nto = \"" + to + "\"\nreason = \"r\"\nreviewed = 2026-10-01\n\n"
	}
	for _, tc := range []struct {
		name, doc string
		entry     string   // the problem's entry
		want      []string // in its message
	}{
		{"pair", mig(idA, a, b) + mig(idA, b, a), "[[migration]] #2 (project " + idA + ")",
			[]string{"moves that contradict each other", "[[migration]] #1 (line 1) moves it from " + a + " to " + b, "[[migration]] #2 (line 8) moves it from " + b + " to " + a}},
		{"cycle of three", mig(idA, c, a) + mig(idB, a, b) + mig(idA, a, b) + mig(idA, b, c), "[[migration]] #4 (project " + idA + ")",
			[]string{"a cycle of moves: [[migration]] #1 (line 1) moves it from " + c + " to " + a + "; [[migration]] #3 (line 15) moves it from " + a + " to " + b + "; [[migration]] #4 (line 22) moves it from " + b + " to " + c}},
		{"two targets", mig(idA, a, b) + mig(idA, a, c), "[[migration]] #2 (project " + idA + ")",
			[]string{"moves the project from " + a + " to " + c + " (line 8), but [[migration]] #1 (line 1) moves it from the same site to " + b}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur, err := Parse("network/curation.toml", []byte(tc.doc))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("accepted (%v): %+v", err, cur)
			}
			if !strings.HasPrefix(err.Error(), "network/curation.toml: refused") || len(ce.Problems) != 1 {
				t.Fatalf("want one problem naming the file, got:\n%v", err)
			}
			p := ce.Problems[0]
			if p.Entry != tc.entry {
				t.Errorf("entry %q, want %q", p.Entry, tc.entry)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Message, w) {
					t.Errorf("message %q lacks %q", p.Message, w)
				}
			}
		})
	}
	for _, doc := range []string{
		mig(idA, a, b) + mig(idA, b, c), // a chain
		mig(idA, a, c) + mig(idA, b, c), // two sites to one
		mig(idA, a, b) + mig(idB, b, a), // opposite moves of two projects
		`migration = [{project = "` + idA + `", from = "` + a + `", to = "` + b + `", reason = "r", reviewed = 2026-10-01}]`,
	} {
		if _, err := Parse("c.toml", []byte(doc)); err != nil {
			t.Errorf("refused:\n%s\n%v", doc, err)
		}
	}
	// an inline array gives no header lines: the problem names the entries without lines
	_, err := Parse("c.toml", []byte(`migration = [{project = "`+idA+`", from = "`+a+`", to = "`+b+`", reason = "r", reviewed = 2026-10-01},`+
		`{project = "`+idA+`", from = "`+b+`", to = "`+a+`", reason = "r", reviewed = 2026-10-01}]`))
	if err == nil || !strings.Contains(err.Error(), "[[migration]] #1 moves it from "+a) || strings.Contains(err.Error(), "(line") {
		t.Errorf("inline array: %v", err)
	}
}

// TestUnknownKeysWhereverWritten: an unknown key is named once, by its first part, whether it
// is written as a value, a dotted key or a table, at the top or in an entry of either table
// (also an inline one); a known key holding a table is a problem of its type, not an unknown key.
func TestUnknownKeysWhereverWritten(t *testing.T) {
	doc := "a.b = 1\n" +
		"featured = [{project = \"" + idA + "\", note = \"n\", rank = 1}]\n" +
		"[extra]\nx = 1\n" +
		"[[migration]]\nproject = \"" + idB + "\"\nfrom.x = 1\nto = \"https://new.example.org/dreamweave.json\"\n" +
		"reason = \"r\"\nreviewed = \"2026-09-28\"\nwhy = {a = 1}\nwho.b = 2\nwho.c = 3\n"
	_, err := Parse("c.toml", []byte(doc))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for _, p := range ce.Problems {
		got = append(got, p.Entry+": "+p.Message)
	}
	want := []string{
		`file: unknown key "a" (want [[migration]] or [[featured]] entries)`,
		`file: unknown key "extra" (want [[migration]] or [[featured]] entries)`,
		`[[migration]] #1 (project ` + idB + `): unknown key "who" (want project, from, to, reason, reviewed)`,
		`[[migration]] #1 (project ` + idB + `): unknown key "why" (want project, from, to, reason, reviewed)`,
		`[[migration]] #1 (project ` + idB + `): from is a table, not a string`,
		`[[featured]] #1 (project ` + idA + `): unknown key "rank" (want project, note)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
