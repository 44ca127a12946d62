package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/example"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

// addFixture serves the example network on loopback and writes a source list enrolling
// lanterns.example, with comments and a layout add must keep.
type addFixture struct {
	srv   *loopback.Server
	dir   string
	path  string
	text  string
	state string
}

func newAddFixture(t *testing.T) *addFixture {
	t.Helper()
	srv, err := loopback.Start(example.Web(), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	old := addNow
	addNow = func() time.Time { return time.Date(2026, 10, 15, 23, 30, 0, 0, time.FixedZone("X", -5*3600)) }
	t.Cleanup(func() { addNow = old })
	dir := t.TempDir()
	f := &addFixture{srv: srv, dir: dir, path: filepath.Join(dir, "sources.toml"), state: t.TempDir()}
	f.text = "# Sites this index reads.\n#   keep   this   comment's spacing\n\n" +
		"[[source]]\nurl   = \"" + srv.URL() + "lanterns.example/\"   # aligned, with a comment\n" +
		"added = 2026-10-01\nnote  = \"Lanterns\"\n\n# trailing comment\n"
	if err := os.WriteFile(f.path, []byte(f.text), 0o640); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *addFixture) add(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	args = append(append([]string{"add"}, args...), "--sources", f.path, "--state", f.state)
	rc := run(&env{stdout: &out, stderr: &errb}, args)
	return rc, out.String(), errb.String()
}

func (f *addFixture) unchanged(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != f.text {
		t.Fatalf("the source list changed:\n%s", b)
	}
	ents, _ := os.ReadDir(f.dir)
	for _, e := range ents {
		if e.Name() != "sources.toml" {
			t.Fatalf("add left %s behind", e.Name())
		}
	}
}

// A list with no entries yet (comments only) takes its first entry: refresh refuses an empty
// list, add does not.
func TestAddToAListWithNoEntries(t *testing.T) {
	f := newAddFixture(t)
	f.text = "# Sites this index reads.\n"
	if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
		t.Fatal(err)
	}
	u := f.srv.URL() + "tidewater.example/"
	if rc, out, errs := f.add(u, "--note", "tides", "--allow-loopback"); rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	got, _ := os.ReadFile(f.path)
	if want := f.text + "\n[[source]]\nurl = \"" + u + "\"\nadded = \"2026-10-16\"\nnote = \"tides\"\n"; string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestAddAppendsEntryKeepingEveryByte(t *testing.T) {
	f := newAddFixture(t)
	u := f.srv.URL() + "tidewater.example/"
	rc, out, errs := f.add(u, "--note", `Tidewater "tools" \ tides`, "--allow-loopback")
	if rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	want := f.text + "\n[[source]]\nurl = \"" + u + "\"\nadded = \"2026-10-16\"\nnote = \"Tidewater \\\"tools\\\" \\\\ tides\"\n"
	got, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(out, "added "+u) || !strings.Contains(out, "tidewater.example/dw/dreamweave.json") || !strings.HasSuffix(out, ", 2 projects)\n") {
		t.Fatalf("stdout: %s", out)
	}
	ss, err := sources.ParseWith("new", got, sources.Options{AllowLoopback: true}) // the fixture serves on 127.0.0.1
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || ss[1].URL != u || ss[1].Note != `Tidewater "tools" \ tides` || ss[1].Added != "2026-10-16" {
		t.Fatalf("parsed back as %+v", ss)
	}
	if st, _ := os.Stat(f.path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	// One project is "1 project"; without --state and with no state/ (cmd/ashyams has none),
	// the enrolled sources are discovered.
	if _, err := os.Stat("state"); err == nil {
		t.Fatal("cmd/ashyams/state exists: the default --state would be read")
	}
	var o1, e1 bytes.Buffer
	u1 := f.srv.URL() + "broken.example/dreamweave.json"
	if rc := run(&env{stdout: &o1, stderr: &e1}, []string{"add", u1, "--note", "one", "--allow-loopback", "--sources", f.path}); rc != 0 ||
		!strings.HasSuffix(o1.String(), ", 1 project)\n") {
		t.Fatalf("one project: exit %d\n%s\n%s", rc, o1.String(), e1.String())
	}
	if got, err = os.ReadFile(f.path); err != nil {
		t.Fatal(err)
	}
	// Flags before the URL work the same, and a file without a final newline gets a blank line.
	if err := os.WriteFile(f.path, []byte(strings.TrimRight(string(got), "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if rc, out, errs := f.add("--allow-loopback", "--note", "Ashfall", f.srv.URL()+"ashfall.example/mods/ashstorm/"); rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, out, errs)
	}
	got2, _ := os.ReadFile(f.path)
	if !strings.HasPrefix(string(got2), strings.TrimRight(string(got), "\n")+"\n\n[[source]]\nurl = ") {
		t.Fatalf("appended after a file with no final newline:\n%s", got2)
	}
}

func TestAddRefusesTheSameURL(t *testing.T) {
	f := newAddFixture(t)
	u := f.srv.URL() + "lanterns.example/"
	rc, _, errs := f.add(u, "--note", "again", "--allow-loopback")
	want := "ashyams add: " + u + " is already enrolled: [[source]] #1 (line 5, " + u + ") is the same URL as a site sees it\nashyams add: " + f.path + " was not changed\n"
	if rc != 1 || errs != want {
		t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", rc, errs, want)
	}
	f.unchanged(t)
}

// Spellings of the enrolled URL that RFC 3986 section 6.2.2 makes the same URL (dot segments,
// an escaped unreserved character) are the same source, not a second site for the same index.
func TestAddRefusesAnotherSpellingOfAnEnrolledURL(t *testing.T) {
	for _, u := range []string{"x/../lanterns.example/", "lanterns.example/./", "%6Canterns.example/"} {
		f := newAddFixture(t)
		rc, _, errs := f.add(f.srv.URL()+u, "--note", "same site", "--allow-loopback")
		if rc != 1 || !strings.Contains(errs, "is already enrolled") {
			t.Fatalf("%s: exit %d: %s", u, rc, errs)
		}
		f.unchanged(t)
	}
}

// A different URL that discovery leads to an enrolled site's index is the same site.
func TestAddRefusesAURLLeadingToAnEnrolledSite(t *testing.T) {
	f := newAddFixture(t)
	rc, _, errs := f.add(f.srv.URL()+"lanterns.example/dreamweave.json", "--note", "same site", "--allow-loopback")
	if rc != 1 || !strings.Contains(errs, "already leads to") || !strings.Contains(errs, "[[source]] #1 (line 5") {
		t.Fatalf("exit %d: %s", rc, errs)
	}
	f.unchanged(t)
}

// When the state records which site index an enrolled source leads to, that record decides,
// even if the enrolled source cannot be read now; a record written before URLs were normalised
// may spell the index another way and is still the same site index.
func TestAddUsesTheStateRecordOfEnrolledSources(t *testing.T) {
	for _, index := range []string{"tidewater.example/dw/dreamweave.json", "tidewater.example/x/../dw/%64reamweave.json"} {
		f := newAddFixture(t)
		gone := f.srv.URL() + "gone.example/"
		f.text += "\n[[source]]\nurl = \"" + gone + "\"\nadded = \"2026-10-02\"\nnote = \"gone\"\n"
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		d := store.Open(f.state)
		site := "tidewater-example-dw-00000000"
		if err := d.WriteJSON(store.SourcePath(store.SourceID(gone)), store.Source{URL: gone, Origin: &site, Health: store.SourceResolved}); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteJSON(store.OriginPath(site), store.Origin{ID: site, IndexURL: f.srv.URL() + index, Health: store.OriginHealthy}); err != nil {
			t.Fatal(err)
		}
		rc, _, errs := f.add(f.srv.URL()+"tidewater.example/", "--note", "tides", "--allow-loopback")
		if rc != 1 || !strings.Contains(errs, "already leads to") || !strings.Contains(errs, gone) {
			t.Fatalf("recorded index %s: exit %d: %s", index, rc, errs)
		}
		f.unchanged(t)
	}
}

func TestAddRefusesASiteItCannotRead(t *testing.T) {
	f := newAddFixture(t)
	rc, out, errs := f.add(f.srv.URL()+"nowhere.example/mods/", "--note", "nothing there", "--allow-loopback")
	if rc != 1 || !strings.Contains(errs, "cannot read a site at") {
		t.Fatalf("exit %d: %s", rc, errs)
	}
	// The inspect report, with the discovery trail, says what was tried.
	if !strings.Contains(out, "discovery trail") || !strings.Contains(out, "nowhere.example/mods/dreamweave.json") {
		t.Fatalf("no trail printed:\n%s", out)
	}
	f.unchanged(t)
	// Without --allow-loopback a loopback site is refused by the address guard (here already
	// when the fixture's loopback source list is loaded).
	rc, _, errs = f.add(f.srv.URL()+"tidewater.example/", "--note", "no loopback")
	if rc != 1 || !strings.Contains(errs, "127.0.0.1 is loopback") {
		t.Fatalf("loopback without --allow-loopback: exit %d: %s", rc, errs)
	}
	f.unchanged(t)
}

// add's note rule is the source list's: a note sources.toml accepts (a zero-width joiner in an
// emoji sequence, a zero-width non-joiner in a Persian word) is enrolled as given, and a note
// the list refuses is refused by add, exit 2, in the list's own words.
func TestAddNoteRuleIsTheSourceListsRule(t *testing.T) {
	list := func(note string) []byte {
		var q strings.Builder // a TOML basic string: every rune outside printable ASCII escaped
		for _, r := range note {
			if r >= ' ' && r < 0x7f && r != '"' && r != '\\' {
				q.WriteRune(r)
			} else {
				fmt.Fprintf(&q, "\\U%08X", r)
			}
		}
		return []byte("[[source]]\nurl = \"https://a.example/\"\nadded = 2026-10-01\nnote = \"" + q.String() + "\"\n")
	}
	for _, note := range []string{"Mods by a developer \U0001F469\u200d\U0001F4BB", "Persian mods: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"} {
		if _, err := sources.Parse("s", list(note)); err != nil {
			t.Fatalf("sources.toml refuses %q: %v", note, err)
		}
		f := newAddFixture(t)
		if rc, out, errs := f.add(f.srv.URL()+"tidewater.example/", "--note", note, "--allow-loopback"); rc != 0 {
			t.Fatalf("add --note %q: exit %d\n%s%s", note, rc, out, errs)
		}
		got, _ := os.ReadFile(f.path)
		ss, err := sources.ParseWith("new", got, sources.Options{AllowLoopback: true})
		if err != nil || len(ss) != 2 || ss[1].Note != note {
			t.Fatalf("add --note %q wrote entries %+v (%v)", note, ss, err)
		}
	}
	f := newAddFixture(t)
	for _, note := range []string{"   ", "two\nlines", "line\u2028sep", "tab\there", "red \x1b[31m", "evil\u202eredro", "zero\u200bwidth", "bom \ufeffx", "csi \u009b2J"} {
		_, err := sources.Parse("s", list(note))
		msg := sources.CheckNote(note)
		if err == nil || msg == "" || !strings.Contains(err.Error(), "note "+msg) {
			t.Fatalf("sources.toml with note %q: %v; want it refused with %q", note, err, msg)
		}
		rc, _, errs := f.add(f.srv.URL()+"tidewater.example/", "--note", note, "--allow-loopback")
		if rc != 2 || !strings.HasPrefix(errs, "ashyams add: --note "+msg+"\n") {
			t.Errorf("add --note %q: exit %d, stderr %q; want exit 2 and %q", note, rc, errs, "--note "+msg)
		}
		f.unchanged(t)
	}
}

func TestAddRefusesBadInput(t *testing.T) {
	f := newAddFixture(t)
	missing := filepath.Join(t.TempDir(), "no-state")
	for _, c := range []struct {
		args []string
		rc   int
		want string
	}{
		{[]string{"--note", "x"}, 2, "a URL is required"},
		{[]string{f.srv.URL() + "tidewater.example/"}, 2, "--note is empty (one line for the humans reviewing the list)"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "   "}, 2, "--note is empty"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "two\nlines"}, 2, "--note spans several lines; one line is wanted"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "tab\there"}, 2, "--note holds the control or formatting character U+0009; one line of plain text is wanted"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "red \x1b[31m"}, 2, "--note holds the control or formatting character U+001B"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "evil\u202eredro"}, 2, "--note holds the control or formatting character U+202E"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "zero\u200bwidth"}, 2, "--note holds the control or formatting character U+200B"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "line\u2028sep"}, 2, "--note spans several lines"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "caf\xe9"}, 2, "--note is not UTF-8 text"},
		{[]string{f.srv.URL() + "tidewater.example/", "--note", "x", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"ftp://tidewater.example/", "--note", "x"}, 1, `url "ftp://tidewater.example/"`},
		{[]string{"https://user:pw@tidewater.example/", "--note", "x"}, 1, "tidewater.example"},
		{[]string{"--bogus", "x"}, 2, "ashyams add: flag provided but not defined: -bogus\n"},
	} {
		rc, _, errs := f.add(c.args...)
		if rc != c.rc || !strings.Contains(errs, c.want) {
			t.Errorf("add %q: exit %d, want %d; stderr %q, want it to contain %q", c.args, rc, c.rc, errs, c.want)
		}
		f.unchanged(t)
	}
	// A --state that does not exist (the fixture's add names its own, so run is called here).
	var out, errb bytes.Buffer
	rc := run(&env{stdout: &out, stderr: &errb}, []string{"add", f.srv.URL() + "tidewater.example/", "--note", "x", "--allow-loopback", "--sources", f.path, "--state", missing})
	want := "ashyams add: no state at " + missing + ": run `.github/state.sh checkout` or `ashyams refresh` first (without --state, add discovers every enrolled source when state/ is absent)\nashyams add: " + f.path + " was not changed\n"
	if rc != 1 || out.String() != "" || errb.String() != want {
		t.Errorf("missing --state: exit %d, stdout %q, stderr %q, want %q", rc, out.String(), errb.String(), want)
	}
	f.unchanged(t)
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("add created the missing state: %v", err)
	}
}

