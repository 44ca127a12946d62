// Package guard is the crawler's guarded HTTP client (seeds/crawler.txt "Hostile input"): http
// and https only, no userinfo, no proxy; names resolved by our resolver and only the checked
// addresses dialled (CheckAddr), so DNS rebinding cannot win; each redirect re-checked; bodies
// capped whatever Content-Length says; one deadline per request, or per stall for a download.
package guard

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// Defaults for the zero Options fields.
const (
	DefaultMaxBytes     int64 = 16 << 20 // crawler policy: 16 MiB per document
	DefaultTimeout            = 30 * time.Second
	DefaultMaxRedirects       = 5
)

// Resolver looks names up; *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc opens a TCP connection to addr, always a checked "ip:port".
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Options configure a Client; zero fields take the defaults.
type Options struct {
	// AllowLoopback (--allow-loopback) admits 127.0.0.0/8 and ::1 only.
	AllowLoopback bool
	MaxBytes      int64 // the body limit in bytes (decoded bytes for gzip); default 16 MiB
	// Timeout is the one deadline per Get, or a Request.Stream body's stall deadline; 30 s.
	Timeout      time.Duration
	MaxRedirects int    // the most redirect hops followed; 0 means the default 5, negative none
	UserAgent    string // sent with every request; default product.UserAgent
	// Resolver defaults to a pure-Go *net.Resolver (the C one's inet_aton reads numeric
	// oddities as addresses).
	Resolver Resolver
	Dial     DialFunc // connects to a checked address; default a net.Dialer
}

// Client is the guarded HTTP client, safe for concurrent use.
type Client struct {
	o  Options
	rt http.RoundTripper // redirects are ours (see Get)
}

// New returns a Client with o's settings (defaults filled in).
func New(o Options) *Client {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	} else if o.MaxRedirects < 0 {
		o.MaxRedirects = 0
	}
	if o.UserAgent == "" {
		o.UserAgent = product.UserAgent
	}
	if o.Resolver == nil {
		o.Resolver = &net.Resolver{PreferGo: true}
	}
	if o.Dial == nil {
		o.Dial = (&net.Dialer{}).DialContext
	}
	c := &Client{o: o}
	// No http.Client: it parses a bad Location before any hook, hiding the redirect.
	c.rt = &http.Transport{
		Proxy:               nil, // never: a proxy would resolve names itself
		DialContext:         c.dial,
		ForceAttemptHTTP2:   true,
		DisableCompression:  true, // we ask for gzip ourselves and count decoded bytes
		MaxIdleConnsPerHost: 2,
		// A bounded idle pool: a refresh rarely returns to a host it finished.
		MaxIdleConns:        maxIdleConns,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return c
}

// Options returns the client's effective options.
func (c *Client) Options() Options { return c.o }

// Request is one GET: ETag and LastModified make it conditional; Accept is sent when set;
// MaxBytes overrides Options.MaxBytes when positive.
type Request struct {
	URL          string
	ETag         string
	LastModified string
	Accept       string
	MaxBytes     int64
	// Stream makes a download: called with the final non-304 response, it returns the writer
	// the bounded, uncompressed body goes to (nil: skipped); a stall of Options.Timeout ends it.
	Stream func(*Response) (io.Writer, error)
	// From > 0 asks for bytes From on (Range): 206 with a matching Content-Range, or 200 with
	// the whole body.
	From int64
}

// Hop is one redirect followed: From answered Status with a Location resolving to To.
type Hop struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Status int    `json:"status"`
}

// Response is the final answer after redirects, any status (a 404 is a fact about the site).
// NotModified marks a 304; Body is gzip-decoded.
type Response struct {
	URL         string // the final URL, after redirects
	Status      int
	Header      http.Header
	Body        []byte
	Hops        []Hop
	NotModified bool
}

// ETag returns the ETag header, "" if none.
func (r *Response) ETag() string { return r.Header.Get("ETag") }

// LastModified returns the Last-Modified header, "" if none.
func (r *Response) LastModified() string { return r.Header.Get("Last-Modified") }

var errDeadline = errors.New("guard deadline")

// Get fetches r.URL under every rule of the guard. Every error is an *Error whose Hops are the
// redirects followed; the caller's ctx ending is KindCanceled.
func (c *Client) Get(ctx context.Context, r Request) (*Response, error) {
	resp, hops, err := c.get(ctx, r)
	var e *Error
	if errors.As(err, &e) && len(hops) > 0 {
		e.Hops = slices.Clone(hops)
	}
	return resp, err
}

