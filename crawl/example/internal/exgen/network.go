package exgen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Project ids, lowercase UUIDs chosen for the example; GapID is published by nobody.
const (
	EmberglowID  = "6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c"
	WickworkID   = "2b8e4d6f-1a3c-4e5b-8d7f-9a0b1c2d3e4f" // published by two sites: a conflict
	KwamaID      = "7c9d1e3f-5a7b-4c9d-8e1f-3a5b7c9d1e2f"
	AshstormID   = "3d5f7a9b-2c4e-4f6a-9b8d-1c3e5f7a9b0d"
	RoadsID      = "4e6a8c0e-3d5f-4a7b-8c9d-2e4f6a8c0e1f"
	GuideID      = "5f7b9d1f-4e6a-4b8c-9d0e-3f5a7b9d1f2a"
	TidecalcID   = "8a0c2e4a-6b8d-4e0f-9a1b-4c6e8a0c2e3b"
	SaltmarshID  = "9b1d3f5b-7c9e-4f1a-8b2c-5d7f9b1d3f4c"
	CinderpathID = "1c2e4a6c-9d1f-4a3b-8c5d-6e8a0c2e4a5d"
	GapID        = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
)

// Capabilities. GapCapability is provided by nobody.
const (
	SchedulerCap  = "dreamweave:scheduler"
	StormsCap     = "weather:ash-storms"
	LightCap      = "emberglow:dynamic-light"
	GapCapability = "tr:mainland-cells"
)

// GapURL is a relationship URL outside every enrolled site.
const GapURL = "https://www.tamriel-rebuilt.org/"

// web is the scheme of every example URL: the demo's loopback server answers for the real
// http://<host>.example/ names (host mode).
const web = "http://"

// CardImage is the web-root path of Emberglow's featured card image.
const CardImage = "lanterns.example/emberglow/media/dusk.png"

const generator = "hand-written example network (crawl/example)"

// siteDef is one example site: host, its index's directory below the host ("" or ending in
// "/"), name, projects and HTML pages.
type siteDef struct {
	host, dir, name string
	url             string // site.url as the index states it
	projects        []projDef
	pages           map[string]string // path below the host -> HTML
}

// projDef is one project on one site; channels, when set, replaces the computed channel heads
// (only the broken site).
type projDef struct {
	p        project
	releases []release
	updated  string
	channels map[string]string
}

// digestOf is a stable made-up sha256 for an artifact that does not exist.
func digestOf(parts ...any) string {
	s := sha256.Sum256(fmt.Append(nil, parts...))
	return hex.EncodeToString(s[:])
}

func revision(parts ...any) string { return digestOf(append([]any{"rev"}, parts...)...)[:40] }

func repo(host, name string) string { return "https://code.example/" + host + "/" + name }

// baseProject fills the fields every example project has.
func baseProject(id, name, summary, typ, status, versioning, host, slug string) project {
	return project{
		ID: id, Name: name, Summary: summary, Type: typ, Status: status, Versioning: versioning,
		Game: "morrowind", License: "GPL-3.0-or-later", Tags: []string{"OpenMW"},
		Maintainers:  []person{{Name: "Example maintainers of " + host}},
		Links:        links{Page: web + host + "/" + slug + "/", Source: repo(host, slug), Issues: repo(host, slug) + "/issues"},
		Integrations: map[string]any{}, Media: []media{}, Credits: []person{},
	}
}

