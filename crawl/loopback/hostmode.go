package loopback

// Host mode: a request whose Host names a host of the root is answered byte for byte.
import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
)

// Resolver resolves each host of the root (case-insensitive, final dot ignored) to 127.0.0.1
// and every other name to not-found, so a guard given it reaches only this server.
func (s *Server) Resolver() HostResolver { return HostResolver{s} }

// HostResolver is Server.Resolver's result, a crawl/guard Resolver.
type HostResolver struct{ s *Server }

// LookupNetIP returns [127.0.0.1] for a host of the root and network "ip" or "ip4", else a
// not-found *net.DNSError.
func (r HostResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if r.s.isHost(h) && (network == "ip" || network == "ip4") {
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}, nil
	}
	return nil, &net.DNSError{Err: "not a host of the loopback web root", Name: host, IsNotFound: true}
}

// Dial connects to this server for "127.0.0.1:80" (where Resolver sends the root's hosts) or
// its own Addr, and fails for any other address (a crawl/guard DialFunc).
func (s *Server) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	own := s.Addr()
	if addr != "127.0.0.1:80" && addr != own {
		return nil, fmt.Errorf("loopback: %s is not this server (it answers at 127.0.0.1:80 for its hosts, and at %s)", addr, own)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, own)
}

func (s *Server) isHost(h string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.hosts {
		if strings.EqualFold(x, h) {
			return true
		}
	}
	return false
}

// HostBytes returns what host mode answers for http://<host><urlPath> without rules; ok is
// false for a 404.
func (s *Server) HostBytes(host, urlPath string) (body []byte, ok bool) {
	body, _, ok = s.file("/"+host+path.Clean("/"+urlPath), false)
	return body, ok
}

// route maps a request to its file path below the root ("/<host>/<path>"), the URI rules match
// and whether bodies are rewritten (not in host mode).
func (s *Server) route(req *http.Request) (urlPath, uri string, rewrite bool) {
	h := req.Host
	if hh, _, err := net.SplitHostPort(h); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h != "" && s.isHost(h) {
		// Cleaned first, so no ".." climbs into another host.
		p := path.Clean("/" + req.URL.Path)
		if strings.HasSuffix(req.URL.Path, "/") && p != "/" {
			p += "/"
		}
		uri := "/" + h + p
		if req.URL.RawQuery != "" {
			uri += "?" + req.URL.RawQuery
		}
		return "/" + h + p, uri, false
	}
	return req.URL.Path, req.URL.RequestURI(), true
}
