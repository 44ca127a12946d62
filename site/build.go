// Package site is the render stage (SPEC section 5): it turns the state directory and the
// curation file into a complete static site and the machine-readable files beside it.
//
// Build is a pure function of its inputs: the only times on the site are observation times
// the crawler recorded. Every page renders from the network model (catalog/network), so no
// page computes its own conflicts, resolution, capabilities, gaps or used-by.
package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
	"github.com/DreamWeave-MP/ashyams-go/site/find"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
)

// Defaults for the index's identity in the generated files and pages.
const (
	// DefaultBaseURL is where the site is published.
	DefaultBaseURL = "https://dreamweave-mp.github.io/ashyams-go/"
	// DefaultRepository is where the index's code and state live.
	DefaultRepository = "https://github.com/DreamWeave-MP/ashyams-go"
	// IndexName is the index's display name.
	IndexName = render.IndexName
)

// Marker is the file every built site holds. Build replaces an existing output directory only
// when it holds this file (or is empty), so a mistyped --out deletes nothing.
const Marker = sitedir.Marker

const markerText = "This directory is written by `ashyams build` and replaced whole by every build.\n"

// BuiltBaseURL is the base URL the site in out was built for, as its Marker records it; ""
// when there is none. Errors: a marker that cannot be read.
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
	// BaseURL is the absolute http(s) URL the site is published at ("" is DefaultBaseURL),
	// for sitemap.xml, canonical links, the Atom feed and catalog network_page.
	BaseURL string
	// Repository is the index's repository URL ("" is DefaultRepository).
	Repository string

	// templates replaces the embedded templates (tests only).
	templates fs.FS
	// markdown replaces the renderer of publisher Markdown (tests only).
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
// Errors: a bad option; a refused curation file; a state record that does not parse or
// contradicts itself visibly (store.Check's words); a cached media file whose bytes do not
// match its name; a generated JSON file that does not match its schema; an output directory
// that is not a previous build or overlaps the state directory. On error the previous
// output, if any, is left as it was.
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
	rs, err := render.New(tmp, dir, view.NewModel(n), base, repo, o.templates, o.markdown)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	b := &builder{rs}
	if err := b.build(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if err := swapDir(tmp, o.Out); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	pages, _ := b.Pages()
	return &Result{Pages: pages, Files: b.Files(), Network: n}, nil
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
// A base URL is an absolute http(s) URL without user info, query or fragment. The error
// names the value and what it lacks.
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

// OutDirOK returns nil when Build may replace out: it does not exist, it is empty, or it
// holds Marker as a regular file (a symbolic link could point at another site's marker).
// Errors name out and what is wrong.
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
		return fmt.Errorf("output %s holds a %s that is not a regular file (%s): a build writes the marker as a plain file, so this is not a previous build and it is left alone", out, Marker, store.FileKind(st.Mode()))
	}
	return nil
}

// swapDir puts the finished build tmp in place of out. Nothing is synced: the site is
// derived output the next build rewrites, and the rename alone keeps a reader from seeing
// half a build.
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

// builder is one build: its output, page machinery and the non-page file steps.
type builder struct{ *render.Site }

func (b *builder) build() error {
	var err error
	if err := b.Write(Marker, []byte(markerText+sitedir.MarkerBase+b.Base+"\n")); err != nil {
		return err
	}
	if err := b.WriteAssets(); err != nil {
		return err
	}
	if b.Cards, err = cards.Build(b.Dir, b.N.Claims, b.Write, b.WriteRaw); err != nil {
		return err
	}
	b.Derived = view.Derive(b.N, b.Names)
	// Pages and files render concurrently; each one's bytes depend only on its data, and the
	// page list is sorted before anything reads it.
	b.Start()
	err = b.machineFiles()
	if err == nil {
		err = b.renderPages()
	}
	if werr := b.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	return b.sitemap()
}

