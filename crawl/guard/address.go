package guard

import (
	"fmt"
	"net/netip"
)

// A refusedRange is one address block the guard refuses, with the words used in errors.
type refusedRange struct {
	prefix netip.Prefix
	what   string
}

func r(p, what string) refusedRange { return refusedRange{netip.MustParsePrefix(p), what} }

// v4Refused lists every IPv4 block that is not a public unicast address (IANA IPv4
// Special-Purpose Address Registry, RFC 6890 and successors). Order matters only for the words:
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

// v6Refused lists the IPv6 blocks refused by name. Anything outside global unicast 2000::/3 is
// refused as well (see CheckAddr), so this list mostly exists to give the right words.
// IPv4-mapped ::ffff:0:0/96 is handled before this table (refused outright); NAT64 64:ff9b::/96
// is unwrapped before it.
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

// refusedAddr is an address the guard refuses and what it is, in words. words reads "<addr> is
// <what>" ("169.254.169.254 is link-local (169.254.0.0/16, where cloud metadata services
// live)"); a sentence that names the address another way (a resolved name) uses what alone, so
// the words stay grammatical.
type refusedAddr struct {
	addr netip.Addr // the refused address (invalid when there was none)
	what string     // what the address is, as a noun phrase or adjective: "loopback (127.0.0.0/8)"
	// loopback is true when --allow-loopback would admit the address (127.0.0.0/8 or ::1): the
	// refusal a local drill without the flag runs into.
	loopback bool
}

func (r *refusedAddr) words() string {
	if !r.addr.IsValid() {
		return r.what
	}
	return r.addr.String() + " is " + r.what
}

// CheckAddr says whether the crawler may connect to a: nil when admitted, otherwise an *Error
// of KindAddress (no URL) whose text names the address and why it is refused, Loopback set when
// --allow-loopback would admit it (seeds/crawler.txt, "Hostile input").
//
// Refused: loopback, unspecified, private (RFC 1918), carrier-grade NAT, link-local,
// multicast, documentation, benchmarking and reserved blocks, in IPv4 and IPv6; every IPv6
// address outside global unicast 2000::/3; any address carrying an IPv6 zone.
//
// IPv4 wearing IPv6 clothes:
//   - IPv4-mapped ::ffff:0:0/96: refused outright. No public site publishes a mapped address in
//     DNS; on a dual-stack socket it reaches the embedded IPv4 address, so it is only ever a way
//     around the IPv4 rules.
//   - IPv4-compatible ::/96, local-use NAT64 64:ff9b:1::/48, 6to4 2002::/16 and Teredo
//     2001::/32: refused outright (deprecated, or the embedded address depends on the local
//     network's configuration).
//   - NAT64 well-known prefix 64:ff9b::/96: unwrapped, and the embedded IPv4 address must pass
//     the IPv4 rules (loopback never, even with allowLoopback). This keeps IPv4-only sites
//     reachable from an IPv6-only runner behind DNS64 without opening any refused block.
//
// allowLoopback (--allow-loopback, for local drills) admits exactly 127.0.0.0/8 and ::1, and
// nothing else: private and metadata blocks, mapped loopback (::ffff:127.0.0.1) and NAT64 loopback
// stay refused.
func CheckAddr(a netip.Addr, allowLoopback bool) error {
	if r := refuseAddr(a, allowLoopback); r != nil {
		return &Error{Kind: KindAddress, Reason: r.words(), Loopback: r.loopback}
	}
	return nil
}

// refuseAddr is CheckAddr's verdict before it is an error: nil when admitted.
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
