// Package installtest publishes a synthetic DreamWeave network on loopback for the install
// client's tests (crawl/install, cmd/ashyams): release archives built as the artifacts page
// says, served as publishers' and mirrors' downloads, and the index site site.Build makes from
// their manifests. Test-only; not internal so cmd/ashyams can import it.
package installtest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site"
)

// Component is one component of a release: its folder in the archive ("." the root), files
// (name -> bytes), and data directories ("." when none given).
type Component struct {
	ID, Path string
	Optional bool // neither required nor a default
	Files    map[string]string
	Content  []string
	Data     []string
}

// Entry is a raw, possibly hostile, archive entry: a file or any kind by Mode; Deflate
// compresses it.
type Entry struct {
	Name    string
	Body    string
	Mode    fs.FileMode
	Deflate bool
}

// Project is one project's current release, as its publisher declares and serves it.
type Project struct {
	ID, Name, Version string
	Components        []Component // default: one component "main" at "." holding <Name>.esp
	Requires          []string    // project ids
	Settings          []protocol.OpenMWSetting
	// Critical is critical_extensions (nil: ["openmw"]).
	Critical []string
	// Mirror adds a mirror, listed before the publisher; Tamper makes the publisher serve other
	// bytes of the same length; Broken makes every source fail.
	Mirror, Tamper, Broken bool
	// Entries are added to the archive as they are.
	Entries []Entry
	// Stale makes the index hold only a cached copy; Withdrawn takes it out of the catalog.
	Stale, Withdrawn bool
}

// ID is a project id for n.
func ID(n int) string { return statetest.ID(n) }

// Network is the publishers' downloads and the index site, on one loopback server.
type Network struct {
	TB  testing.TB
	URL string // "http://127.0.0.1:<port>/"

	mu    sync.Mutex
	site  string            // the built index site served under /index/
	files map[string][]byte // publishers' and mirrors' downloads, by path
	log   []string
}

// SiteURL is the publishers' site index every project is claimed from.
const SiteURL = "https://mods.example/dreamweave.json"

// New starts a network with nothing published.
func New(tb testing.TB) *Network {
	n := &Network{TB: tb, files: map[string][]byte{}}
	srv := httptest.NewServer(http.HandlerFunc(n.serve))
	tb.Cleanup(srv.Close)
	n.URL = srv.URL + "/"
	return n
}

func (n *Network) serve(w http.ResponseWriter, r *http.Request) {
	n.mu.Lock()
	n.log = append(n.log, r.URL.Path)
	b, ok := n.files[r.URL.Path]
	root := n.site
	n.mu.Unlock()
	switch {
	case ok:
		http.ServeContent(w, r, "a.zip", time.Time{}, bytes.NewReader(b))
	case strings.HasPrefix(r.URL.Path, "/index/") && root != "":
		http.StripPrefix("/index/", http.FileServer(http.Dir(root))).ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// Requests returns the paths asked for since the last call.
func (n *Network) Requests() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.log
	n.log = nil
	return out
}

// Downloads counts the requests for publishers' and mirrors' files since the last Requests.
func (n *Network) Downloads() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, p := range n.log {
		if !strings.HasPrefix(p, "/index/") {
			c++
		}
	}
	return c
}

// Index is the index site's address.
func (n *Network) Index() string { return n.URL + "index/" }

// Link is the plan page's link with the plan fragment after "#".
func (n *Network) Link(fragment string) string { return n.Index() + "plan/#" + fragment }

// Publish builds, serves and indexes the projects' archives, replacing what was published.
func (n *Network) Publish(ps ...Project) {
	tb := n.TB
	tb.Helper()
	st := statetest.New(tb)
	siteID := st.Site(SiteURL, "Synthetic mods")
	for _, p := range ps {
		m := n.manifest(p)
		edit := func(c *store.Claim) {}
		switch {
		case p.Stale:
			edit = func(c *store.Claim) {
				c.Health, c.Problem, c.AdvertisedSHA256 = store.ClaimManifestUnreachable, new("the manifest could not be fetched: HTTP 503"), strings.Repeat("ab", 32)
			}
		case p.Withdrawn:
			edit = func(c *store.Claim) {
				c.Health, c.Problem = store.ClaimWithdrawn, new("no longer listed by its site's index")
			}
		}
		st.Claim(siteID, m, edit)
	}
	out := filepath.Join(tb.TempDir(), "site")
	if _, err := site.Build(site.Options{State: st.Dir.Root, Out: out, BaseURL: n.Index()}); err != nil {
		tb.Fatal(err)
	}
	n.mu.Lock()
	n.site = out
	n.mu.Unlock()
}

