package version

import "testing"

// FuzzParse checks that Parse never panics, that whatever it accepts prints back byte for byte,
// and that precedence is reflexive and antisymmetric on accepted input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1.2.3", "0.50", "1.01-dev.14", "1.0.0-alpha.1+b.2", "01", "1.02", "1..2", "1.2.3.4.5.6.7", "1.0-01", "1.0+", "-", "+", ""} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, decimal bool) {
		sch := Numeric
		if decimal {
			sch = Decimal
		}
		v, err := Parse(s, sch)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("empty error for %q", s)
			}
			return
		}
		if v.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, v.String())
		}
		if len(v.Release) < 1 || len(v.Release) > MaxNumbers {
			t.Fatalf("Parse(%q) has %d numbers", s, len(v.Release))
		}
		if Compare(v, v) != 0 {
			t.Fatalf("Compare(%q, itself) != 0", s)
		}
		// The decimal scheme's syntax is a superset of the numeric one's.
		if _, err := Parse(s, Decimal); sch == Numeric && err != nil {
			t.Fatalf("numeric %q accepted but decimal refused: %v", s, err)
		}
	})
}

// FuzzCompare checks antisymmetry and that build metadata never changes precedence.
func FuzzCompare(f *testing.F) {
	f.Add("1.2", "1.2.0", false)
	f.Add("0.9", "0.82", true)
	f.Add("1.0.0-alpha", "1.0.0-alpha.1", false)
	f.Add("1.0.0-2", "1.0.0-a", true)
	f.Fuzz(func(t *testing.T, a, b string, decimal bool) {
		sch := Numeric
		if decimal {
			sch = Decimal
		}
		va, err1 := Parse(a, sch)
		vb, err2 := Parse(b, sch)
		if err1 != nil || err2 != nil {
			return
		}
		if Compare(va, vb) != -Compare(vb, va) {
			t.Fatalf("Compare not antisymmetric for %q %q", a, b)
		}
		va.Build = ""
		vb.Build = "ignored"
		c1 := Compare(va, vb)
		vb.Build = ""
		if Compare(va, vb) != c1 {
			t.Fatalf("build metadata changed precedence of %q %q", a, b)
		}
	})
}

// FuzzParseConstraint checks that ParseConstraint never panics, that the canonical String of an
// accepted constraint parses to the same String, and that Match never panics.
func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"*", ">=0.49", ">=0.48, <0.51", " >= 1 , != 2-rc ", "^1.0", "~1", "1.0", ">=1 || <2", ",", ">=1,", "*,*", "=", "<=1.0.0+b"} {
		f.Add(s, "1.0")
	}
	f.Fuzz(func(t *testing.T, s, vs string) {
		c, err := ParseConstraint(s)
		if err != nil {
			return
		}
		c2, err := ParseConstraint(c.String())
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", c.String(), s, err)
		}
		if c2.String() != c.String() {
			t.Fatalf("canonical form not stable: %q -> %q", c.String(), c2.String())
		}
		if v, err := Parse(vs, Decimal); err == nil {
			if c.Match(v) != c2.Match(v) {
				t.Fatalf("%q and its canonical form disagree on %q", s, vs)
			}
		}
	})
}
