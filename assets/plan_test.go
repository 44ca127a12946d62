package assets

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The plan page's data (site/plan.go's planDoc), as the tests write it.
type tDoc struct {
	Projects     map[string][]string `json:"projects"`
	Capabilities map[string][]string `json:"capabilities"`
	Claims       map[string]*tClaim  `json:"claims"`
}

type tClaim struct {
	Project         string     `json:"project"`
	Site            string     `json:"site"`
	SiteName        string     `json:"site_name"`
	Name            string     `json:"name"`
	Page            string     `json:"page"`
	Health          string     `json:"health"`
	Stale           bool       `json:"stale"`
	Scheme          string     `json:"scheme"`
	Release         tRelease   `json:"release"`
	OpenMW          string     `json:"openmw"`
	LuaAPI          string     `json:"lua_api"`
	Provides        []string   `json:"provides"`
	Relationships   []tRel     `json:"relationships"`
	Installs        bool       `json:"installs"`
	RequiresContent []string   `json:"requires_content"`
	Settings        []tSetting `json:"settings"`
	Components      []*tComp   `json:"components"`
	Groups          []tGroup   `json:"groups"`
	Artifacts       []tArt     `json:"artifacts"`
}

type tRelease struct {
	Version string `json:"version"`
	Channel string `json:"channel"`
	Current bool   `json:"current"`
	Status  string `json:"status"`
}