// modRelease is an available game-data release with one component and the openmw extension.
func modRelease(p project, ver, channel, date string) release {
	slug := p.Name
	zip := fmt.Sprintf("%s-%s.zip", sanitize(slug), ver)
	host := hostOf(p.Links.Page)
	return release{
		Version: ver, Channel: channel, Date: date, Status: "available",
		Source:   source{Repository: p.Links.Source, Tag: "v" + ver, Revision: revision(p.ID, ver)},
		Runtimes: map[string]string{"openmw": ">=0.49"}, Platforms: []platform{}, Provides: []string{},
		Relationships: []relationship{},
		Components: []component{{ID: "core", Name: "Core", Path: ".", Required: true, Default: true,
			Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}}},
		Groups: []any{},
		Extensions: map[string]any{"openmw": openmw{
			Components: map[string]openmwComponent{"core": {
				DataDirectories: []string{"."}, ContentFiles: []string{sanitize(slug) + ".omwscripts"},
				GroundcoverFiles: []string{}, FallbackArchives: []string{}, FallbackEntries: map[string]string{},
				RequiresContent: []string{},
			}},
			RequiresContent: []string{"Morrowind.esm"}, LuaAPI: ">=60", Settings: []any{},
		}},
		CriticalExtensions: []string{"openmw"},
		Artifacts: []artifact{{
			ID: "data", Format: "flat", Filename: zip, MediaType: "application/zip",
			Size: 40000 + int64(len(ver))*1337, Digests: digests{digestOf(p.ID, ver, "data")},
			Sources:    []artSource{{URL: web + host + "/downloads/" + zip, Kind: "publisher"}},
			Signatures: []signature{},
		}},
	}
}

// toolRelease is a program release: one binary per platform, plus a handheld build.
func toolRelease(p project, ver, channel, date string) release {
	r := modRelease(p, ver, channel, date)
	r.Runtimes = map[string]string{}
	r.Extensions = map[string]any{}
	r.CriticalExtensions = []string{}
	r.Components = []component{{ID: "program", Name: p.Name, Path: ".", Required: true, Default: true,
		Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}}}
	r.Platforms = []platform{{OS: "windows", Arch: "x86_64"}, {OS: "linux", Arch: "x86_64"}, {OS: "macos", Arch: "aarch64"}}
	host := hostOf(p.Links.Page)
	r.Artifacts = nil
	for i, pl := range append(append([]platform{}, r.Platforms...), platform{OS: "android", Arch: "aarch64", Variant: "portmaster"}) {
		id := pl.OS + "-" + strings.ReplaceAll(pl.Arch, "_", "-") // ids are tokens: no "_"
		if pl.Variant != "" {
			id += "-" + pl.Variant
		}
		name := fmt.Sprintf("%s-%s-%s.zip", sanitize(p.Name), ver, id)
		r.Artifacts = append(r.Artifacts, artifact{
			ID: id, Format: "binary", Filename: name, MediaType: "application/zip",
			Size: 2_000_000 + int64(i)*31_337, Digests: digests{digestOf(p.ID, ver, id)}, Platform: &pl,
			Sources: []artSource{
				{URL: web + host + "/downloads/" + name, Kind: "publisher"},
				{URL: "https://mirror.example/tidewater/" + name, Kind: "mirror", Name: "Example mirror"},
			},
			Signatures: []signature{},
		})
	}
	return r
}

func hostOf(u string) string {
	h, _, _ := strings.Cut(u[len(web):], "/")
	return h
}

func sanitize(name string) string {
	b := []byte{}
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	return string(b)
}

// HostileNotes is Kwama Lanterns' release note: the prose must survive, the script, frame,
// style, handler and javascript: link must not.
const HostileNotes = "Tested in **Balmora** and _Suran_ at night.\n\n" +
	"<script>alert('kwama-script')</script>\n\n" +
	"<iframe src=\"https://evil.example/frame\"></iframe>\n\n" +
	"<style>body { display: none }</style>\n\n" +
	"<img src=\"x\" onerror=\"alert('kwama-img')\">\n\n" +
	"[Read the install guide](javascript:alert('kwama-link'))\n\n" +
	"- egg sacs glow at dusk\n- `kwama_glow` is the setting"

// network describes the example network in generation gen (1 or 2, as WebNext).
func network(gen int) []siteDef {
	return []siteDef{lanterns(gen), ashfall(), tidewater(), broken(gen)}
}

// lanterns is the Lanterns Workshop at lanterns.example's root.
func lanterns(gen int) siteDef {
	const host = "lanterns.example"
	return siteDef{
		host: host, dir: "", name: "Lanterns Workshop", url: web + "lanterns.example/",
		projects: []projDef{emberglow(host, gen), wickwork(host), kwamaLanterns(host)},
		pages: map[string]string{
			"index.html": page("Lanterns Workshop", "Lighting mods for OpenMW.", ""),
		},
	}
}

