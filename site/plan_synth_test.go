package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// planSynth is the planner's synthetic network written as a state: every fact the protocol's
// installation page declares, published by two sites, so the plan page is tested on what a
// build makes of it. Short names stand for the ids: id["lamp"] is Lamp's project id,
// site["a"] the first site's id.
type planSynth struct {
	state string
	id    map[string]string
	site  map[string]string
}

// synComp is one component of a synthetic release and what its openmw extension declares.
type synComp struct {
	id, group, path                      string
	required, def, config                bool
	data, content, groundcover, archives []string
	requiresContent, requires, conflicts []string
	suggested                            []string // short names of projects
	fallback                             map[string]string
}

// newPlanSynth writes the synthetic network at root:
//   - lamp: components of every group kind (flames exactly-one, extras at-most-one, looks
//     at-least-one, addons any), component requires and conflicts (glow requires spark and
//     conflicts with shade), release- and component-level requires_content, groundcover,
//     fallback archives and entries, config, a setting, and tr suggested with trm;
//   - a requirement chain three deep (lamp -> wick -> wax -> tallow), lamp's constraint on
//     wick >=2.0 unsatisfiable (wick is 1.0.0);
//   - a capability two claims provide (light-source: torch and brazier), which lamp requires;
//   - an identity conflict (dup, published by sites a and b), which lamp requires;
//   - a project nobody publishes, which lamp requires;
//   - a cycle (cyc1 <-> cyc2); a conflict (lamp conflicts with rival); lamp's runtimes
//     openmw >=0.49 and lua_api >=60.
func newPlanSynth(tb testing.TB, root string) *planSynth {
	tb.Helper()
	f := statetest.In(tb, root)
	p := &planSynth{state: root, id: map[string]string{}, site: map[string]string{}}
	for _, s := range []string{"a", "b"} {
		p.site[s] = f.Site("https://"+s+".plan.example/dreamweave.json", "Site "+s)
	}
	names := []string{"tallow", "wax", "wick", "trm", "dup", "torch", "brazier", "rival", "cyc1", "cyc2", "lamp", "nowhere"}
	for i, n := range names {
		p.id[n] = fmt.Sprintf("%08x-0000-4000-8000-%012x", 0x51a70000+i, i)
	}
	req := func(n, v string) protocol.Relationship {
		return protocol.Relationship{Kind: protocol.KindRequires, Project: p.id[n], Version: v}
	}
	write := func(n, site string, comps []synComp, groups []protocol.Group, mod func(r *protocol.Release, ext map[string]any)) {
		m := sampleManifest(p.id[n], "Project "+n, 1)
		r := &m.Releases[0]
		r.Artifacts[0].Filename = n + ".zip"
		ext := map[string]any{"requires_content": []string{}, "settings": []any{}}
		oc := map[string]any{}
		r.Components = nil
		for _, c := range comps {
			var sugg []string
			for _, s := range c.suggested {
				sugg = append(sugg, p.id[s])
			}
			r.Components = append(r.Components, protocol.Component{ID: c.id, Name: "Component " + c.id, Path: c.path, Required: c.required,
				Default: c.def, Group: c.group, Requires: nonNil(c.requires), Conflicts: nonNil(c.conflicts), SuggestedWith: nonNil(sugg)})
			fb := c.fallback
			if fb == nil {
				fb = map[string]string{}
			}
			oc[c.id] = map[string]any{"data_directories": nonNil(c.data), "content_files": nonNil(c.content), "groundcover_files": nonNil(c.groundcover),
				"fallback_archives": nonNil(c.archives), "fallback_entries": fb, "config": c.config, "requires_content": nonNil(c.requiresContent)}
		}
		ext["components"] = oc
		r.Groups = groups
		if mod != nil {
			mod(r, ext)
		}
		raw, err := json.Marshal(ext)
		if err != nil {
			tb.Fatal(err)
		}
		r.Extensions = map[string]json.RawMessage{"openmw": raw}
		f.Claim(p.site[site], m)
	}
	main := func(files ...string) []synComp {
		return []synComp{{id: "main", path: ".", required: true, def: true, data: []string{"."}, content: files}}
	}
	plain := func(n, site string, files ...string) { write(n, site, main(files...), []protocol.Group{}, nil) }
	rels := func(rs ...protocol.Relationship) func(*protocol.Release, map[string]any) {
		return func(r *protocol.Release, _ map[string]any) { r.Relationships = rs }
	}
	plain("tallow", "a", "Tallow.esp")
	write("wax", "a", main("Wax.esp"), []protocol.Group{}, func(r *protocol.Release, ext map[string]any) {
		r.Relationships = []protocol.Relationship{req("tallow", ">=1.0")}
		ext["requires_content"] = []string{"Tallow.esp"}
	})
	write("wick", "a", main("Wick.esp"), []protocol.Group{}, rels(req("wax", "")))
	plain("trm", "a", "TR_Mainland.esm")
	plain("dup", "a", "Dup.esp")
	plain("dup", "b", "Dup.esp")
	for _, n := range []string{"torch", "brazier"} {
		write(n, "a", main(strings.ToUpper(n[:1])+n[1:]+".esp"), []protocol.Group{}, func(r *protocol.Release, _ map[string]any) { r.Provides = []string{"light-source"} })
	}
	plain("rival", "a", "Rival.esp")
	write("cyc1", "a", main("Cyc1.esp"), []protocol.Group{}, rels(req("cyc2", "")))
	write("cyc2", "a", main("Cyc2.esp"), []protocol.Group{}, rels(req("cyc1", "")))

	lamp := main("Lamp.esp", "Lamp Extra.esp")
	add := func(c synComp) { c.path, c.data = c.id, []string{"."}; lamp = append(lamp, c) }
	add(synComp{id: "flame-2k", group: "flames", def: true})
	add(synComp{id: "flame-4k", group: "flames"})
	add(synComp{id: "shade", group: "extras"})
	add(synComp{id: "halo", group: "extras"})
	add(synComp{id: "warm", group: "looks", def: true})
	add(synComp{id: "cold", group: "looks", content: []string{"Cold.esp"}})
	add(synComp{id: "spark", group: "addons", archives: []string{"Lamp Sparks.bsa"}, fallback: map[string]string{"LightAttenuation_UseConstant": "0"}})
	add(synComp{id: "glow", group: "addons", requires: []string{"spark"}, conflicts: []string{"shade"}, content: []string{"Glow.esp"}, requiresContent: []string{"Lamp.esp"}})
	add(synComp{id: "grass", groundcover: []string{"Lamp Grass.esp"}, config: true})
	add(synComp{id: "tr", content: []string{"Lamp - TR.esp"}, requiresContent: []string{"TR_Mainland.esm"}, suggested: []string{"trm"}})
	groups := []protocol.Group{{ID: "flames", Name: "Flames", Select: "exactly-one"}, {ID: "extras", Name: "Extras", Select: "at-most-one"},
		{ID: "looks", Name: "Looks", Select: "at-least-one"}, {ID: "addons", Name: "Add-ons", Select: "any"}}
	write("lamp", "a", lamp, groups, func(r *protocol.Release, ext map[string]any) {
		r.Runtimes = map[string]string{"openmw": ">=0.49"}
		ext["lua_api"] = ">=60"
		ext["requires_content"] = []string{"Morrowind.esm"}
		ext["settings"] = []map[string]string{{"category": "Shaders", "key": "force per pixel lighting", "value": "true"}}
		r.Relationships = []protocol.Relationship{req("wick", ">=2.0"),
			{Kind: protocol.KindRequires, Capability: "light-source"},
			req("dup", ""),
			{Kind: protocol.KindRequires, Project: p.id["nowhere"], Name: "A project nobody publishes"},
			{Kind: protocol.KindConflicts, Project: p.id["rival"]}}
	})
	return p
}

