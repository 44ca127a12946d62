package version

import (
	"strings"
	"testing"
)

func TestConstraintMatch(t *testing.T) {
	for _, tc := range []struct {
		c       string
		sch     Scheme
		yes, no []string
	}{
		{"*", Numeric, []string{"0", "1.0-alpha", "99.99"}, nil},
		{" * ", Numeric, []string{"1"}, nil},
		{">=0.49", Numeric, []string{"0.49", "0.49.0", "0.50", "1.0-alpha"}, []string{"0.48", "0.49-rc.1", "0.9"}},
		{">=0.48, <0.51", Numeric, []string{"0.48", "0.50.9", "0.51-rc.1"}, []string{"0.47", "0.51", "0.51.0"}},
		{">= 0.48 ,< 0.51", Numeric, []string{"0.49"}, []string{"0.51"}},
		{"\t>=1.0,\n<=2.0 ", Numeric, []string{"1.0", "2.0", "2.0.0+b"}, []string{"2.0.1"}},
		{"=1.2", Numeric, []string{"1.2", "1.2.0", "1.2+build"}, []string{"1.2.1", "1.2-rc"}},
		{"!=1.2", Numeric, []string{"1.2.1", "1.2-rc"}, []string{"1.2.0"}},
		{">1.2", Numeric, []string{"1.2.1", "1.10"}, []string{"1.2", "1.1"}},
		{"<1.2", Numeric, []string{"1.1", "1.2-rc.1"}, []string{"1.2", "1.10"}},
		{"<=1.2", Numeric, []string{"1.2.0"}, []string{"1.2.1"}},
		// Evaluated under the candidate's scheme: decimal 0.9 > 0.82, numeric 0.9 < 0.82.
		{">=0.82", Decimal, []string{"0.9", "0.82", "0.821-dev.6"}, []string{"0.8", "0.6"}},
		{">=0.82", Numeric, []string{"0.82", "0.100"}, []string{"0.9"}},
		{">=1.01", Decimal, []string{"1.01", "1.1", "1.010"}, []string{"1.01-dev.14", "1.001", "1.0"}},
	} {
		c, err := ParseConstraint(tc.c)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", tc.c, err)
			continue
		}
		for _, s := range tc.yes {
			if !c.Match(mustParse(t, s, tc.sch)) {
				t.Errorf("%q should match %s %s", tc.c, tc.sch, s)
			}
		}
		for _, s := range tc.no {
			if c.Match(mustParse(t, s, tc.sch)) {
				t.Errorf("%q should not match %s %s", tc.c, tc.sch, s)
			}
		}
	}
}

func TestConstraintString(t *testing.T) {
	for in, want := range map[string]string{
		"*":                    "*",
		"  *":                  "*",
		">=0.48,<0.51":         ">=0.48, <0.51",
		" >= 0.48 , < 0.51 ":   ">=0.48, <0.51",
		"!=1.0.0-rc.1+b":       "!=1.0.0-rc.1+b",
		"=1,>0,<2,>=1,<=1,!=3": "=1, >0, <2, >=1, <=1, !=3",
	} {
		c, err := ParseConstraint(in)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", in, err)
			continue
		}
		if c.String() != want {
			t.Errorf("ParseConstraint(%q).String() = %q, want %q", in, c.String(), want)
		}
		again, err := ParseConstraint(c.String())
		if err != nil || again.String() != want {
			t.Errorf("String() of %q does not round-trip: %q, %v", in, again.String(), err)
		}
	}
}

func TestConstraintRejects(t *testing.T) {
	for _, tc := range []struct{ c, want string }{
		{"", "is empty"},
		{"   ", "is empty"},
		{"1.0", "has no operator"},
		{"^1.0", "has no operator"},
		{"~1.0", "has no operator"},
		{"~>1.0", "has no operator"},
		{">=1.0 || <0.5", "not a number"},
		{">=1.0 <2.0", "not a number"},
		{"=>1.0", "release number 1 (\">1\") is not a number"},
		{"==1.0", "release number 1 (\"=1\")"},
		{"> =1.0", "not a number"},
		{">=1.0,", "comparator 2 is empty"},
		{",>=1.0", "comparator 1 is empty"},
		{">=1.0,,<2", "comparator 2 is empty"},
		{"*, >=1.0", "* must stand alone"},
		{">=1.0, *", "* must stand alone"},
		{"**", "has no operator"},
		{">=", "version is empty"},
		{">=01.0", "leading zero"},
		{">=x", "not a number"},
		{">=1.2.3.4.5.6.7", "at most 6"},
		{"<1.0-", "pre-release is empty"},
	} {
		_, err := ParseConstraint(tc.c)
		if err == nil {
			t.Errorf("ParseConstraint(%q) accepted", tc.c)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConstraint(%q) error %q, want it to contain %q", tc.c, err, tc.want)
		}
	}
}

func TestParseConstraintInNumericRefusesDecimalLeadingZero(t *testing.T) {
	if _, err := ParseConstraint(">=1.05"); err != nil {
		t.Fatalf("ParseConstraint(>=1.05) under the permissive scheme: %v", err)
	}
	_, err := ParseConstraintIn(">=1.05", Numeric)
	if err == nil || !strings.Contains(err.Error(), "numeric scheme") {
		t.Fatalf("ParseConstraintIn(>=1.05, numeric) = %v, want a leading-zero error", err)
	}
}

func TestZeroConstraintMatchesNothing(t *testing.T) {
	if (Constraint{}).Match(mustParse(t, "1", Numeric)) {
		t.Fatal("zero Constraint matched")
	}
}