// safeOutput fails when output could act on a terminal or a CI log: an ESC or other control
// byte but newline, a bidirectional or zero-width character, or a line that GitHub Actions
// would read as a workflow command.
func safeOutput(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && !strconv.IsPrint(r) {
			t.Errorf("%s holds %s raw:\n%s", what, strconv.QuoteRuneToASCII(r), out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			t.Errorf("%s has a workflow-command line %q", what, l)
		}
	}
}

// Text add did not write (the source list's URLs, the URL given, what a site says) is printed
// escaped: invisible and control characters as Go escapes, each on its own line.
func TestAddEscapesTextItPrints(t *testing.T) {
	f := newAddFixture(t)
	for _, c := range []struct {
		enrolled, want string
	}{
		// Loads (url.Parse accepts them), then add refuses the same site and names this entry.
		{"lanterns.example/\u202e::error::x", `lanterns.example/\u202e::error::x) already leads to`},
		{"lanterns.example/?q=\u200b", `?q=\u200b) already leads to`},
		// The loader refuses these; add prints its problems line by line.
		{`lanterns.example/\u001b[31m`, `\x1b[31m`},
		{`lanterns.example/\n::error::x`, `\n::error::x`},
	} {
		f.text = "[[source]]\nurl = \"" + f.srv.URL() + c.enrolled + "\"\nadded = \"2026-10-01\"\nnote = \"L\"\n"
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rc, out, errs := f.add(f.srv.URL()+"lanterns.example/dreamweave.json", "--note", "x", "--allow-loopback")
		if rc != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("enrolled %q: exit %d, stderr lacks %q:\n%s", c.enrolled, rc, c.want, errs)
		}
		safeOutput(t, "stdout", out)
		safeOutput(t, "stderr", errs)
		f.unchanged(t)
	}
	// The URL given is escaped in the refusal too.
	f.text = "[[source]]\nurl = \"" + f.srv.URL() + "lanterns.example/\"\nadded = \"2026-10-01\"\nnote = \"L\"\n"
	if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, errs := f.add(f.srv.URL()+"lanterns.example/\u202e/", "--note", "x", "--allow-loopback")
	if rc != 1 || !strings.Contains(errs, `lanterns.example/\u202e/ leads to the site index`) {
		t.Errorf("exit %d, stderr:\n%s", rc, errs)
	}
	safeOutput(t, "stdout", out)
	safeOutput(t, "stderr", errs)
	f.unchanged(t)
}

