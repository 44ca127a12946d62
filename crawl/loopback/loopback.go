// Package loopback serves a web root of DreamWeave sites on 127.0.0.1 for drills, tests and the
// demo, as shared/tools/replay.py does: path mode answers /<host>/<path>, rewriting the hosts'
// URLs to this server; host mode answers by the Host header, byte for byte. Answers carry an
// ETag and a fixed Last-Modified; requests are logged before their answer; Rules inject
// behaviour per path. Stdlib only, deterministic.
package loopback

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LastModified is every document's Last-Modified (replay.py's), fixed for determinism.
const LastModified = "Wed, 30 Sep 2026 19:57:46 GMT"

// Rule injects behaviour for requests whose path matches; the first match wins. Tried in
// order: Delay (then go on), Status, Redirect, Huge; Body and LieLength change the normal
// answer. Zero fields are unset.
type Rule struct {
	// Path is a regular expression searched in the request URI, "/<host>"-prefixed in host mode.
	Path     string
	Status   int    // answered with an empty body
	Redirect string // a 302 Location; "{base}" and "{port}" expand
	Delay    time.Duration
	Body     []byte // served as is (no rewriting) instead of the file
	// Huge streams this many filler bytes as application/json without Content-Length.
	Huge int64
	// LieLength claims this Content-Length but sends the whole body, then closes.
	LieLength int64
	Times     int // the rule applies to the first Times matching requests; 0 = all
}

// Options configure a Server; the zero value serves the root as is.
type Options struct {
	Rules []Rule
	// Wrap wraps the server's handler, inside the request log, for what Rules cannot express.
	Wrap func(next http.Handler) http.Handler
}

// Logged is one request as the server saw it; field names are replay.py's log keys.
type Logged struct {
	Method string `json:"method"`
	Path   string `json:"path"` // request URI, query included
	Host   string `json:"host"`
	// Status is the answer's status, set just before the status line is sent.
	Status int `json:"status"`
	// Bytes counts body bytes sent (for HEAD, that would be), each before it is sent.
	Bytes           int64  `json:"bytes"`
	UserAgent       string `json:"user_agent"`
	IfNoneMatch     string `json:"if_none_match"`
	IfModifiedSince string `json:"if_modified_since"`
}

// Server is a running loopback server, safe for concurrent use.
type Server struct {
	ln   net.Listener
	srv  *http.Server
	base string // "http://127.0.0.1:<port>/"
	port string

	mu    sync.Mutex
	root  fs.FS
	hosts []string
	rules []compiled
	// log holds pointers so a request's recorder fills its entry in later.
	log []*Logged
}

type compiled struct {
	Rule
	re   *regexp.Regexp
	hits int
}

// Start serves root on 127.0.0.1 at a free port, root's top-level directories being the hosts.
func Start(root fs.FS, opts Options) (*Server, error) {
	s := &Server{}
	if err := s.SetRoot(root); err != nil {
		return nil, err
	}
	if err := s.SetRules(opts.Rules); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loopback: listen on 127.0.0.1: %w", err)
	}
	s.ln = ln
	s.port = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	s.base = "http://127.0.0.1:" + s.port + "/"
	var h http.Handler = http.HandlerFunc(s.serve)
	if opts.Wrap != nil {
		h = opts.Wrap(h)
	}
	s.srv = &http.Server{Handler: s.logging(h), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the server's base URL, "http://127.0.0.1:<port>/".
func (s *Server) URL() string { return s.base }

// Addr is the address the server listens on, "127.0.0.1:<port>".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Hosts are the hosts the root serves (its top-level directories), sorted.
func (s *Server) Hosts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hosts...)
}

// Close stops the server and its open connections.
func (s *Server) Close() error { return s.srv.Close() }

// SetRoot replaces the web root while the server runs; it fails when root cannot be listed.
func (s *Server) SetRoot(root fs.FS) error {
	if root == nil {
		return errors.New("loopback: nil web root")
	}
	ents, err := fs.ReadDir(root, ".")
	if err != nil {
		return fmt.Errorf("loopback: list web root: %w", err)
	}
	var hosts []string
	for _, e := range ents {
		if e.IsDir() {
			hosts = append(hosts, e.Name())
		}
	}
	s.mu.Lock()
	s.root, s.hosts = root, hosts
	s.mu.Unlock()
	return nil
}