// emberglow is the featured mod: every channel, a yanked release, rich notes; generation 2
// replaces its development build.
func emberglow(host string, gen int) projDef {
	em := baseProject(EmberglowID, "Emberglow", "Lanterns, candles and braziers that follow the hour and the weather.",
		"mod", "active", "numeric", host, "emberglow")
	em.Tags = []string{"Lighting", "Lua", "OpenMW"}
	em.Links.Documentation = web + host + "/emberglow/docs/"
	em.Integrations = map[string]any{"nexusmods": map[string]any{"game": "morrowind", "mod_id": 99001}}
	em.Media = []media{
		{Kind: "image", URL: web + CardImage, Alt: "A lantern glowing against a violet dusk sky.",
			Caption: "Dusk over the workshop.", Featured: true},
	}
	em.Credits = []person{{Name: "The Lanterns Workshop", Role: "Scripts"}}
	emRel := func(ver, ch, date string) release {
		r := modRelease(em, ver, ch, date)
		r.Provides = []string{LightCap}
		r.Relationships = []relationship{
			{Kind: "requires", Project: WickworkID, Name: "Wickwork", Version: ">=1.2, <2"},
			{Kind: "recommends", Capability: StormsCap, Reason: "Lanterns gutter when an ash storm rolls in."},
		}
		return r
	}
	dev := emRel("2.2.0-dev.5", "development", "2026-10-02")
	dev.Source = source{Repository: em.Links.Source, Release: "development", Revision: revision(em.ID, "dev5")}
	if gen >= 2 {
		dev = emRel("2.2.0-dev.6", "development", "2026-10-09")
		dev.Source = source{Repository: em.Links.Source, Release: "development", Revision: revision(em.ID, "dev6")}
	}
	beta := emRel("2.2.0-beta.1", "beta", "2026-09-29")
	beta.Notes = &notes{Summary: "Beta: lanterns you can carry.", Added: []string{"A hand lantern that follows the same schedule as the fixed ones."}}
	stable := emRel("2.1.0", "stable", "2026-09-20")
	stable.Notes = &notes{
		Summary:    "Weather-aware flames and a new intensity setting.",
		Highlights: "Flames now **gutter** in wind and *dim* in rain.\n\nSee the [documentation](http://lanterns.example/emberglow/docs/) for the full list.",
		Added:      []string{"Braziers follow the hour too.", "`emberglow_intensity` setting."},
		Fixed:      []string{"Interiors no longer dim during storms outside."},
		Breaking:   []string{"`emberglow_intensity` is now a percentage (0-100), not a factor."},
		Migration:  "Multiply your old `emberglow_intensity` by 100.",
		KnownIssues: []string{
			"Lights in cells loaded during a weather transition update one frame late.",
		},
	}
	yanked := emRel("2.0.1", "stable", "2026-09-12")
	yanked.Status = "yanked"
	yanked.Yanked = &notice{Reason: "Corrupts saves made inside interiors.", Replacement: "2.1.0"}
	yanked.Notes = &notes{Summary: "Fixes flicker in Balmora."}
	first := emRel("2.0.0", "stable", "2026-09-01")
	first.Relationships = first.Relationships[:1]
	updated := "2026-10-02"
	if gen >= 2 {
		updated = "2026-10-09"
	}
	return projDef{p: em, updated: updated, releases: []release{dev, beta, stable, yanked, first}}
}

// wickwork is a library in maintenance, with a deprecated release.
func wickwork(host string) projDef {
	ww := baseProject(WickworkID, "Wickwork", "A small OpenMW Lua library that wakes scripts at dusk, dawn or on the hour.",
		"library", "maintenance", "numeric", host, "wickwork")
	ww.Tags = []string{"Library", "Lua"}
	wwRel := func(ver, date string) release {
		r := modRelease(ww, ver, "stable", date)
		r.Provides = []string{SchedulerCap}
		return r
	}
	w110 := wwRel("1.1.0", "2026-07-01")
	w110.Status = "deprecated"
	w110.Deprecated = &notice{Reason: "Its hour hook fires twice at midnight.", Replacement: "1.3.0"}
	return projDef{p: ww, updated: "2026-09-18", releases: []release{wwRel("1.3.0", "2026-09-18"), wwRel("1.2.0", "2026-08-30"), w110}}
}

