package version

import (
	"fmt"
	"strings"
)

// Operators a comparator may use (SPEC section 1). No caret, tilde or disjunction.
const (
	OpEq = "="
	OpNe = "!="
	OpGt = ">"
	OpGe = ">="
	OpLt = "<"
	OpLe = "<="
)

// Comparator is one "op version" term of a constraint.
type Comparator struct {
	Op      string  // one of OpEq, OpNe, OpGt, OpGe, OpLt, OpLe
	Version Version // the version compared against, with Compare
}

// Constraint is "*" (Any) or comparators that must all hold (SPEC section 1). Pre-releases are
// not excluded implicitly: ">=1.0" matches "1.1-beta".
type Constraint struct {
	Any         bool         // "*": every version matches; Comparators is then empty
	Comparators []Comparator // in the order written; Match needs every one to hold
}

// ParseConstraint parses "*" or "op version" comparators joined by ",", white space allowed,
// under the decimal scheme, the more permissive (ParseConstraintIn holds it to one).
func ParseConstraint(s string) (Constraint, error) {
	return ParseConstraintIn(s, Decimal)
}

// ParseConstraintIn is ParseConstraint with the versions parsed under sch.
func ParseConstraintIn(s string, sch Scheme) (Constraint, error) {
	t := trimSpace(s)
	if t == "" {
		return Constraint{}, fmt.Errorf("constraint %q is empty (want * or comparators such as >=1.0)", s)
	}
	if t == "*" {
		return Constraint{Any: true}, nil
	}
	var c Constraint
	for i, part := range strings.Split(t, ",") {
		p := trimSpace(part)
		if p == "" {
			return Constraint{}, fmt.Errorf("constraint %q: comparator %d is empty", s, i+1)
		}
		if p == "*" {
			return Constraint{}, fmt.Errorf("constraint %q: * must stand alone", s)
		}
		op := leadingOp(p)
		if op == "" {
			return Constraint{}, fmt.Errorf("constraint %q: comparator %q has no operator (want one of = != > >= < <=; no ^, ~ or ||)", s, p)
		}
		vs := trimSpace(p[len(op):])
		v, err := Parse(vs, sch)
		if err != nil {
			return Constraint{}, fmt.Errorf("constraint %q: comparator %q: %v", s, p, err)
		}
		c.Comparators = append(c.Comparators, Comparator{Op: op, Version: v})
	}
	return c, nil
}

// leadingOp returns the operator p starts with, longest first, or "".
func leadingOp(p string) string {
	for _, op := range []string{OpGe, OpLe, OpNe, OpEq, OpGt, OpLt} {
		if strings.HasPrefix(p, op) {
			return op
		}
	}
	return ""
}

func trimSpace(s string) string { return strings.Trim(s, " \t\r\n\f") }

// Match reports whether v satisfies every comparator, under v's scheme; the zero Constraint
// matches nothing.
func (c Constraint) Match(v Version) bool {
	if c.Any {
		return true
	}
	if len(c.Comparators) == 0 {
		return false
	}
	for _, cmp := range c.Comparators {
		r := Compare(v, cmp.Version)
		var ok bool
		switch cmp.Op {
		case OpEq:
			ok = r == 0
		case OpNe:
			ok = r != 0
		case OpGt:
			ok = r > 0
		case OpGe:
			ok = r >= 0
		case OpLt:
			ok = r < 0
		case OpLe:
			ok = r <= 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// String returns the constraint in canonical form: "*", or "op version" joined by ", ".
func (c Constraint) String() string {
	if c.Any {
		return "*"
	}
	parts := make([]string, len(c.Comparators))
	for i, cmp := range c.Comparators {
		parts[i] = cmp.Op + cmp.Version.String()
	}
	return strings.Join(parts, ", ")
}
