package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"reflect"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/assets"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/markdown"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
	"github.com/DreamWeave-MP/ashyams-go/site/plan"
	"github.com/DreamWeave-MP/ashyams-go/templates"
)

// Page is what every template receives: where the page is, its title, and its data.
type Page struct {
	// Path is the page's file, relative to the output root ("projects/index.html").
	Path string
	// Title is plain text (it may hold a publisher's project name; html/template escapes it).
	Title string
	// Section is the navigation entry the page belongs to.
	Section string
	// Desc is the meta description, in this index's own words; "" for none (the thousands of
	// project, claim and event pages, where it would repeat). No page names a canonical URL.
	Desc string
	// Script: the page loads site.js, after version.js, shards.js and find.js (project list only).
	Script bool
	// Feed is this page's project's Atom feed, relative to the output root ("" for none).
	Feed string
	// SiteFeed: the head links the network's Atom feed (home page and update lists only).
	SiteFeed bool
	// Unmapped: the sitemap leaves out this thin page (an event page; the project page of an
	// id one site lists).
	Unmapped bool
	// Outside: the page may link publishers' addresses, so its head asks for no referrer.
	Outside bool
	// Scripts are further scripts the page loads, in order (asset paths relative to the root).
	Scripts []string
	// Offline: CSP connect-src 'none', for the setup check, which reads a player's file.
	Offline bool
	// Leaf: one of the thousands of claim or event pages: its footer leaves out the last
	// refresh and the publishers' and source links.
	Leaf bool
	// Rooted: links are root-relative under the base URL's path ("/ashyams-go/assets/..."):
	// the 404 page, which a host serves at any depth.
	Rooted bool
	// Root is the base URL's path, with a final "/" ("/" for a site at a host's root).
	Root string
	Base string
	Meta *siteMeta
	// Pager is where this page stands in a paged list (nil for a page that is no list's).
	Pager *Pager
	Data  any
}

// Rel is target (a path relative to the output root) as a link from this page.
func (p *Page) Rel(target string) string {
	if p.Rooted {
		return p.Root + target
	}
	return paths.Rel(p.Path, target)
}

// Near is target as the shortest relative link from this page ("../index.html" from
// "updates/<id>/index.html" to "updates/index.html"). Rel is the same for every page of one
// depth, which the per-depth fragments need; a page's own template uses Near.
func (p *Page) Near(target string) string {
	if p.Rooted {
		return p.Rel(target)
	}
	from, to := p.Path, target // shed the directories both share, whole ones only
	for {
		i, j := strings.IndexByte(from, '/'), strings.IndexByte(to, '/')
		if i < 0 || i != j || from[:i] != to[:j] {
			break
		}
		from, to = from[i+1:], to[j+1:]
	}
	return paths.Rel(from, to)
}

// At is target, a page path with a fragment, as a link from this page: the fragment alone
// when target is on this page.
func (p *Page) At(target string) string {
	if path, frag, ok := strings.Cut(target, "#"); ok && path == p.Path {
		return "#" + frag
	}
	return p.Near(target)
}

// siteMeta is what every page's frame shows: the last refresh's start and the code's place.
type siteMeta struct {
	ObservedAt string
	Repository string
}

// navItem is one entry of the site navigation. Also are the sections besides its own whose
// pages it leads to (Sites: conflicts, capabilities, dependencies, gaps, health, releases).
type navItem struct {
	Key, Label, Path string
	Also             []string
}

// Current reports whether a page of section belongs under this entry.
func (n navItem) Current(section string) bool {
	if section == n.Key {
		return true
	}
	for _, a := range n.Also {
		if a == section {
			return true
		}
	}
	return false
}

// navLink is a navigation entry as one page shows it; Current is the aria-current value
// ("page", "true" within its section, else "").
type navLink struct {
	Href, Label, Current string
}

