package loopback

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

func start(t *testing.T, root fstest.MapFS, o Options) *Server {
	t.Helper()
	s, err := Start(root, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type got struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, url string, hdr ...string) got {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", url, err)
	}
	return got{resp.StatusCode, resp.Header, b}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type index struct {
	Document string `json:"document"`
	Projects []struct {
		ID             string `json:"id"`
		Manifest       string `json:"manifest"`
		ManifestSHA256 string `json:"manifest_sha256"`
	} `json:"projects"`
}

// corpusIndexes: every corpus site index, served through s (the corpus's www), points at
// loopback manifests whose served bytes hash to the advertised digest: the rewriting and the
// digest fix agree.
func corpusIndexes(t *testing.T, s *Server, www string) {
	const host = "dreamweave-mp.github.io"
	ents, err := os.ReadDir(filepath.Join(www, host))
	if err != nil {
		t.Fatal(err)
	}
	manifests := 0
	for _, e := range ents {
		r := get(t, s.URL()+host+"/"+e.Name()+"/dreamweave.json")
		if r.status != 200 {
			t.Fatalf("%s: status %d", e.Name(), r.status)
		}
		if strings.Contains(string(r.body), "https://"+host+"/") {
			t.Errorf("%s: served index still names https://%s/", e.Name(), host)
		}
		var ix index
		if err := json.Unmarshal(r.body, &ix); err != nil || ix.Document != "index" {
			t.Fatalf("%s: served index does not decode: %v", e.Name(), err)
		}
		for _, p := range ix.Projects {
			if !strings.HasPrefix(p.Manifest, s.URL()+host+"/") {
				t.Errorf("%s: manifest URL %s not rewritten", p.ID, p.Manifest)
			}
			m := get(t, p.Manifest)
			if m.status != 200 {
				t.Fatalf("%s: manifest status %d", p.ID, m.status)
			}
			if sha(m.body) != p.ManifestSHA256 {
				t.Errorf("%s: served manifest hashes to %s, index advertises %s", p.ID, sha(m.body), p.ManifestSHA256)
			}
			if strings.Contains(string(m.body), "https://"+host+"/") {
				t.Errorf("%s: served manifest still names https://%s/", p.ID, host)
			}
			manifests++
		}
	}
	if manifests < 40 {
		t.Fatalf("only %d manifests checked; the corpus has 45", manifests)
	}
}

// corpusFrontPage: a corpus front page served through s is rewritten, and its directory
// serves it with or without the final slash.
func corpusFrontPage(t *testing.T, s *Server) {
	r := get(t, s.URL()+"dreamweave-mp.github.io/S3ctors-S3cret-St4sh/")
	if r.status != 200 || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("status %d, type %q", r.status, r.header.Get("Content-Type"))
	}
	if r := get(t, s.URL()+"dreamweave-mp.github.io/S3ctors-S3cret-St4sh"); r.status != 200 || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("directory without the final slash: status %d, type %q", r.status, r.header.Get("Content-Type"))
	}
	want := `href="` + s.URL() + `dreamweave-mp.github.io/S3ctors-S3cret-St4sh/dreamweave.json"`
	if !strings.Contains(string(r.body), want) {
		t.Fatalf("front page link not rewritten to %s:\n%s", want, r.body)
	}
}

const (
	goodManifest = `{"document":"project","url":"https://a.example/m.json"}`
	otherBytes   = `{"document":"project","changed":true}`
)

func mapRoot() fstest.MapFS {
	ix := `{"schema_version":"2","document":"index","projects":[` +
		`{"id":"good","manifest":"https://a.example/good.json","manifest_sha256":"` + sha([]byte(goodManifest)) + `"},` +
		`{"id":"bad","manifest":"https://a.example/bad.json","manifest_sha256":"` + sha([]byte(goodManifest)) + `"},` +
		`{"id":"gone","manifest":"https://a.example/gone.json","manifest_sha256":"` + strings.Repeat("0", 64) + `"},` +
		`{"id":"far","manifest":"https://elsewhere.example/x.json","manifest_sha256":"` + strings.Repeat("1", 64) + `"}]}`
	return fstest.MapFS{
		"a.example/dreamweave.json": {Data: []byte(ix)},
		"a.example/good.json":       {Data: []byte(goodManifest)},
		"a.example/bad.json":        {Data: []byte(otherBytes)},
		"a.example/card.png":        {Data: []byte("\x89PNG https://a.example/ raw")},
		"a.example/index.html":      {Data: []byte(`<link href="https://a.example/dreamweave.json">`)},
		"b.example/index.html":      {Data: []byte(`<a href="https://a.example/">a</a> https://b.example/`)},
		"stray.txt":                 {Data: []byte("not a host")},
	}
}