func (c *Client) get(ctx context.Context, r Request) (*Response, []Hop, error) {
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	deadline := time.AfterFunc(c.o.Timeout, func() { cancel(errDeadline) })
	defer deadline.Stop()
	limit := c.o.MaxBytes
	if r.MaxBytes > 0 {
		limit = r.MaxBytes
	}
	cur := r.URL
	var hops []Hop
	for {
		u, err := CheckURL(cur, c.o.AllowLoopback)
		if err != nil {
			return nil, hops, err
		}
		// A failure before the connection is a transport failure (Error.Transport).
		var connected atomic.Bool
		trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }}
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, hops, &Error{Kind: KindRefused, URL: redact(cur), Reason: err.Error()}
		}
		r.header(req.Header, c.o.UserAgent)
		resp, err := c.rt.RoundTrip(req)
		if err != nil {
			return nil, hops, c.failure(parent, ctx, cur, err, !connected.Load())
		}
		if isRedirect(resp.StatusCode) {
			drain(resp.Body)
			next, err := c.redirect(u, cur, resp, len(hops))
			if err != nil {
				return nil, hops, err
			}
			hops = append(hops, Hop{From: cur, To: next, Status: resp.StatusCode})
			cur = next
			continue
		}
		out := &Response{URL: cur, Status: resp.StatusCode, Header: resp.Header, Hops: hops}
		if resp.StatusCode == http.StatusNotModified {
			drain(resp.Body)
			out.NotModified = true
			return out, hops, nil
		}
		if r.Stream != nil {
			err = c.stream(r, out, resp, limit, deadline)
		} else {
			var buf bytes.Buffer
			if resp.ContentLength > 0 && resp.ContentLength <= limit {
				buf.Grow(int(resp.ContentLength))
			}
			err = readBody(resp, limit, cur, &buf, nil)
			out.Body = buf.Bytes()
		}
		resp.Body.Close()
		var we writeError
		switch {
		case err == nil:
			return out, hops, nil
		case errors.As(err, &we):
			return nil, hops, we.error
		case r.Stream != nil && parent.Err() == nil && context.Cause(ctx) == errDeadline:
			return nil, hops, &Error{Kind: KindTimeout, URL: redact(cur), Timeout: c.o.Timeout, Stalled: true}
		}
		return nil, hops, c.failure(parent, ctx, cur, err, false)
	}
}

func (r Request) header(h http.Header, ua string) {
	h.Set("User-Agent", ua)
	h.Set("Accept-Encoding", "gzip")
	if r.Stream != nil {
		h.Set("Accept-Encoding", "identity")
	}
	if r.From > 0 {
		h.Set("Range", "bytes="+strconv.FormatInt(r.From, 10)+"-")
	}
	for k, v := range map[string]string{"Accept": r.Accept, "If-None-Match": r.ETag, "If-Modified-Since": r.LastModified} {
		if v != "" {
			h.Set(k, v)
		}
	}
}

// redirect returns where resp from cur points, or why it is not followed.
func (c *Client) redirect(u *url.URL, cur string, resp *http.Response, hops int) (string, error) {
	redirErr := func(reason string) error {
		return &Error{Kind: KindRedirect, URL: redact(cur), Status: resp.StatusCode, Reason: reason}
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return "", redirErr(fmt.Sprintf("HTTP %d without a Location header", resp.StatusCode))
	}
	next, perr := u.Parse(loc)
	if perr != nil {
		reason := perr.Error()
		var ue *url.Error
		if errors.As(perr, &ue) {
			reason = ue.Err.Error()
		}
		return "", redirErr(fmt.Sprintf("its Location header %q does not parse as a URL (%s)", loc, reason))
	}
	if hops+1 > c.o.MaxRedirects {
		return "", redirErr(fmt.Sprintf("more than %d redirects (this one to %s)", c.o.MaxRedirects, redact(next.String())))
	}
	return next.String(), nil
}

// stream checks a Range answer and copies the body to the caller's writer, each chunk putting
// the stall deadline off.
func (c *Client) stream(r Request, out *Response, resp *http.Response, limit int64, deadline *time.Timer) error {
	if cr := resp.Header.Get("Content-Range"); resp.StatusCode == http.StatusPartialContent && r.From > 0 &&
		!strings.HasPrefix(cr, "bytes "+strconv.FormatInt(r.From, 10)+"-") {
		return &Error{Kind: KindNetwork, URL: redact(out.URL), Cause: fmt.Errorf("asked for bytes from %d on, the server answered with Content-Range %q", r.From, cr)}
	}
	w, err := r.Stream(out)
	if err != nil {
		return writeError{err}
	}
	if w == nil {
		return nil
	}
	deadline.Reset(c.o.Timeout)
	return readBody(resp, limit, out.URL, w, func() { deadline.Reset(c.o.Timeout) })
}

