package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// terminators are every line terminator a reader of some kind ends a line at: LF, CR, VT,
// FF, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
var terminators = []string{"\n", "\r", "\v", "\f", "\u0085", "\u2028", "\u2029"}

// lines splits text at every terminator.
func lines(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(strings.Join(terminators, ""), r) })
}

func newEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// part writes claims (by key) as the site writes the data part name (site/shards.go): in a
// single-quoted script string.
func part(t testing.TB, e *Engine, name string, claims map[string]any) []byte {
	t.Helper()
	text, err := json.Marshal(map[string]any{"claims": claims})
	if err != nil {
		t.Fatal(err)
	}
	return []byte("AshyamsData(" + quoteScript(name) + "," + quoteScript(string(text)) + ");\n")
}

// quoteScript is s as site/shards.go scriptString writes it.
func quoteScript(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String() + "'"
}

// tcomp is a component as a data part holds it.
type tcomp struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	Path        string      `json:"path"`
	Required    bool        `json:"required"`
	Default     bool        `json:"default"`
	Data        []string    `json:"data,omitempty"`
	Content     []string    `json:"content,omitempty"`
	Groundcover []string    `json:"groundcover,omitempty"`
	Archives    []string    `json:"archives,omitempty"`
	Fallback    [][2]string `json:"fallback,omitempty"`
	Config      bool        `json:"config"`
}

type tsetting struct {
	Category string `json:"category"`
	Key      string `json:"key"`
	Value    string `json:"value"`
}

type tart struct {
	ID       string `json:"id"`
	Format   string `json:"format"`
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Sources  []any  `json:"sources,omitempty"`
}

type tclaim struct {
	Name          string         `json:"name"`
	SiteName      string         `json:"site_name"`
	Scheme        string         `json:"scheme"`
	Release       map[string]any `json:"release"`
	Installs      bool           `json:"installs"`
	Relationships []any          `json:"relationships,omitempty"`
	Settings      []tsetting     `json:"settings,omitempty"`
	Components    []tcomp        `json:"components,omitempty"`
	Artifacts     []tart         `json:"artifacts,omitempty"`
}

// sum is a digest the writer takes.
var sum = strings.Repeat("0f", 32)

// goodClaim is a claim of one required component at "." with one data directory and one
// content file, a setting and an artifact.
func goodClaim(name string) *tclaim {
	return &tclaim{Name: name, SiteName: "Site", Scheme: "numeric", Release: map[string]any{"version": "1.0"}, Installs: true,
		Components: []tcomp{{ID: "main", Name: "Main", Path: ".", Required: true, Default: true, Data: []string{"."}, Content: []string{name + ".esp"}}},
		Settings:   []tsetting{{"Shaders", "clamp lighting", "true"}},
		Artifacts:  []tart{{ID: "zip", Format: "flat", Filename: "x.zip", Size: 10, SHA256: sum, Sources: []any{map[string]any{"url": "https://example.org/x.zip", "kind": "publisher"}}}}}
}