type tRel struct {
	Kind       string   `json:"kind"`
	Project    string   `json:"project,omitempty"`
	Capability string   `json:"capability,omitempty"`
	Name       string   `json:"name,omitempty"`
	Version    string   `json:"version,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Targets    []string `json:"targets"`
}

type tSetting struct {
	Category string `json:"category"`
	Key      string `json:"key"`
	Value    string `json:"value"`
}

type tGroup struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Select string `json:"select"`
}

type tComp struct {
	ID              string      `json:"id"`
	Name            string      `json:"name"`
	Path            string      `json:"path"`
	Required        bool        `json:"required"`
	Default         bool        `json:"default"`
	Group           string      `json:"group,omitempty"`
	Requires        []string    `json:"requires"`
	Conflicts       []string    `json:"conflicts"`
	SuggestedWith   []string    `json:"suggested_with"`
	Data            []string    `json:"data"`
	Content         []string    `json:"content"`
	Groundcover     []string    `json:"groundcover"`
	Archives        []string    `json:"archives"`
	Fallback        [][2]string `json:"fallback"`
	Config          bool        `json:"config"`
	RequiresContent []string    `json:"requires_content"`
}

type tArt struct {
	ID       string     `json:"id"`
	Format   string     `json:"format"`
	Filename string     `json:"filename"`
	Size     int64      `json:"size"`
	SHA256   string     `json:"sha256"`
	Sources  []tSource  `json:"sources"`
	Platform *tPlatform `json:"platform,omitempty"`
}

type tSource struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
}

type tPlatform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

func newDoc() *tDoc {
	return &tDoc{Projects: map[string][]string{}, Capabilities: map[string][]string{}, Claims: map[string]*tClaim{}}
}

// comp is a component with nothing declared but its id and one data directory.
func comp(id string) *tComp {
	return &tComp{ID: id, Name: "Component " + id, Path: id, Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{},
		Data: []string{"."}, Content: []string{}, Groundcover: []string{}, Archives: []string{}, Fallback: [][2]string{}, RequiresContent: []string{}}
}

// claim adds a claim of project p on site s, with one required component declaring files.
func (d *tDoc) claim(p, s, version string, files ...string) *tClaim {
	c0 := comp("main")
	c0.Required, c0.Default, c0.Path, c0.Content = true, true, ".", append([]string{}, files...)
	c := &tClaim{Project: p, Site: s, SiteName: "Site " + s, Name: "Project " + p, Page: "projects/" + p + "/" + s + "/", Health: "current",
		Scheme: "numeric", Release: tRelease{Version: version, Channel: "stable", Current: true, Status: "available"},
		Provides: []string{}, Relationships: []tRel{}, Installs: true, RequiresContent: []string{}, Settings: []tSetting{},
		Components: []*tComp{c0}, Groups: []tGroup{},
		Artifacts: []tArt{{ID: "zip", Format: "flat", Filename: p + ".zip", Size: 1000, SHA256: strings.Repeat("ab", 32),
			Sources: []tSource{{URL: "https://" + s + ".example/" + p + ".zip", Kind: "publisher"}}}}}
	k := p + "/" + s
	d.Claims[k] = c
	d.Projects[p] = append(d.Projects[p], k)
	slices.Sort(d.Projects[p])
	return c
}

// requires makes c require project p (every claim of it) with constraint v.
func (d *tDoc) requires(c *tClaim, p, v string) {
	c.Relationships = append(c.Relationships, tRel{Kind: "requires", Project: p, Version: v, Targets: append([]string{}, d.Projects[p]...)})
}

// planResult is run.js's plan.compute answer.
type planResult struct {
	Entries []struct {
		Key   string   `json:"key"`
		Sel   []string `json:"sel"`
		Valid bool     `json:"valid"`
		By    string   `json:"by"`
		Deps  []string `json:"deps"`
	} `json:"entries"`
	Findings []struct {
		Kind   string `json:"kind"`
		Key    string `json:"key"`
		Other  string `json:"other"`
		Field  string `json:"field"`
		Reason string `json:"reason"`
		Text   string `json:"text"`
	} `json:"findings"`
	Asks []struct {
		Kind    string   `json:"kind"`
		By      string   `json:"by"`
		Options []string `json:"options"`
		Values  []string `json:"values"`
		Setting string   `json:"setting"`
	} `json:"asks"`
	CFG      []string `json:"cfg"`
	Base     []string `json:"base"`
	Settings []string `json:"settings"`
	Sums     []string `json:"sums"`
	Text     string   `json:"text"`
	BaseText string   `json:"baseText"`
	SetText  string   `json:"settingsText"`
	SumsText string   `json:"sumsText"`
	Fragment string   `json:"fragment"`
}

func (r *planResult) has(kind, key string) bool {
	for _, f := range r.Findings {
		if f.Kind == kind && (key == "" || f.Key == key) {
			return true
		}
	}
	return false
}

func (r *planResult) entry(key string) int {
	for i, e := range r.Entries {
		if e.Key == key {
			return i
		}
	}
	return -1
}

func runPlans(t *testing.T, doc *tDoc, hashes ...string) []planResult {
	t.Helper()
	var cases []nodeCase
	for _, h := range hashes {
		cases = append(cases, nodeCase{"plan.compute", []any{doc, h}})
	}
	got := runNode(t, cases)
	out := make([]planResult, len(got))
	for i, g := range got {
		if err := json.Unmarshal(g, &out[i]); err != nil {
			t.Fatalf("%s: %v", hashes[i], err)
		}
	}
	return out
}

// validSelection is the protocol's rule, written again here so the test does not trust
// plan.js's own: every required component, every group's count, requires present, conflicts
// absent.
func validSelection(c *tClaim, sel []string) error {
	in := map[string]bool{}
	for _, s := range sel {
		in[s] = true
	}
	counts := map[string]int{}
	for _, comp := range c.Components {
		if comp.Required && !in[comp.ID] {
			return fmt.Errorf("required %s left out", comp.ID)
		}
		if in[comp.ID] {
			counts[comp.Group]++
			for _, r := range comp.Requires {
				if !in[r] {
					return fmt.Errorf("%s selected without %s, which it requires", comp.ID, r)
				}
			}
			for _, x := range comp.Conflicts {
				if in[x] {
					return fmt.Errorf("%s selected with %s, which it conflicts with", comp.ID, x)
				}
			}
		}
	}
	for _, g := range c.Groups {
		n := counts[g.ID]
		if g.Select == "exactly-one" && n != 1 || g.Select == "at-most-one" && n > 1 || g.Select == "at-least-one" && n < 1 {
			return fmt.Errorf("group %s (%s) has %d selected", g.ID, g.Select, n)
		}
	}
	return nil
}

// synthetic is the planner's synthetic network as the build writes the plan page's data
// (site/plan_synth_test.go writes it as a state, builds it and keeps the data here, its ids
// relabeled: "lamp/a" is Lamp's claim on the first site):
//   - lamp: components of every group kind (flames exactly-one, extras at-most-one, looks
//     at-least-one, addons any), component requires and conflicts (glow requires spark and
//     conflicts with shade), release- and component-level requires_content, groundcover,
//     fallback archives and entries, config, a setting, and suggested_with trm;
//   - a requirement chain three deep (lamp -> wick -> wax -> tallow), the wick constraint
//     >=2.0 unsatisfiable (wick is 1.0.0);
//   - a capability two claims provide (light-source: torch and brazier), lamp requires it;
//   - an identity conflict (dup, on sites a and b), lamp requires it;
//   - a cycle (cyc1 <-> cyc2); a conflict (lamp conflicts with rival); runtimes
//     openmw >=0.49 and lua_api >=60 on lamp.
func synthetic(t *testing.T) *tDoc {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "plan-synthetic.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := newDoc()
	if err := json.Unmarshal(raw, d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPlanSynthetic plans the synthetic network and wants every declared fact in the plan
// or as a finding, and the player asked wherever two claims could fill one need.
func TestPlanSynthetic(t *testing.T) {
	d := synthetic(t)
	plans := runPlans(t, d,
		"#add=lamp&openmw=0.48&lua=50&root=/m",
		"#add=lamp,torch@a,dup@b,rival,trm&openmw=0.49&lua=60&root=/m&on=lamp:glow,lamp:grass,lamp:cold",
		"#add=cyc1",
		"#add=lamp,torch@a,dup@b&on=lamp:glow,lamp:shade&root=/m",
		"#add=lamp,torch@a,dup@b&base=0&off=lamp:warm&root=/m",
	)
	p := plans[0]
	// The chain, three deep, each with why.
	for _, k := range []string{"lamp/a", "wick/a", "wax/a", "tallow/a"} {
		if p.entry(k) < 0 {
			t.Errorf("plan 0 lacks %s: %+v", k, p.Entries)
		}
	}
	if p.entry("tallow/a") > p.entry("wax/a") || p.entry("wax/a") > p.entry("wick/a") || p.entry("wick/a") > p.entry("lamp/a") {
		t.Errorf("plan 0 is not in dependency order: %+v", p.Entries)
	}
	if i := p.entry("wax/a"); i < 0 || p.Entries[i].By != "wick/a" {
		t.Errorf("wax is not said to be required by wick: %+v", p.Entries)
	}
	for _, want := range []struct{ kind, key string }{
		{"version", "lamp/a"}, {"missing", "lamp/a"}, {"runtime", "lamp/a"}, {"lua", "lamp/a"},
	} {
		if !p.has(want.kind, want.key) {
			t.Errorf("plan 0 has no %s finding for %s: %+v", want.kind, want.key, p.Findings)
		}
	}
	asks := map[string]int{}
	for _, a := range p.Asks {
		asks[a.Kind] = len(a.Options)
	}
	if asks["capability"] != 2 || asks["identity"] != 2 || p.entry("torch/a") >= 0 || p.entry("brazier/a") >= 0 || p.entry("dup/a") >= 0 || p.entry("dup/b") >= 0 {
		t.Errorf("plan 0 chose for the player: asks %v, entries %+v", asks, p.Entries)
	}
	if got := p.Entries[p.entry("lamp/a")].Sel; !slices.Equal(got, []string{"flame-2k", "main", "warm"}) {
		t.Errorf("lamp's offered selection is %v", got)
	}

	// The player chose; every line kind appears, traced to its claim.
	p = plans[1]
	if len(p.Asks) != 0 || p.entry("torch/a") < 0 || p.entry("dup/b") < 0 {
		t.Errorf("plan 1 still asks %+v", p.Asks)
	}
	if !p.has("conflict", "lamp/a") || p.has("runtime", "") || p.has("lua", "") {
		t.Errorf("plan 1 findings: %+v", p.Findings)
	}
	sel := p.Entries[p.entry("lamp/a")].Sel
	if !slices.Equal(sel, []string{"cold", "flame-2k", "glow", "grass", "main", "spark", "tr", "warm"}) {
		t.Errorf("plan 1 selects %v (glow pulls in spark; tr suggested with trm)", sel)
	}
	for _, want := range []string{
		`data="/m/Project-lamp-lamp" @lamp/a`, `data="/m/Project-lamp-lamp/spark" @lamp/a`, `data="/m/Project-lamp-lamp/grass" @lamp/a`,
		"fallback-archive=Lamp Sparks.bsa @lamp/a", "content=Lamp.esp @lamp/a", "content=Lamp Extra.esp @lamp/a", "content=Cold.esp @lamp/a", "content=Glow.esp @lamp/a", "content=Lamp - TR.esp @lamp/a",
		"groundcover=Lamp Grass.esp @lamp/a", "fallback=LightAttenuation_UseConstant,0 @lamp/a", `config="/m/Project-lamp-lamp/grass" @lamp/a`,
	} {
		if !slices.Contains(p.CFG, want) && !slices.Contains(p.CFG, "!"+want) {
			t.Errorf("plan 1's openmw.cfg lacks %q:\n%s", want, strings.Join(p.CFG, "\n"))
		}
	}
	// The base game's lines are a block of their own, and the plan's lines never repeat them.
	if want := []string{"fallback-archive=Morrowind.bsa @base", "fallback-archive=Tribunal.bsa @base", "fallback-archive=Bloodmoon.bsa @base",
		"content=Morrowind.esm @base", "content=Tribunal.esm @base", "content=Bloodmoon.esm @base"}; !slices.Equal(p.Base, want) {
		t.Errorf("plan 1's base game block is %q", p.Base)
	}
	for _, l := range p.CFG {
		if strings.HasSuffix(l, "@base") || strings.Contains(strings.ToLower(l), "morrowind.") {
			t.Errorf("plan 1's own lines hold %s", l)
		}
	}
	all := append(append([]string{}, p.Base...), p.CFG...)
	at := func(file string) int {
		for i, l := range all {
			if strings.HasPrefix(strings.TrimPrefix(l, "!"), "content="+file+" @") {
				return i
			}
		}
		t.Fatalf("no content=%s", file)
		return -1
	}
	for _, o := range [][2]string{{"Morrowind.esm", "Lamp.esp"}, {"Tallow.esp", "Wax.esp"}, {"Lamp.esp", "Glow.esp"}, {"TR_Mainland.esm", "Lamp - TR.esp"}, {"Wick.esp", "Lamp.esp"}} {
		if at(o[0]) > at(o[1]) {
			t.Errorf("content=%s is after content=%s", o[0], o[1])
		}
	}
	if !slices.Contains(p.Settings, "force per pixel lighting = true @lamp/a") {
		t.Errorf("plan 1's settings: %v", p.Settings)
	}
	if len(p.Sums) != len(p.Entries) {
		t.Errorf("plan 1 lists %d digests for %d entries", len(p.Sums), len(p.Entries))
	}
	// Lines no declaration orders are marked: Torch.esp and Dup.esp are nobody's requirement.
	undeclared := 0
	for _, l := range p.CFG {
		if strings.HasPrefix(l, "!") {
			undeclared++
		}
	}
	if undeclared == 0 {
		t.Errorf("no line is marked undeclared:\n%s", strings.Join(p.CFG, "\n"))
	}

	if !plans[2].has("cycle", "") || plans[2].entry("cyc2/a") < 0 {
		t.Errorf("the cycle: %+v", plans[2])
	}
	// glow conflicts with shade: asking for both is refused, not produced.
	p = plans[3]
	if err := validSelection(d.Claims["lamp/a"], p.Entries[p.entry("lamp/a")].Sel); err != nil {
		t.Errorf("plan 3's selection is invalid: %v", err)
	}
	if !p.has("selection-refused", "lamp/a") {
		t.Errorf("plan 3 does not say the link's selection was refused: %+v", p.Findings)
	}
	// warm is the only selected "looks": turning it off is refused (at-least-one); without
	// the base game, the need for Morrowind.esm is a finding.
	p = plans[4]
	if !slices.Contains(p.Entries[p.entry("lamp/a")].Sel, "warm") || !p.has("selection-refused", "lamp/a") || !p.has("needs-base", "lamp/a") {
		t.Errorf("plan 4: %+v", p)
	}
	for _, l := range append(p.CFG, p.Base...) {
		if strings.HasSuffix(l, "@base") {
			t.Errorf("plan 4 without the base game writes %s", l)
		}
	}
}

// randomDoc makes a network of n projects: project i requires some of the projects before it
// (and, now and then, one after it: a cycle), with random components, groups of every kind,
// component requires and conflicts, and requires_content naming files of the projects it
// requires or of its own earlier components.
func randomDoc(r *rand.Rand, n int) *tDoc {
	d := newDoc()
	kinds := []string{"exactly-one", "at-most-one", "at-least-one", "any"}
	files := make([][]string, n)
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("p%d", i)
		c := d.claim(p, "s", "1.0")
		c.Components[0].Content = []string{fmt.Sprintf("P%d.esp", i)}
		files[i] = append(files[i], c.Components[0].Content...)
		for g := 0; g < r.IntN(3); g++ {
			c.Groups = append(c.Groups, tGroup{ID: fmt.Sprintf("g%d", g), Name: "Group", Select: kinds[r.IntN(len(kinds))]})
		}
		for k := 0; k < r.IntN(5); k++ {
			cp := comp(fmt.Sprintf("c%d", k))
			cp.Default = r.IntN(2) == 0
			if len(c.Groups) > 0 && r.IntN(3) > 0 {
				cp.Group = c.Groups[r.IntN(len(c.Groups))].ID
			}
			if k > 0 && r.IntN(4) == 0 {
				cp.Requires = []string{fmt.Sprintf("c%d", r.IntN(k))}
			}
			if k > 0 && r.IntN(5) == 0 {
				cp.Conflicts = []string{fmt.Sprintf("c%d", r.IntN(k))}
			}
			for f := 0; f < r.IntN(3); f++ {
				name := fmt.Sprintf("P%d-%d-%d.esp", i, k, f)
				cp.Content = append(cp.Content, name)
				if r.IntN(3) == 0 && len(files[i]) > 0 {
					cp.RequiresContent = append(cp.RequiresContent, files[i][r.IntN(len(files[i]))])
				}
			}
			files[i] = append(files[i], cp.Content...)
			c.Components = append(c.Components, cp)
		}
		for j := 0; j < i; j++ {
			if r.IntN(4) == 0 {
				d.requires(c, fmt.Sprintf("p%d", j), "")
				if r.IntN(2) == 0 {
					c.RequiresContent = append(c.RequiresContent, files[j][r.IntN(len(files[j]))])
				}
			}
		}
	}
	if n > 2 && r.IntN(5) == 0 {
		a := r.IntN(n - 1)
		d.requires(d.Claims[fmt.Sprintf("p%d/s", a)], fmt.Sprintf("p%d", a+1+r.IntN(n-a-1)), "")
	}
	return d
}

// TestPlanProperties plans random networks and checks, without trusting plan.js: every entry's
// selection is valid by the protocol's rule or the entry is a finding and writes no line;
// every toggle the page could offer gives a valid selection or none; the content order is a
// topological order of the declarations (a component's files in order, each requires_content
// before the files needing it, a required project's files before its dependants') unless a
// cycle is reported; every single-candidate requirement is in the plan; the same link plans
// the same, and its fragment reads back to itself.
func TestPlanProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 7))
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	docs := make([]*tDoc, rounds)
	hashes := make([]string, rounds)
	var cases []nodeCase
	for round := range docs {
		n := 2 + r.IntN(10)
		docs[round] = randomDoc(r, n)
		var add []string
		for i := 0; i < n; i++ {
			if r.IntN(3) == 0 || len(add) == 0 && i == n-1 {
				add = append(add, fmt.Sprintf("p%d", i))
			}
		}
		hashes[round] = "#add=" + strings.Join(add, ",")
		cases = append(cases, nodeCase{"plan.compute", []any{docs[round], hashes[round]}},
			nodeCase{"plan.compute", []any{docs[round], hashes[round]}}, nodeCase{"plan.toggles", []any{docs[round], hashes[round]}})
	}
	got := runNode(t, cases)
	totalChecked, cycles, invalid := 0, 0, 0
	defer func() {
		t.Logf("%d networks: %d content files' places checked, %d with a cycle, %d entries without a valid selection", rounds, totalChecked, cycles, invalid)
		if totalChecked < rounds {
			t.Errorf("only %d content files' places were checked in %d networks: the test proves little", totalChecked, rounds)
		}
	}()
	for round, d := range docs {
		hash := hashes[round]
		if string(got[3*round]) != string(got[3*round+1]) {
			t.Fatalf("round %d: one link planned twice differs", round)
		}
		var p planResult
		if err := json.Unmarshal(got[3*round], &p); err != nil {
			t.Fatal(err)
		}
		if p.Fragment != hash {
			t.Errorf("round %d: fragment %q reads back as %q", round, hash, p.Fragment)
		}
		cycle := p.has("cycle", "") || p.has("content-cycle", "")
		// Each line once; each claim's comment before one run of its lines in the plan's
		// order (data, archives, ...) and one more for each run of its content files the
		// content order parts from it (another claim's files between its own).
		runs, lastOwner := map[string]int{}, ""
		for _, l := range p.CFG {
			if f, ok := strings.CutPrefix(strings.TrimPrefix(l, "!"), "content="); ok {
				if o := f[strings.LastIndex(f, " @")+2:]; o != lastOwner {
					runs[o]++
					lastOwner = o
				}
			}
		}
		headers := map[string]int{}
		for _, l := range strings.Split(p.Text, "\n") {
			if o, ok := strings.CutPrefix(l, "# "); ok && !strings.HasPrefix(o, "(") {
				headers[o]++
			}
		}
		for o, n := range headers {
			if n > 1+runs[o] {
				t.Errorf("round %d: the comment for %s is written %d times, its content in %d runs:\n%s", round, o, n, runs[o], p.Text)
			}
		}
		for _, l := range linesTwice(p.Text) {
			if !strings.HasPrefix(l, "# ") {
				t.Errorf("round %d: %q is written twice:\n%s", round, l, p.Text)
			}
		}
		pos := map[string]int{}
		for i, l := range p.CFG {
			l = strings.TrimPrefix(l, "!")
			if f, ok := strings.CutPrefix(l, "content="); ok {
				pos[f[:strings.LastIndex(f, " @")]] = i
			}
		}
		owner := map[string]string{}
		for k, c := range d.Claims {
			for _, comp := range c.Components {
				for _, f := range comp.Content {
					owner[f] = k
				}
			}
		}
		checked := 0
		for _, e := range p.Entries {
			c := d.Claims[e.Key]
			if err := validSelection(c, e.Sel); err != nil {
				invalid++
				if any := anyValid(c); any != nil {
					t.Errorf("round %d: %s: no valid selection found, and %v is one", round, e.Key, any)
				}
				if e.Valid || !p.has("no-valid-selection", e.Key) {
					t.Errorf("round %d: %s: invalid selection %v not reported: %v", round, e.Key, e.Sel, err)
				}
				for _, l := range p.CFG {
					if strings.HasSuffix(l, " @"+e.Key) {
						t.Errorf("round %d: %s has an invalid selection and still writes %s", round, e.Key, l)
					}
				}
				continue
			}
			for _, rel := range c.Relationships {
				if len(rel.Targets) == 1 && p.entry(rel.Targets[0]) < 0 {
					t.Errorf("round %d: %s requires %s, which is not in the plan", round, e.Key, rel.Targets[0])
				}
			}
			if cycle {
				continue
			}
			sel := map[string]bool{}
			for _, s := range e.Sel {
				sel[s] = true
			}
			for _, comp := range c.Components {
				if !sel[comp.ID] {
					continue
				}
				for i, f := range comp.Content {
					checked++
					if i > 0 && pos[comp.Content[i-1]] > pos[f] {
						t.Errorf("round %d: %s before %s, against its component's order", round, f, comp.Content[i-1])
					}
					for _, need := range append(append([]string{}, c.RequiresContent...), comp.RequiresContent...) {
						if at, ok := pos[need]; ok && at > pos[f] {
							t.Errorf("round %d: %s needs %s, loaded after it", round, f, need)
						}
					}
					for file, at := range pos {
						if slices.Contains(e.Deps, owner[file]) && at > pos[f] {
							t.Errorf("round %d: %s (of %s) loads after %s, whose project requires it", round, file, owner[file], f)
						}
					}
				}
			}
		}
		totalChecked += checked
		if cycle {
			cycles++
		}
		var toggles [][]json.RawMessage
		if err := json.Unmarshal(got[3*round+2], &toggles); err != nil {
			t.Fatal(err)
		}
		for _, tg := range toggles {
			var key string
			var sel []string
			if string(tg[3]) == "null" {
				continue
			}
			if json.Unmarshal(tg[0], &key) != nil || json.Unmarshal(tg[3], &sel) != nil {
				t.Fatalf("round %d: toggle %s", round, tg)
			}
			if err := validSelection(d.Claims[key], sel); err != nil {
				t.Errorf("round %d: toggling %s %s in %s gives an invalid selection %v: %v", round, tg[1], tg[2], key, sel, err)
			}
		}
	}
}

// anyValid returns a valid selection of c's components, trying every one, or nil.
func anyValid(c *tClaim) []string {
	n := len(c.Components)
	for m := 0; m < 1<<n; m++ {
		var sel []string
		for i, comp := range c.Components {
			if m&(1<<i) != 0 {
				sel = append(sel, comp.ID)
			}
		}
		if validSelection(c, sel) == nil {
			return sel
		}
	}
	return nil
}

// linesTwice returns the lines text writes more than once.
func linesTwice(text string) []string {
	seen, twice := map[string]bool{}, []string(nil)
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if seen[l] && !slices.Contains(twice, l) {
			twice = append(twice, l)
		}
		seen[l] = true
	}
	return twice
}

// TestPlanLinesOnce plans what once wrote a comment or a line twice: Candlelight's shape on
// the corpus (the base game's archives and content, then a required project's and the added
// project's data and content: "# The base game's own files" came before each key's run),
// one directory from two components, an archive two claims ship, a base game file a claim
// declares, one setting asked twice and two settings of one claim, one download twice. Each
// comment and each line is written once, and what was dropped is a finding where two
// claims declared it.
func TestPlanLinesOnce(t *testing.T) {
	d := newDoc()
	tallow := d.claim("tallow", "a", "1.0.0", "Tallow.omwscripts")
	tallow.Components[0].Archives = []string{"Shared.bsa"}
	candle := d.claim("candle", "a", "1.1.0", "Candlelight.omwscripts", "morrowind.ESM")
	d.requires(candle, "tallow", "")
	flames := comp("flames")
	flames.Default, flames.Path, flames.Data = true, ".", []string{".", "Flames"}
	flames.Archives = []string{"shared.bsa", "Candle.bsa"}
	candle.Components = append(candle.Components, flames)
	candle.Settings = []tSetting{{"Shaders", "force per pixel lighting", "true"}, {"Shaders", "clamp lighting", "true"}}
	tallow.Settings = []tSetting{{"Shaders", "force per pixel lighting", "true"}}
	candle.Artifacts = append(candle.Artifacts, candle.Artifacts[0])
	p := runPlans(t, d, "#add=candle&root=/m")[0]
	for what, text := range map[string]string{"openmw.cfg": p.Text, "settings.cfg": p.SetText, "SHA256SUMS": p.SumsText} {
		if twice := linesTwice(text); twice != nil {
			t.Errorf("%s writes %q twice:\n%s", what, twice, text)
		}
	}
	if want := strings.Join([]string{
		"# The base game's own files",
		"fallback-archive=Morrowind.bsa", "fallback-archive=Tribunal.bsa", "fallback-archive=Bloodmoon.bsa",
		"content=Morrowind.esm", "content=Tribunal.esm", "content=Bloodmoon.esm", "",
	}, "\n"); p.BaseText != want {
		t.Errorf("the base game's block is\n%s\nwant\n%s", p.BaseText, want)
	}
	want := strings.Join([]string{
		"# tallow/a",
		`data="/m/Project-tallow-tallow"`, "fallback-archive=Shared.bsa", "content=Tallow.omwscripts",
		"# candle/a",
		`data="/m/Project-candle-candle"`, `data="/m/Project-candle-candle/Flames"`, "fallback-archive=Candle.bsa",
		"content=Candlelight.omwscripts", "",
	}, "\n")
	if p.Text != want {
		t.Errorf("openmw.cfg is\n%s\nwant\n%s", p.Text, want)
	}
	if !p.has("same-file", "tallow/a") || !p.has("base-file", "candle/a") {
		t.Errorf("the dropped lines are not findings: %+v", p.Findings)
	}
	if want := "[Shaders]\n# tallow/a\nforce per pixel lighting = true\n# candle/a\nclamp lighting = true\n"; p.SetText != want {
		t.Errorf("settings.cfg is\n%s\nwant\n%s", p.SetText, want)
	}
}