// Nav is the site navigation as page p shows it, computed when the memoized header is
// rendered (frame), not for every page.
func (p *Page) Nav() []navLink {
	out := make([]navLink, len(Nav))
	for i, n := range Nav {
		out[i] = navLink{Href: p.Rel(n.Path), Label: n.Label}
		switch {
		case n.Path == p.Path:
			out[i].Current = "page"
		case n.Current(p.Section):
			out[i].Current = "true"
		}
	}
	return out
}

var Nav = []navItem{
	{Key: "projects", Label: "Projects", Path: "projects/index.html", Also: []string{"browse"}},
	{Key: "updates", Label: "Updates", Path: "updates/index.html"},
	{Key: "origins", Label: "Sites", Path: "origins/index.html",
		Also: []string{"network", "releases", "conflicts", "capabilities", "dependencies", "gaps", "health"}},
	{Key: "plan", Label: "Plan", Path: plan.PlanPage},
	{Key: "setup", Label: "Your setup", Path: plan.SetupPage},
	{Key: "about", Label: "About", Path: "about/index.html", Also: []string{"join"}},
}

// templateSet holds one parsed template per page kind, each with the layout and partials.
type templateSet struct {
	pages map[string]*template.Template
	// shared holds only _layout, _partials and _catalog, for the memoized fragments.
	shared *template.Template
}

// funcs are the template functions: they only format, pass values to a partial (dict),
// look up views and print shared fragments. md and mdItems return goldmark's output passed
// through the sanitizer's allowlist (site/internal/markdown). ref, entry, brief, frame,
// claimlink, md and mdItems here are stand-ins for parsing: each build binds its own
// (bindFuncs).
var funcs = template.FuncMap{
	"ref":       (*view.Model)(nil).Ref,
	"health":    (*view.HealthList)(nil).Link,
	"entry":     (*Site)(nil).entry,
	"frame":     (*Site)(nil).frame,
	"claimlink": (*Site)(nil).claimlink,
	"brief":     (*Site)(nil).brief,
	"md":        markdown.Markdown,
	"mdItems":   markdown.Items,
	"safeURL":   markdown.SafeURL,
	"size":      wording.Size,
	"when":      wording.When,
	"dict":      dict,
	"plural":    wording.Plural,
	"trimmed":   strings.TrimSpace,
	"verb":      wording.RelationVerb,
	"urllink":   func(u string) extLink { return extLink{u, wording.URLText(u)} },
	"idnhost":   wording.IDNHost,
	"listed":    func() string { return view.ListedPhrase },
	"noopenmw":  func() string { return wording.NoOpenMW },
}

// bindFuncs computes the views the template functions of this build look up, and binds
// those functions on every page template.
func (b *Site) bindFuncs() {
	b.frags = &fragments{m: map[any]template.HTML{}}
	fm := template.FuncMap{"ref": b.Ref, "health": b.Health.Link, "entry": b.entry, "frame": b.frame, "claimlink": b.claimlink, "brief": b.brief, "md": b.md.Markdown, "mdItems": b.md.Items}
	for _, t := range b.tmpl.pages {
		t.Funcs(fm)
	}
	b.tmpl.shared.Funcs(fm)
}

// fragments are the template fragments a build renders once and prints on many pages, by a
// key holding everything the HTML depends on. Safe for concurrent use.
type fragments struct {
	mu sync.Mutex
	m  map[any]template.HTML
}

// fragmentBufs are scratch buffers for fragments: the memo keeps an exact-size copy.
var fragmentBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render returns the memoized HTML for key, else executes template name of t with data()
// and keeps it: what {{template name data}} prints in the HTML text context. data is called
// only on a miss, so a hit allocates nothing.
func (f *fragments) render(key any, t *template.Template, name string, data func() any) (template.HTML, error) {
	f.mu.Lock()
	h, ok := f.m[key]
	f.mu.Unlock()
	if ok {
		return h, nil
	}
	buf := fragmentBufs.Get().(*bytes.Buffer)
	defer fragmentBufs.Put(buf)
	buf.Reset()
	if err := t.ExecuteTemplate(buf, name, data()); err != nil {
		return "", err
	}
	h = template.HTML(buf.String())
	f.mu.Lock()
	f.m[key] = h
	f.mu.Unlock()
	return h, nil
}

