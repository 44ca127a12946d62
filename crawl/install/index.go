package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// Planned is a claim a plan file says the page planned.
type Planned struct {
	Project string `json:"project"`
	Site    string `json:"site"`
	Version string `json:"version"`
}

// ReadPlan reads PLAN: a plan link, or a plan file (schemas/ashyams-plan-1, at most 1 MiB),
// returning its link and planned claims.
func ReadPlan(arg string) (string, []Planned, error) {
	if strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://") {
		return arg, nil, nil
	}
	var p struct {
		Format, Link string
		Planned      []Planned
	}
	found, err := readJSON(arg, 1<<20, schemas.PlanFile, &p)
	if !found {
		err = errors.New("it is neither a plan link (https://.../plan/#...) nor a file")
	}
	if err != nil {
		return "", nil, fmt.Errorf("the plan %s is refused: %w", arg, err)
	}
	return p.Link, p.Planned, nil
}

// readJSON decodes the file at path (at most max bytes) into v once it passes the schema;
// false when there is no file.
func readJSON(path string, max int64, schema string, v any) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return true, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return true, err
	}
	s, err := schemas.Compile(schemas.FS, schema)
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("it is over %d KiB", max>>10)
	}
	if err == nil {
		err = schemas.Validate(s, b)
	}
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		err = dec.Decode(v)
	}
	return true, err
}

// index reads an index's plan page, data parts and network-data/catalog.json through the guard.
type index struct {
	base string // the folder holding plan/, ending in "/"
	c    *guard.Client
}

// The most bytes read of the index's files: a page or a data part, and the catalog.
const (
	maxPart    = 16 << 20
	maxCatalog = 256 << 20
)

// openIndex checks a plan link and returns its index and fragment: https, or http to loopback
// with allowLoopback.
func openIndex(link string, c *guard.Client, allowLoopback bool) (*index, string, error) {
	u, err := url.Parse(link)
	bad := func(why string) (*index, string, error) {
		return nil, "", fmt.Errorf("the plan link %q %s", link, why)
	}
	if err != nil {
		return bad("is not a URL")
	}
	if u.Scheme != "https" && (u.Scheme != "http" || !allowLoopback || !loopbackHost(u.Hostname())) {
		return bad("is not https (http is read only from a loopback address, with --allow-loopback)")
	}
	dir, file := path.Split(u.Path)
	_, frag, hasFrag := strings.Cut(link, "#")
	if file != "" && file != "index.html" || !strings.HasSuffix(dir, "/plan/") || !hasFrag {
		return bad("is not a plan page's address with a plan after \"#\" (https://.../plan/#add=...)")
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment, u.RawFragment = strings.TrimSuffix(dir, "plan/"), "", "", "", ""
	return &index{base: u.String(), c: c}, frag, nil
}

func loopbackHost(h string) bool {
	a, err := netip.ParseAddr(h)
	return h == "localhost" || err == nil && a.IsLoopback()
}

// get reads the index's file rel: answered 200, at most max bytes.
func (ix *index) get(ctx context.Context, rel string, max int64) ([]byte, error) {
	r, err := ix.c.Get(ctx, guard.Request{URL: ix.base + rel, MaxBytes: max})
	if err == nil && r.Status != 200 {
		err = fmt.Errorf("%s answered HTTP %d", ix.base+rel, r.Status)
	}
	if err != nil {
		return nil, fmt.Errorf("the index's %s could not be read: %w", rel, err)
	}
	return r.Body, nil
}

// maxRounds bounds the rounds of data parts a plan reads.
const maxRounds = 64

// load starts the plan engine on the index's plan page and reads the fragment's request.
func (ix *index) load(ctx context.Context, frag string) (*engine.Engine, engine.Request, error) {
	page, err := ix.get(ctx, "plan/index.html", maxPart)
	if err != nil {
		return nil, engine.Request{}, err
	}
	shards, err := engine.PageShards(page)
	if err != nil {
		return nil, engine.Request{}, fmt.Errorf("the index's plan page: %w", err)
	}
	e, err := engine.New(engine.Options{Shards: shards})
	if err != nil {
		return nil, engine.Request{}, err
	}
	req, err := e.ParseFragment(frag)
	return e, req, err
}

// plan reads every data part req's plan needs into e and plans it.
func (ix *index) plan(ctx context.Context, e *engine.Engine, req engine.Request) (*engine.Plan, error) {
	for range maxRounds {
		names, err := e.Parts(req)
		if err != nil || len(names) == 0 {
			if err != nil {
				return nil, err
			}
			return e.Compute(req)
		}
		for _, n := range names {
			b, err := ix.get(ctx, "plan/data/"+n+".js", maxPart)
			if err == nil {
				err = e.AddPart(n, b)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return nil, fmt.Errorf("the plan still names data parts to read after %d rounds", maxRounds)
}

// health is a claim as the catalog lists it: name, current release, how current the copy is.
type health struct {
	Name    string `json:"name"`
	Current *struct {
		Version string `json:"version"`
	} `json:"current"`
	Health string `json:"health"`
	Cached bool   `json:"cached"`
}

// stale says a claim the index holds only as a copy that may be behind its publisher.
func (h health) stale() bool { return h.Health != "current" || h.Cached }

// healths reads the catalog's claims' health, by key ("<project>/<site>").
func (ix *index) healths(ctx context.Context) (map[string]health, error) {
	b, err := ix.get(ctx, "network-data/catalog.json", maxCatalog)
	if err != nil {
		return nil, err
	}
	var cat struct {
		Claims []struct {
			Project, Origin string
			health
		} `json:"claims"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&cat); err != nil {
		return nil, fmt.Errorf("the index's network-data/catalog.json: %w", err)
	}
	out := map[string]health{}
	for _, c := range cat.Claims {
		out[c.Project+"/"+c.Origin] = c.health
	}
	return out, nil
}