// relabel writes the short names for the ids in b (project ids, then site ids), so the
// node tests of assets/ read the build's data with readable keys ("lamp/a").
func (p *planSynth) relabel(b []byte) []byte {
	var pairs []string
	for n, id := range p.id {
		pairs = append(pairs, id, n)
	}
	for n, id := range p.site {
		pairs = append(pairs, id, n)
	}
	return []byte(strings.NewReplacer(pairs...).Replace(string(b)))
}

// dataParts reads the data parts a page loads (site/shards) from dir in out: each file's
// name and the JSON its AshyamsData call carries.
func dataParts(t *testing.T, out, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, filepath.FromSlash(dir), "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no data parts in %s (%v)", dir, err)
	}
	parts := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".js")
		head := "AshyamsData(" + shards.ScriptString(name) + ","
		if !bytes.HasPrefix(b, []byte(head)) || !bytes.HasSuffix(b, []byte(");\n")) {
			t.Fatalf("%s is not one AshyamsData call: %.80s", f, b)
		}
		text, err := sitetest.JSUnquote(string(b[len(head) : len(b)-3]))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		parts[name] = []byte(text)
	}
	return parts
}

// scriptParts is the claim parts of a built site as the pages' scripts read them
// (testdata/parts.js, in node): every claim as assets/shards.js claimsOf gives it, the
// planner's data once every part is loaded, and the setup check's claims.
type scriptParts struct {
	Claims map[string]json.RawMessage  `json:"claims"`
	Plan   json.RawMessage             `json:"plan"`
	Setup  map[string]*plan.SetupClaim `json:"setup"`
}