func TestDigestFixedOnlyWhereTheOriginalMatched(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	var ix index
	if err := json.Unmarshal(get(t, s.URL()+"a.example/dreamweave.json").body, &ix); err != nil {
		t.Fatal(err)
	}
	adv := map[string]string{}
	for _, p := range ix.Projects {
		adv[p.ID] = p.ManifestSHA256
	}
	good := get(t, s.URL()+"a.example/good.json").body
	if want := `{"document":"project","url":"` + s.URL() + `a.example/m.json"}`; string(good) != want {
		t.Fatalf("manifest served as %s, want %s", good, want)
	}
	if adv["good"] != sha(good) {
		t.Errorf("good: advertised %s, served manifest hashes %s", adv["good"], sha(good))
	}
	// bad.json never matched its advertised digest: the mismatch must survive the rewrite.
	// (Its digest equals good's original digest, which was replaced, so both changed in text;
	// what matters is that bad's served bytes do not match what is advertised.)
	bad := get(t, s.URL()+"a.example/bad.json").body
	if adv["bad"] == sha(bad) {
		t.Errorf("bad: a real mismatch was turned into a match")
	}
	if adv["gone"] != strings.Repeat("0", 64) || adv["far"] != strings.Repeat("1", 64) {
		t.Errorf("digests of missing / foreign manifests changed: %v", adv)
	}
}

func TestRealMismatchStaysMismatch(t *testing.T) {
	wrong := strings.Repeat("a", 64)
	root := fstest.MapFS{
		"a.example/dreamweave.json": {Data: []byte(`{"document":"index","projects":[{"manifest":"https://a.example/m.json","manifest_sha256":"` + wrong + `"}]}`)},
		"a.example/m.json":          {Data: []byte(goodManifest)},
	}
	s := start(t, root, Options{})
	body := string(get(t, s.URL()+"a.example/dreamweave.json").body)
	if !strings.Contains(body, wrong) {
		t.Fatalf("the advertised digest of a mismatching manifest changed: %s", body)
	}
	if !strings.Contains(body, s.URL()+"a.example/m.json") {
		t.Fatalf("manifest URL not rewritten: %s", body)
	}
}

