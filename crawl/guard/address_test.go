package guard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
)

// hostCase is one URL host form and what the guard must do with it, without and with
// --allow-loopback. name marks a host name: CheckURL admits it syntactically and its addresses are
// checked when it is resolved (see resolver tests).
type hostCase struct {
	host         string
	refused      bool // without AllowLoopback
	refusedAllow bool // with AllowLoopback
	name         bool
}

// R: refused always; L: loopback, refused unless AllowLoopback; A: admitted; N: a host name.
func R(h string) hostCase { return hostCase{host: h, refused: true, refusedAllow: true} }
func L(h string) hostCase { return hostCase{host: h, refused: true} }
func A(h string) hostCase { return hostCase{host: h} }
func N(h string) hostCase { return hostCase{host: h, name: true} }

var hostTable = []hostCase{
	// IPv4 loopback, canonical.
	L("127.0.0.1"), L("127.1.2.3"), L("127.255.255.254"),
	// IPv4 literals as browsers and curl read them: refused even with --allow-loopback, and even
	// when the address they spell is public.
	R("2130706433"), R("0177.0.0.1"), R("0x7f.1"), R("0x7f000001"), R("0X7F.0.0.1"), R("127.1"),
	R("127.0.1"), R("127.0.0.1."), R("017700000001"), R("0x7f.0x0.0x0.0x1"), R("8.8.8.8."),
	R("010.8.8.8"), R("134744072"), R("0x08080808"), R("1.2.3.04"), R("example.123"),
	R("256.0.0.1"), R("1.2.3.4.5"), R("0x"), R("127.0.0.1.."),
	// IPv4 blocks.
	R("0.0.0.0"), R("0.1.2.3"), R("10.0.0.1"), R("10.255.255.255"), R("172.16.0.1"),
	R("172.31.255.254"), R("192.168.1.1"), R("100.64.0.1"), R("100.127.255.254"),
	R("169.254.169.254"), R("169.254.0.1"), R("224.0.0.1"), R("239.255.255.250"),
	R("192.0.2.1"), R("198.51.100.7"), R("203.0.113.9"), R("198.18.0.1"), R("198.19.255.255"),
	R("240.0.0.1"), R("255.255.255.255"), R("192.0.0.8"), R("192.88.99.1"),
	// IPv4 public, including the neighbours of refused blocks.
	A("8.8.8.8"), A("1.1.1.1"), A("172.32.0.1"), A("172.15.255.255"), A("100.128.0.1"),
	A("198.20.0.1"), A("185.199.108.153"), A("223.255.255.255"),
	// IPv6 loopback and unspecified.
	L("[::1]"), L("[0:0:0:0:0:0:0:1]"), R("[::]"), R("[::1%25lo]"),
	// IPv4 wearing IPv6 clothes.
	R("[::ffff:127.0.0.1]"), R("[::ffff:7f00:1]"), R("[::FFFF:7F00:1]"), R("[::ffff:8.8.8.8]"),
	R("[::ffff:169.254.169.254]"), R("[::127.0.0.1]"), R("[::8.8.8.8]"),
	R("[64:ff9b::7f00:1]"), R("[64:ff9b::127.0.0.1]"), R("[64:ff9b::a9fe:a9fe]"),
	R("[64:ff9b::a00:1]"), A("[64:ff9b::808:808]"), R("[64:ff9b:1::808:808]"),
	R("[2002:7f00:1::]"), R("[2002:808:808::1]"), R("[2001:0:4136:e378:8000:63bf:3fff:fdd2]"),
	R("[::ffff:0:7f00:1]"),
	// IPv6 blocks.
	R("[2001:db8::1]"), R("[3fff::1]"), R("[2001:2::1]"), R("[2001:10::1]"), R("[2001:20::1]"),
	R("[2001:1::1]"), R("[fc00::1]"), R("[fd12:3456::1]"), R("[fe80::1]"), R("[FE80::1]"),
	R("[fe80::1%25eth0]"), R("[fec0::1]"), R("[ff02::1]"), R("[ff05::1:3]"), R("[100::1]"),
	R("[5f00::1]"), R("[4000::1]"), R("[::2]"),
	// IPv6 public.
	A("[2606:4700:4700::1111]"), A("[2001:4860:4860::8888]"), A("[2a00:1450:4001::1]"),
	A("[2606:50c0:8000::153]"),
	// Names: admitted by CheckURL, checked address by address when resolved.
	N("example.com"), N("EXAMPLE.COM."), N("dreamweave-mp.github.io"), N("localhost"),
	N("1.2.3.4.nip.io"), N("0x7f.example"), N("xn--exmple-cua.com"), N("a_b.example"),
	// Hosts that are not host names.
	R("exa mple.com"), R("example..com"), R("-" + strings.Repeat("a", 64) + ".com"),
}

