package guard

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// CheckURL parses raw and checks everything that can be checked before any lookup or
// connection (seeds/crawler.txt, "Hostile input"): the scheme is http or https; there is no
// userinfo (user name or password); there is a host; a literal IP host passes CheckAddr; a host
// that a browser or curl would read as an IPv4 literal in a non-canonical form (decimal
// 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1, a trailing dot 127.0.0.1.) is refused,
// never handed to a resolver as a name; a host name is syntactically a DNS name (after IDNA
// mapping). Names are checked again, address by address, when they are resolved at dial time.
//
// It returns the parsed URL, or an *Error of KindRefused or KindAddress naming the URL (user
// info redacted) and why.
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

// LoopbackHint ends every refusal of an address --allow-loopback would admit: a local drill
// run without the flag is the likeliest cause, and the flag admits nothing else.
const LoopbackHint = "--allow-loopback admits 127.0.0.0/8 and ::1 for local drills"

func withLoopbackHint(reason string, loopback bool) string {
	if !loopback {
		return reason
	}
	return reason + " (" + LoopbackHint + ")"
}

// hostRefusal is the refusal of a URL (shown, user info redacted; "" at dial time) for
// checkHost's err: the address guard's when the host is an address (literal), with the
// loopback hint when --allow-loopback would admit it.
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

// checkHost classifies a URL host (brackets removed, percent-decoding done). It returns the
// address for a literal IP host (literal true), or the ASCII name to resolve. err explains a
// refusal; literal is true when the refusal is about an address.
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
		// WHATWG URL parsing (browsers, and curl's own parser) reads this host as an IPv4
		// address. Only the canonical dotted quad is accepted; every other spelling is refused
		// so that no resolver (glibc's inet_aton accepts them all) ever sees it.
		a, perr := netip.ParseAddr(name)
		if perr != nil || !a.Is4() {
			return netip.Addr{}, true, fmt.Errorf("host %q is an IPv4 address in a non-canonical form (decimal, octal, hex, short or with a trailing dot); only a dotted quad like 192.0.2.1 is read, others are refused", host)
		}
		return a, true, CheckAddr(a, allowLoopback)
	}
	return netip.Addr{}, false, nil
}

// errNonASCII marks an internationalized host name. CheckURL lets it through: net/http maps it
// to ASCII (IDNA) itself, and the dial checks that ASCII form with every rule (numeric forms,
// resolution, addresses) before connecting. Mapping it here would need golang.org/x/text.
var errNonASCII = errors.New("non-ASCII host name")

// asciiHost lowercases an ASCII host name and checks it is a DNS name:
// labels of letters, digits, '-' and '_', 1 to 63 bytes each, at most 253 bytes, one optional
// trailing dot.
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
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("host %q is not a valid host name (character %q)", host, c)
			}
		}
	}
	return name, nil
}

// looksIPv4 reports whether the WHATWG URL host parser would treat name as an IPv4 address: its
// last label (ignoring one trailing dot) is all decimal digits, or 0x/0X followed by hex digits.
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