// manifest is p's manifest, its archive built and served.
func (n *Network) manifest(p Project) *protocol.Manifest {
	comps := p.Components
	if comps == nil {
		comps = []Component{{ID: "main", Path: ".", Files: map[string]string{p.Name + ".esp": "TES3 " + p.Name}, Content: []string{p.Name + ".esp"}}}
	}
	r := statetest.Release(p.Version, "stable", nil)
	ext := protocol.OpenMW{Components: map[string]protocol.OpenMWComponent{}, RequiresContent: []string{}, Settings: p.Settings}
	if ext.Settings == nil {
		ext.Settings = []protocol.OpenMWSetting{}
	}
	format := "bain"
	if len(comps) == 1 && comps[0].Path == "." {
		format = "flat"
	}
	var es []Entry
	for _, c := range comps {
		r.Components = append(r.Components, protocol.Component{ID: c.ID, Name: c.ID, Path: c.Path, Required: !c.Optional,
			Default: !c.Optional, Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
		data := c.Data
		if data == nil {
			data = []string{"."}
		}
		ext.Components[c.ID] = protocol.OpenMWComponent{DataDirectories: data, ContentFiles: append([]string{}, c.Content...), GroundcoverFiles: []string{},
			FallbackArchives: []string{}, FallbackEntries: map[string]string{}, RequiresContent: []string{}}
		for name, body := range c.Files {
			es = append(es, Entry{Name: strings.TrimPrefix(c.Path+"/", "./") + name, Body: body})
		}
	}
	for _, id := range p.Requires {
		r.Relationships = append(r.Relationships, statetest.Requires(id, ""))
	}
	extJSON, _ := json.Marshal(ext)
	r.Extensions = map[string]json.RawMessage{"openmw": extJSON}
	r.CriticalExtensions = p.Critical
	if r.CriticalExtensions == nil {
		r.CriticalExtensions = []string{"openmw"}
	}
	payload, _ := json.Marshal(map[string]any{"document": "release-payload", "id": p.ID, "name": p.Name, "slug": p.ID,
		"versioning": "numeric", "version": p.Version, "format": format, "runtimes": r.Runtimes, "critical_extensions": r.CriticalExtensions})
	es = append(es, Entry{Name: "dreamweave.release.json", Body: string(payload)})
	zipped := Zip(n.TB, append(es, p.Entries...)...)
	file := fmt.Sprintf("%s-%s.zip", strings.ReplaceAll(p.Name, " ", "-"), p.Version)
	pub, mirror := "/pub/"+p.ID+"/"+file, "/mirror/"+p.ID+"/"+file
	a := &r.Artifacts[0]
	a.Format, a.Filename, a.Size, a.Digests.SHA256 = format, file, int64(len(zipped)), store.Digest(zipped)
	a.Sources = []protocol.ArtifactSource{{URL: n.URL[:len(n.URL)-1] + pub, Kind: "publisher"}}
	if p.Mirror {
		a.Sources = append([]protocol.ArtifactSource{{URL: n.URL[:len(n.URL)-1] + mirror, Kind: "mirror", Name: "Mirror"}}, a.Sources...)
	}
	served := zipped
	if p.Tamper {
		served = bytes.Clone(zipped)
		served[len(served)/2] ^= 0xff
	}
	n.mu.Lock()
	if !p.Broken {
		n.files[pub] = served
		if p.Mirror {
			n.files[mirror] = zipped
		}
	}
	n.mu.Unlock()
	return statetest.Manifest(p.ID, p.Name, "", r)
}

// Zip is a stored zip of the entries, sorted, dated 1980-01-01, as the Mod Template builds one.
func Zip(tb testing.TB, es ...Entry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	dirs := map[string]bool{}
	for _, e := range es {
		for d := filepath.ToSlash(filepath.Dir(e.Name)); d != "." && !dirs[d] && e.Mode == 0 && filepath.IsLocal(e.Name); d = filepath.ToSlash(filepath.Dir(d)) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		es = append(es, Entry{Name: d + "/"})
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	for _, e := range es {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Store, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)}
		if e.Deflate {
			h.Method = zip.Deflate
		}
		if e.Mode != 0 {
			h.SetMode(e.Mode)
		}
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write([]byte(e.Body))
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