func TestAddressTableCount(t *testing.T) {
	if len(hostTable) < 60 {
		t.Fatalf("the address table has %d forms; the brief asks for at least 60", len(hostTable))
	}
}

func TestCheckURLHostTable(t *testing.T) {
	for _, tc := range hostTable {
		for _, allow := range []bool{false, true} {
			want := tc.refused
			if allow {
				want = tc.refusedAllow
			}
			raw := "http://" + tc.host + "/dreamweave.json"
			u, err := CheckURL(raw, allow)
			if want {
				re, ok := refusal(err)
				if !ok {
					t.Errorf("CheckURL(%q, allowLoopback=%v) = %v, %v; want a refusal", raw, allow, u, err)
					continue
				}
				if !strings.Contains(re.Error(), "refused") || re.Reason == "" {
					t.Errorf("CheckURL(%q): error %q does not say refused and why", raw, re)
				}
				continue
			}
			if err != nil {
				t.Errorf("CheckURL(%q, allowLoopback=%v) refused: %v; want admitted", raw, allow, err)
			}
		}
	}
}

// TestGetNeverConnectsToRefusedLiterals runs every literal of the table through Get with a dial
// and resolver that record calls: refused forms never reach either; admitted literals dial
// exactly the literal address, without a lookup.
func TestGetNeverConnectsToRefusedLiterals(t *testing.T) {
	for _, tc := range hostTable {
		if tc.name {
			continue
		}
		for _, allow := range []bool{false, true} {
			want := tc.refused
			if allow {
				want = tc.refusedAllow
			}
			var dialed []string
			c := New(Options{
				AllowLoopback: allow,
				Resolver: resolverFunc(func(ctx context.Context, network, host string) ([]netip.Addr, error) {
					t.Errorf("%s: resolver called for %q", tc.host, host)
					return nil, errors.New("no")
				}),
				Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
					dialed = append(dialed, addr)
					return nil, errors.New("test dial: no network")
				},
			})
			_, err := c.Get(context.Background(), Request{URL: "http://" + tc.host + ":8080/"})
			_, refused := refusal(err)
			if refused != want {
				t.Errorf("Get(%s, allowLoopback=%v): refused=%v (%v), want refused=%v", tc.host, allow, refused, err, want)
			}
			if want && len(dialed) > 0 {
				t.Errorf("Get(%s): dialed %v for a refused host", tc.host, dialed)
			}
			if !want {
				a, perr := netip.ParseAddr(strings.Trim(tc.host, "[]"))
				if perr != nil {
					t.Fatalf("admitted literal %q does not parse: %v", tc.host, perr)
				}
				wantAddr := netip.AddrPortFrom(a, 8080).String()
				if len(dialed) != 1 || dialed[0] != wantAddr {
					t.Errorf("Get(%s): dialed %v, want exactly [%s]", tc.host, dialed, wantAddr)
				}
			}
		}
	}
}