// kwamaLanterns is an experimental mod on a preview channel whose notes carry HostileNotes.
func kwamaLanterns(host string) projDef {
	kw := baseProject(KwamaID, "Kwama Lanterns", "Glowing kwama egg sacs as light sources. Experimental.",
		"mod", "experimental", "numeric", host, "kwama-lanterns")
	kwRel := func(ver, date string) release {
		r := modRelease(kw, ver, "preview", date)
		r.Relationships = []relationship{
			{Kind: "conflicts", Capability: LightCap, Reason: "Both script the same light records."},
			{Kind: "replaces", Name: "Glowing Kwama Eggs (old plugin)", Reason: "Same idea, rebuilt in Lua."},
		}
		return r
	}
	kw2 := kwRel("0.3.0-alpha.2", "2026-09-25")
	kw2.Notes = &notes{Summary: "Second preview.", Notes: HostileNotes}
	return projDef{p: kw, updated: "2026-09-25", releases: []release{kw2, kwRel("0.3.0-alpha.1", "2026-09-10")}}
}

func ashfall() siteDef {
	const host = "ashfall.example"

	as := baseProject(AshstormID, "Ashstorm Weather", "Ash storms that drift with the wind. Decimal versions, like the old plugin.",
		"mod", "active", "decimal", host, "mods/ashstorm")
	as.Tags = []string{"Weather"}
	asRel := func(ver, ch, date string) release {
		r := modRelease(as, ver, ch, date)
		r.Provides = []string{StormsCap}
		r.Relationships = []relationship{{Kind: "requires", Project: WickworkID, Name: "Wickwork", Version: ">=1.3"}}
		return r
	}
	a097 := asRel("0.97", "stable", "2026-09-15")
	a097.Notes = &notes{Summary: "Ash storms now **drift** with the wind.", Changed: []string{"Storm fronts move east to west."}}
	adev := asRel("0.98-dev.3", "development", "2026-10-01")
	adev.Source = source{Repository: as.Links.Source, Release: "nightly", Revision: revision(as.ID, "dev3")}

	fork := baseProject(WickworkID, "Wickwork", "Ashfall's build of Wickwork, with the dusk hook fixed for Ashstorm.",
		"library", "active", "numeric", host, "mods/wickwork")
	fork.Tags = []string{"Library", "Lua"}
	fr := modRelease(fork, "1.3.1", "stable", "2026-09-22")
	fr.Provides = []string{SchedulerCap}

	rd := baseProject(RoadsID, "Dunmer Roads", "Paved roads between the great houses, built on content nobody here publishes.",
		"mod", "active", "numeric", host, "mods/dunmer-roads")
	rdRel := func(ver, ch, date string) release {
		r := modRelease(rd, ver, ch, date)
		r.Relationships = []relationship{
			{Kind: "requires", Project: GapID, Name: "Tamriel Data", Version: ">=11.0"},
			{Kind: "requires", Capability: GapCapability, Reason: "The roads run through mainland cells."},
			{Kind: "requires", Capability: SchedulerCap},
			{Kind: "requires", Project: AshstormID, Name: "Ashstorm Weather", Version: ">=0.963", Reason: "Roads are swept clear after a storm."},
			{Kind: "recommends", Name: "Tamriel Rebuilt", URL: GapURL},
			{Kind: "recommends", Name: "A road texture pack of your choice"},
		}
		return r
	}

	gd := baseProject(GuideID, "Ashfall Field Guide", "A field guide to the Ashlands, as a readable in-game book.",
		"documentation", "active", "numeric", host, "mods/field-guide")
	gr := modRelease(gd, "1.0", "stable", "2026-08-01")
	gr.Relationships = []relationship{{Kind: "compatible", Project: AshstormID, Name: "Ashstorm Weather"}}

	return siteDef{
		host: host, dir: "mods/", name: "Ashfall Collective", url: web + "ashfall.example/mods/",
		projects: []projDef{
			{p: fork, updated: "2026-09-22", releases: []release{fr}},
			{p: as, updated: "2026-10-01", releases: []release{adev, a097, asRel("0.963", "stable", "2026-08-10"), asRel("0.9", "stable", "2026-06-01")}},
			{p: rd, updated: "2026-09-28", releases: []release{rdRel("1.1.0-rc.1", "testing", "2026-09-28"), rdRel("1.0.0", "stable", "2026-09-05")}},
			{p: gd, updated: "2026-08-01", releases: []release{gr}},
		},
		pages: map[string]string{
			// The enrolled URL is this project page: discovery walks up to mods/dreamweave.json.
			"mods/ashstorm/index.html": page("Ashstorm Weather", "Ash storms that drift with the wind.", ""),
		},
	}
}