// entryKey is what a catalog entry's HTML depends on: claim, link prefix, shown date.
type entryKey struct {
	c          *network.Claim
	root, date string
	filters    bool
}

// entry is the template function "entry" (_catalog.html) for s on page p, showing date
// ("released", "updated" or ""), rendered once per build for each key. The data-*
// attributes the project list's script reads are printed on the project list only.
func (b *Site) entry(p *Page, s *view.ClaimSummary, date string) (template.HTML, error) {
	filters := p.Section == "projects"
	return b.frags.render(entryKey{s.C, p.Rel(""), date, filters}, b.tmpl.shared, "entry", func() any {
		return map[string]any{"Page": p, "Entry": s, "Date": date, "Filters": filters}
	})
}

// briefKey is what a claim's browse-list line depends on: claim, link prefix, shown date.
type briefKey struct {
	c          *network.Claim
	root, date string
}

// brief is the template function "brief" (_partials.html) for s on page p, showing date,
// rendered once per build for each key.
func (b *Site) brief(p *Page, s *view.ClaimSummary, date string) (template.HTML, error) {
	return b.frags.render(briefKey{s.C, p.Rel(""), date}, b.tmpl.shared, "brief", func() any {
		return map[string]any{"Page": p, "Entry": s, "Date": date}
	})
}

// claimLinkKey is what a claim link's HTML depends on.
type claimLinkKey struct {
	c    *network.Claim
	root string
}

// claimlink is the template function "claimlink" (_partials.html) for c on page p,
// rendered once per build for each key.
func (b *Site) claimlink(p *Page, c *network.Claim) (template.HTML, error) {
	return b.frags.render(claimLinkKey{c, p.Rel("")}, b.tmpl.shared, "claimlink", func() any {
		return map[string]any{"Page": p, "Claim": c}
	})
}

// frameKey is what a part of the page frame depends on: the link prefix; the header also
// the section and a navigation entry's path; the footer also siteMeta and Leaf.
type frameKey struct {
	name, root, section, navPage string
	meta                         siteMeta
	leaf                         bool
}

// frame is the template function "frame": part name ("sitelinks", "siteheader" or
// "sitefooter", _layout.html) for page p, rendered once per build for each key.
func (b *Site) frame(name string, p *Page) (template.HTML, error) {
	k := frameKey{name: name, root: p.Rel("")}
	switch {
	case name == "siteheader": // the navigation marks the page's section and entry
		k.section = p.Section
		for _, n := range Nav {
			if n.Path == p.Path {
				k.navPage = p.Path
			}
		}
	case name == "sitefooter" && p.Meta != nil:
		k.meta, k.leaf = *p.Meta, p.Leaf
	}
	return b.frags.render(k, b.tmpl.shared, name, func() any { return p })
}

