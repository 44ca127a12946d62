package site

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/htmlcheck"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/site/shards"
)

// component is one component of a test release: its id, the content files its openmw
// extension declares and the content files it needs.
type component struct {
	id              string
	files, requires []string
}

// withOpenMW gives every release of m the components and an openmw extension declaring them,
// with the release-wide requires_content and the relationships given.
func withOpenMW(m *protocol.Manifest, comps []component, requires []string, rels []protocol.Relationship) *protocol.Manifest {
	type omwComp struct {
		DataDirectories  []string          `json:"data_directories"`
		ContentFiles     []string          `json:"content_files"`
		GroundcoverFiles []string          `json:"groundcover_files"`
		FallbackArchives []string          `json:"fallback_archives"`
		FallbackEntries  map[string]string `json:"fallback_entries"`
		Config           bool              `json:"config"`
		RequiresContent  []string          `json:"requires_content"`
	}
	ext := struct {
		Components      map[string]omwComp `json:"components"`
		RequiresContent []string           `json:"requires_content"`
		Settings        []string           `json:"settings"`
	}{Components: map[string]omwComp{}, RequiresContent: append([]string{}, requires...), Settings: []string{}}
	var cs []protocol.Component
	for i, c := range comps {
		ext.Components[c.id] = omwComp{DataDirectories: []string{"."}, ContentFiles: append([]string{}, c.files...), GroundcoverFiles: []string{},
			FallbackArchives: []string{}, FallbackEntries: map[string]string{}, RequiresContent: append([]string{}, c.requires...)}
		cs = append(cs, protocol.Component{ID: c.id, Name: "Component " + c.id, Path: c.id, Required: i == 0, Default: i == 0,
			Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
	}
	raw, err := json.Marshal(ext)
	if err != nil {
		panic(err)
	}
	for i := range m.Releases {
		r := &m.Releases[i]
		r.Components = cs
		r.Extensions = map[string]json.RawMessage{"openmw": raw}
		r.Relationships = append([]protocol.Relationship{}, rels...)
	}
	return m
}

// setupState is a small network for the setup check: keys by role, and the state directory.
type setupState struct {
	state                                         string
	wick, wickB, tallowish, rival, old, hostile   string // claim keys
	wickID, tallowishID, rivalID, oldID, hostileI string // project ids
	noContent                                     string // a claim declaring no content file
}

// newSetupState writes a state covering every finding of the setup check:
//   - Wick (two sites publish its id: an identity conflict, both declaring Wick.esp) declares
//     Wick.esp (components main and patch) and "Wick - Patch.esp" (component patch, which
//     needs Patch.esm), needs Base.esm, requires Tallowish, conflicts with Rival, runs on >=0.50;
//   - Tallowish declares Tallowish.omwscripts; Rival declares RIVAL.esp (mixed case);
//   - Old has every release yanked, with a reason;
//   - a project with a hostile name declares a hostile file name;
//   - Quiet declares no content file (and is in no map).
func newSetupState(t testing.TB) *setupState {
	t.Helper()
	s := &setupState{state: t.TempDir()}
	f := statetest.In(t, s.state)
	a := f.Site("https://lanterns.example/dreamweave.json", "Lantern Works")
	b := f.Site("https://other.example/dreamweave.json", "Other Site")
	s.wickID, s.tallowishID, s.rivalID, s.oldID, s.hostileI = uuid(501), uuid(502), uuid(503), uuid(504), uuid(505)
	rels := []protocol.Relationship{
		{Kind: "requires", Project: s.tallowishID, Name: "Tallowish", Version: ">=1.0"},
		{Kind: "conflicts", Project: s.rivalID, Name: "Rival", Reason: "Both <b>script</b> the same lamps."},
		{Kind: "recommends", Project: s.rivalID},
		{Kind: "conflicts", Name: "Anything that scripts lamps"},
		{Kind: "requires", Project: s.wickID},
	}
	wick := func() *protocol.Manifest {
		m := withOpenMW(sampleManifest(s.wickID, "Wick", 2), []component{{id: "main", files: []string{"Wick.esp"}},
			{id: "patch", files: []string{"Wick - Patch.esp", "wick.ESP"}, requires: []string{"Patch.esm"}}}, []string{"Base.esm"}, rels)
		for i := range m.Releases {
			m.Releases[i].Runtimes = map[string]string{"openmw": ">=0.50"}
		}
		return m
	}
	f.Claim(a, wick())
	f.Claim(b, wick())
	f.Claim(a, withOpenMW(sampleManifest(s.tallowishID, "Tallowish", 1), []component{{id: "main", files: []string{"Tallowish.omwscripts"}}}, nil, nil))
	f.Claim(a, withOpenMW(sampleManifest(s.rivalID, "Rival", 1), []component{{id: "main", files: []string{"RIVAL.esp"}}}, nil, nil))
	old := withOpenMW(sampleManifest(s.oldID, "Old Lamps", 2), []component{{id: "main", files: []string{"Old.esp"}}}, nil, nil)
	for i := range old.Releases {
		old.Releases[i].Status = protocol.StatusYanked
		old.Releases[i].Yanked = &protocol.Notice{Reason: "Broke saves <script>alert('yank')</script>", Replacement: "2.0.0"}
	}
	old.Channels = map[string]protocol.ChannelHead{}
	f.Claim(b, old)
	f.Claim(b, withOpenMW(sampleManifest(s.hostileI, `<img src=x onerror="window.__pwned=1">`, 1),
		[]component{{id: "main", files: []string{`</script><script>window.__pwned=1</script>.esp`}}}, nil, nil))
	quiet := sampleManifest(uuid(506), "Quiet", 1)
	f.Claim(a, quiet)
	s.wick, s.wickB = s.wickID+"/"+a, s.wickID+"/"+b
	s.tallowish, s.rival, s.old, s.hostile = s.tallowishID+"/"+a, s.rivalID+"/"+a, s.oldID+"/"+b, s.hostileI+"/"+b
	s.noContent = uuid(506) + "/" + a
	return s
}

// TestSetupData builds the setup state and reads the setup page's data parts: which claims each content file
// maps to (folded as OpenMW folds names, both claims of a conflicted id), what each claim
// declares (content files per component with their own needs, the release's needs, the
// runtime, requires and conflicts with their resolved targets, self-references and other
// kinds left out), the yanked release with its reason.
func TestSetupData(t *testing.T) {
	s := newSetupState(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: s.state, Out: out}); err != nil {
		t.Fatal(err)
	}
	doc := *setupDataOf(t, out)
	wantFiles := map[string][]string{
		"wick.esp":             sortedKeys(s.wick, s.wickB),
		"wick - patch.esp":     sortedKeys(s.wick, s.wickB),
		"tallowish.omwscripts": {s.tallowish},
		"rival.esp":            {s.rival},
		"old.esp":              {s.old},
		`</script><script>window.__pwned=1</script>.esp`: {s.hostile},
	}
	if !reflect.DeepEqual(doc.ContentFiles, wantFiles) {
		t.Errorf("content_files = %v\nwant %v", doc.ContentFiles, wantFiles)
	}
	if q := doc.Claims[s.noContent]; q == nil || len(q.ContentFiles) != 0 || len(q.Relationships) != 0 || len(q.DataDirs) != 0 {
		t.Errorf("a claim with no openmw extension is read as declaring something: %+v", q)
	}
	w := doc.Claims[s.wick]
	if w == nil {
		t.Fatalf("no entry for %s", s.wick)
	}
	wantContent := []plan.Content{{File: "Wick.esp", RequiresContent: []string{}}, {File: "Wick - Patch.esp", RequiresContent: []string{"Patch.esm"}}}
	if !reflect.DeepEqual(w.ContentFiles, wantContent) {
		t.Errorf("Wick's content files = %+v, want %+v (wick.ESP is Wick.esp, declared once, needing only what both its components need)", w.ContentFiles, wantContent)
	}
	if !reflect.DeepEqual(w.RequiresContent, []string{"Base.esm"}) || w.OpenMW != ">=0.50" || w.Name != "Wick" || w.SiteName != "Lantern Works" ||
		w.Health != "current" || w.Stale || w.ProjectStatus != "active" || w.Page != paths.Claim(s.wickID, strings.SplitN(s.wick, "/", 2)[1]) {
		t.Errorf("Wick's entry: %+v", w)
	}
	if w.Release == nil || *w.Release != (plan.Release{Version: "1.0.1", Channel: "stable", Current: true, Status: "available"}) {
		t.Errorf("Wick's release: %+v", w.Release)
	}
	wantRels := []plan.Relationship{
		{Kind: "requires", Project: s.tallowishID, Name: "Tallowish", Version: ">=1.0", Targets: []string{s.tallowish}},
		{Kind: "conflicts", Project: s.rivalID, Name: "Rival", Reason: "Both <b>script</b> the same lamps.", Targets: []string{s.rival}},
		{Kind: "conflicts", Name: "Anything that scripts lamps", Targets: []string{}},
	}
	if !reflect.DeepEqual(w.Relationships, wantRels) {
		t.Errorf("Wick's relationships = %+v\nwant %+v (recommends and the self-reference left out)", w.Relationships, wantRels)
	}
	o := doc.Claims[s.old]
	if o == nil || o.Release == nil || *o.Release != (plan.Release{Version: "1.0.1", Channel: "stable", Current: false, Status: "yanked",
		Reason: "Broke saves <script>alert('yank')</script>", Replacement: "2.0.0"}) {
		t.Errorf("the all-yanked claim's release: %+v", o)
	}
}

// setupDataOf is the setup check's data as the setup page's script holds it once every part
// is loaded: the name indexes of its parts in out (each name in the part its hash names), and
// the claims of the plan page's parts as the check reads them (readParts).
func setupDataOf(t *testing.T, out string) *plan.SetupDoc {
	t.Helper()
	parts := dataParts(t, out, plan.SetupDataDir)
	joined := &plan.SetupDoc{ContentFiles: map[string][]string{}, GroundcoverFiles: map[string][]string{},
		FallbackArchives: map[string][]string{}, DataDirs: map[string][]string{}, Claims: readParts(t, out).Setup}
	for name, b := range parts {
		var part plan.SetupDoc
		if err := json.Unmarshal(b, &part); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, m := range [][2]map[string][]string{{part.ContentFiles, joined.ContentFiles}, {part.GroundcoverFiles, joined.GroundcoverFiles},
			{part.FallbackArchives, joined.FallbackArchives}, {part.DataDirs, joined.DataDirs}} {
			for k, v := range m[0] {
				if shards.NameShard(k, len(parts)) != name {
					t.Errorf("%s holds the name %q", name, k)
				}
				m[1][k] = v
			}
		}
	}
	return joined
}

func sortedKeys(a, b string) []string {
	if b < a {
		return []string{b, a}
	}
	return []string{a, b}
}

// TestSetupCSP: the setup page, and only it, may connect nowhere (connect-src 'none'), and it
// loads the parser and the check; every other page with a script keeps connect-src 'self' and
// no setup script, and a page without one allows no script and no connection at all (its CSP
// names neither, so default-src 'none' holds).
func TestSetupCSP(t *testing.T) {
	s := newSetupState(t)
	out := filepath.Join(t.TempDir(), "public")
	res, err := Build(Options{State: s.state, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Pages {
		doc := parsePage(t, out, p)
		metas := htmlcheck.All(t, doc, `head meta[http-equiv="Content-Security-Policy"]`)
		if len(metas) != 1 {
			t.Errorf("%s has %d CSP meta elements, want 1", p, len(metas))
			continue
		}
		csp := htmlcheck.Attr(metas[0], "content")
		directives := cspDirectives(csp)
		connect, hasConnect := directives["connect-src"]
		_, hasScript := directives["script-src"]
		var srcs []string
		for _, s := range htmlcheck.All(t, doc, "script") {
			srcs = append(srcs, htmlcheck.Attr(s, "src"))
		}
		none := connect == "'none'"
		loads := func(asset string) bool {
			return slices.ContainsFunc(srcs, func(s string) bool { return strings.HasSuffix(s, asset) })
		}
		setupJS, cfgJS := loads("assets/setup.js"), loads("assets/openmwcfg.js")
		if p == plan.PlanPage {
			if !none || setupJS {
				t.Errorf("%s: CSP %q; want connect-src 'none' and no setup script", p, csp)
			}
			continue
		}
		if p == plan.SetupPage {
			if !none || !setupJS || !cfgJS {
				t.Errorf("%s: CSP %q, scripts %q; want connect-src 'none' and both setup scripts", p, csp, srcs)
			}
			continue
		}
		if len(srcs) == 0 {
			if hasScript || hasConnect {
				t.Errorf("%s: CSP %q on a page without a script; want no script-src and no connect-src", p, csp)
			}
		} else if connect != "'self'" || setupJS {
			t.Errorf("%s: CSP %q; want connect-src 'self' and no setup script", p, csp)
		}
		stub := htmlcheck.Count(t, doc, `head meta[http-equiv="refresh"]`) == 1 // a one-site project page: no frame
		if p != notFoundPage && !stub && htmlcheck.Count(t, doc, `body > header nav a[href="`+strings.Repeat("../", strings.Count(p, "/"))+`setup/index.html"]`) != 1 {
			t.Errorf("%s does not link to the setup page in its navigation", p)
		}
	}
}

// TestFoldASCII: content file names fold as OpenMW folds them, ASCII letters only, so the
// page's JavaScript (which folds the same way) finds every key.
func TestFoldASCII(t *testing.T) {
	for in, want := range map[string]string{"Morrowind.ESM": "morrowind.esm", "İ Ünïcode.esp": "İ Ünïcode.esp", "MiXeD - TR.omwscripts": "mixed - tr.omwscripts"} {
		if got := plan.FoldASCII(in); got != want {
			t.Errorf("foldASCII(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSetupDataFolders builds a claim whose components declare data directories under their
// paths, groundcover, archives and a config folder, and one that declares only a data
// directory, and reads the setup page's data parts: each claim lists its folders ("/"-separated,
// "." parts dropped, the artifact's root left out); the maps send each folded name
// (groundcover and archives once each) to its claims; a claim with no content file is there too, so the check
// can see it by its folders.
func TestSetupDataFolders(t *testing.T) {
	state := t.TempDir()
	f := statetest.In(t, state)
	site := f.Site("https://folders.example/dreamweave.json", "Folders")
	ext := `{"components":{` +
		`"main":{"data_directories":["."],"content_files":["Main.esp"],"groundcover_files":[],"fallback_archives":["Main.bsa"],"fallback_entries":{},"config":false,"requires_content":[]},` +
		`"hd":{"data_directories":["./Textures HD","Meshes\\Extra"],"content_files":[],"groundcover_files":["Grass.esp","grass.ESP"],"fallback_archives":[],"fallback_entries":{},"config":true,"requires_content":[]}},` +
		`"requires_content":[],"settings":[]}`
	m := sampleManifest(uuid(701), "Folders", 1)
	m.Releases[0].Components = []protocol.Component{
		{ID: "main", Name: "Main", Path: ".", Required: true, Default: true, Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}},
		{ID: "hd", Name: "HD", Path: "10 HD", Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}},
	}
	m.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(ext)}
	f.Claim(site, m)
	only := sampleManifest(uuid(702), "Only Folders", 1)
	only.Releases[0].Components[0].Path = "Core"
	only.Releases[0].Extensions = map[string]json.RawMessage{"openmw": json.RawMessage(`{"components":{"main":{"data_directories":["."],"content_files":[],"groundcover_files":[],"fallback_archives":[],"fallback_entries":{},"config":false,"requires_content":[]}},"requires_content":[],"settings":[]}`)}
	f.Claim(site, only)
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Build(Options{State: state, Out: out}); err != nil {
		t.Fatal(err)
	}
	doc := *setupDataOf(t, out)
	k, ko := uuid(701)+"/"+site, uuid(702)+"/"+site
	c := doc.Claims[k]
	if c == nil || doc.Claims[ko] == nil {
		t.Fatalf("the setup data lack a claim: %v", doc.Claims)
	}
	for name, pair := range map[string][2][]string{
		"data_dirs":   {c.DataDirs, {"10 HD/Textures HD", "10 HD/Meshes/Extra"}},
		"config_dirs": {c.ConfigDirs, {"10 HD"}},
		"only's dirs": {doc.Claims[ko].DataDirs, {"Core"}},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s = %q, want %q", name, pair[0], pair[1])
		}
	}
	want := map[string]map[string][]string{
		"groundcover_files": {"grass.esp": {k}},
		"fallback_archives": {"main.bsa": {k}},
		"data_dirs":         {"textures hd": {k}, "extra": {k}, "10 hd": {k}, "core": {ko}},
	}
	for name, got := range map[string]map[string][]string{"groundcover_files": doc.GroundcoverFiles, "fallback_archives": doc.FallbackArchives, "data_dirs": doc.DataDirs} {
		if !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s = %v, want %v", name, got, want[name])
		}
	}
}
