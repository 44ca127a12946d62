// Package site is the render stage (SPEC section 5): it turns the state directory and the
// curation file into a complete static site and the machine-readable files beside it. A built
// site is checked by site/linkcheck and previewed by site/preview.
//
// # Determinism
//
// Build is a pure function of its inputs: the same state and curation give byte-identical
// output. The only times on the site are observation times the crawler recorded; there is no
// build time and no clock.
//
// # One model
//
// Every page renders from the network model (catalog/network), so no page computes its own
// version of conflicts, resolution, capabilities, gaps or used-by. The render stage never reads
// the network.
package site

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/tdewolff/minify/v2"
	"golang.org/x/sync/errgroup"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/markdown"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// Defaults for the index's identity in the generated files and pages.
const (
	// DefaultBaseURL is where the site is published: used for sitemap.xml, canonical links,
	// the Atom feed and each claim's network_page in catalog.json.
	DefaultBaseURL = "https://dreamweave-mp.github.io/ashyams-go/"
	// DefaultRepository is where the index's code and state live.
	DefaultRepository = "https://github.com/DreamWeave-MP/ashyams-go"
	// IndexName is the index's display name.
	IndexName = "AsHyAmS"
)

// Marker is the file every built site holds. Build replaces an existing output directory only
// when it holds this file (or is empty), so a mistyped --out never deletes someone's files.
const Marker = sitedir.Marker

const markerText = "This directory is written by `ashyams build` and replaced whole by every build.\n"

// BuiltBaseURL is the base URL the site in out was built for, as its Marker records it; ""
// when out holds no marker or its marker has no base_url line.
// Errors: a marker that cannot be read.
func BuiltBaseURL(out string) (string, error) { return sitedir.BaseURL(out) }

// BasePath is the path of an absolute base URL with a final "/": "/ashyams-go/" for
// https://dreamweave-mp.github.io/ashyams-go/, "/" for a site at a host's root or "".
func BasePath(baseURL string) string { return sitedir.BasePath(baseURL) }

// Options are Build's inputs.
type Options struct {
	// State is the state directory (SPEC section 3). It must exist.
	State string
	// Curation is network/curation.toml; "" or a missing file is an empty curation.
	Curation string
	// Out is the output directory, replaced whole (see Marker).
	Out string
	// BaseURL is the absolute http(s) URL the site is published at ("" is DefaultBaseURL);
	// used only for sitemap.xml, canonical links, the Atom feed and catalog network_page.
	// Links between pages are always relative.
	BaseURL string
	// Repository is the index's repository URL ("" is DefaultRepository).
	Repository string

	// templates replaces the embedded templates (tests only: a template with words check-site
	// must catch).
	templates fs.FS
	// markdown replaces Markdown as the build's renderer of publisher Markdown (tests only:
	// counting the conversions a build runs).
	markdown func(string) template.HTML
}

// Result says what a build wrote.
type Result struct {
	// Pages are the HTML pages written, slash paths relative to Out, sorted.
	Pages []string
	// Files counts every file written, pages included.
	Files int
	// Network is the model the site was rendered from.
	Network *network.Network
}

