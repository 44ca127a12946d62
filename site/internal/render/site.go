// Package render is the site's page machinery: the output directory (each file once,
// minified, bidi-checked), templates, shared fragments, the page frame, paged lists and the
// concurrent renders. The pages themselves are in site/internal/pages.
package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/markdown"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/view"
	"github.com/tdewolff/minify/v2"
	"golang.org/x/sync/errgroup"
)

// Site is one build's output and page machinery, with the model every page reads.
type Site struct {
	// Model is the network and what every page reads of it.
	*view.Model
	// Dir is the state directory the build reads; Base the base URL (with a final "/");
	// Repo the index's repository URL.
	Dir  *store.Dir
	Base string
	Repo string
	out  string
	min  *minify.M

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
	// listBufs are the buffer sets of the whole-network pages (wholeNetwork), megabytes
	// each: a few sets of their own grow once instead of every worker's.
	listBufs chan *pageBuf
}

// New is a build's Site writing into out: templates from fsys (nil: embedded), md
// rendering publisher Markdown (nil: markdown.Markdown).
func New(out string, dir *store.Dir, m *view.Model, base, repo string, fsys fs.FS, md func(string) template.HTML) (*Site, error) {
	s := &Site{Model: m, Dir: dir, Base: base, Repo: repo, out: out, min: newMinifier(),
		written: map[string]bool{}, dirs: map[string]bool{}, md: markdown.NewMemo(md)}
	var err error
	if s.tmpl, err = loadTemplates(fsys); err != nil {
		return nil, err
	}
	s.bindFuncs()
	return s, nil
}

// Pages are the HTML pages written, sorted, and those the sitemap leaves out; read after
// Wait.
func (b *Site) Pages() (pages, unmapped []string) {
	sort.Strings(b.pages)
	return b.pages, b.unmapped
}

// Files counts every file written.
func (b *Site) Files() int { return len(b.written) }

// Go runs f as a render, beside the pages (Wait returns its error).
func (b *Site) Go(f func() error) { b.spawn(b.bufs, func(*pageBuf) error { return f() }) }

// GoWrite writes at rel the markup make writes into buf, as a render with a render's buffers.
func (b *Site) GoWrite(rel string, make func(buf *bytes.Buffer) error) {
	b.spawn(b.bufs, func(pb *pageBuf) error {
		pb.html.Reset()
		if err := make(&pb.html); err != nil {
			return err
		}
		pb.html.Grow(1) // room for the minifier's terminator
		return b.writeBuf(rel, pb.html.Bytes(), &pb.min)
	})
}

// Write writes a file at rel (slash path) in the output, minifying known text types. Safe
// for concurrent use. Writing one path twice is a bug in the build.
func (b *Site) Write(rel string, data []byte) error {
	min := make([]byte, 0, len(data))
	return b.writeBuf(rel, data, &min)
}

// writeBuf is Write minifying into scratch, a slice handed back for the next file, so each
// worker reuses one buffer.
func (b *Site) writeBuf(rel string, data []byte, scratch *[]byte) error {
	if err := b.claimPath(rel); err != nil {
		return err
	}
	ext := path.Ext(rel)
	out, err := minifyInto(b.min, ext, data, *scratch)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if _, known := mediaTypes[ext]; known {
		defer func() { *scratch = out[:0] }()
	}
	switch ext {
	case ".html", ".xml", ".svg":
		out = pubtext.Markup(out) // publisher text: no override, isolates balanced
	}
	return b.writeFile(rel, out)
}

// writeRaw writes data at rel as it is, for bytes already in their served form.
func (b *Site) WriteRaw(rel string, data []byte) error {
	if err := b.claimPath(rel); err != nil {
		return err
	}
	return b.writeFile(rel, data)
}

// claimPath records that rel is written; a second write of one path is a bug in the build.
func (b *Site) claimPath(rel string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written[rel] {
		return fmt.Errorf("%s written twice", rel)
	}
	b.written[rel] = true
	return nil
}

// writeFile writes the finished bytes of rel, making its directory first.
func (b *Site) writeFile(rel string, data []byte) error {
	if err := b.mkdir(path.Dir(rel)); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(b.out, filepath.FromSlash(rel)), data, 0o644)
}

// mkdir makes the output directory rel and its parents, remembering what exists.
func (b *Site) mkdir(rel string) error {
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

// workers is how many pages render at once: more than the cores, as much of the work is
// file system calls.
func workers() int { return 4 * runtime.GOMAXPROCS(0) }

// Start readies the page renders: at most workers() at once, each with one of workers()
// buffer sets living for the whole build (a sync.Pool is emptied by collections). The
// network-wide lists have GOMAXPROCS sets of their own.
func (b *Site) Start() {
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
// Once one has failed no more start: Wait returns the first error.
func (b *Site) spawn(sets chan *pageBuf, f func(*pageBuf) error) {
	if b.failed.Err() != nil {
		return
	}
	b.renders.Go(func() error {
		pb := <-sets
		defer func() { sets <- pb }()
		return f(pb)
	})
}

// Wait waits for every render spawned and returns the first error.
func (b *Site) Wait() error { return b.renders.Wait() }
