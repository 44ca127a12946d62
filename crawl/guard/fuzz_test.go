package guard

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// whatwgIPv4 parses host the way the WHATWG URL standard (browsers, curl) reads an IPv4 host:
// 1 to 4 dot-separated parts (one trailing dot ignored), each decimal, 0x-hex or 0-octal, the last
// part filling the remaining bytes. It is the reference the fuzz target compares CheckURL with.
func whatwgIPv4(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	parts := strings.Split(host, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			p, base = p[2:], 16
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		if p == "" {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://dreamweave-mp.github.io/S3ctors-S3cret-St4sh/",
		"http://127.0.0.1:8080/dreamweave.json", "http://2130706433/", "http://0177.0.0.1/",
		"http://0x7f.1/", "http://127.1/", "http://127.0.0.1./", "http://[::ffff:127.0.0.1]/",
		"http://[fe80::1%25eth0]/", "http://[64:ff9b::a9fe:a9fe]/", "http://169.254.169.254/",
		"file:///etc/passwd", "http://user:pw@example.com/", "http://EXAMPLE.com./", "http://１２７.０.０.１/",
		"http://[::1]:0/", "http://0x/", "http://1.2.3.4.5/", "http:example.com", "http://[2002:7f00:1::]/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, allow := range []bool{false, true} {
			u, err := CheckURL(raw, allow)
			if err != nil {
				if e, ok := err.(*Error); !ok || (e.Kind != KindRefused && e.Kind != KindAddress) {
					t.Fatalf("CheckURL(%q) error %T %v; want a refusal *Error", raw, err, err)
				}
				continue
			}
			if u.Scheme != "http" && u.Scheme != "https" {
				t.Fatalf("CheckURL(%q) admitted scheme %q", raw, u.Scheme)
			}
			if u.User != nil || u.Hostname() == "" {
				t.Fatalf("CheckURL(%q) admitted userinfo or an empty host", raw)
			}
			host := u.Hostname()
			if a, perr := netip.ParseAddr(host); perr == nil {
				if a.Zone() != "" || CheckAddr(a, allow) != nil {
					t.Fatalf("CheckURL(%q) admitted literal %s that CheckAddr refuses", raw, a)
				}
			}
			if a, ok := whatwgIPv4(strings.ToLower(host)); ok {
				// A browser reads this host as a; it may be admitted only as the canonical form.
				if a.String() != host || CheckAddr(a, allow) != nil {
					t.Fatalf("CheckURL(%q) admitted host %q that a browser reads as %s", raw, host, a)
				}
			}
			if !allow {
				if _, err := CheckURL(raw, true); err != nil {
					t.Fatalf("CheckURL(%q) admitted without --allow-loopback but refused with it: %v", raw, err)
				}
			}
		}
	})
}

func TestWhatwgIPv4Reference(t *testing.T) {
	for in, want := range map[string]string{
		"2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1", "127.1": "127.0.0.1",
		"127.0.0.1.": "127.0.0.1", "0x7f000001": "127.0.0.1", "1.2.65535": "1.2.255.255",
	} {
		if a, ok := whatwgIPv4(in); !ok || a.String() != want {
			t.Errorf("whatwgIPv4(%q) = %v %v; want %s", in, a, ok, want)
		}
	}
	for _, in := range []string{"256.0.0.1", "1.2.3.4.5", "example", "1.2.65536", "09.1.1.1"} {
		if a, ok := whatwgIPv4(in); ok {
			t.Errorf("whatwgIPv4(%q) = %v; want no address", in, a)
		}
	}
}