func TestCheckAddrReasons(t *testing.T) {
	cases := []struct {
		addr, words string
	}{
		{"10.1.2.3", "private (RFC 1918"},
		{"172.20.0.1", "private (RFC 1918"},
		{"192.168.0.1", "private (RFC 1918"},
		{"100.100.100.200", "carrier-grade NAT"},
		{"169.254.169.254", "cloud metadata"},
		{"127.0.0.1", "loopback"},
		{"::1", "loopback"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.251", "multicast"},
		{"ff02::fb", "multicast"},
		{"192.0.2.1", "documentation"},
		{"2001:db8::", "documentation"},
		{"3fff:fff::1", "documentation"},
		{"198.18.5.5", "benchmarking"},
		{"2001:2::5", "benchmarking"},
		{"240.1.1.1", "reserved"},
		{"255.255.255.255", "broadcast"},
		{"192.0.0.170", "IETF protocol assignments"},
		{"192.88.99.10", "6to4 relay"},
		{"fd00::1", "unique local"},
		{"fec0::5", "site-local"},
		{"100::7", "discard-only"},
		{"2001:10::9", "ORCHID"},
		{"::ffff:127.0.0.1", "IPv4-mapped"},
		{"::7f00:1", "IPv4-compatible"},
		{"64:ff9b::7f00:1", "64:ff9b::7f00:1 is NAT64 (64:ff9b::/96) for 127.0.0.1, which is loopback"},
		{"64:ff9b::a9fe:a9fe", "cloud metadata"},
		{"64:ff9b:1::1", "local-use NAT64"},
		{"2002:a00:1::", "6to4"},
		{"2001::1", "Teredo"},
		{"fe80::1%eth0", "zone"},
		{"c000::1", "outside global unicast"},
	}
	for _, tc := range cases {
		a := netip.MustParseAddr(tc.addr)
		err := CheckAddr(a, false)
		if err == nil {
			t.Errorf("CheckAddr(%s) admitted; want refused (%s)", tc.addr, tc.words)
			continue
		}
		if !strings.Contains(err.Error(), tc.words) || !strings.Contains(err.Error(), a.String()) {
			t.Errorf("CheckAddr(%s) = %q; want it to name the address and say %q", tc.addr, err, tc.words)
		}
	}
}

func TestCheckAddrAllowLoopbackAdmitsOnlyLoopback(t *testing.T) {
	admitted := []string{"127.0.0.1", "127.0.0.2", "127.255.255.255", "::1"}
	refused := []string{
		"::ffff:127.0.0.1", "64:ff9b::7f00:1", "::7f00:1", "2002:7f00:1::", "0.0.0.0", "::",
		"10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "fe80::1",
		"fc00::1", "fd00:ec2::254", "224.0.0.1", "::2", "::1%lo",
	}
	for _, s := range admitted {
		a := netip.MustParseAddr(s)
		if err := CheckAddr(a, true); err != nil {
			t.Errorf("CheckAddr(%s, allowLoopback) = %v; want admitted", s, err)
		}
		if err := CheckAddr(a, false); err == nil {
			t.Errorf("CheckAddr(%s) admitted without allowLoopback", s)
		}
	}
	for _, s := range refused {
		if err := CheckAddr(netip.MustParseAddr(s), true); err == nil {
			t.Errorf("CheckAddr(%s, allowLoopback) admitted; only 127.0.0.0/8 and ::1 may be", s)
		}
	}
	if err := CheckAddr(netip.Addr{}, true); err == nil {
		t.Error("CheckAddr(invalid) admitted")
	}
}

func TestCheckURLSchemeAndUserinfo(t *testing.T) {
	cases := []struct {
		raw, words string
	}{
		{"file:///etc/passwd", `scheme "file" is not http or https`},
		{"ftp://example.com/dreamweave.json", `scheme "ftp"`},
		{"gopher://example.com/", `scheme "gopher"`},
		{"javascript:alert(1)", `scheme "javascript"`},
		{"data:application/json,{}", `scheme "data"`},
		{"//example.com/dreamweave.json", "no scheme"},
		{"dreamweave.json", "no scheme"},
		{"http://user@example.com/", "user name or password"},
		{"http://user:hunter2@example.com/", "user name or password"},
		{"http://:hunter2@example.com/", "user name or password"},
		{"http://@example.com/", "user name or password"},
		{"http:///dreamweave.json", "no host"},
		{"http:example.com", "no host"},
		{"http://example.com:0/", "port"},
		{"http://example.com:99999/", "port"},
		{"http://[::1/", "not a valid URL"},
		{"http://exa\x00mple.com/", "not a valid URL"},
	}
	for _, tc := range cases {
		_, err := CheckURL(tc.raw, true)
		re, ok := refusal(err)
		if !ok {
			t.Errorf("CheckURL(%q) = %v; want a refusal", tc.raw, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.words) {
			t.Errorf("CheckURL(%q) = %q; want it to say %q", tc.raw, err, tc.words)
		}
		if re.Kind == KindAddress {
			t.Errorf("CheckURL(%q): a URL refusal is marked as the address guard's", tc.raw)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckURL(%q): the error shows the password: %q", tc.raw, err)
		}
		if !strings.Contains(err.Error(), strings.SplitN(tc.raw, "hunter2", 2)[0][:4]) {
			t.Errorf("CheckURL(%q) = %q; want it to name the URL", tc.raw, err)
		}
	}
	for _, ok := range []string{"HTTP://example.com/", "https://example.com:8443/x?y#z", "http://example.com./"} {
		if _, err := CheckURL(ok, false); err != nil {
			t.Errorf("CheckURL(%q) = %v; want admitted", ok, err)
		}
	}
}

// resolverFunc adapts a function to Resolver.
type resolverFunc func(ctx context.Context, network, host string) ([]netip.Addr, error)

func (f resolverFunc) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return f(ctx, network, host)
}

// stubResolver answers from a map and counts lookups.
type stubResolver struct {
	mu    sync.Mutex
	addrs map[string][]string
	calls map[string]int
}

func (s *stubResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[host]++
	list, ok := s.addrs[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, a := range list {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

func TestResolvedNameRefusedIfAnyAddressRefused(t *testing.T) {
	res := &stubResolver{addrs: map[string][]string{
		"mixed.example":   {"8.8.8.8", "10.0.0.1"},
		"mixed6.example":  {"2606:4700:4700::1111", "fd00::1"},
		"mapped.example":  {"::ffff:10.0.0.1"},
		"meta.example":    {"169.254.169.254"},
		"public.example":  {"8.8.8.8", "2606:4700:4700::1111"},
		"nat64.example":   {"64:ff9b::a9fe:a9fe"},
		"loopish.example": {"127.0.0.1", "192.168.1.1"},
	}}
	var dialed []string
	c := New(Options{AllowLoopback: true, Resolver: res, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return nil, errors.New("test dial: no network")
	}})
	for name, bad := range map[string]string{
		"mixed.example": "10.0.0.1", "mixed6.example": "fd00::1", "mapped.example": "10.0.0.1",
		"meta.example": "169.254.169.254", "nat64.example": "64:ff9b::a9fe:a9fe", "loopish.example": "192.168.1.1",
	} {
		dialed = nil
		_, err := c.Get(context.Background(), Request{URL: "http://" + name + "/dreamweave.json"})
		re, ok := refusal(err)
		if !ok || re.Kind != KindAddress {
			t.Errorf("%s: got %v; want refused by the address guard", name, err)
			continue
		}
		if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "http://"+name+"/dreamweave.json") {
			t.Errorf("%s: error %q should name the URL, the name and the refused address %s", name, err, bad)
		}
		if len(dialed) != 0 {
			t.Errorf("%s: dialed %v although the name was refused", name, dialed)
		}
	}
	dialed = nil
	_, err := c.Get(context.Background(), Request{URL: "http://public.example/"})
	if err == nil || !strings.Contains(err.Error(), "test dial") {
		t.Fatalf("public.example: %v; want the test dial's failure", err)
	}
	if want := []string{"8.8.8.8:80", "[2606:4700:4700::1111]:80"}; strings.Join(dialed, " ") != strings.Join(want, " ") {
		t.Errorf("public.example dialed %v; want every checked address in order %v", dialed, want)
	}
	_, err = c.Get(context.Background(), Request{URL: "http://nowhere.example/"})
	if err == nil || !strings.Contains(err.Error(), "nowhere.example") || !strings.Contains(err.Error(), "no such host") {
		t.Errorf("unresolvable name: %v; want a DNS error naming the host", err)
	}
}