var (
	eventIDPattern = regexp.MustCompile(`^[0-9a-f]{20}$`)
	siteIDPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// checkNames refuses record ids that cannot be page names ("../x" would write outside the
// output): the state contradicting seeds/state.txt, "Names".
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

// machineFiles writes the machine-readable files SPEC section 5 names and search.json, at
// the reference index's paths under network-data/ (schemas under schemas/), with its keys
// in its order but compact. Every JSON file is validated against its schema first; they
// render in turn, concurrently with the pages.
func (b *builder) machineFiles() error {
	opts := format.Options{Index: format.Index{Name: IndexName, URL: b.Base, Repository: b.Repo}, BaseURL: b.Base}
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
		{about.SearchFile, func() ([]byte, error) { return about.SearchJSON(b.Site) }, about.ValidateSearch},
		{format.SchemaPath, embedded(format.SchemaFile), nil},
	}
	b.Go(func() error { // one after another: a file's decoded tree is garbage before the next
		for _, f := range files {
			if err := b.jsonFile(f); err != nil {
				return err
			}
		}
		return nil
	})
	b.Go(func() error { return find.Write(about.FindInput(b.Site), b.WriteRaw) })
	return feed.Atom(b.Site)
}

// jsonFile is one machine-readable JSON file: its path, generator and schema check (nil for
// the schemas themselves).
type jsonFile struct {
	name     string
	make     func() ([]byte, error)
	validate func([]byte) error
}

// jsonFile generates, validates and writes f.
func (b *builder) jsonFile(f jsonFile) error {
	data, err := f.make()
	if err != nil {
		return err
	}
	switch f.name {
	case format.CatalogFile, format.EventsFile, about.SearchFile:
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
	return b.WriteRaw(f.name, data)
}

// compactJSON is data without whitespace between tokens, with one final newline: a quarter
// to a third smaller than indented. Strings keep their bytes and escapes. It compacts in
// place: json.Compact writes no byte before reading it.
func compactJSON(data []byte) ([]byte, error) {
	buf := bytes.NewBuffer(data[:0])
	if err := json.Compact(buf, data); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// sitemapLimit is the most URLs one sitemap file may hold; a variable for tests.
var sitemapLimit = 50_000

// sitemap writes sitemap.xml (every page but the 404 and unmapped ones, by public URL) and
// robots.txt. Past sitemapLimit pages, sitemap.xml is an index of sitemap-1.xml, ... .
func (b *builder) sitemap() error {
	all, left := b.Pages()
	pages := make([]string, 0, len(all))
	unmapped := make(map[string]bool, len(left))
	for _, p := range left {
		unmapped[p] = true
	}
	for _, p := range all {
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
			render.XMLEscape(&buf, b.Base+paths.Dir(p))
			buf.WriteString("</loc></url>\n")
		}
		buf.WriteString("</urlset>\n")
		return buf.Bytes()
	}
	if len(pages) <= sitemapLimit {
		if err := b.Write("sitemap.xml", urlset(pages)); err != nil {
			return err
		}
	} else {
		var idx bytes.Buffer
		idx.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
		idx.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for k := 0; k*sitemapLimit < len(pages); k++ {
			name := fmt.Sprintf("sitemap-%d.xml", k+1)
			if err := b.Write(name, urlset(pages[k*sitemapLimit:min((k+1)*sitemapLimit, len(pages))])); err != nil {
				return err
			}
			idx.WriteString("<sitemap><loc>")
			render.XMLEscape(&idx, b.Base+name)
			idx.WriteString("</loc></sitemap>\n")
		}
		idx.WriteString("</sitemapindex>\n")
		if err := b.Write("sitemap.xml", idx.Bytes()); err != nil {
			return err
		}
	}
	robots := "User-agent: *\nAllow: /\nSitemap: " + b.Base + "sitemap.xml\n"
	return b.Write("robots.txt", []byte(robots))
}

// checkOverlap refuses an output directory that equals, is inside or holds the state
// directory, comparing resolved absolute paths (a link to the state is the state). The
// error names both paths.
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

// resolvedPath is p absolute and cleaned, with symlinks resolved in its longest existing part.
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
