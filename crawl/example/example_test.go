package example

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
	"github.com/DreamWeave-MP/ashyams-go/crawl/sources"
)

type rawIndex struct {
	Projects []struct {
		ID             string            `json:"id"`
		Manifest       string            `json:"manifest"`
		ManifestSHA256 string            `json:"manifest_sha256"`
		Channels       map[string]string `json:"channels"`
	} `json:"projects"`
}

// indexes returns every site index of a web root: path -> bytes.
func indexes(t *testing.T, root fs.FS) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "/dreamweave.json") {
			out[p], err = fs.ReadFile(root, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(Hosts) {
		t.Fatalf("%d site indexes, want one per host (%d)", len(out), len(Hosts))
	}
	return out
}

// file maps a published http://<host>/<path> URL to its path in the web root.
func file(t *testing.T, url string) string {
	t.Helper()
	p, ok := strings.CutPrefix(url, "http://")
	if !ok {
		t.Fatalf("%s is not an http:// URL of an example site", url)
	}
	return p
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Every manifest_sha256, in both generations, is the SHA-256 of the manifest bytes it names:
// the broken site is broken by its manifest's content, never by a digest mismatch.
func TestManifestDigestsAreReal(t *testing.T) {
	for gen, root := range map[string]fs.FS{"Web": Web(), "WebNext": WebNext()} {
		n := 0
		for p, b := range indexes(t, root) {
			var ix rawIndex
			if err := json.Unmarshal(b, &ix); err != nil {
				t.Fatalf("%s %s: %v", gen, p, err)
			}
			for _, e := range ix.Projects {
				m, err := fs.ReadFile(root, file(t, e.Manifest))
				if err != nil {
					t.Fatalf("%s %s: manifest %s: %v", gen, p, e.Manifest, err)
				}
				if got := hexSHA(m); got != e.ManifestSHA256 {
					t.Errorf("%s %s: %s hashes to %s, index advertises %s", gen, p, e.ID, got, e.ManifestSHA256)
				}
				n++
			}
		}
		if n != len(Claims()) {
			t.Errorf("%s: %d manifests checked, want %d", gen, n, len(Claims()))
		}
	}
}

// Every document is valid DreamWeave v2 under catalog/protocol, except generation 2's
// Cinderpath manifest, which must be invalid for the rule it breaks on purpose.
func TestDocumentsValidateExceptTheBrokenOne(t *testing.T) {
	for gen, root := range map[string]fs.FS{"Web": Web(), "WebNext": WebNext()} {
		for p, b := range indexes(t, root) {
			ix, fds := protocol.ValidateIndex(b)
			if len(fds) != 0 || ix == nil {
				t.Errorf("%s %s: site index findings %+v", gen, p, fds)
				continue
			}
			for _, e := range ix.Projects {
				mb, err := fs.ReadFile(root, file(t, e.Manifest))
				if err != nil {
					t.Fatal(err)
				}
				m, fds := protocol.ValidateManifest(mb, e.ID)
				broken := gen == "WebNext" && e.ID == CinderpathID
				if broken {
					if len(fds) == 0 {
						t.Errorf("%s: the broken manifest validates", gen)
					}
					for _, f := range fds {
						if !strings.Contains(f.Pointer, "/channels") && !strings.Contains(f.Message, "channel") {
							t.Errorf("broken manifest: finding unrelated to its channels: %+v", f)
						}
					}
					continue
				}
				if len(fds) != 0 || m == nil {
					t.Errorf("%s %s: %s findings %+v", gen, p, e.ID, fds)
					continue
				}
				// The index's channels are the manifest's recomputed heads.
				for ch, r := range protocol.Heads(m) {
					if e.Channels[ch] != r.Version {
						t.Errorf("%s %s: index channel %s = %q, manifest head %s", gen, e.ID, ch, e.Channels[ch], r.Version)
					}
				}
			}
		}
	}
}

func TestClaimsCoverTheCases(t *testing.T) {
	cs := Claims()
	ids := map[string][]string{}
	for _, c := range cs {
		ids[c.Project] = append(ids[c.Project], c.Host)
	}
	if len(ids) < 8 {
		t.Fatalf("%d projects, want at least 8", len(ids))
	}
	for _, id := range []string{EmberglowID, WickworkID, KwamaID, AshstormID, RoadsID, GuideID, TidecalcID, SaltmarshID, CinderpathID} {
		if len(ids[id]) == 0 {
			t.Errorf("project %s is not published", id)
		}
	}
	if got := ids[WickworkID]; !slices.Equal(got, []string{"ashfall.example", "lanterns.example"}) {
		t.Errorf("conflict: Wickwork published by %v, want two sites", got)
	}
	if len(ids[GapID]) != 0 {
		t.Errorf("the gap id %s is published by %v", GapID, ids[GapID])
	}
	if got := ids[CinderpathID]; !slices.Equal(got, []string{BrokenHost}) {
		t.Errorf("Cinderpath on %v", got)
	}
	// Nobody provides the gap capability; the scheduler is provided by both Wickwork claims.
	provides := map[string]int{}
	for _, c := range cs {
		m := manifestOf(t, Web(), c)
		_, r := protocol.Current(m)
		for _, cap := range r.Provides {
			provides[cap]++
		}
	}
	if provides[GapCapability] != 0 || provides[SchedulerCap] != 2 {
		t.Errorf("capabilities provided by current releases: %v", provides)
	}
	for _, h := range Hosts {
		if strings.Contains(GapURL, "://"+h+"/") {
			t.Errorf("GapURL %s is on enrolled site %s", GapURL, h)
		}
	}
}

func manifestOf(t *testing.T, root fs.FS, c Claim) *protocol.Manifest {
	t.Helper()
	ib, err := fs.ReadFile(root, file(t, c.Index))
	if err != nil {
		t.Fatal(err)
	}
	var ix rawIndex
	if err := json.Unmarshal(ib, &ix); err != nil {
		t.Fatal(err)
	}
	for _, e := range ix.Projects {
		if e.ID == c.Project {
			mb, err := fs.ReadFile(root, file(t, e.Manifest))
			if err != nil {
				t.Fatal(err)
			}
			m, fds := protocol.ValidateManifest(mb, e.ID)
			if m == nil {
				t.Fatalf("%s: %+v", e.ID, fds)
			}
			return m
		}
	}
	t.Fatalf("%s not in %s", c.Project, c.Index)
	return nil
}

// The manifests show the cases the demo is meant to show: channels, a yanked and a deprecated
// release, both versioning schemes, dependencies by id and by capability, hostile notes.
func TestManifestsShowTheCases(t *testing.T) {
	byID := map[string]*protocol.Manifest{}
	for _, c := range Claims() {
		if c.Host != "ashfall.example" || c.Project != WickworkID {
			byID[c.Project] = manifestOf(t, Web(), c)
		}
	}
	em := byID[EmberglowID]
	if h := protocol.Heads(em); h["stable"] == nil || h["development"] == nil || h["beta"] == nil {
		t.Errorf("Emberglow heads %v: want stable, beta and development", h)
	}
	status := map[string]bool{}
	for _, m := range byID {
		for _, r := range m.Releases {
			status[r.Status] = true
		}
	}
	if !status["yanked"] || !status["deprecated"] {
		t.Errorf("release statuses seen: %v", status)
	}
	if byID[AshstormID].Project.Versioning != "decimal" || byID[SaltmarshID].Project.Versioning != "decimal" ||
		byID[EmberglowID].Project.Versioning != "numeric" {
		t.Error("versioning schemes not as described")
	}
	if _, r := protocol.Current(byID[AshstormID]); r.Version != "0.97" {
		t.Errorf("Ashstorm current %s, want 0.97 (decimal: 0.97 > 0.963)", r.Version)
	}
	var byProject, byCapability bool
	for _, r := range byID[RoadsID].Releases[0].Relationships {
		byProject = byProject || (r.Kind == "requires" && r.Project == AshstormID)
		byCapability = byCapability || (r.Kind == "requires" && r.Capability == SchedulerCap)
	}
	if !byProject || !byCapability {
		t.Error("Dunmer Roads lacks a requirement by id or by capability")
	}
	var hostile bool
	for _, r := range byID[KwamaID].Releases {
		hostile = hostile || (r.Notes != nil && strings.Contains(r.Notes.Notes, "<script>"))
	}
	if !hostile {
		t.Error("Kwama Lanterns' notes lost their hostile markup")
	}
	var featured string
	for _, md := range em.Project.Media {
		if md.Featured {
			featured = md.URL
		}
	}
	if featured != "http://"+CardImage {
		t.Fatalf("featured image %q, want http://%s", featured, CardImage)
	}
	b, err := fs.ReadFile(Web(), CardImage)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("card image is not a PNG: %v", err)
	}
}

func TestHostsAreTheTopLevelDirectories(t *testing.T) {
	for _, root := range []fs.FS{Web(), WebNext()} {
		ents, err := fs.ReadDir(root, ".")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, Hosts) {
			t.Fatalf("top-level directories %v, Hosts %v", got, Hosts)
		}
	}
}

