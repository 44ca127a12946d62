package loopback

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseScenarioReadsReplayFormat(t *testing.T) {
	rules, err := ParseScenario([]byte(`{"rules": [
		{"path": "dreamweave\\.json$", "status": 503, "times": 2},
		{"path": "/old/", "redirect": "{base}new/"},
		{"path": "slow", "delay": 1.5},
		{"path": "b", "body": "{}"},
		{"path": "h", "huge": 17000000},
		{"path": "l", "lie_length": 10}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 6 {
		t.Fatalf("%d rules", len(rules))
	}
	r := rules
	if r[0].Status != 503 || r[0].Times != 2 || r[1].Redirect != "{base}new/" || r[2].Delay != 1500*time.Millisecond ||
		string(r[3].Body) != "{}" || r[4].Huge != 17000000 || r[5].LieLength != 10 {
		t.Fatalf("rules %+v", rules)
	}
}

func TestParseScenarioErrorsNameRuleAndKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"rules":[{"status":500}]}`:                      `rule 0: no "path"`,
		`{"rules":[{"path":"("}]}`:                        `rule 0: "path"`,
		`{"rules":[{"path":"a"},{"path":"b","x":1}]}`:     `rule 1: "x": unknown key`,
		`{"rules":[{"path":"a","status":42}]}`:            `"status": 42 is not an HTTP status`,
		`{"rules":[{"path":"a","huge":-1}]}`:              `"huge": -1 is negative`,
		`{"rules":[{"path":"a","times":1.5}]}`:            `"times": want a non-negative integer`,
		`{"rules":[{"path":"a","delay":-2}]}`:             `"delay": -2 seconds`,
		`{"rules":[{"path":"a","body":3}]}`:               `"body"`,
		`{"rules":[]} {}`:                                 `trailing data`,
		`{"rulez":[]}`:                                    `unknown field`,
		`{"rules":[{"path":null}]}`:                       `"path": null is not a value`,
		`[`:                                               `scenario:`,
		`{"rules":[{"path":"a","redirect":1,"huge":-1}]}`: `"huge"`, // keys checked in sorted order
	} {
		_, err := ParseScenario([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want it to contain %q", in, err, want)
		}
	}
}

func FuzzParseScenario(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/scenarios/*.json")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"rules":[{"path":"a","delay":1e308}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rules, err := ParseScenario(b)
		if err != nil {
			return
		}
		for _, r := range rules {
			if r.Delay < 0 || r.Huge < 0 || r.LieLength < 0 || r.Times < 0 {
				t.Fatalf("negative field accepted: %+v", r)
			}
		}
		// Every accepted scenario starts a server.
		s, err := Start(mapRoot(), Options{Rules: rules})
		if err != nil {
			t.Fatalf("accepted scenario refused by Start: %v", err)
		}
		s.Close()
	})
}
