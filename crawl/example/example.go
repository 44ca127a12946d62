// Package example is a small DreamWeave network written for this index: four sites on the
// reserved .example TLD, served on loopback (crawl/loopback's host mode) for `ashyams demo`,
// the pull-request check and tests. Nothing here is real. Each site exercises something on
// purpose: a walk up, an enrolled project page, a page linking its index, decimal versions,
// a yanked release, hostile Markdown, an identity conflict, unpublished requirements (gaps),
// per-platform artifacts, and broken.example, whose next deployment (WebNext) contradicts its
// channels. internal/exgen generates the documents (go generate), so every digest is computed.
package example

import (
	"cmp"
	"embed"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/crawl/example/internal/exgen"
)

//go:generate go test ./internal/exgen -run TestCommittedFilesAreGenerated -update

//go:embed www www-next network
var files embed.FS

// Hosts are the example sites, one per top-level directory of the web root.
var Hosts = []string{"ashfall.example", "broken.example", "lanterns.example", "tidewater.example"}

// BrokenHost is the site broken on purpose in generation 2 (WebNext).
const BrokenHost = "broken.example"

// Project ids and capabilities worth naming in tests and docs.
const (
	EmberglowID  = exgen.EmberglowID
	WickworkID   = exgen.WickworkID // published by lanterns.example and ashfall.example: a conflict
	KwamaID      = exgen.KwamaID    // its notes carry hostile Markdown
	AshstormID   = exgen.AshstormID
	RoadsID      = exgen.RoadsID // its relationships make the gaps
	GuideID      = exgen.GuideID
	TidecalcID   = exgen.TidecalcID
	SaltmarshID  = exgen.SaltmarshID
	CinderpathID = exgen.CinderpathID // on BrokenHost

	GapID         = exgen.GapID         // required by Dunmer Roads, published by nobody
	GapCapability = exgen.GapCapability // required by Dunmer Roads, provided by nobody
	GapURL        = exgen.GapURL        // a relationship URL outside every enrolled site
	SchedulerCap  = exgen.SchedulerCap  // provided by both Wickworks, required by Dunmer Roads
)

// CardImage is the web-root path of Emberglow's card image (a PNG).
const CardImage = exgen.CardImage

func sub(dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		panic(err)
	}
	return f
}

// Web is generation 1, every site's first deployment: a web root laid out as <host>/<path>.
func Web() fs.FS { return sub("www") }

// WebNext is the next deployment: www-next laid over Web (a new Emberglow build, an invalid
// broken.example manifest).
func WebNext() fs.FS { return overlay{top: sub("www-next"), base: sub("www")} }

// Sources is the example's network/sources.toml, each site at http://<host>/: serve Web with
// crawl/loopback and read through its Resolver and Dial, or RewriteText for path mode.
func Sources() []byte { return mustRead("network/sources.toml") }

// Curation is the example's network/curation.toml (a [[featured]] entry, no migrations).
func Curation() []byte { return mustRead("network/curation.toml") }

func mustRead(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// Claim is one (project id, site) pair the example publishes, as its site index lists it.
type Claim struct {
	Project string // the project id
	Name    string // the name the index gives
	Host    string // the publishing site's host
	Index   string // the site index URL, http://<host>/...
}

// Claims lists every claim of generation 1, sorted by project id then host.
func Claims() []Claim {
	var out []Claim
	err := fs.WalkDir(Web(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "/dreamweave.json") {
			return err
		}
		b, err := fs.ReadFile(Web(), p)
		if err != nil {
			return err
		}
		var ix struct {
			Projects []struct{ ID, Name string } `json:"projects"`
		}
		if err := json.Unmarshal(b, &ix); err != nil {
			return err
		}
		host, _, _ := strings.Cut(p, "/")
		for _, e := range ix.Projects {
			out = append(out, Claim{Project: e.ID, Name: e.Name, Host: host, Index: "http://" + p})
		}
		return nil
	})
	if err != nil {
		panic(err) // embedded, checked by the tests
	}
	slices.SortFunc(out, func(a, b Claim) int {
		return cmp.Or(strings.Compare(a.Project, b.Project), strings.Compare(a.Host, b.Host))
	})
	return out
}
