package loopback

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"time"
)

// ParseScenario reads a replay.py scenario, {"rules": [{"path": REGEX, ...}]}, into Rules
// ("delay" in seconds). Unknown keys, bad values and trailing data are errors naming rule and key.
func ParseScenario(b []byte) ([]Rule, error) {
	var doc struct {
		Rules []map[string]json.RawMessage `json:"rules"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if dec.More() {
		return nil, errors.New("scenario: trailing data after the JSON object")
	}
	rules := make([]Rule, 0, len(doc.Rules))
	for i, m := range doc.Rules {
		var r Rule
		bad := func(key string, err error) error {
			return fmt.Errorf("scenario: rule %d: %q: %w", i, key, err)
		}
		if _, ok := m["path"]; !ok {
			return nil, fmt.Errorf("scenario: rule %d: no \"path\"", i)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the same first bad key every run
		for _, k := range keys {
			v := m[k]
			var err error
			if string(bytes.TrimSpace(v)) == "null" {
				return nil, bad(k, errors.New("null is not a value"))
			}
			switch k {
			case "path":
				if err = json.Unmarshal(v, &r.Path); err == nil {
					_, err = regexp.Compile(r.Path)
				}
			case "redirect":
				err = json.Unmarshal(v, &r.Redirect)
			case "body":
				var s string
				if err = json.Unmarshal(v, &s); err == nil {
					r.Body = []byte(s)
				}
			case "delay":
				var sec float64
				if err = json.Unmarshal(v, &sec); err == nil && (sec < 0 || sec > 3600 || math.IsNaN(sec)) {
					err = fmt.Errorf("%v seconds is outside 0..3600", sec)
				}
				r.Delay = time.Duration(sec * float64(time.Second))
			case "status":
				var n int64
				if n, err = count(v); err == nil && (n < 100 || n > 999) {
					err = fmt.Errorf("%d is not an HTTP status", n)
				}
				r.Status = int(n)
			case "huge":
				r.Huge, err = count(v)
			case "lie_length":
				r.LieLength, err = count(v)
			case "times":
				var n int64
				n, err = count(v)
				r.Times = int(min(n, math.MaxInt32))
			default:
				err = errors.New("unknown key")
			}
			if err != nil {
				return nil, bad(k, err)
			}
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// count decodes a non-negative integer.
func count(v json.RawMessage) (int64, error) {
	var n int64
	if err := json.Unmarshal(v, &n); err != nil {
		return 0, errors.New("want a non-negative integer")
	}
	if n < 0 {
		return 0, fmt.Errorf("%d is negative", n)
	}
	return n, nil
}
