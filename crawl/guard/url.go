package guard

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// CheckURL parses raw and checks all that needs no lookup (seeds/crawler.txt, "Hostile input"):
// http(s), no userinfo, a literal IP passing CheckAddr, no non-canonical IPv4 (0x7f.1, 127.1),
// a DNS name (its addresses checked at dial time). Errors are KindRefused or KindAddress.
func CheckURL(raw string, allowLoopback bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		reason := err.Error()
		if errors.As(err, &ue) {
			reason = ue.Err.Error()
		}
		return nil, &Error{Kind: KindRefused, URL: redact(raw), Reason: "not a valid URL: " + redact(reason)}
	}
	shown := redact(raw)
	refuse := func(format string, a ...any) (*url.URL, error) {
		return nil, &Error{Kind: KindRefused, URL: shown, Reason: fmt.Sprintf(format, a...)}
	}
	switch u.Scheme {
	case "http", "https":
	case "":
		return refuse("not an absolute URL (no scheme); only http and https are fetched")
	default:
		return refuse("scheme %q is not http or https", u.Scheme)
	}
	if u.User != nil {
		return refuse("the URL carries a user name or password; such URLs are never fetched")
	}
	if u.Opaque != "" || u.Host == "" {
		return refuse("the URL has no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return refuse("port %q is not in 1-65535", p)
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return refuse("empty port")
	}
	bracketed := strings.HasPrefix(u.Host, "[")
	if _, literal, err := checkHost(u.Hostname(), bracketed, allowLoopback); err != nil {
		return nil, hostRefusal(shown, err, literal)
	}
	return u, nil
}

// LoopbackHint ends every refusal of an address --allow-loopback would admit.
const LoopbackHint = "--allow-loopback admits 127.0.0.0/8 and ::1 for local drills"

func withLoopbackHint(reason string, loopback bool) string {
	if !loopback {
		return reason
	}
	return reason + " (" + LoopbackHint + ")"
}

// hostRefusal is the refusal of URL shown ("" at dial time) for checkHost's err: KindAddress
// when the host is a literal, with the loopback hint when it applies.
func hostRefusal(shown string, err error, literal bool) *Error {
	e := &Error{Kind: KindRefused, URL: shown, Reason: err.Error()}
	if literal {
		e.Kind = KindAddress
	}
	var ae *Error
	if errors.As(err, &ae) && ae.Loopback {
		e.Loopback = true
		e.Reason = withLoopbackHint(e.Reason, true)
	}
	return e
}

// checkHost classifies a URL host: the address of a literal IP (literal true) or a name; err
// explains a refusal, literal then says it is about an address.
func checkHost(host string, bracketed, allowLoopback bool) (addr netip.Addr, literal bool, err error) {
	if host == "" {
		return netip.Addr{}, false, errors.New("the URL has no host")
	}
	if bracketed || strings.Contains(host, ":") {
		a, perr := netip.ParseAddr(host)
		if perr != nil || !a.Is6() {
			return netip.Addr{}, true, fmt.Errorf("host %q is not a valid IPv6 literal", host)
		}
		return a, true, CheckAddr(a, allowLoopback)
	}
	name, nerr := asciiHost(host)
	if nerr == errNonASCII {
		if strings.ContainsFunc(host, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("/\\?#@%[]<>|^`{}", r) }) {
			return netip.Addr{}, false, fmt.Errorf("host %q is not a valid host name", host)
		}
		return netip.Addr{}, false, nil // checked at dial time, once net/http has mapped it to ASCII
	}
	if nerr != nil {
		return netip.Addr{}, false, nerr
	}
	if looksIPv4(name) {
		// Browsers and curl read this as IPv4; only the dotted quad is accepted, so no
		// resolver (inet_aton accepts them all) ever sees another spelling.
		a, perr := netip.ParseAddr(name)
		if perr != nil || !a.Is4() {
			return netip.Addr{}, true, fmt.Errorf("host %q is an IPv4 address in a non-canonical form (decimal, octal, hex, short or with a trailing dot); only a dotted quad like 192.0.2.1 is read, others are refused", host)
		}
		return a, true, CheckAddr(a, allowLoopback)
	}
	return netip.Addr{}, false, nil
}

// errNonASCII marks an IDN host: net/http maps it to ASCII and dial checks that form.
var errNonASCII = errors.New("non-ASCII host name")

// asciiHost lowercases an ASCII host and checks it is a DNS name (labels of [a-z0-9_-], 1-63
// bytes, 253 in all, one optional trailing dot).
func asciiHost(host string) (string, error) {
	if strings.ContainsFunc(host, func(r rune) bool { return r >= 0x80 }) {
		return "", errNonASCII
	}
	name := strings.ToLower(host)
	trimmed := strings.TrimSuffix(name, ".")
	if trimmed == "" || len(trimmed) > 253 {
		return "", fmt.Errorf("host %q is not a valid host name", host)
	}
	for _, label := range strings.Split(trimmed, ".") {
		if label == "" || len(label) > 63 {
			return "", fmt.Errorf("host %q is not a valid host name (empty or over-long label)", host)
		}
		for i := range len(label) {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("host %q is not a valid host name (character %q)", host, c)
			}
		}
	}
	return name, nil
}

// looksIPv4 reports whether a WHATWG URL parser reads name as IPv4: its last label is all
// digits or 0x-hex.
func looksIPv4(name string) bool {
	trimmed := strings.TrimSuffix(name, ".")
	last := trimmed[strings.LastIndexByte(trimmed, '.')+1:]
	if last == "" {
		return false
	}
	if h, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return strings.Trim(h, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}