// SetRules replaces the rules, resetting their Times counters; a bad Path changes nothing.
func (s *Server) SetRules(rules []Rule) error {
	cs := make([]compiled, len(rules))
	for i, r := range rules {
		re, err := regexp.Compile(r.Path)
		if err != nil {
			return fmt.Errorf("loopback: rule %d: path %q: %w", i, r.Path, err)
		}
		cs[i] = compiled{Rule: r, re: re}
	}
	s.mu.Lock()
	s.rules = cs
	s.mu.Unlock()
	return nil
}

// Requests returns a copy of the request log in arrival order.
func (s *Server) Requests() []Logged {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Logged, len(s.log))
	for i, l := range s.log {
		out[i] = *l
	}
	return out
}

// ResetRequests empties the request log; an earlier request is not logged after it.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	s.log = nil
	s.mu.Unlock()
}

// file is Bytes (rewrite) or HostBytes (not) plus the name of the file that answered.
func (s *Server) file(urlPath string, rewrite bool) ([]byte, string, bool) {
	s.mu.Lock()
	root, hosts := s.root, s.hosts
	s.mu.Unlock()
	if !rewrite {
		hosts = nil
	}
	return s.serveBytes(root, hosts, urlPath)
}

// localPath maps a URL path to a file name in root (directory -> index.html); "" when none.
func localPath(root fs.FS, urlPath string) string {
	p := cmp.Or(strings.TrimPrefix(path.Clean("/"+urlPath), "/"), ".")
	if !fs.ValidPath(p) {
		return ""
	}
	st, err := fs.Stat(root, p)
	if err != nil {
		return ""
	}
	if st.IsDir() {
		p = path.Join(p, "index.html")
		if st, err = fs.Stat(root, p); err != nil || st.IsDir() {
			return ""
		}
	}
	return p
}

func (s *Server) serveBytes(root fs.FS, hosts []string, urlPath string) ([]byte, string, bool) {
	p := localPath(root, urlPath)
	if p == "" {
		return nil, "", false
	}
	raw, err := fs.ReadFile(root, p)
	if err != nil {
		return nil, "", false
	}
	if len(hosts) == 0 || !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".html") {
		return raw, p, true
	}
	data := s.rewrite(hosts, raw)
	if strings.HasSuffix(p, ".json") {
		data = s.fixIndexDigests(root, hosts, raw, data)
	}
	return data, p, true
}

func hexSHA(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ETag is the ETag of a body: the first 16 hex digits of its SHA-256, quoted.
func ETag(body []byte) string { return `"` + hexSHA(body)[:16] + `"` }

func (s *Server) ruleFor(uri string) *Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.rules {
		c := &s.rules[i]
		if !c.re.MatchString(uri) {
			continue
		}
		if c.Times > 0 && c.hits >= c.Times {
			continue
		}
		c.hits++
		r := c.Rule
		return &r
	}
	return nil
}

// recorder records status and body size in the request's entry before the bytes go out.
type recorder struct {
	http.ResponseWriter
	s     *Server
	entry *Logged
	fixed bool // the size was set by the handler (HEAD, hijacked); writes do not count
}

func (r *recorder) started(code int) {
	r.s.mu.Lock()
	r.entry.Status = cmp.Or(r.entry.Status, code)
	r.s.mu.Unlock()
}

// set records a status and size the handler decided (HEAD, a hijacked connection); later
// writes are not counted.
func (r *recorder) set(status int, bytes int64) {
	r.s.mu.Lock()
	r.entry.Status = cmp.Or(status, r.entry.Status)
	r.entry.Bytes = bytes
	r.fixed = true
	r.s.mu.Unlock()
}

