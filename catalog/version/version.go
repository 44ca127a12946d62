// Package version parses DreamWeave versions and constraints and orders versions under the
// numeric and decimal schemes (SPEC section 1, "Versions"): release[-prerelease][+build], 1 to 6
// numbers, pre-releases compared as SemVer 2.0.0 section 11, build metadata ignored.
package version

import (
	"cmp"
	"fmt"
	"strings"
)

// Scheme is a project's versioning scheme: how release numbers compare (SPEC section 1).
type Scheme string

// The two versioning schemes a manifest's project.versioning may name.
const (
	// Numeric compares each number as an integer; missing trailing numbers are 0.
	Numeric Scheme = "numeric"
	// Decimal compares the first number as an integer and each later number as the digits
	// after a decimal point (trailing zeros stripped, a prefix sorts first).
	Decimal Scheme = "decimal"
)

// MaxNumbers is the most release numbers a version may have (SPEC section 1: 1 to 6).
const MaxNumbers = 6

// SchemeOf maps project.versioning to a Scheme: "decimal" is Decimal, anything else Numeric.
func SchemeOf(versioning string) Scheme {
	if versioning == string(Decimal) {
		return Decimal
	}
	return Numeric
}

// Version is a parsed version; Compare uses its first argument's Scheme.
type Version struct {
	Scheme  Scheme   // Numeric or Decimal: the scheme Parse was given
	Release []string // 1 to MaxNumbers release numbers, digit strings as published
	Pre     []string // pre-release identifiers, in order; nil when there is none
	Build   string   // build metadata without the "+"; "" when none; ignored by Compare
}

// Parse parses s under sch; the error names what is wrong.
func Parse(s string, sch Scheme) (Version, error) {
	if sch != Numeric && sch != Decimal {
		return Version{}, fmt.Errorf("version %q: unknown versioning scheme %q (want numeric or decimal)", s, sch)
	}
	if s == "" {
		return Version{}, fmt.Errorf("version is empty")
	}
	v := Version{Scheme: sch}
	rest := s
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		v.Build = rest[i+1:]
		rest = rest[:i]
		if err := checkIdents(v.Build, false); err != nil {
			return Version{}, fmt.Errorf("version %q: build metadata %s", s, err)
		}
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		pre := rest[i+1:]
		rest = rest[:i]
		if err := checkIdents(pre, true); err != nil {
			return Version{}, fmt.Errorf("version %q: pre-release %s", s, err)
		}
		v.Pre = strings.Split(pre, ".")
	}
	nums := strings.Split(rest, ".")
	if len(nums) > MaxNumbers {
		return Version{}, fmt.Errorf("version %q: %d release numbers, at most %d allowed", s, len(nums), MaxNumbers)
	}
	for i, n := range nums {
		if n == "" {
			return Version{}, fmt.Errorf("version %q: release number %d is empty", s, i+1)
		}
		if !allDigits(n) {
			return Version{}, fmt.Errorf("version %q: release number %d (%q) is not a number", s, i+1, n)
		}
		if len(n) > 1 && n[0] == '0' {
			if i == 0 {
				return Version{}, fmt.Errorf("version %q: first release number %q has a leading zero", s, n)
			}
			if sch == Numeric {
				return Version{}, fmt.Errorf("version %q: release number %d (%q) has a leading zero, not allowed in the numeric scheme", s, i+1, n)
			}
		}
	}
	v.Release = nums
	return v, nil
}

// checkIdents checks dot-separated SemVer identifiers; pre forbids numeric leading zeros.
func checkIdents(s string, pre bool) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	for i, id := range strings.Split(s, ".") {
		if id == "" {
			return fmt.Errorf("identifier %d is empty", i+1)
		}
		for j := range len(id) {
			c := id[j]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
				return fmt.Errorf("identifier %q has %q (only 0-9 A-Z a-z - allowed)", id, c)
			}
		}
		if pre && len(id) > 1 && id[0] == '0' && allDigits(id) {
			return fmt.Errorf("identifier %q is numeric with a leading zero", id)
		}
	}
	return nil
}

func allDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// String returns the version exactly as published.
func (v Version) String() string {
	var b strings.Builder
	b.WriteString(strings.Join(v.Release, "."))
	if len(v.Pre) > 0 {
		b.WriteByte('-')
		b.WriteString(strings.Join(v.Pre, "."))
	}
	if v.Build != "" {
		b.WriteByte('+')
		b.WriteString(v.Build)
	}
	return b.String()
}

// IsPrerelease reports whether v has pre-release identifiers.
func (v Version) IsPrerelease() bool { return len(v.Pre) > 0 }

// Compare orders a and b by precedence under a's scheme (-1, 0, 1). Build metadata is ignored;
// a pre-release sorts below its release.
func Compare(a, b Version) int {
	if c := compareRelease(a.Release, b.Release, a.Scheme); c != 0 {
		return c
	}
	return comparePre(a.Pre, b.Pre)
}

// Less reports whether a has lower precedence than b (Compare(a, b) < 0).
func Less(a, b Version) bool { return Compare(a, b) < 0 }

func compareRelease(a, b []string, sch Scheme) int {
	for i := range max(len(a), len(b)) {
		x, y := at(a, i), at(b, i)
		var c int
		if i > 0 && sch == Decimal {
			c = strings.Compare(strings.TrimRight(x, "0"), strings.TrimRight(y, "0"))
		} else {
			c = compareInt(x, y)
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// at returns the i-th number or "" when missing: 0 as an integer, no digits as a fraction.
func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// compareInt compares digit strings of any length as non-negative integers.
func compareInt(x, y string) int {
	x, y = strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
	if len(x) != len(y) {
		return cmp.Compare(len(x), len(y))
	}
	return strings.Compare(x, y)
}

// comparePre compares pre-release identifier lists per SemVer 2.0.0 section 11.
func comparePre(a, b []string) int {
	switch {
	case len(a) == 0 && len(b) == 0:
		return 0
	case len(a) == 0:
		return 1
	case len(b) == 0:
		return -1
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		xn, yn := allDigits(x), allDigits(y)
		var c int
		switch {
		case xn && yn:
			c = compareInt(x, y)
		case xn:
			c = -1
		case yn:
			c = 1
		default:
			c = strings.Compare(x, y)
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