func TestRewriteOnlyJSONAndHTMLAndOnlyKnownHosts(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	if got := s.Hosts(); strings.Join(got, ",") != "a.example,b.example" {
		t.Fatalf("hosts %v", got)
	}
	png := get(t, s.URL()+"a.example/card.png")
	if string(png.body) != "\x89PNG https://a.example/ raw" || png.header.Get("Content-Type") != "image/png" {
		t.Fatalf("image bytes changed or mistyped: %q %q", png.body, png.header.Get("Content-Type"))
	}
	html := string(get(t, s.URL()+"b.example/").body)
	if html != `<a href="`+s.URL()+`a.example/">a</a> `+s.URL()+`b.example/` {
		t.Fatalf("html: %s", html)
	}
	text := []byte("url = \"https://a.example/x/\"\nurl = \"https://b.example/\"\nurl = \"https://c.example/\"\n")
	orig := string(text)
	want := "url = \"" + s.URL() + "a.example/x/\"\nurl = \"" + s.URL() + "b.example/\"\nurl = \"https://c.example/\"\n"
	if got := string(s.RewriteText(text)); got != want || string(text) != orig {
		t.Fatalf("RewriteText = %q, want %q (input left %q)", got, want, text)
	}
	for in, want := range map[string]string{
		"https://a.example/dreamweave.json": s.URL() + "a.example/dreamweave.json",
		"https://a.example":                 s.URL() + "a.example/",
		"https://c.example/x":               "https://c.example/x",
		"http://a.example/x":                s.URL() + "a.example/x",
		"http://b.example":                  s.URL() + "b.example/",
		"ftp://a.example/x":                 "ftp://a.example/x",
		"https://a.example.evil/x":          "https://a.example.evil/x",
	} {
		if got := s.Rewrite(in); got != want {
			t.Errorf("Rewrite(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNotFoundAndTraversal(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	for _, p := range []string{"a.example/nope.json", "c.example/", "a.example/../../etc/passwd", "%2e%2e/stray.txt/x"} {
		if r := get(t, s.URL()+p); r.status != 404 {
			t.Errorf("%s: status %d, want 404", p, r.status)
		}
	}
	// Cleaning keeps a request inside the root: /../a.example/good.json is a.example/good.json.
	if r := get(t, s.URL()+"../a.example/good.json"); r.status != 200 {
		t.Errorf("cleaned path: status %d", r.status)
	}
}

func TestETagConditionalGETAndLog(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	u := s.URL() + "a.example/good.json"
	first := get(t, u, "User-Agent", "drill/1")
	etag := first.header.Get("ETag")
	if etag != ETag(first.body) || len(etag) != 18 {
		t.Fatalf("ETag %q, want %q", etag, ETag(first.body))
	}
	if lm := first.header.Get("Last-Modified"); lm != LastModified {
		t.Fatalf("Last-Modified %q", lm)
	}
	second := get(t, u, "User-Agent", "drill/1", "If-None-Match", etag, "If-Modified-Since", LastModified)
	if second.status != http.StatusNotModified || len(second.body) != 0 || second.header.Get("ETag") != etag {
		t.Fatalf("conditional GET: status %d body %q etag %q", second.status, second.body, second.header.Get("ETag"))
	}
	stale := get(t, u, "If-None-Match", `"0000000000000000"`)
	if stale.status != 200 {
		t.Fatalf("stale validator: status %d", stale.status)
	}
	log := s.Requests()
	if len(log) != 3 {
		t.Fatalf("log has %d entries: %+v", len(log), log)
	}
	want := Logged{Method: "GET", Path: "/a.example/good.json", Host: strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/"),
		Status: 200, Bytes: int64(len(first.body)), UserAgent: "drill/1"}
	if log[0] != want {
		t.Errorf("log[0] = %+v, want %+v", log[0], want)
	}
	if log[1].Status != 304 || log[1].Bytes != 0 || log[1].IfNoneMatch != etag || log[1].IfModifiedSince != LastModified {
		t.Errorf("log[1] = %+v", log[1])
	}
	s.ResetRequests()
	if n := len(s.Requests()); n != 0 {
		t.Errorf("log after reset has %d entries", n)
	}
}

func TestHeadSendsHeadersAndLogsLength(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	resp, err := http.Head(s.URL() + "a.example/good.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	b, _ := s.Bytes("/a.example/good.json")
	if resp.StatusCode != 200 || resp.ContentLength != int64(len(b)) {
		t.Fatalf("HEAD: %d, length %d", resp.StatusCode, resp.ContentLength)
	}
	if l := s.Requests()[0]; l.Method != "HEAD" || l.Bytes != int64(len(b)) {
		t.Fatalf("HEAD logged as %+v", l)
	}
}

func TestRulesStatusRedirectBodyTimes(t *testing.T) {
	s := start(t, mapRoot(), Options{Rules: []Rule{
		{Path: `/a\.example/dreamweave\.json$`, Status: 503, Times: 2},
		{Path: `/moved/`, Redirect: "{base}a.example/good.json?port={port}"},
		{Path: `/b\.example/fake\.json`, Body: []byte(`{"x":"https://a.example/"}`)},
	}})
	u := s.URL() + "a.example/dreamweave.json"
	for i := range 2 {
		if r := get(t, u); r.status != 503 || len(r.body) != 0 {
			t.Fatalf("request %d: status %d", i, r.status)
		}
	}
	if r := get(t, u); r.status != 200 {
		t.Fatalf("after Times ran out: status %d", r.status)
	}
	r := get(t, s.URL()+"moved/x")
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/"))
	if r.status != 302 || r.header.Get("Location") != s.URL()+"a.example/good.json?port="+port {
		t.Fatalf("redirect: %d %q", r.status, r.header.Get("Location"))
	}
	// A rule body is served as is (not rewritten), even where no file exists.
	b := get(t, s.URL()+"b.example/fake.json")
	if b.status != 200 || string(b.body) != `{"x":"https://a.example/"}` || b.header.Get("ETag") != ETag(b.body) {
		t.Fatalf("body rule: %d %s", b.status, b.body)
	}
	statuses := []int{}
	for _, l := range s.Requests() {
		statuses = append(statuses, l.Status)
	}
	if want := []int{503, 503, 200, 302, 200}; !equalInts(statuses, want) {
		t.Fatalf("logged statuses %v, want %v", statuses, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRuleDelayThenServesAndEndsWhenClientGivesUp(t *testing.T) {
	s := start(t, mapRoot(), Options{Rules: []Rule{
		{Path: `good\.json`, Delay: 30 * time.Millisecond},
		{Path: `slow\.json`, Delay: time.Hour, Status: 500},
	}})
	if r := get(t, s.URL()+"a.example/good.json"); r.status != 200 {
		t.Fatalf("delayed request: %d", r.status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL()+"a.example/slow.json", nil)
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow request: err %v, want deadline exceeded", err)
	}
}

func TestRuleHugeStreamsWithoutContentLength(t *testing.T) {
	const n = 200_000
	s := start(t, mapRoot(), Options{Rules: []Rule{{Path: `huge`, Huge: n}}})
	resp, err := http.Get(s.URL() + "a.example/huge.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ContentLength != -1 {
		t.Fatalf("Content-Length %d, want none", resp.ContentLength)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil || len(b) != n || strings.Trim(string(b), " ") != "" {
		t.Fatalf("read %d bytes, err %v", len(b), err)
	}
	if l := s.Requests(); len(l) != 1 || l[0].Bytes != n { // counted before sent: no wait
		t.Fatalf("log %+v", l)
	}
}

func TestRuleLieLengthSendsWholeBody(t *testing.T) {
	s := start(t, mapRoot(), Options{Rules: []Rule{{Path: `good\.json`, LieLength: 5}}})
	body, _ := s.Bytes("/a.example/good.json")
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /a.example/good.json HTTP/1.1\r\nHost: x\r\n\r\n")
	raw, err := io.ReadAll(bufio.NewReader(conn))
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(raw), "\r\n\r\n")
	if !ok || !strings.Contains(head, "Content-Length: 5\r\n") || !strings.HasPrefix(head, "HTTP/1.1 200 OK") {
		t.Fatalf("head: %q", head)
	}
	if rest != string(body) {
		t.Fatalf("sent %d bytes after the head, want the whole body (%d)", len(rest), len(body))
	}
	if l := s.Requests(); len(l) != 1 || l[0].Status != 200 || l[0].Bytes != int64(len(body)) {
		t.Fatalf("log %+v", l)
	}
}

func TestWrapSeesRequestsAndIsLogged(t *testing.T) {
	s := start(t, mapRoot(), Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "teapot") {
				w.WriteHeader(http.StatusTeapot)
				return
			}
			next.ServeHTTP(w, r)
		})
	}})
	if r := get(t, s.URL()+"teapot"); r.status != 418 {
		t.Fatalf("wrapped: %d", r.status)
	}
	if r := get(t, s.URL()+"a.example/good.json"); r.status != 200 {
		t.Fatalf("passed through: %d", r.status)
	}
	if l := s.Requests(); len(l) != 2 || l[0].Status != 418 {
		t.Fatalf("log %+v", l)
	}
}

func TestSetRootAndSetRules(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	before := get(t, s.URL()+"a.example/good.json")
	next := mapRoot()
	next["a.example/good.json"] = &fstest.MapFile{Data: []byte(`{"v":2}`)}
	if err := s.SetRoot(next); err != nil {
		t.Fatal(err)
	}
	after := get(t, s.URL()+"a.example/good.json")
	if string(after.body) != `{"v":2}` || after.header.Get("ETag") == before.header.Get("ETag") {
		t.Fatalf("after SetRoot: %s", after.body)
	}
	if err := s.SetRules([]Rule{{Path: "(", Status: 500}}); err == nil || !strings.Contains(err.Error(), `rule 0: path "("`) {
		t.Fatalf("bad regexp: err %v", err)
	}
	// The failed SetRules changed nothing.
	if r := get(t, s.URL()+"a.example/good.json"); r.status != 200 {
		t.Fatalf("rules changed by a failed SetRules: %d", r.status)
	}
	if err := s.SetRoot(nil); err == nil {
		t.Fatal("nil root accepted")
	}
}

func TestStartRefusesBadRuleAndUnreadableRoot(t *testing.T) {
	if _, err := Start(mapRoot(), Options{Rules: []Rule{{Path: "[z-a]"}}}); err == nil || !strings.Contains(err.Error(), "rule 0") {
		t.Fatalf("bad rule: %v", err)
	}
	if _, err := Start(os.DirFS("/nonexistent/loopback/root"), Options{}); err == nil || !strings.Contains(err.Error(), "list web root") {
		t.Fatalf("missing root: %v", err)
	}
}

func TestServerListensOnLoopbackOnly(t *testing.T) {
	s := start(t, mapRoot(), Options{})
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/") {
		t.Fatalf("URL %s", s.URL())
	}
}