// failure turns a transport error into an *Error; unconnected marks Error.Transport.
func (c *Client) failure(parent, ctx context.Context, cur string, err error, unconnected bool) error {
	var e *Error
	if errors.As(err, &e) {
		cp := *e
		cp.URL = redact(cur)
		return &cp
	}
	if parent.Err() != nil {
		return &Error{Kind: KindCanceled, URL: redact(cur), Cause: context.Cause(parent)}
	}
	if context.Cause(ctx) == errDeadline {
		return &Error{Kind: KindTimeout, URL: redact(cur), Timeout: c.o.Timeout, Transport: unconnected}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &Error{Kind: KindNetwork, URL: redact(cur), Cause: err, Transport: unconnected}
}

func redact(s string) string { return termtext.RedactURL(s) }

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// drain reads a little of an unwanted body, for connection reuse, and closes it.
func drain(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 64<<10)
	b.Close()
}

// writeError is the caller's own failure while streaming, never the site's.
type writeError struct{ error }

// errRawOver marks a gzip-encoded body whose encoded bytes alone pass the limit.
var errRawOver = errors.New("encoded body over the limit")

type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errRawOver
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// readBody copies at most limit body bytes to w, calling tick per chunk. An over-limit
// Content-Length is refused unread; gzip is capped on encoded and decoded bytes.
func readBody(resp *http.Response, limit int64, cur string, w io.Writer, tick func()) error {
	tooLarge := func(announced, decoded bool) error {
		return &Error{Kind: KindTooLarge, URL: redact(cur), Limit: limit, ContentLength: resp.ContentLength, Announced: announced, Decoded: decoded}
	}
	if resp.ContentLength > limit {
		return tooLarge(true, false)
	}
	var src io.Reader = resp.Body
	decoded := false
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(&capReader{r: resp.Body, left: limit + 1})
		if err != nil {
			if errors.Is(err, errRawOver) {
				return tooLarge(false, true)
			}
			return fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		src, decoded = zr, true
	default:
		return fmt.Errorf("Content-Encoding %q is not supported (only gzip is requested)", enc)
	}
	chunk := make([]byte, 32<<10)
	for read := int64(0); ; {
		n, err := src.Read(chunk)
		if read += int64(n); read > limit {
			return tooLarge(false, decoded)
		}
		if _, werr := w.Write(chunk[:n]); werr != nil {
			return writeError{werr}
		}
		if tick != nil {
			tick()
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, errRawOver) {
				return tooLarge(false, decoded)
			}
			return err
		}
	}
}

// dial is the transport's only way to connect: it re-checks the host and dials only checked
// addresses of a name, refusing it if any is refused.
func (c *Client) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &Error{Kind: KindRefused, URL: addr, Reason: "malformed address " + strconv.Quote(addr)}
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return nil, &Error{Kind: KindRefused, URL: addr, Reason: "port " + strconv.Quote(portStr) + " is not in 1-65535"}
	}
	if _, err := asciiHost(host); err == errNonASCII {
		// net/http maps IDNs to ASCII before dialing; one it could not map is refused here.
		return nil, &Error{Kind: KindRefused, Reason: fmt.Sprintf("host %q is not a valid internationalized domain name", host)}
	}
	lit, literal, err := checkHost(host, false, c.o.AllowLoopback)
	if err != nil {
		return nil, hostRefusal("", err, literal)
	}
	var addrs []netip.Addr
	if literal {
		addrs = []netip.Addr{lit}
	} else {
		name, _ := asciiHost(host)
		name = strings.TrimSuffix(name, ".")
		found, err := c.o.Resolver.LookupNetIP(ctx, "ip", name)
		if err != nil {
			return nil, fmt.Errorf("resolving %s: %w", name, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("resolving %s: no addresses", name)
		}
		for _, a := range found {
			// A mapped AAAA reaches the same IPv4 host as an A record: check and dial that.
			a = a.Unmap()
			if r := refuseAddr(a, c.o.AllowLoopback); r != nil {
				why := fmt.Sprintf("the name %s resolves to %s, which is %s", name, a, r.what)
				return nil, &Error{Kind: KindAddress, Reason: withLoopbackHint(why, r.loopback), Loopback: r.loopback}
			}
			addrs = append(addrs, a)
		}
	}
	var errs []error
	for _, a := range addrs {
		conn, err := c.o.Dial(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// maxIdleConns: eight sources at two requests each, twice over.
const maxIdleConns = 32