// loadTemplates parses the page templates from fsys (nil: the embedded templates.FS).
func loadTemplates(fsys fs.FS) (*templateSet, error) {
	if fsys == nil {
		fsys = templates.FS
	}
	base, err := template.New("").Funcs(funcs).ParseFS(fsys, "_layout.html", "_partials.html", "_catalog.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	names, err := fs.Glob(fsys, "*.html")
	if err != nil {
		return nil, err
	}
	ts := &templateSet{pages: map[string]*template.Template{}}
	for _, name := range names {
		if strings.HasPrefix(name, "_") {
			continue
		}
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		if t, err = t.ParseFS(fsys, name); err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		ts.pages[strings.TrimSuffix(name, ".html")] = t
	}
	ts.shared = base // executed only now that every page set is cloned from it
	return ts, nil
}

// page queues the rendering of template kind with p, written at p.Path; data, when not
// nil, computes p.Data on the worker. It errs only for a missing template; rendering errors
// stop the build later.
func (b *Site) Page(kind string, p *Page, data ...func() any) error {
	t := b.tmpl.pages[kind]
	if t == nil {
		return fmt.Errorf("no template %q", kind)
	}
	if p.Meta == nil {
		p.Meta = b.meta()
	}
	p.Base, p.Root = b.Base, sitedir.BasePath(b.Base)
	p.Title = pubtext.ClipTitle(p.Title)
	p.SiteFeed = kind == "home" || kind == "updates"
	p.Outside = outsideKinds[kind]
	b.mu.Lock()
	b.pages = append(b.pages, p.Path)
	if p.Unmapped {
		b.unmapped = append(b.unmapped, p.Path)
	}
	b.mu.Unlock()
	sets := b.bufs
	if wholeNetwork[kind] {
		sets = b.listBufs
	}
	b.spawn(sets, func(pb *pageBuf) error {
		if len(data) > 0 {
			p.Data = data[0]()
		}
		pb.html.Reset()
		if err := t.ExecuteTemplate(&pb.html, "layout", p); err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		pb.html.Grow(1) // the minifier's terminator fits: it reads the page in place
		return b.writeBuf(p.Path, pb.html.Bytes(), &pb.min)
	})
	return nil
}

// outsideKinds are the page kinds that print publishers' addresses as links.
var outsideKinds = map[string]bool{
	"claim": true, "origin": true, "origins": true, "gaps": true, "health": true, "plan": true,
}

// wholeNetwork are the page kinds that list the whole network, growing to megabytes; they
// render on buffer sets of their own (Site.listBufs).
var wholeNetwork = map[string]bool{
	"projects": true, "browse-list": true, "dependencies": true, "releases": true,
	"capabilities": true, "updates": true, "health": true, "origins": true,
}

// pageBuf is one page render's buffers, reused: the HTML and its minified form.
type pageBuf struct {
	html bytes.Buffer
	min  []byte
}

func (b *Site) meta() *siteMeta {
	m := &siteMeta{Repository: b.Repo}
	if s := b.N.State; s != nil {
		m.ObservedAt = s.ObservedAt
	}
	return m
}

// assets writes the stylesheet, the scripts and the icon.
func (b *Site) WriteAssets() error {
	for _, name := range []string{"site.css", "site.js", "find.js", "icon.svg", "version.js", "openmwcfg.js", "shards.js", "setupcheck.js", "setup.js", "plan.js", "planpage.js"} {
		data, err := fs.ReadFile(assets.FS, name)
		if err != nil {
			return err
		}
		if err := b.Write(path.Join("assets", name), data); err != nil {
			return err
		}
	}
	return nil
}

// extLink is a publisher's URL and the words a link to it shows (wording.URLText), for the
// "extlink" partial without a dict.
type extLink struct{ URL, Text string }

// partialArgs are the values dict passes a partial, by the names the partials read; nil when
// not given, as a map's missing key. A struct, not a map: a template reads a field without
// allocating, and a map's value with.
type partialArgs struct {
	Page, Card, Claim, D, Event, Except, Gaps, Here, Items, Links, List, N, R, Rel, Rows, Tags, Text, Title, URL, V, Verb any
}

// dict gathers several values for a partial: dict "k1" v1 "k2" v2, each key a field of
// partialArgs.
func dict(kv ...any) (*partialArgs, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	a := new(partialArgs)
	v := reflect.ValueOf(a).Elem()
	for i := 0; i < len(kv); i += 2 {
		k, _ := kv[i].(string)
		f := v.FieldByName(k)
		if !f.IsValid() {
			return nil, fmt.Errorf("dict: key %v is no partial's argument", kv[i])
		}
		f.Set(reflect.ValueOf(&kv[i+1]).Elem()) // the interface as it is: no copy of its value
	}
	return a, nil
}