// The same root serves the same bytes from two servers but for the port: deterministic.
func TestDeterministicAcrossServers(t *testing.T) {
	a := start(t, mapRoot(), Options{})
	b := start(t, mapRoot(), Options{})
	ba, _ := a.Bytes("/a.example/dreamweave.json")
	bb, _ := b.Bytes("/a.example/dreamweave.json")
	norm := func(s *Server, x []byte) string {
		return strings.ReplaceAll(string(x), s.URL(), "BASE/")
	}
	// Digests depend on the port, so compare the structure with digests masked.
	mask := func(x string) string {
		var ix index
		_ = json.Unmarshal([]byte(x), &ix)
		for _, p := range ix.Projects {
			x = strings.ReplaceAll(x, p.ManifestSHA256, "D")
		}
		return x
	}
	if mask(norm(a, ba)) != mask(norm(b, bb)) {
		t.Fatalf("servers disagree:\n%s\n%s", ba, bb)
	}
	again, _ := a.Bytes("/a.example/dreamweave.json")
	if string(again) != string(ba) {
		t.Fatal("one server answered the same path with different bytes")
	}
}

// waitRequests waits until the log holds n entries (a request still on its way to the
// handler is not logged yet) and fails if it ever holds more.
func waitRequests(t *testing.T, s *Server, n int) []Logged {
	t.Helper()
	for range 500 {
		if l := s.Requests(); len(l) >= n {
			if len(l) > n {
				t.Fatalf("log has %d entries, want %d: %+v", len(l), n, l)
			}
			return l
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("log never reached %d entries: %+v", n, s.Requests())
	return nil
}

// A client that has read a whole response finds the request logged, status and size included,
// even while the handler has not returned; and ResetRequests at that moment leaves no late
// entry behind when the handler does return. (Logging when the handler returned made
// crawl/discover's request counts flaky: the log lagged the client.)
func TestRequestIsLoggedBeforeTheClientSeesTheAnswer(t *testing.T) {
	release, returned := make(chan struct{}), make(chan struct{})
	s := start(t, mapRoot(), Options{Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(returned)
			next.ServeHTTP(w, r)
			http.NewResponseController(w).Flush() // the whole answer is on the wire
			<-release                             // and the handler has not returned
		})
	}})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	body, _ := s.Bytes("/a.example/good.json")
	if r := get(t, s.URL()+"a.example/good.json"); r.status != 200 || string(r.body) != string(body) {
		t.Fatalf("GET: %d %q", r.status, r.body)
	}
	l := s.Requests()
	if len(l) != 1 || l[0].Path != "/a.example/good.json" || l[0].Status != 200 || l[0].Bytes != int64(len(body)) {
		t.Fatalf("log right after the client read the answer: %+v", l)
	}
	s.ResetRequests()
	close(release)
	<-returned
	if l := s.Requests(); len(l) != 0 {
		t.Fatalf("the handler's return logged a request again after ResetRequests: %+v", l)
	}
}