func TestAddRefusesABrokenOrMissingSourceList(t *testing.T) {
	f := newAddFixture(t)
	f.text = "[[source]]\nurl = \"ftp://x.example/\"\n"
	if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, _, errs := f.add(f.srv.URL()+"tidewater.example/", "--note", "x", "--allow-loopback")
	if rc != 1 || !strings.Contains(errs, "does not load") || !strings.Contains(errs, "line 2") {
		t.Fatalf("exit %d: %s", rc, errs)
	}
	f.unchanged(t)
	if err := os.Remove(f.path); err != nil {
		t.Fatal(err)
	}
	rc, _, errs = f.add(f.srv.URL()+"tidewater.example/", "--note", "x", "--allow-loopback")
	if rc != 1 || !strings.Contains(errs, "read the source list") {
		t.Fatalf("missing file: exit %d: %s", rc, errs)
	}
	if _, err := os.Stat(f.path); !os.IsNotExist(err) {
		t.Fatal("add created a source list that did not exist")
	}
}

// The repository's network files load as refresh and build load them, so a pull request that
// breaks either fails here (check.yml runs the tests) instead of stopping every scheduled run
// after the merge. The list is not compared with any snapshot: adding and removing sites is
// what it is for.
func TestRepositoryNetworkFilesLoad(t *testing.T) {
	ss, err := sources.Load("../../network/sources.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.Note == "" || s.Added == "" {
			t.Errorf("%s: note and added date are required in our list", s.URL)
		}
	}
	if _, err := curation.Load("../../network/curation.toml"); err != nil {
		t.Fatal(err)
	}
}
