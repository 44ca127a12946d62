package guard

import (
	"fmt"
	"net/netip"
)

// refusedRange is one address block the guard refuses, with the words errors use.
type refusedRange struct {
	prefix netip.Prefix
	what   string
}

func r(p, what string) refusedRange { return refusedRange{netip.MustParsePrefix(p), what} }

// v4Refused lists every IPv4 block that is not public unicast (IANA special-purpose registry);
// the first match names the address.
var v4Refused = []refusedRange{
	r("255.255.255.255/32", "the limited broadcast address"),
	r("0.0.0.0/8", `"this network" (0.0.0.0/8, which holds the unspecified address)`),
	r("10.0.0.0/8", "private (RFC 1918, 10.0.0.0/8)"),
	r("100.64.0.0/10", "carrier-grade NAT (RFC 6598, 100.64.0.0/10)"),
	r("127.0.0.0/8", "loopback (127.0.0.0/8)"),
	r("169.254.0.0/16", "link-local (169.254.0.0/16, where cloud metadata services live)"),
	r("172.16.0.0/12", "private (RFC 1918, 172.16.0.0/12)"),
	r("192.0.0.0/24", "reserved for IETF protocol assignments (192.0.0.0/24)"),
	r("192.0.2.0/24", "documentation (TEST-NET-1, 192.0.2.0/24)"),
	r("192.88.99.0/24", "the deprecated 6to4 relay anycast block (192.88.99.0/24)"),
	r("192.168.0.0/16", "private (RFC 1918, 192.168.0.0/16)"),
	r("198.18.0.0/15", "benchmarking (RFC 2544, 198.18.0.0/15)"),
	r("198.51.100.0/24", "documentation (TEST-NET-2, 198.51.100.0/24)"),
	r("203.0.113.0/24", "documentation (TEST-NET-3, 203.0.113.0/24)"),
	r("224.0.0.0/4", "multicast (224.0.0.0/4)"),
	r("240.0.0.0/4", "reserved (240.0.0.0/4)"),
}

// v6Refused names IPv6 blocks; anything outside 2000::/3 is refused anyway (CheckAddr), so the
// list gives the words. Mapped addresses are refused and NAT64 unwrapped before it.
var v6Refused = []refusedRange{
	r("::/128", "the unspecified address"),
	r("::1/128", "loopback (::1)"),
	r("::/96", "IPv4-compatible (::/96, deprecated by RFC 4291; refused outright)"),
	r("64:ff9b:1::/48", "local-use NAT64 (RFC 8215, 64:ff9b:1::/48; refused outright)"),
	r("100::/64", "discard-only (RFC 6666, 100::/64)"),
	r("2001::/32", "Teredo (2001::/32; refused outright)"),
	r("2001:2::/48", "benchmarking (RFC 5180, 2001:2::/48)"),
	r("2001:10::/28", "ORCHID (RFC 4843, 2001:10::/28)"),
	r("2001:20::/28", "ORCHIDv2 (RFC 7343, 2001:20::/28)"),
	r("2001::/23", "reserved for IETF protocol assignments (2001::/23)"),
	r("2001:db8::/32", "documentation (2001:db8::/32)"),
	r("2002::/16", "6to4 (2002::/16, deprecated by RFC 7526; refused outright)"),
	r("3fff::/20", "documentation (RFC 9637, 3fff::/20)"),
	r("5f00::/16", "reserved for SRv6 SIDs (RFC 9602, 5f00::/16)"),
	r("fc00::/7", "unique local (ULA, fc00::/7)"),
	r("fe80::/10", "link-local (fe80::/10)"),
	r("fec0::/10", "site-local (fec0::/10, deprecated)"),
	r("ff00::/8", "multicast (ff00::/8)"),
}

var (
	v4Loopback    = netip.MustParsePrefix("127.0.0.0/8")
	v6Loopback    = netip.IPv6Loopback()
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	globalUnicast = netip.MustParsePrefix("2000::/3")
)

// refusedAddr is a refused address and what it is: words reads "<addr> is <what>"; a sentence
// naming the address otherwise (a resolved name) uses what alone.
type refusedAddr struct {
	addr     netip.Addr // invalid when there was none
	what     string     // "loopback (127.0.0.0/8)"
	loopback bool       // --allow-loopback would admit it
}

func (r *refusedAddr) words() string {
	if !r.addr.IsValid() {
		return r.what
	}
	return r.addr.String() + " is " + r.what
}

// CheckAddr says whether the crawler may connect to a (seeds/crawler.txt, "Hostile input"): nil,
// or a KindAddress *Error naming the address and why, Loopback set when --allow-loopback would
// admit it. Refused: every non-public block in IPv4 and IPv6, all IPv6 outside 2000::/3, zoned
// addresses; IPv4-mapped, IPv4-compatible, 6to4, Teredo and local-use NAT64 outright (ways
// around the IPv4 rules). NAT64 64:ff9b::/96 is unwrapped and its IPv4 address checked, so
// DNS64 runners reach IPv4-only sites. allowLoopback admits exactly 127.0.0.0/8 and ::1.
func CheckAddr(a netip.Addr, allowLoopback bool) error {
	if r := refuseAddr(a, allowLoopback); r != nil {
		return &Error{Kind: KindAddress, Reason: r.words(), Loopback: r.loopback}
	}
	return nil
}

func refuseAddr(a netip.Addr, allowLoopback bool) *refusedAddr {
	r := checkAddr(a, allowLoopback)
	if r != nil {
		r.loopback = !allowLoopback && checkAddr(a, true) == nil
	}
	return r
}

func checkAddr(a netip.Addr, allowLoopback bool) *refusedAddr {
	if !a.IsValid() {
		return &refusedAddr{what: "not an IP address"}
	}
	if a.Zone() != "" {
		return &refusedAddr{addr: a, what: fmt.Sprintf("an address with an IPv6 zone (%%%s); zoned addresses are refused", a.Zone())}
	}
	if a.Is4() {
		if allowLoopback && v4Loopback.Contains(a) {
			return nil
		}
		return checkV4(a)
	}
	if a.Is4In6() {
		return &refusedAddr{addr: a, what: "an IPv4-mapped IPv6 address (::ffff:0:0/96; refused outright)"}
	}
	if allowLoopback && a == v6Loopback {
		return nil
	}
	if nat64.Contains(a) {
		b := a.As16()
		v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		if err := checkV4(v4); err != nil {
			return &refusedAddr{addr: a, what: fmt.Sprintf("NAT64 (64:ff9b::/96) for %s, which is %s", v4, err.what)}
		}
		return nil
	}
	for _, rr := range v6Refused {
		if rr.prefix.Contains(a) {
			return &refusedAddr{addr: a, what: rr.what}
		}
	}
	if !globalUnicast.Contains(a) {
		return &refusedAddr{addr: a, what: "outside global unicast 2000::/3 (unassigned or reserved)"}
	}
	return nil
}

func checkV4(a netip.Addr) *refusedAddr {
	for _, rr := range v4Refused {
		if rr.prefix.Contains(a) {
			return &refusedAddr{addr: a, what: rr.what}
		}
	}
	return nil
}