// WebNext behaves as an fs.FS (testing/fstest) and differs from Web exactly in the files of
// www-next.
func TestWebNextIsAValidOverlay(t *testing.T) {
	var want []string
	err := fs.WalkDir(Web(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			want = append(want, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(WebNext(), want...); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(Web(), want...); err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, p := range want {
		a, _ := fs.ReadFile(Web(), p)
		b, err := fs.ReadFile(WebNext(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			changed++
			top, err := fs.ReadFile(sub("www-next"), p)
			if err != nil || !bytes.Equal(top, b) {
				t.Errorf("%s differs but not as www-next has it", p)
			}
		}
	}
	if changed != 4 {
		t.Errorf("%d files changed in generation 2, want 4 (two indexes, two manifests)", changed)
	}
	if _, err := WebNext().Open("../x"); err == nil {
		t.Error("invalid path opened")
	}
	if _, err := WebNext().Open("lanterns.example/nope.json"); err == nil {
		t.Error("missing file opened")
	}
}

func TestSourcesAndCurationLoad(t *testing.T) {
	ss, err := sources.Parse("example sources.toml", Sources())
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, s := range ss {
		h, _, _ := strings.Cut(strings.TrimPrefix(s.URL, "http://"), "/")
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	if !slices.Equal(hosts, Hosts) {
		t.Fatalf("sources enroll %v, want one per host %v", hosts, Hosts)
	}
	c, err := curation.Parse("example curation.toml", Curation())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Featured) != 1 || c.Featured[0].Project != EmberglowID || len(c.Migrations) != 0 {
		t.Fatalf("curation %+v", c)
	}
}

// Every URL on an example site, in every document, is http://<host>/ of a host the web root
// serves: that is what lets the demo read the network by its real names (and what keeps the
// state and site free of loopback ports).
func TestSiteURLsNameTheExampleHosts(t *testing.T) {
	siteURL := regexp.MustCompile(`https?://[a-z0-9.-]+\.example/`)
	for gen, root := range map[string]fs.FS{"Web": Web(), "WebNext": WebNext()} {
		err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(p) == ".png" {
				return err
			}
			b, err := fs.ReadFile(root, p)
			if err != nil {
				return err
			}
			for _, u := range siteURL.FindAllString(string(b), -1) {
				host := strings.TrimSuffix(u[strings.Index(u, "//")+2:], "/")
				served := slices.Contains(Hosts, host)
				if served && !strings.HasPrefix(u, "http://") {
					t.Errorf("%s %s: %s names a served host over https", gen, p, u)
				}
				if !served && !slices.Contains([]string{"code.example", "mirror.example", "evil.example"}, host) {
					t.Errorf("%s %s: %s names a host nobody serves", gen, p, u)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(string(Sources()), "https://") {
		t.Error("sources.toml enrolls an https:// URL; the example sites are http://")
	}
}

// Served on loopback in host mode (the demo's way), every enrolled URL is reachable by its
// real name through a guarded client, and every index's manifests hash to what it advertises.
func TestServedOnLoopbackByName(t *testing.T) {
	s, err := loopback.Start(Web(), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := guard.New(guard.Options{AllowLoopback: true, Resolver: s.Resolver(), Dial: s.Dial})
	get := func(u string) []byte {
		t.Helper()
		r, err := c.Get(context.Background(), guard.Request{URL: u})
		if err != nil || r.Status != 200 {
			t.Fatalf("GET %s: %v %+v", u, err, r)
		}
		return r.Body
	}
	ss, err := sources.Parse("example", Sources())
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range ss {
		if b := get(src.URL); len(b) == 0 {
			t.Errorf("%s: empty", src.URL)
		}
	}
	for p, raw := range indexes(t, Web()) {
		b := get("http://" + p)
		if string(b) != string(raw) {
			t.Errorf("%s: served bytes differ from the published index", p)
		}
		var ix rawIndex
		if err := json.Unmarshal(b, &ix); err != nil {
			t.Fatal(err)
		}
		for _, e := range ix.Projects {
			if got := hexSHA(get(e.Manifest)); got != e.ManifestSHA256 {
				t.Errorf("%s: served manifest %s, advertised %s", e.ID, got, e.ManifestSHA256)
			}
		}
	}
	if b := get("http://" + CardImage); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("card image not served")
	}
}

// Path mode still works for the example (cmd/ashyams's add tests use it): its http:// URLs are
// rewritten to the loopback server like replay.py's https:// ones.
func TestServedOnLoopbackByPath(t *testing.T) {
	s, err := loopback.Start(Web(), loopback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text := string(s.RewriteText(Sources()))
	if strings.Contains(text, `url = "http://`+Hosts[0]) || !strings.Contains(text, s.URL()) {
		t.Fatalf("rewritten sources do not point at the server:\n%s", text)
	}
	ss, err := sources.ParseWith("rewritten", []byte(text), sources.Options{AllowLoopback: true}) // served on 127.0.0.1
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range ss {
		if b := fetch(t, src.URL); len(b) == 0 {
			t.Errorf("%s: empty", src.URL)
		}
	}
	for p := range indexes(t, Web()) {
		var ix rawIndex
		if err := json.Unmarshal(fetch(t, s.URL()+p), &ix); err != nil {
			t.Fatal(err)
		}
		for _, e := range ix.Projects {
			if !strings.HasPrefix(e.Manifest, s.URL()) {
				t.Errorf("%s: manifest %s not rewritten", e.ID, e.Manifest)
			}
			if got := hexSHA(fetch(t, e.Manifest)); got != e.ManifestSHA256 {
				t.Errorf("%s: served manifest %s, advertised %s", e.ID, got, e.ManifestSHA256)
			}
		}
	}
}

func fetch(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