// Build reads the state and curation and writes the complete site to o.Out.
//
// Errors: a bad option; a curation file that is refused (every problem named); a state record
// that does not parse or contradicts itself in a way that changes what is shown (the path
// and the problem in store.Check's words: those network.Refuses, then those refuses names); a cached media file whose bytes do not match its name; a generated JSON file
// that does not match its schema; an output directory that is not a previous build. On error
// the previous output, if any, is left as it was. An output directory that overlaps the state
// directory (equal, inside it, or holding it) is refused before anything is read or written.
func Build(o Options) (*Result, error) {
	base, err := normalizeBase(o.BaseURL)
	if err != nil {
		return nil, err
	}
	repo := o.Repository
	if repo == "" {
		repo = DefaultRepository
	}
	if o.Out == "" {
		return nil, errors.New("build: no output directory given")
	}
	if st, err := os.Stat(o.State); err != nil {
		return nil, fmt.Errorf("build: state directory: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("build: state %s is not a directory", o.State)
	}
	if err := checkOverlap(o.State, o.Out); err != nil {
		return nil, err
	}
	cur := &curation.Curation{}
	if o.Curation != "" {
		if cur, err = curation.Load(o.Curation); err != nil {
			return nil, fmt.Errorf("build: %w", err)
		}
	}
	dir := store.Open(o.State)
	n, probs, err := network.LoadChecked(dir, cur)
	if err != nil {
		return nil, fmt.Errorf("build: state %s: %w", o.State, err)
	}
	if err := checkNames(n); err != nil {
		return nil, fmt.Errorf("build: state %s: %w", o.State, err)
	}
	if probs := refusals(probs); len(probs) > 0 {
		return nil, fmt.Errorf("build: %w", stateError(o.State, probs))
	}
	if err := checkOutDir(o.Out); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(o.Out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".ashyams-build-*")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(tmp) // gone after a successful swap; cleans up after a failure
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	b := &builder{
		Model: view.NewModel(n), out: tmp, dir: dir, base: base, repo: repo, templates: o.templates,
		min: newMinifier(), written: map[string]bool{}, dirs: map[string]bool{}, md: markdown.NewMemo(o.markdown),
	}
	if err := b.build(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if err := swapDir(tmp, o.Out); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	return &Result{Pages: b.pages, Files: len(b.written), Network: n}, nil
}

// normalizeBase is NormalizeBaseURL for a build, its error prefixed as the build's.
func normalizeBase(s string) (string, error) {
	b, err := NormalizeBaseURL(s)
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	return b, nil
}

// NormalizeBaseURL checks a --base-url value and gives it a final "/"; "" is DefaultBaseURL.
// A base URL is an absolute http(s) URL without user info, query or fragment: every page's
// canonical link and every link the preview server mounts is built on it. The error names the
// value and what it lacks.
func NormalizeBaseURL(s string) (string, error) {
	if s == "" {
		return DefaultBaseURL, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--base-url %q is not an absolute http(s) URL without user info, query or fragment", s)
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}

// checkOutDir refuses to replace a directory that is neither empty nor a previous build.
func checkOutDir(out string) error {
	if err := OutDirOK(out); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// OutDirOK returns nil when Build may replace out: it does not exist, it is empty, or it is a
// previous build, holding Marker as a regular file. A marker that is a symbolic link (or any
// other non-regular file) is refused: a link to some other site's marker would let a build
// replace a directory no build created. Errors name out and what is wrong.
func OutDirOK(out string) error {
	ents, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		if st, serr := os.Stat(out); serr == nil && !st.IsDir() {
			return fmt.Errorf("output %s is not a directory", out)
		}
		return fmt.Errorf("output %s: %w", out, err)
	}
	if len(ents) == 0 {
		return nil
	}
	st, err := os.Lstat(filepath.Join(out, Marker))
	if err != nil {
		return fmt.Errorf("output %s is not empty and holds no %s: it is not a previous build, so it is left alone", out, Marker)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("output %s holds a %s that is not a regular file (%s): a build writes the marker as a plain file, so this is not a previous build and it is left alone", out, Marker, fileKind(st.Mode()))
	}
	return nil
}

// fileKind names a non-regular file's type for an error message.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

// swapDir puts the finished build tmp in place of out. Nothing is synced, neither file by
// file nor the tree before the rename: the site is derived output that a build rewrites byte
// for byte from the state, and the rename alone keeps a reader from seeing half a build. After
// a crash the output may lack what the kernel had not written yet; the remedy is the next
// build, which a sync of some 40,000 files would make seconds slower every time.
func swapDir(tmp, out string) error {
	old := ""
	if _, err := os.Stat(out); err == nil {
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			_ = os.Rename(old, out)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// builder holds one build's state.
type builder struct {
	// Model is the network and what every page reads of it.
	*view.Model
	out  string
	dir  *store.Dir
	base string
	repo string
	min  *minify.M
	// templates are the page templates' files (nil: the embedded ones).
	templates fs.FS

	mu      sync.Mutex      // guards written, pages and dirs: pages render concurrently
	written map[string]bool // every file written, by slash path
	pages   []string        // every HTML page written
	// unmapped are the pages the sitemap leaves out (Page.Unmapped).
	unmapped []string
	dirs     map[string]bool // output directories known to exist

	tmpl *templateSet
	// md is this build's rendered publisher Markdown, each distinct text rendered once.
	md *markdown.Memo
	// frags are the fragments rendered once and printed on many pages (entry, frame).
	frags *fragments

	renders *errgroup.Group // page renders, at most workers() at once
	failed  context.Context // done once a render has failed
	bufs    chan *pageBuf   // the running renders' buffers, one set each
	// listBufs are the buffer sets of the pages that list the whole network (wholeNetwork):
	// those pages run to megabytes, and rendering them on a few sets of their own lets those
	// sets grow once instead of every worker's set growing to the largest list.
	listBufs chan *pageBuf
}

// write writes a file at rel (slash path) in the output, minifying known text types. Safe
// for concurrent use. Writing one path twice is a bug in the builder.
func (b *builder) write(rel string, data []byte) error { return b.writeBuf(rel, data, nil) }

// writeBuf is write with scratch, when not nil, a slice the minified bytes may be written
// into and that is handed back (emptied, perhaps grown) for the next file: the page workers
// each keep one, so a build does not allocate a page-sized buffer for every page.
func (b *builder) writeBuf(rel string, data []byte, scratch *[]byte) error {
	if err := b.claimPath(rel); err != nil {
		return err
	}
	ext := path.Ext(rel)
	var out []byte
	var err error
	if scratch != nil {
		out, err = minifyInto(b.min, ext, data, *scratch)
	} else {
		out, err = minifyAs(b.min, ext, data)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if _, known := mediaTypes[ext]; known && scratch != nil {
		defer func() { *scratch = out[:0] }()
	}
	switch ext {
	case ".html", ".xml", ".svg":
		out = pubtext.Markup(out) // publisher text: no override, isolates balanced
	}
	return b.writeFile(rel, out)
}

// writeRaw writes data at rel as it is: for bytes already in their served form (the JSON
// files, validated as served; the feed; cached images).
func (b *builder) writeRaw(rel string, data []byte) error {
	if err := b.claimPath(rel); err != nil {
		return err
	}
	return b.writeFile(rel, data)
}

// claimPath records that rel is written; a second write of one path is a bug in the builder.
func (b *builder) claimPath(rel string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written[rel] {
		return fmt.Errorf("%s written twice", rel)
	}
	b.written[rel] = true
	return nil
}

// writeFile writes the finished bytes of rel, making its directory first.
func (b *builder) writeFile(rel string, data []byte) error {
	if err := b.mkdir(path.Dir(rel)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(b.out, filepath.FromSlash(rel)), data, 0o644)
}

// mkdir makes the output directory rel and its parents, remembering what exists so a build
// of many pages does not ask the file system again for every page.
func (b *builder) mkdir(rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	b.mu.Lock()
	known := b.dirs[rel]
	b.mu.Unlock()
	if known {
		return nil
	}
	if err := b.mkdir(path.Dir(rel)); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(b.out, filepath.FromSlash(rel)), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	b.mu.Lock()
	b.dirs[rel] = true
	b.mu.Unlock()
	return nil
}

// workers is how many pages render and write at once: the work is as much file system
// calls as it is CPU, so more than the cores.
func workers() int { return 4 * runtime.GOMAXPROCS(0) }

// startRenders readies the page renders: at most workers() at once, each with one of
// workers() buffer sets, which live for the whole build (a sync.Pool is emptied by garbage
// collections, after which renders regrow their buffers page by page). The network-wide
// lists have GOMAXPROCS sets of their own (wholeNetwork).
func (b *builder) startRenders() {
	b.renders, b.failed = errgroup.WithContext(context.Background())
	b.renders.SetLimit(workers())
	b.bufs = make(chan *pageBuf, workers())
	for i := 0; i < workers(); i++ {
		b.bufs <- new(pageBuf)
	}
	b.listBufs = make(chan *pageBuf, runtime.GOMAXPROCS(0))
	for i := 0; i < cap(b.listBufs); i++ {
		b.listBufs <- new(pageBuf)
	}
}

// spawn runs a render with a free buffer set from sets, waiting while workers() renders run.
// Once one has failed no more start: waitRenders returns the first error.
func (b *builder) spawn(sets chan *pageBuf, f func(*pageBuf) error) {
	if b.failed.Err() != nil {
		return
	}
	b.renders.Go(func() error {
		pb := <-sets
		defer func() { sets <- pb }()
		return f(pb)
	})
}

// waitRenders waits for every render spawned and returns the first error.
func (b *builder) waitRenders() error { return b.renders.Wait() }

func (b *builder) build() error {
	var err error
	if b.tmpl, err = loadTemplates(b.templates); err != nil {
		return err
	}
	b.bindFuncs()
	if err := b.write(Marker, []byte(markerText+sitedir.MarkerBase+b.base+"\n")); err != nil {
		return err
	}
	if err := b.assets(); err != nil {
		return err
	}
	if b.Cards, err = cards.Build(b.dir, b.N.Claims, b.write, b.writeRaw); err != nil {
		return err
	}
	b.Derived = view.Derive(b.N, b.Names)
	// Pages and files render and write concurrently; each one's bytes depend only on its
	// data, and the list of pages is sorted before anything reads it, so the output is the
	// same.
	b.startRenders()
	err = b.machineFiles()
	if err == nil {
		err = b.renderPages()
	}
	if werr := b.waitRenders(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	sort.Strings(b.pages)
	return b.sitemap()
}

var (
	eventIDPattern = regexp.MustCompile(`^[0-9a-f]{20}$`)
	siteIDPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// checkNames refuses record ids that cannot be page names: every page path is built from
// them, so an id such as "../x" would write outside the output. Such an id is the state
// contradicting its own naming rules (seeds/state.txt, "Names").
func checkNames(n *network.Network) error {
	for _, o := range n.Origins {
		if !siteIDPattern.MatchString(o.ID) {
			return fmt.Errorf("an origin record has the id %q, which is not a site name (lowercase letters, digits and hyphens)", o.ID)
		}
	}
	for _, e := range n.Events {
		if !eventIDPattern.MatchString(e.ID) {
			return fmt.Errorf("an event in %s/ has the id %q, which is not 20 lowercase hex digits", store.EventsDir, e.ID)
		}
	}
	return nil
}

// machineFiles writes the machine-readable files SPEC section 5 names. catalog.json and
// events.json (catalog/format) and updates.xml are at the reference index's paths under
// network-data/, and the catalog schema under schemas/; they are written with the reference's
// keys in its order but without its indentation (compactJSON). Every JSON file is validated
// against its schema first.
// The JSON files are generated, validated and written as renders (spawn), beside the pages:
// the catalog is the largest single file of a large build.
func (b *builder) machineFiles() error {
	opts := format.Options{Index: format.Index{Name: IndexName, URL: b.base, Repository: b.repo}, BaseURL: b.base}
	embedded := func(name string) func() ([]byte, error) {
		return func() ([]byte, error) {
			data, err := fs.ReadFile(schemas.FS, name)
			if err != nil {
				return nil, fmt.Errorf("the schema %s is not embedded: %w", name, err)
			}
			return data, nil
		}
	}
	files := []jsonFile{
		{format.CatalogFile, func() ([]byte, error) { return format.Catalog(b.N, opts) }, func(d []byte) error { return format.Validate(format.CatalogFile, d) }},
		{format.EventsFile, func() ([]byte, error) { return format.Events(b.N, opts) }, func(d []byte) error { return format.Validate(format.EventsFile, d) }},
		{format.SchemaPath, embedded(format.SchemaFile), nil},
	}
	for _, f := range files {
		b.spawn(b.bufs, func(*pageBuf) error { return b.jsonFile(f) })
	}
	b.spawn(b.bufs, func(*pageBuf) error { return find.Write(b.findInput(), b.writeRaw) })
	feed, err := b.atom()
	if err != nil {
		return err
	}
	return b.writeRaw(FeedFile, pubtext.Markup(feed)) // publisher text: as in every markup file
}

// jsonFile is one machine-readable JSON file: its path, how it is generated and the check of
// its schema (nil for the schemas themselves).
type jsonFile struct {
	name     string
	make     func() ([]byte, error)
	validate func([]byte) error
}

// jsonFile generates, validates and writes f; the catalog and the events are written without
// indentation.
func (b *builder) jsonFile(f jsonFile) error {
	data, err := f.make()
	if err != nil {
		return err
	}
	switch f.name {
	case format.CatalogFile, format.EventsFile:
		if data, err = compactJSON(data); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	data = termtext.JSON(data) // no raw C1 control or bidi override in a served file
	if f.validate != nil {
		if err := f.validate(data); err != nil {
			return fmt.Errorf("generated %s does not match its schema: %w", f.name, err)
		}
	}
	return b.writeRaw(f.name, data)
}

// compactJSON is data without the whitespace between its tokens, with one final newline: the
// same document, a quarter to a third smaller than indented by two spaces as it is generated
// (the catalog alone is 28 MB indented at 10,000 claims). Strings keep their bytes and escapes.
func compactJSON(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data))
	if err := json.Compact(&buf, data); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// sitemapLimit is the most URLs one sitemap file may hold (the sitemap protocol's 50,000).
// A variable so a test can reach it with a small site.
var sitemapLimit = 50_000

// sitemap writes sitemap.xml (every page but the 404 page and the unmapped ones, which the
// pages it lists link, by its public URL) and robots.txt.
// A site of more pages than one sitemap may hold gets sitemap-1.xml, sitemap-2.xml, ... of
// sitemapLimit URLs each, and sitemap.xml is their sitemap index, so robots.txt and anyone
// reading sitemap.xml keep the one address.
func (b *builder) sitemap() error {
	pages := make([]string, 0, len(b.pages))
	unmapped := make(map[string]bool, len(b.unmapped))
	for _, p := range b.unmapped {
		unmapped[p] = true
	}
	for _, p := range b.pages {
		if p != notFoundPage && !unmapped[p] {
			pages = append(pages, p)
		}
	}
	sort.Strings(pages)
	urlset := func(ps []string) []byte {
		var buf bytes.Buffer
		buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		buf.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range ps {
			buf.WriteString("<url><loc>")
			xmlEscape(&buf, b.base+paths.Dir(p))
			buf.WriteString("</loc></url>\n")
		}
		buf.WriteString("</urlset>\n")
		return buf.Bytes()
	}
	if len(pages) <= sitemapLimit {
		if err := b.write("sitemap.xml", urlset(pages)); err != nil {
			return err
		}
	} else {
		var idx bytes.Buffer
		idx.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		idx.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for k := 0; k*sitemapLimit < len(pages); k++ {
			name := fmt.Sprintf("sitemap-%d.xml", k+1)
			if err := b.write(name, urlset(pages[k*sitemapLimit:min((k+1)*sitemapLimit, len(pages))])); err != nil {
				return err
			}
			idx.WriteString("<sitemap><loc>")
			xmlEscape(&idx, b.base+name)
			idx.WriteString("</loc></sitemap>\n")
		}
		idx.WriteString("</sitemapindex>\n")
		if err := b.write("sitemap.xml", idx.Bytes()); err != nil {
			return err
		}
	}
	robots := "User-agent: *\nAllow: /\nSitemap: " + b.base + "sitemap.xml\n"
	return b.write("robots.txt", []byte(robots))
}

// checkOverlap refuses an output directory that overlaps the state directory: equal, out
// inside state (the site would be written into the state, which check and the next build then
// trip over), or state inside out (replacing the output whole would delete the state just
// rendered). Paths are compared cleaned and absolute, with symlinks resolved as far as they
// exist, so a link to the state is the state. The error names both paths.
func checkOverlap(state, out string) error {
	s, err := resolvedPath(state)
	if err != nil {
		return fmt.Errorf("build: state directory %s: %w", state, err)
	}
	d, err := resolvedPath(out)
	if err != nil {
		return fmt.Errorf("build: output directory %s: %w", out, err)
	}
	switch {
	case s == d:
		return fmt.Errorf("build: the output directory %s is the state directory %s; choose an --out outside the state", out, state)
	case within(d, s):
		return fmt.Errorf("build: the output directory %s is inside the state directory %s; choose an --out outside the state", out, state)
	case within(s, d):
		return fmt.Errorf("build: the state directory %s is inside the output directory %s, which a build replaces whole; choose an --out that does not hold the state", state, out)
	}
	return nil
}

// resolvedPath is p absolute and cleaned, with symlinks resolved in the longest part of it
// that exists (the rest, not yet created, is joined on as written).
func resolvedPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// within reports whether path p is strictly inside directory dir (both cleaned, absolute).
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
