package version

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, s string, sch Scheme) Version {
	t.Helper()
	v, err := Parse(s, sch)
	if err != nil {
		t.Fatalf("Parse(%q, %s): %v", s, sch, err)
	}
	return v
}

// chain asserts each "a = b" or "a < b" link of a SPEC section 1 example under sch, both ways.
func chain(t *testing.T, sch Scheme, ex string) {
	t.Helper()
	f := strings.Fields(ex)
	for i := 1; i+1 < len(f); i += 2 {
		a, op, b := mustParse(t, f[i-1], sch), f[i], mustParse(t, f[i+1], sch)
		want := map[string]int{"<": -1, "=": 0, ">": 1}[op]
		if got := Compare(a, b); got != want {
			t.Errorf("%s: Compare(%s, %s) = %d, want %d (%s)", sch, a, b, got, want, ex)
		}
		if got := Compare(b, a); got != -want {
			t.Errorf("%s: Compare(%s, %s) = %d, want %d (%s)", sch, b, a, got, -want, ex)
		}
	}
}

func TestSpecExamplesNumeric(t *testing.T) {
	chain(t, Numeric, "1.2 = 1.2.0 < 1.2.9 < 1.2.10")
	chain(t, Numeric, "0.9 < 0.82")
	chain(t, Numeric, "1 = 1.0.0.0.0.0 < 1.0.0.0.0.1")
	chain(t, Numeric, "2 < 10 < 99999999999999999999999999 < 100000000000000000000000000")
}

func TestSpecExamplesDecimal(t *testing.T) {
	chain(t, Decimal, "0.5 = 0.50 < 0.54 < 0.6 < 0.82 < 0.9 < 0.963 < 0.97 < 1.0")
	chain(t, Decimal, "0.05 < 0.5")
	chain(t, Decimal, "1 = 1.0 = 1.00 < 1.01 < 1.1 = 1.10")
	chain(t, Decimal, "0.0 = 0 < 0.001 < 0.01 < 0.1")
	chain(t, Decimal, "9 < 10 < 10.0001")
	// The corpus's decimal dev builds order as the publisher means.
	chain(t, Decimal, "0.511-dev.6 < 0.521-dev.6 < 0.6-dev.5 < 0.7-dev.11 < 0.821-dev.6 < 0.821-dev.59 < 0.9631-dev.30")
	chain(t, Decimal, "1.01-dev.6 < 1.01-dev.14 < 1.01 < 1.1-dev.7 < 1.2-dev.5")
}

func TestSpecExamplesPrerelease(t *testing.T) {
	// SemVer 2.0.0 section 11's own example, under both schemes.
	for _, sch := range []Scheme{Numeric, Decimal} {
		chain(t, sch, "1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < 1.0.0-beta.2 < 1.0.0-beta.11 < 1.0.0-rc.1 < 1.0.0")
		chain(t, sch, "1.0.0-2 < 1.0.0-10 < 1.0.0-a < 1.0.0-b") // numeric as numbers, numeric < alphanumeric
		chain(t, sch, "1.0.0-B < 1.0.0-a")                      // ASCII order
		chain(t, sch, "1.0.0-a.b < 1.0.0-a.b.c")                // longer list wins
		chain(t, sch, "1.0.0-rc.1+build.5 = 1.0.0-rc.1 < 1.0.0+x = 1.0.0 = 1.0.0+y")
		chain(t, sch, "0.9.9 < 1.0.0-alpha")
	}
}

func TestCompareUsesFirstArgumentsScheme(t *testing.T) {
	n, d := mustParse(t, "0.9", Numeric), mustParse(t, "0.82", Decimal)
	if Compare(n, d) != -1 {
		t.Errorf("numeric 0.9 vs 0.82: want -1")
	}
	if Compare(d, n) != -1 {
		t.Errorf("decimal 0.82 vs 0.9: want -1")
	}
	d9 := mustParse(t, "0.9", Decimal)
	if Compare(d9, mustParse(t, "0.82", Numeric)) != 1 {
		t.Errorf("decimal 0.9 vs 0.82: want 1")
	}
}