// readParts runs testdata/parts.js on the site in out.
func readParts(t *testing.T, out string) *scriptParts {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("node is not installed, and CI installs it: %v", err)
		}
		t.Skipf("node is not installed (%v): the data parts are read by the pages' scripts", err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(node, filepath.Join("testdata", "parts.js"), out)
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/parts.js: %v\n%s", err, stderr.Bytes())
	}
	var p scriptParts
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

// planDataOf is the plan page's data as its script holds it once every part is loaded.
func planDataOf(t *testing.T, out string) []byte {
	t.Helper()
	return readParts(t, out).Plan
}

// TestPlanSyntheticData builds the synthetic network and holds the plan page's data, with the
// ids relabeled, to assets/testdata/plan-synthetic.json, which the planner's node tests
// (assets/plan_test.go) plan: they test what the build makes of the network. Every kind of
// fact is in the data: groups of each select kind, component requires, conflicts and
// suggestions, both levels of requires_content, groundcover, archives, fallback entries,
// config, a setting, a capability two claims provide, a project two sites publish, and a
// requirement with no target. ASHYAMS_UPDATE=1 rewrites the file.
func TestPlanSyntheticData(t *testing.T) {
	p := newPlanSynth(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: p.state, Out: out}); err != nil {
		t.Fatal(err)
	}
	var doc plan.Doc
	if err := json.Unmarshal(p.relabel(planDataOf(t, out)), &doc); err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(&doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	golden := filepath.Join("..", "assets", "testdata", "plan-synthetic.json")
	if os.Getenv("ASHYAMS_UPDATE") != "" {
		if err := os.WriteFile(golden, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if have, err := os.ReadFile(golden); err != nil || !bytes.Equal(have, want) {
		t.Errorf("%s is not what the build makes of the synthetic network (%v): run ASHYAMS_UPDATE=1 go test -run TestPlanSyntheticData ./site", golden, err)
	}
	lamp := doc.Claims["lamp/a"]
	if lamp == nil {
		t.Fatalf("no lamp/a in %v", doc.Claims)
	}
	facts := map[string]bool{}
	for _, g := range lamp.Groups {
		facts["group "+g.Select] = true
	}
	for _, c := range lamp.Components {
		for k, ok := range map[string]bool{"component requires": len(c.Requires) > 0, "component conflicts": len(c.Conflicts) > 0,
			"suggested_with": len(c.SuggestedWith) > 0, "component requires_content": len(c.RequiresContent) > 0,
			"groundcover": len(c.Groundcover) > 0, "archives": len(c.Archives) > 0, "fallback": len(c.Fallback) > 0, "config": c.Config} {
			facts[k] = facts[k] || ok
		}
	}
	facts["release requires_content"] = len(lamp.RequiresContent) > 0
	facts["setting"] = len(lamp.Settings) > 0
	facts["lua_api"] = lamp.LuaAPI != ""
	facts["identity conflict"] = len(doc.Projects["dup"]) == 2
	for _, r := range lamp.Relationships {
		facts["capability of two"] = facts["capability of two"] || r.Capability != "" && len(r.Targets) == 2
		facts["no target"] = facts["no target"] || r.Kind == "requires" && len(r.Targets) == 0
		facts["conflicts"] = facts["conflicts"] || r.Kind == "conflicts" && len(r.Targets) == 1
	}
	var missing []string
	for _, k := range []string{"group exactly-one", "group at-most-one", "group at-least-one", "group any", "component requires", "component conflicts",
		"suggested_with", "component requires_content", "groundcover", "archives", "fallback", "config", "release requires_content", "setting",
		"lua_api", "capability of two", "identity conflict", "no target", "conflicts"} {
		if !facts[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the built data lacks %v", missing)
	}
}

// TestSetupPlanFirstLoadBounded reads the synthetic sites of 20 and of 1,200 claims
// (synthBuild) and holds the setup and plan pages to what a player's first load may cost
// whatever the number of claims: each page's HTML is the same size at both (but the counts it
// states), and no data part passes partBudget bytes, so what a check or a plan loads grows
// with what the file or the plan names, not with the index; and at 1,200 claims both pages
// with all their parts weigh at most claimBudget bytes a claim (the site's size budget).
func TestSetupPlanFirstLoadBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("two synthetic builds: not under -short")
	}
	t.Parallel()
	const partBudget = 128 << 10
	const claimBudget = 1200 // bytes a claim, both pages and all their parts together
	sizes := map[int]map[string]int{}
	for _, n := range []int{20, 1200} {
		_, _, out := synthBuild(t, n)
		sizes[n] = map[string]int{}
		for _, page := range []string{plan.SetupPage, plan.PlanPage} {
			sizes[n][page] = len(readOut(t, out, page))
		}
		total := sizes[n][plan.SetupPage] + sizes[n][plan.PlanPage]
		for _, dir := range []string{plan.SetupDataDir, plan.PlanDataDir} {
			for name, b := range dataParts(t, out, dir) {
				if len(b) > partBudget {
					t.Errorf("%d claims: %s/%s.js holds %d bytes, more than %d", n, dir, name, len(b), partBudget)
				}
			}
			files, _ := filepath.Glob(filepath.Join(out, filepath.FromSlash(dir), "*.js"))
			for _, f := range files {
				st, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				total += int(st.Size())
			}
		}
		t.Logf("%d claims: the setup and plan pages and their data parts are %d bytes, %d a claim", n, total, total/n)
		if n == 1200 && total > claimBudget*n {
			t.Errorf("%d claims: the setup and plan pages and their data parts are %d bytes, more than %d a claim", n, total, claimBudget)
		}
	}
	for _, page := range []string{plan.SetupPage, plan.PlanPage} {
		if d := sizes[1200][page] - sizes[20][page]; d < -8 || d > 8 {
			t.Errorf("%s is %d bytes at 20 claims and %d at 1,200", page, sizes[20][page], sizes[1200][page])
		}
	}
}

// TestClaimPartsReadAsBuilt builds the synthetic plan network, the setup check's state, the
// corpus and a claim whose openmw extension describes a component its release does not list,
// and reads their claim parts as the pages' scripts do (assets/shards.js
// claimsOf, in node): every listed claim is there, in the part of its project id's prefix,
// and reads exactly as the build computed it (plan.Install), every value the part leaves out
// put back and nothing more; and the parts are smaller than the claims they hold.
func TestClaimPartsReadAsBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("three builds: not under -short")
	}
	// An extension that describes a component the release does not list: the part writes
	// that claim's content files, which its components do not say.
	odd := t.TempDir()
	f := statetest.In(t, odd)
	site := f.Site("https://odd.example/dreamweave.json", "Odd")
	m := sampleManifest(uuid(801), "Unlisted", 1)
	m.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(`{"components":{` +
		`"main":{"data_directories":["."],"content_files":["Main.esp","main.ESP"],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":["Base.esm","base.esm",""]},` +
		`"extra":{"data_directories":[],"content_files":["Extra.esp"],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":[]}},` +
		`"requires_content":["Base.esm","base.esm"],"settings":[]}`)}
	f.Claim(site, m)
	// An experimental project whose one release is a development build: a project status and
	// a channel other than the usual.
	nightly := sampleManifest(uuid(803), "Nightly", 1)
	nightly.Project.Status = "experimental"
	r := &nightly.Releases[0]
	r.Version, r.Channel = "0.1.0-dev.1", "development"
	nightly.Channels = map[string]protocol.ChannelHead{"development": {Version: r.Version}}
	f.Claim(site, nightly)
	oddKey := uuid(801) + "/" + site
	// Two components declaring one file: it needs what both need. Its origin is unavailable.
	both := sampleManifest(uuid(802), "Shared", 1)
	both.Releases[0].Components = []protocol.Component{
		{ID: "a", Name: "A", Path: "A", Required: true, Default: true, Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}},
		{ID: "b", Name: "B", Path: "B", Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}},
	}
	both.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(`{"components":{` +
		`"a":{"data_directories":["."],"content_files":["Shared.esp"],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":["One.esm","Two.esm"]},` +
		`"b":{"data_directories":["."],"content_files":["shared.ESP","B.esp"],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":["two.ESM"]}},` +
		`"requires_content":[],"settings":[]}`)}
	f.Claim(site, both, func(c *store.Claim) { c.Health = store.ClaimOriginUnavailable }) // a health other than current
	unusual := map[string]bool{}
	states := map[string]string{"plan synthetic": newPlanSynth(t, t.TempDir()).state, "setup": newSetupState(t).state, "odd": odd}
	for _, c := range corpusCases(t) {
		states[c.name] = c.state
	}
	for name, state := range states {
		out := filepath.Join(t.TempDir(), "public")
		if _, err := Build(Options{State: state, Out: out}); err != nil {
			t.Fatal(err)
		}
		n, err := network.Load(store.Open(state), &curation.Curation{})
		if err != nil {
			t.Fatal(err)
		}
		b := &builder{&render.Site{Model: view.NewModel(n)}}
		built := plan.Install(about.PlanInput(b.Site), plan.Setup(about.PlanInput(b.Site)))
		got := readParts(t, out).Claims
		if len(got) != len(built) || len(built) != len(n.Listed) {
			t.Errorf("%s: the parts hold %d claims, the build computed %d of %d listed", name, len(got), len(built), len(n.Listed))
		}
		prefix := shards.ClaimPrefixLen(len(n.Listed))
		var full, held int
		for name, part := range dataParts(t, out, plan.PlanDataDir) {
			var p struct{ Claims map[string]json.RawMessage }
			if err := json.Unmarshal(part, &p); err != nil {
				t.Fatal(err)
			}
			for k, c := range p.Claims {
				if shards.ClaimShard(k, prefix) != name {
					t.Errorf("%s holds the claim %s", name, k)
				}
				var fields map[string]json.RawMessage
				if err := json.Unmarshal(c, &fields); err != nil {
					t.Fatalf("%s: the claim %s: %v", name, k, err)
				}
				if k == oddKey && !bytes.HasPrefix(fields["content_files"], []byte("[")) {
					t.Errorf("the part leaves out the content files of %s, which its components do not say: %s", k, c)
				}
			}
			held += len(part)
		}
		for k, c := range built {
			if c.Health != plan.Usual[""]["health"] {
				unusual["health"] = true
			}
			if c.ProjectStatus != plan.Usual[""]["project_status"] {
				unusual["project_status"] = true
			}
			if r := c.Release; r != nil {
				unusual["channel"] = unusual["channel"] || r.Channel != plan.Usual["release"]["channel"]
				unusual["current"] = unusual["current"] || r.Current != plan.Usual["release"]["current"]
				unusual["status"] = unusual["status"] || r.Status != plan.Usual["release"]["status"]
			}
			want, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			full += len(want)
			var w, g any
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got[k], &g); err != nil {
				t.Errorf("%s: the claim %s is not in the parts: %v", name, k, err)
				continue
			}
			if !reflect.DeepEqual(w, g) {
				t.Errorf("%s: the claim %s reads\n%s\nwant\n%s", name, k, got[k], want)
			}
		}
		if held >= full {
			t.Errorf("%s: the parts are %d bytes, the claims they hold %d", name, held, full)
		}
		t.Logf("%s: %d claims, %d bytes of parts for %d bytes of claims", name, len(built), held, full)
	}
	// Each value a part leaves out as usual is read back where a claim's is not.
	for _, usual := range plan.Usual {
		for k := range usual {
			if !unusual[k] {
				t.Errorf("no claim has a %s other than %v: the test checks nothing of it", k, usual[k])
			}
		}
	}
}