func (r *recorder) WriteHeader(code int) {
	r.started(code)
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.s.mu.Lock()
	r.entry.Status = cmp.Or(r.entry.Status, http.StatusOK)
	count := !r.fixed
	if count {
		r.entry.Bytes += int64(len(b)) // before the write: the client may read it at once
	}
	r.s.mu.Unlock()
	n, err := r.ResponseWriter.Write(b)
	if count && n < len(b) {
		r.s.mu.Lock()
		r.entry.Bytes -= int64(len(b) - n)
		r.s.mu.Unlock()
	}
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

type recKey struct{}

// recorderOf finds the request's recorder, for a handler that bypasses the ResponseWriter.
func recorderOf(req *http.Request) *recorder {
	rec, _ := req.Context().Value(recKey{}).(*recorder)
	return rec
}

// logging logs every request before the handler runs, so a test reading the log after its
// client returned sees it, and ResetRequests leaves no late entry.
func (s *Server) logging(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		entry := &Logged{
			Method: req.Method, Path: req.URL.RequestURI(), Host: req.Host,
			UserAgent:       req.UserAgent(),
			IfNoneMatch:     req.Header.Get("If-None-Match"),
			IfModifiedSince: req.Header.Get("If-Modified-Since"),
		}
		s.mu.Lock()
		s.log = append(s.log, entry)
		s.mu.Unlock()
		rec := &recorder{ResponseWriter: w, s: s, entry: entry}
		h.ServeHTTP(rec, req.WithContext(context.WithValue(req.Context(), recKey{}, rec)))
		rec.started(http.StatusOK) // returned without answering: net/http sends an empty 200
	})
}

func contentType(p string) string {
	switch {
	case strings.HasSuffix(p, ".json"):
		return "application/json"
	case strings.HasSuffix(p, "/"), strings.HasSuffix(p, ".html"):
		return "text/html; charset=utf-8"
	case strings.HasSuffix(p, ".png"):
		return "image/png"
	case strings.HasSuffix(p, ".webp"):
		return "image/webp"
	}
	return "application/octet-stream"
}

func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	urlPath, uri, rewrite := s.route(req)
	rule := s.ruleFor(uri)
	if rule != nil {
		if rule.Delay > 0 {
			if !sleep(req.Context(), rule.Delay) {
				return // the client gave up; nothing to answer
			}
		}
		switch {
		case rule.Status != 0:
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(rule.Status)
			return
		case rule.Redirect != "":
			loc := strings.NewReplacer("{base}", s.base, "{port}", s.port).Replace(rule.Redirect)
			w.Header().Set("Location", loc)
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusFound)
			return
		case rule.Huge > 0:
			huge(w, rule.Huge)
			return
		}
	}
	var body []byte
	name := urlPath // a rule's body is typed by the request path, as in replay.py
	if rule != nil && rule.Body != nil {
		body = rule.Body
	} else {
		b, file, ok := s.file(urlPath, rewrite)
		if !ok {
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusNotFound)
			return
		}
		body, name = b, file
	}
	etag := ETag(body)
	if req.Header.Get("If-None-Match") == etag {
		w.Header().Set("ETag", etag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("ETag", etag)
	h.Set("Last-Modified", LastModified)
	if rule != nil && rule.LieLength > 0 {
		lie(w, req, rule.LieLength, body)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if req.Method == http.MethodHead {
		if rec := recorderOf(req); rec != nil {
			rec.set(http.StatusOK, int64(len(body)))
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// sleep waits d or until ctx ends, reporting whether the full wait passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// huge streams n filler bytes without Content-Length, closing the connection at the end.
func huge(w http.ResponseWriter, n int64) {
	w.Header().Set("Content-Type", "application/json")
	// "identity": a body delimited by closing the connection, not chunks.
	w.Header().Set("Transfer-Encoding", "identity")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	chunk := bytes.Repeat([]byte(" "), 64<<10)
	for sent := int64(0); sent < n; {
		part := chunk[:min(int64(len(chunk)), n-sent)]
		if _, err := w.Write(part); err != nil {
			return
		}
		sent += int64(len(part))
	}
}

// lie sends the whole body under a Content-Length of n over the hijacked connection (net/http
// would truncate it), then closes.
func lie(w http.ResponseWriter, req *http.Request, n int64, body []byte) {
	conn, bw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "loopback: lie_length needs a hijackable connection: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer conn.Close()
	if rec := recorderOf(req); rec != nil {
		rec.set(http.StatusOK, int64(len(body)))
	}
	writeRaw(bw, w.Header(), n)
	if req.Method != http.MethodHead {
		_, _ = bw.Write(body)
	}
	_ = bw.Flush()
}

func writeRaw(bw *bufio.ReadWriter, h http.Header, n int64) {
	fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\n")
	h.Set("Content-Length", strconv.FormatInt(n, 10))
	h.Set("Connection", "close")
	_ = h.Write(bw)
	_, _ = io.WriteString(bw, "\r\n")
}