// plan adds claims (by project id, on site "s") as one data part and plans fragment.
func plan(t testing.TB, claims map[string]*tclaim, fragment string) *Plan {
	t.Helper()
	e := newEngine(t)
	m := map[string]any{}
	for id, c := range claims {
		m[id+"/s"] = c
	}
	if err := e.AddPart("c", part(t, e, "c", m)); err != nil {
		t.Fatal(err)
	}
	r, err := e.ParseFragment(fragment)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Compute(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func id(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-000000000000", i) }

// TestWriterWrites writes every kind of line and wants exactly the line OpenMW (or
// sha256sum) reads back as the values: data paths quoted with "&" escapes in the root's own
// form (a Windows root gives backslashes throughout), names and settings as given.
func TestWriterWrites(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		got  func() (string, error)
		want string
	}{
		{func() (string, error) {
			return e.DataLine("/home/p/Mod & \"Quotes\" #1 @home", "Lamp-11111111", "00 Core", "Textures/Big")
		},
			`data="/home/p/Mod && &"Quotes&" #1 @home/Lamp-11111111/00 Core/Textures/Big"`},
		{func() (string, error) { return e.DataLine("C:\\Games\\OpenMW Mods", "I-Am-Basket-9730fd78", ".", ".") },
			`data="C:\Games\OpenMW Mods\I-Am-Basket-9730fd78"`},
		{func() (string, error) {
			return e.DataLine("C:/Games/OpenMW Mods/", "I-Am-Basket-9730fd78", "00 Core", "a/b")
		},
			`data="C:\Games\OpenMW Mods\I-Am-Basket-9730fd78\00 Core\a\b"`},
		{func() (string, error) { return e.DataLine(`\\server\share\mods`, "X-11111111", ".", ".") }, `data="\\server\share\mods\X-11111111"`},
		{func() (string, error) { return e.DataLine("/", "X-11111111", "./a//b/", ".") }, `data="/X-11111111/a/b"`},
		{func() (string, error) { return e.ConfigLine("/m", "X-11111111", "grass") }, `config="/m/X-11111111/grass"`},
		{func() (string, error) { return e.FileLine("content", "Lamp - TR.esp") }, "content=Lamp - TR.esp"},
		{func() (string, error) { return e.FileLine("content", "#quoted \"x\".esp") }, `content=#quoted "x".esp`},
		{func() (string, error) { return e.FileLine("groundcover", "Grass.esp") }, "groundcover=Grass.esp"},
		{func() (string, error) { return e.FileLine("fallback-archive", "Sparks.bsa") }, "fallback-archive=Sparks.bsa"},
		{func() (string, error) { return e.FallbackLine("LightAttenuation_UseConstant", "0,5") }, "fallback=LightAttenuation_UseConstant,0,5"},
		{func() (string, error) { return e.CategoryLine("Shaders") }, "[Shaders]"},
		{func() (string, error) { return e.SettingLine("force per pixel lighting", "a = b") }, "force per pixel lighting = a = b"},
		{func() (string, error) { return e.SettingLine("empty", "") }, "empty = "},
		{func() (string, error) { return e.SumLine(sum, "lamp 1.0.zip") }, sum + "  lamp 1.0.zip"},
		{func() (string, error) { return e.Comment("Evil\ncontent=EVIL.esp\u202e") }, `# Evil\u000acontent=EVIL.esp\u202e`},
	} {
		got, err := c.got()
		if err != nil || got != c.want {
			t.Errorf("wrote %q (%v), want %q", got, err, c.want)
		}
	}
}

// TestWriterRefuses gives the writer every kind of value that would add a line or read back
// as another, through every terminator, and wants each refused with the field named.
func TestWriterRefuses(t *testing.T) {
	e := newEngine(t)
	type refusal struct {
		what, field string
		write       func() (string, error)
	}
	var cases []refusal
	for _, term := range terminators {
		evil := "ok.esp" + term + "content=EVIL.esp"
		cases = append(cases,
			refusal{"content", "content_files", func() (string, error) { return e.FileLine("content", evil) }},
			refusal{"groundcover", "groundcover_files", func() (string, error) { return e.FileLine("groundcover", evil) }},
			refusal{"archive", "fallback_archives", func() (string, error) { return e.FileLine("fallback-archive", evil) }},
			refusal{"data directory", "data_directories", func() (string, error) { return e.DataLine("/m", "X-11111111", ".", "a"+term+"data=/etc") }},
			refusal{"component path", "path", func() (string, error) { return e.DataLine("/m", "X-11111111", "a"+term+"b", ".") }},
			refusal{"config path", "path", func() (string, error) { return e.ConfigLine("/m", "X-11111111", "a"+term+"b") }},
			refusal{"root", "root", func() (string, error) { return e.DataLine("/m"+term+"replace=data", "X-11111111", ".", ".") }},
			refusal{"fallback key", "fallback_entries", func() (string, error) { return e.FallbackLine("k"+term+"content=EVIL.esp", "v") }},
			refusal{"fallback value", "fallback_entries", func() (string, error) { return e.FallbackLine("k", "v"+term+"content=EVIL.esp") }},
			refusal{"category", "settings category", func() (string, error) { return e.CategoryLine("A" + term + "[Evil]") }},
			refusal{"setting key", "settings key", func() (string, error) { return e.SettingLine("k"+term+"[Evil]", "v") }},
			refusal{"setting value", "settings value", func() (string, error) { return e.SettingLine("k", "1"+term+"[Evil]") }},
			refusal{"filename", "filename", func() (string, error) { return e.SumLine(sum, "a.zip"+term+sum+"  evil.zip") }},
		)
	}
	for _, x := range []struct{ what, field, root, path, dir string }{
		{"'..' in a component path", "path", "/m", "../../etc", "."},
		{"'..' in a data directory", "data_directories", "/m", ".", "a/../../.."},
		{"an absolute component path", "path", "/m", "/etc", "."},
		{"an absolute data directory", "data_directories", "/m", ".", "/etc"},
		{"a drive letter", "data_directories", "/m", ".", "C:\\Windows"},
		{"a drive with a slash", "path", "/m", "C:/Windows", "."},
		{"a backslash", "path", "/m", "a\\..\\b", "."},
		{"a relative root", "root", "mods", ".", "."},
		{"a drive-relative root", "root", "C:mods", ".", "."},
		{"'..' in the root", "root", "/home/p/../../etc", ".", "."},
		{"a space at the end of a path", "path", "/m", "a ", "."},
		{"a bidi override", "data_directories", "/m", ".", "a\u202eb"},
		{"a NUL", "data_directories", "/m", ".", "a\x00b"},
		{"a tab", "path", "/m", "a\tb", "."},
		{"DEL", "path", "/m", "a\x7fb", "."},
	} {
		cases = append(cases, refusal{x.what, x.field, func() (string, error) { return e.DataLine(x.root, "X-11111111", x.path, x.dir) }})
	}
	for _, x := range []struct{ what, field string }{{"a/b.esp", "content_files"}, {"a\\b.esp", "content_files"}, {"..", "content_files"}, {"", "content_files"}, {" a.esp", "content_files"}} {
		cases = append(cases, refusal{"content " + x.what, x.field, func() (string, error) { return e.FileLine("content", x.what) }})
	}
	cases = append(cases,
		refusal{"a fallback key with a comma", "fallback_entries", func() (string, error) { return e.FallbackLine("a,b", "c") }},
		refusal{"an empty fallback value", "fallback_entries", func() (string, error) { return e.FallbackLine("a", "") }},
		refusal{"a category with ]", "settings category", func() (string, error) { return e.CategoryLine("A]x = y") }},
		refusal{"a key with =", "settings key", func() (string, error) { return e.SettingLine("a = b", "c") }},
		refusal{"a key starting a section", "settings key", func() (string, error) { return e.SettingLine("[Evil]", "c") }},
		refusal{"a key starting a comment", "settings key", func() (string, error) { return e.SettingLine("#x", "c") }},
		refusal{"a short digest", "digests.sha256", func() (string, error) { return e.SumLine("abc", "a.zip") }},
		refusal{"a digest with a line", "digests.sha256", func() (string, error) { return e.SumLine(sum[:63]+"\n", "a.zip") }},
		refusal{"a filename in a folder", "filename", func() (string, error) { return e.SumLine(sum, "../a.zip") }},
	)
	for _, c := range cases {
		got, err := c.write()
		var r *Refusal
		if !errors.As(err, &r) || r.Field != c.field || r.Reason == "" {
			t.Errorf("%s: wrote %q, %v; want a refusal of the %s", c.what, got, err, c.field)
		}
	}
	t.Logf("%d values refused", len(cases))
}

// hostileClaims are the claims of TestPlanRefusesHostileValues, by project id: for each
// injection class and terminator, a claim whose value of that class tries to add a line;
// the expected field of each is in want (none for the names, which only comments hold).
func hostileClaims() (claims map[string]*tclaim, want map[string]string) {
	claims, want = map[string]*tclaim{}, map[string]string{}
	n := 0
	add := func(field string, mod func(c *tclaim, evil string), term string) {
		n++
		c := goodClaim(fmt.Sprintf("Mod%d", n))
		mod(c, "ok"+term+"content=EVIL.esp")
		claims[id(n)] = c
		want[id(n)] = field
	}
	for _, term := range terminators {
		add("content_files", func(c *tclaim, evil string) { c.Components[0].Content = []string{evil} }, term)
		add("data_directories", func(c *tclaim, evil string) { c.Components[0].Data = []string{evil} }, term)
		add("fallback_archives", func(c *tclaim, evil string) { c.Components[0].Archives = []string{evil} }, term)
		add("groundcover_files", func(c *tclaim, evil string) { c.Components[0].Groundcover = []string{evil} }, term)
		add("fallback_entries", func(c *tclaim, evil string) { c.Components[0].Fallback = [][2]string{{evil, "1"}} }, term)
		add("fallback_entries", func(c *tclaim, evil string) { c.Components[0].Fallback = [][2]string{{"k", evil}} }, term)
		add("path", func(c *tclaim, evil string) { c.Components[0].Path = evil }, term)
		add("settings value", func(c *tclaim, evil string) { c.Settings[0].Value = "1" + term + "[Evil]" }, term)
		add("filename", func(c *tclaim, evil string) { c.Artifacts[0].Filename = "a.zip" + term + sum + "  EVIL.zip" }, term)
		// A name's letters are in its folder's name: "evil" there is the name, not a line.
		add("", func(c *tclaim, evil string) {
			evil = strings.ToLower(evil)
			c.Name += evil
			c.SiteName += evil
			c.Release["version"] = evil
		}, term)
	}
	add("path", func(c *tclaim, _ string) { c.Components[0].Path = "../../EVIL" }, "")
	add("data_directories", func(c *tclaim, _ string) { c.Components[0].Data = []string{"/EVIL"} }, "")
	add("content_files", func(c *tclaim, _ string) { c.Components[0].Content = []string{"../EVIL.esp"} }, "")
	return claims, want
}

// TestPlanRefusesHostileValues plans, in one plan with a well-behaved claim, a claim for
// every injection class and terminator, and wants: no line but those the plan meant in any
// of its texts, whatever terminator a reader splits at; each hostile claim's value refused
// with a finding naming the claim, the field and the value (escaped), and the claim writing
// no line and offering the installer nothing to extract; a hostile name only in a comment,
// escaped; and the well-behaved claim planned whole.
func TestPlanRefusesHostileValues(t *testing.T) {
	claims, want := hostileClaims()
	claims[id(999)] = goodClaim("Good")
	var add []string
	for k := range claims {
		add = append(add, k)
	}
	slices.Sort(add)
	p := plan(t, claims, "#add="+strings.Join(add, ",")+"&root=/m")
	var written []string
	for _, ls := range [][]Line{p.CFG, p.Base, p.Settings, p.Sums} {
		for _, l := range ls {
			written = append(written, l.Text)
		}
	}
	for what, text := range map[string]string{"openmw.cfg": p.Text.CFG, "base": p.Text.Base, "settings.cfg": p.Text.Settings, "SHA256SUMS": p.Text.Sums} {
		for _, l := range lines(text) {
			if !strings.HasPrefix(l, "# ") && !slices.Contains(written, l) || strings.Contains(l, "EVIL") && !strings.HasPrefix(l, "# ") ||
				strings.HasPrefix(l, "[Evil") || strings.HasPrefix(strings.ToLower(l), "content=evil") {
				t.Errorf("%s holds the line %q", what, l)
			}
		}
	}
	for _, l := range written {
		if len(lines(l)) != 1 || strings.Contains(l, "EVIL") || strings.Contains(l, "Evil") {
			t.Errorf("the plan writes %q", l)
		}
	}
	byKey := map[string]Claim{}
	for _, c := range p.Claims {
		byKey[c.Key] = c
	}
	for pid, field := range want {
		key := pid + "/s"
		c := byKey[key]
		if field == "" {
			if len(c.Lines) == 0 || len(c.Refused) != 0 {
				t.Errorf("%s (a hostile name) writes %q, refused %v", key, c.Lines, c.Refused)
			}
			continue
		}
		found := slices.ContainsFunc(p.Findings, func(f Finding) bool {
			return f.Kind == "refused" && f.Key == key && f.Field == field && f.Value != "" && f.Reason != "" && len(lines(f.Value)) == 1 && !strings.ContainsAny(f.Value, "\n\r\v\f\u0085\u2028\u2029")
		})
		if !found {
			t.Errorf("%s: no refused finding of its %s: %+v", key, field, p.Findings)
		}
		lineField := field != "settings value" && field != "filename"
		if lineField && (len(c.Lines) != 0 || len(c.Components) != 0 || len(c.Refused) == 0) {
			t.Errorf("%s: refused %s, yet lines %q, components %v", key, field, c.Lines, c.Components)
		}
		if field == "filename" && len(c.Artifacts) != 0 {
			t.Errorf("%s: its refused artifact is offered to the installer: %+v", key, c.Artifacts)
		}
	}
	good := byKey[id(999)+"/s"]
	if !slices.Equal(good.Lines, []string{`data="/m/Good-000003e7"`, "content=Good.esp"}) || len(good.Artifacts) != 1 || len(good.Components) != 1 {
		t.Errorf("the good claim's view: %+v", good)
	}
	if !strings.Contains(p.Text.Settings, "clamp lighting = true") {
		t.Errorf("settings.cfg:\n%s", p.Text.Settings)
	}
}

// TestPlanLinkBounds plans links over every bound: a megabyte root (as raw text and as
// escapes), a root that adds replace=data, too many values and parts, a stray %. Each is
// refused with a finding naming the link's part, and the rest of the link still plans.
func TestPlanLinkBounds(t *testing.T) {
	claims := map[string]*tclaim{id(1): goodClaim("Lamp")}
	many := strings.TrimSuffix(strings.Repeat(id(1)+",", 150), ",")
	for _, c := range []struct {
		name, fragment, field string
	}{
		{"a megabyte root", "#add=" + id(1) + "&root=/" + strings.Repeat("a", 1<<20), "root"},
		{"a megabyte of escapes", "#add=" + id(1) + "&root=" + strings.Repeat("%0A", 1<<18), "root"},
		{"a root adding a line", "#add=" + id(1) + "&root=/m%0Areplace%3Ddata", "root"},
		{"a relative root", "#add=" + id(1) + "&root=replace%3Ddata", "root"},
		{"too many values", "#add=" + many, "add"},
		{"too many parts", "#add=" + id(1) + strings.Repeat("&openmw=1", 40), "link"},
		{"a stray %", "#add=" + id(1) + "&on=%E0%A4%A", "on"},
		{"a megabyte value", "#add=" + id(1) + "," + strings.Repeat("b", 1<<20), "add"},
		{"an unknown part", "#add=" + id(1) + "&replace=data", "replace"},
	} {
		p := plan(t, claims, c.fragment)
		if !slices.ContainsFunc(p.Findings, func(f Finding) bool {
			return (f.Kind == "link" || f.Kind == "refused") && f.Field == c.field && len(f.Value) < 300
		}) {
			t.Errorf("%s: no finding of the link's %s: %+v", c.name, c.field, p.Findings)
		}
		if len(p.Claims) != 1 || len(p.Claims[0].Lines) != 2 || p.Root != "/path/to/your/mods" && c.field == "root" {
			t.Errorf("%s: the plan is %+v under %s", c.name, p.Claims, p.Root)
		}
		for _, l := range lines(p.Text.CFG) {
			if strings.Contains(l, "replace") {
				t.Errorf("%s: openmw.cfg holds %q", c.name, l)
			}
		}
	}
}

// TestPlanBaseAndSettings plans two claims that declare a base game file and ask one setting
// different values: the plan's lines never name a base game file (they are appended to a
// launcher's openmw.cfg that lists them), the base block holds each once, and the setting
// is an ask with no line until the link chooses, then one line with the chosen value.
func TestPlanBaseAndSettings(t *testing.T) {
	a, b := goodClaim("Lamp"), goodClaim("Wick")
	a.Components[0].Content = append(a.Components[0].Content, "morrowind.ESM")
	b.Settings[0].Value = "false"
	claims := map[string]*tclaim{id(1): a, id(2): b}
	p := plan(t, claims, "#add="+id(1)+","+id(2)+"&root=/m")
	for _, l := range p.CFG {
		if strings.Contains(strings.ToLower(l.Text), "morrowind") {
			t.Errorf("the plan's lines hold %q", l.Text)
		}
	}
	if n := strings.Count(p.Text.Base, "content=Morrowind.esm"); n != 1 {
		t.Errorf("the base block names Morrowind.esm %d times:\n%s", n, p.Text.Base)
	}
	if len(p.Asks) != 1 || p.Asks[0].Kind != "setting" || p.Asks[0].Setting != "clamp lighting" || !slices.Equal(p.Asks[0].Values, []string{"true", "false"}) {
		t.Errorf("asks %+v", p.Asks)
	}
	if strings.Contains(p.Text.Settings, "clamp lighting") {
		t.Errorf("a setting not chosen is written:\n%s", p.Text.Settings)
	}
	p = plan(t, claims, "#add="+id(1)+","+id(2)+"&root=/m&set="+id(2)+"%5BShaders%5Dclamp%20lighting")
	if len(p.Asks) != 0 || p.Text.Settings != "[Shaders]\n# Wick 1.0 from Site\nclamp lighting = false\n" {
		t.Errorf("after the choice, asks %+v and settings.cfg\n%s", p.Asks, p.Text.Settings)
	}
	p = plan(t, claims, "#add="+id(1)+"&root=/m&base=0")
	if len(p.Base) != 0 || p.Text.Base != "" {
		t.Errorf("without the base game, a base block:\n%s", p.Text.Base)
	}
}

// TestInterrupted runs a script that never ends and wants ErrTimeout at the bound, and every
// later call refused.
func TestInterrupted(t *testing.T) {
	e, err := New(Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.rt.RunString("host.spin = function () { for (;;) {} };"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := e.call("spin"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("a script that never ends: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("interrupted after %v", d)
	}
	if _, err := e.ParseFragment("#add=x"); !errors.Is(err, ErrTimeout) {
		t.Errorf("a call after the timeout: %v", err)
	}
}

// TestParts reads a plan's parts round by round: the added project's, then those of the
// claims it requires; a part under another name, or not as the site writes it, is refused.
func TestParts(t *testing.T) {
	e, err := New(Options{Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	lamp, wick := goodClaim("Lamp"), goodClaim("Wick")
	lampID, wickID := "a"+id(1)[1:], "b"+id(2)[1:]
	lamp.Relationships = []any{map[string]any{"kind": "requires", "project": wickID, "targets": []string{wickID + "/s"}}}
	r, _ := e.ParseFragment("#add=" + lampID)
	names, err := e.Parts(r)
	if err != nil || !slices.Equal(names, []string{"ca"}) {
		t.Fatalf("first round: %v %v", names, err)
	}
	pa := part(t, e, "ca", map[string]any{lampID + "/s": lamp})
	if err := e.AddPart("cb", pa); err == nil {
		t.Error("a part added under another name")
	}
	for _, bad := range [][]byte{[]byte("alert(1)"), append([]byte("x"), pa...), pa[:len(pa)-4], []byte(`AshyamsData('ca','{"claims":{}}\u0027);`)} {
		if err := e.AddPart("ca", bad); err == nil {
			t.Errorf("the part %.40q was added", bad)
		}
	}
	if err := e.AddPart("ca", pa); err != nil {
		t.Fatal(err)
	}
	if names, err = e.Parts(r); err != nil || !slices.Equal(names, []string{"cb"}) {
		t.Fatalf("second round: %v %v", names, err)
	}
	if err := e.AddPart("cb", part(t, e, "cb", map[string]any{wickID + "/s": wick})); err != nil {
		t.Fatal(err)
	}
	if names, err = e.Parts(r); err != nil || len(names) != 0 {
		t.Fatalf("third round: %v %v", names, err)
	}
	p, err := e.Compute(r)
	if err != nil || len(p.Claims) != 2 || p.Claims[0].Key != wickID+"/s" {
		t.Fatalf("the plan: %+v %v", p, err)
	}
	if f, err := e.Fragment(r); err != nil || f != "#add="+lampID {
		t.Errorf("the fragment: %q %v", f, err)
	}
}

// TestPageShards reads the plan page's shards, and refuses a page without them.
func TestPageShards(t *testing.T) {
	n, err := PageShards([]byte(`<!doctype html><p>x<script type=application/json id=plan-data>{"claims":44,"shards":{"claims":2,"names":0}}</script>`))
	if err != nil || n != 2 {
		t.Errorf("got %d, %v", n, err)
	}
	for _, page := range []string{"<p>no data</p>", `<script id=plan-data>{"claims":1}</script>`, `<script id=plan-data>{"shards":{"claims":99}}</script>`} {
		if _, err := PageShards([]byte(page)); err == nil {
			t.Errorf("%s: no error", page)
		}
	}
}

// TestPlanTooOld plans a Lua script and a config= folder for OpenMW 0.47, which stops at the
// first and ignores the second, and for 0.48, which reads both: only 0.47's plan says so.
func TestPlanTooOld(t *testing.T) {
	c := goodClaim("Lamp")
	c.Components[0].Content = []string{"Lamp.omwscripts", "Lamp.esp"}
	c.Components[0].Config = true
	claims := map[string]*tclaim{id(1): c}
	for v, want := range map[string][]string{"0.47.0": {`config="/m/Lamp-00000001"`, "content=Lamp.omwscripts"}, "0.48": nil, "": nil} {
		p := plan(t, claims, "#add="+id(1)+"&root=/m&openmw="+v)
		var got []string
		for _, f := range p.Findings {
			if f.Kind == "too-old" {
				var x struct{ Line string }
				if err := json.Unmarshal(f.Raw, &x); err != nil || f.Key != id(1)+"/s" {
					t.Fatalf("%s: %s", v, f.Raw)
				}
				got = append(got, x.Line)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || len(p.Claims[0].Lines) != 4 {
			t.Errorf("OpenMW %q: too old for %q, want %q; lines %q", v, got, want, p.Claims[0].Lines)
		}
	}
}