// A request the handler has not answered yet is logged with status 0 and no bytes.
func TestRequestInFlightIsLoggedUnanswered(t *testing.T) {
	s := start(t, mapRoot(), Options{Rules: []Rule{{Path: `slow\.json`, Delay: time.Hour}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL()+"a.example/slow.json", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	l := waitRequests(t, s, 1)
	cancel()
	<-done
	if l[0].Path != "/a.example/slow.json" || l[0].Status != 0 || l[0].Bytes != 0 {
		t.Fatalf("in-flight request logged as %+v, want status 0 and no bytes", l[0])
	}
}

// hostRoot is a site whose documents name their own http:// URLs, with real digests: what the
// example network publishes for the demo.
func hostRoot() fstest.MapFS {
	m := `{"document":"project","page":"http://a.example/m/"}`
	ix := `{"document":"index","projects":[{"id":"m","manifest":"http://a.example/m.json","manifest_sha256":"` + sha([]byte(m)) + `"}]}`
	return fstest.MapFS{
		"a.example/dreamweave.json": {Data: []byte(ix)},
		"a.example/m.json":          {Data: []byte(m)},
		"a.example/index.html":      {Data: []byte(`<a href="http://a.example/m/">m</a>`)},
		"b.example/secret.json":     {Data: []byte(`{"b":true}`)},
	}
}

// getHost requests path from s with the Host header host (what a client sends for
// http://<host><path> once Resolver and Dial lead it here).
func getHost(t *testing.T, s *Server, host, p string, hdr ...string) got {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.URL()+strings.TrimPrefix(p, "/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return got{resp.StatusCode, resp.Header, b}
}

// Host mode: a request naming a host of the root gets that site's file byte for byte (no
// rewriting, digests as published), with ETag and conditional GET; rules match "/<host>/..."
// as in path mode; ".." never climbs into another host; an unknown Host is path mode.
func TestHostModeServesTheSiteByItsName(t *testing.T) {
	root := hostRoot()
	s := start(t, root, Options{Rules: []Rule{{Path: `^/a\.example/m\.json\?gone$`, Status: 410}}})
	for p, file := range map[string]string{"/dreamweave.json": "a.example/dreamweave.json", "/m.json": "a.example/m.json", "/": "a.example/index.html"} {
		r := getHost(t, s, "a.example", p)
		if r.status != 200 || string(r.body) != string(root[file].Data) {
			t.Errorf("http://a.example%s: %d %q, want the file as published", p, r.status, r.body)
		}
		if b, ok := s.HostBytes("a.example", p); !ok || string(b) != string(r.body) {
			t.Errorf("HostBytes(a.example, %s) = %q, %v; served %q", p, b, ok, r.body)
		}
	}
	if r := getHost(t, s, "A.Example:80", "/m.json"); r.status != 200 {
		t.Errorf("Host with a port and capitals: %d", r.status)
	}
	first := getHost(t, s, "a.example", "/m.json")
	if r := getHost(t, s, "a.example", "/m.json", "If-None-Match", first.header.Get("ETag")); r.status != 304 {
		t.Errorf("conditional GET in host mode: %d, want 304", r.status)
	}
	if r := getHost(t, s, "a.example", "/m.json?gone"); r.status != 410 {
		t.Errorf("rule on /a.example/m.json?gone in host mode: %d, want 410", r.status)
	}
	if r := getHost(t, s, "a.example", "/../b.example/secret.json"); r.status != 404 {
		t.Errorf("host mode climbed into another host: %d %q", r.status, r.body)
	}
	if r := getHost(t, s, "c.example", "/dreamweave.json"); r.status != 404 {
		t.Errorf("unknown Host served %d, want path mode's 404", r.status)
	}
	if r := getHost(t, s, "c.example", "/a.example/m.json"); r.status != 200 {
		t.Errorf("unknown Host: path mode /a.example/m.json: %d", r.status)
	}
	l := s.Requests()
	if len(l) == 0 || l[0].Host != "a.example" || l[0].Path == "" {
		t.Errorf("log does not keep the Host: %+v", l)
	}
}

// Resolver and Dial let a guarded client (crawl/guard, with --allow-loopback) read the root's
// http://<host>/ URLs by name, and reach nothing else.
func TestResolverAndDialReachOnlyThisServer(t *testing.T) {
	root := hostRoot()
	s := start(t, root, Options{})
	ctx := context.Background()
	r := s.Resolver()
	for _, h := range []string{"a.example", "B.EXAMPLE", "a.example."} {
		got, err := r.LookupNetIP(ctx, "ip", h)
		if err != nil || len(got) != 1 || got[0] != netip.MustParseAddr("127.0.0.1") {
			t.Errorf("LookupNetIP(%s) = %v, %v; want [127.0.0.1]", h, got, err)
		}
	}
	for _, q := range [][2]string{{"ip", "c.example"}, {"ip", "example"}, {"ip6", "a.example"}} {
		_, err := r.LookupNetIP(ctx, q[0], q[1])
		var de *net.DNSError
		if !errors.As(err, &de) || !de.IsNotFound {
			t.Errorf("LookupNetIP(%s, %s): %v, want a not-found DNS error", q[0], q[1], err)
		}
	}
	for _, addr := range []string{"127.0.0.1:81", "127.0.0.2:80", "[::1]:80", "192.0.2.1:80"} {
		if c, err := s.Dial(ctx, "tcp", addr); err == nil || !strings.Contains(err.Error(), "is not this server") {
			if c != nil {
				c.Close()
			}
			t.Errorf("Dial(%s): %v, want refused", addr, err)
		}
	}

	c := guard.New(guard.Options{AllowLoopback: true, Resolver: s.Resolver(), Dial: s.Dial})
	resp, err := c.Get(ctx, guard.Request{URL: "http://a.example/dreamweave.json"})
	if err != nil || resp.Status != 200 || string(resp.Body) != string(root["a.example/dreamweave.json"].Data) {
		t.Fatalf("guarded GET http://a.example/dreamweave.json: %v %+v", err, resp)
	}
	if _, err := c.Get(ctx, guard.Request{URL: "http://c.example/"}); err == nil || !strings.Contains(err.Error(), "c.example") {
		t.Errorf("a name outside the root was reached: %v", err)
	}
	if _, err := c.Get(ctx, guard.Request{URL: "http://127.0.0.1:9/"}); err == nil {
		t.Error("a loopback address other than this server was dialed")
	}
}

// On corpustest.Sites (the corpus's sites, or their stand-ins), and with ../shared on the whole
// corpus: a directory with or without its final slash serves its index.html, rewritten; every
// index points at loopback manifests whose served bytes hash to the advertised digest.
func TestSitesRewrittenWithMatchingDigests(t *testing.T) {
	root := fstest.MapFS{}
	for p, b := range corpustest.Sites(t) {
		root[p] = &fstest.MapFile{Data: b}
	}
	s := start(t, root, Options{})
	for _, u := range []string{corpustest.TemplateDir + "/", corpustest.TemplateDir} {
		r := get(t, s.URL()+u)
		want := s.URL() + corpustest.TemplateDir + "/dreamweave.json"
		if r.status != 200 || r.header.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(string(r.body), `href="`+want+`"`) {
			t.Errorf("%s: status %d, type %q, body without %s:\n%s", u, r.status, r.header.Get("Content-Type"), want, r.body)
		}
	}
	manifests := 0
	for _, dir := range []string{corpustest.TemplateDir, corpustest.DreamIniDir} {
		var ix index
		if err := json.Unmarshal(get(t, s.URL()+dir+"/dreamweave.json").body, &ix); err != nil || ix.Document != "index" {
			t.Fatalf("%s: served index does not decode: %v", dir, err)
		}
		for _, p := range ix.Projects {
			m := get(t, p.Manifest)
			if !strings.HasPrefix(p.Manifest, s.URL()) || m.status != 200 || sha(m.body) != p.ManifestSHA256 || strings.Contains(string(m.body), "https://"+corpustest.SitesHost+"/") {
				t.Errorf("%s: manifest %s status %d, hashes to %s, advertised %s", p.ID, p.Manifest, m.status, sha(m.body), p.ManifestSHA256)
			}
			manifests++
		}
	}
	if manifests != 3 {
		t.Errorf("%d manifests checked, want 3", manifests)
	}
	if www, ok := corpustest.Optional(t, "www"); ok {
		s, err := Start(os.DirFS(www), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		corpusIndexes(t, s, www)
		corpusFrontPage(t, s)
	}
}