func tidewater() siteDef {
	const host = "tidewater.example"

	tc := baseProject(TidecalcID, "Tidecalc", "A command-line tide table for Vvardenfell's coasts, for desktop and handhelds.",
		"tool", "active", "numeric", host, "tidecalc")
	tc.License = "MIT"
	t302 := toolRelease(tc, "3.0.2", "stable", "2026-09-21")
	for i := range t302.Artifacts {
		t302.Artifacts[i].Signatures = []signature{{Format: "sigstore-bundle",
			URL:      web + host + "/downloads/" + t302.Artifacts[i].Filename + ".sigstore.json",
			Issuer:   "https://token.actions.githubusercontent.com",
			Identity: tc.Links.Source + "/.github/workflows/release.yml@refs/tags/v3.0.2"}}
	}
	t302.Notes = &notes{Summary: "Handheld build.", Added: []string{"A PortMaster build for Android handhelds."}}

	sm := baseProject(SaltmarshID, "Saltmarsh Textures", "Marsh and shoreline textures. Decimal versions: 1.1 is newer than 1.05.",
		"assets", "active", "decimal", host, "saltmarsh")
	smRel := func(ver, ch, date string) release {
		r := modRelease(sm, ver, ch, date)
		r.Artifacts[0].Format = "bain"
		r.CriticalExtensions = []string{}
		return r
	}
	sdev := smRel("1.2-dev.14", "development", "2026-10-03")
	sdev.Source = source{Repository: sm.Links.Source, Release: "dev-build", Revision: revision(sm.ID, "dev14")}

	return siteDef{
		host: host, dir: "dw/", name: "Tidewater Tools", url: web + "tidewater.example/",
		projects: []projDef{
			{p: tc, updated: "2026-09-27", releases: []release{toolRelease(tc, "3.1.0-rc.1", "preview", "2026-09-27"), t302, toolRelease(tc, "3.0.1", "stable", "2026-08-14")}},
			{p: sm, updated: "2026-10-03", releases: []release{sdev, smRel("1.1", "stable", "2026-09-09"), smRel("1.05", "stable", "2026-07-20")}},
		},
		pages: map[string]string{
			// Discovery reads exactly this <link>; the href is relative to the page.
			"index.html": page("Tidewater Tools", "Tools for coastal modders.",
				`<link rel="alternate" type="application/vnd.dreamweave.index+json" href="dw/dreamweave.json">`),
		},
	}
}

func broken(gen int) siteDef {
	const host = "broken.example"
	cp := baseProject(CinderpathID, "Cinderpath", "Glowing footprints on the ash. Its second deployment is broken on purpose.",
		"mod", "active", "numeric", host, "cinderpath")
	r100 := modRelease(cp, "1.0.0", "stable", "2026-09-10")
	d := projDef{p: cp, updated: "2026-09-10", releases: []release{r100}}
	if gen >= 2 {
		// A publishing bug: 1.1.0 was added but the channels still name 1.0.0, so the manifest is
		// invalid, and the index (its true digest, stable 1.1.0) leads the crawler to it.
		r110 := modRelease(cp, "1.1.0", "stable", "2026-10-08")
		d.releases = []release{r110, r100}
		d.updated = "2026-10-08"
		d.channels = map[string]string{"stable": "1.0.0"}
	}
	return siteDef{host: host, dir: "", name: "Brokenhill", url: web + "broken.example/", projects: []projDef{d}}
}

func page(title, text, head string) string {
	if head != "" {
		head = "\n  " + head
	}
	return "<!doctype html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  <title>" + title + "</title>" + head +
		"\n</head>\n<body>\n  <h1>" + title + "</h1>\n  <p>" + text + "</p>\n</body>\n</html>\n"
}