func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		s       string
		sch     Scheme
		release []string
		pre     []string
		build   string
	}{
		{"0", Numeric, []string{"0"}, nil, ""},
		{"1.2.3.4.5.6", Numeric, []string{"1", "2", "3", "4", "5", "6"}, nil, ""},
		{"1.01-dev.14", Decimal, []string{"1", "01"}, []string{"dev", "14"}, ""},
		{"0.05", Decimal, []string{"0", "05"}, nil, ""},
		{"0.50", Decimal, []string{"0", "50"}, nil, ""},
		{"1.0.0-alpha-1.0+exp.sha.5114f85", Numeric, []string{"1", "0", "0"}, []string{"alpha-1", "0"}, "exp.sha.5114f85"},
		{"1.0.0+001", Numeric, []string{"1", "0", "0"}, nil, "001"},
		{"1.0.0--", Numeric, []string{"1", "0", "0"}, []string{"-"}, ""},
		{"1-0a", Numeric, []string{"1"}, []string{"0a"}, ""},
	} {
		v, err := Parse(tc.s, tc.sch)
		if err != nil {
			t.Errorf("Parse(%q, %s): %v", tc.s, tc.sch, err)
			continue
		}
		if strings.Join(v.Release, ".") != strings.Join(tc.release, ".") || len(v.Release) != len(tc.release) ||
			strings.Join(v.Pre, ".") != strings.Join(tc.pre, ".") || len(v.Pre) != len(tc.pre) || v.Build != tc.build {
			t.Errorf("Parse(%q) = %#v", tc.s, v)
		}
		if v.String() != tc.s {
			t.Errorf("Parse(%q).String() = %q", tc.s, v.String())
		}
		if v.IsPrerelease() != (len(tc.pre) > 0) {
			t.Errorf("Parse(%q).IsPrerelease() = %v", tc.s, v.IsPrerelease())
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct {
		s    string
		sch  Scheme
		want string // a fragment the error must contain
	}{
		{"", Numeric, "empty"},
		{"1.2.3.4.5.6.7", Numeric, "7 release numbers, at most 6"},
		{"01", Numeric, "first release number \"01\" has a leading zero"},
		{"01.5", Decimal, "first release number \"01\" has a leading zero"},
		{"1.02", Numeric, "leading zero, not allowed in the numeric scheme"},
		{"1.", Numeric, "release number 2 is empty"},
		{".1", Numeric, "release number 1 is empty"},
		{"1..2", Decimal, "release number 2 is empty"},
		{"v1.0", Numeric, "not a number"},
		{"1.x", Numeric, "not a number"},
		{" 1.0", Numeric, "not a number"},
		{"1.0 ", Numeric, "not a number"},
		{"1.-1", Numeric, "release number 2 is empty"},
		{"1.0-", Numeric, "pre-release is empty"},
		{"1.0-a..b", Numeric, "pre-release identifier 2 is empty"},
		{"1.0-01", Numeric, "numeric with a leading zero"},
		{"1.0-a_b", Numeric, "only 0-9 A-Z a-z - allowed"},
		{"1.0-é", Numeric, "only 0-9 A-Z a-z - allowed"},
		{"1.0+", Numeric, "build metadata is empty"},
		{"1.0+a+b", Numeric, "build metadata identifier \"a+b\""},
		{"1.0+a..b", Numeric, "build metadata identifier 2 is empty"},
		{"1.0", Scheme("semver"), "unknown versioning scheme"},
		{"1.0", Scheme(""), "unknown versioning scheme"},
	} {
		_, err := Parse(tc.s, tc.sch)
		if err == nil {
			t.Errorf("Parse(%q, %q) accepted", tc.s, tc.sch)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q, %q) error %q, want it to contain %q", tc.s, tc.sch, err, tc.want)
		}
	}
}

func TestSchemeOf(t *testing.T) {
	for in, want := range map[string]Scheme{"": Numeric, "numeric": Numeric, "decimal": Decimal, "Decimal": Numeric} {
		if got := SchemeOf(in); got != want {
			t.Errorf("SchemeOf(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestLess(t *testing.T) {
	a, b := mustParse(t, "1.0-rc.1", Numeric), mustParse(t, "1.0", Numeric)
	if !Less(a, b) || Less(b, a) || Less(a, a) {
		t.Errorf("Less disagrees with Compare")
	}
}
