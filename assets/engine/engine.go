// Package engine runs the plan page's own scripts (version.js, openmwcfg.js, shards.js,
// plan.js) in goja, so a Go program plans and writes lines exactly as the page does: no second
// copy of the rules. An Engine holds the data parts added to it and runs one call at a time; a
// call over Options.Timeout fails with ErrTimeout, as does every later call.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/DreamWeave-MP/ashyams-go/assets"
)

// ErrTimeout is the error of a call interrupted at Options.Timeout, and of every call after.
var ErrTimeout = errors.New("the plan engine ran out of time")

// Options configures an Engine.
type Options struct {
	Shards  int           // the data parts' id prefix length (the page's shards.claims; PageShards)
	Timeout time.Duration // bounds each call; 0 means 10 seconds
}

// Engine is the plan page's engine loaded in a JavaScript runtime.
type Engine struct {
	mu      sync.Mutex
	rt      *goja.Runtime
	host    *goja.Object
	opts    Options
	stopped error
}

// hostJS binds the scripts' functions for the calls below: JSON in, JSON out.
const hostJS = `var host = (function (P, S, cfg) {
  var data = { claims: Object.create(null), projects: Object.create(null) }, added = new Set();
  function label(k) { return P.label(data.claims[k]); }
  return {
    parse: function (hash) { return JSON.stringify(P.parseFragment(hash)); },
    fragment: function (req) { return P.fragment(JSON.parse(req)); },
    add: function (name, text) {
      if (!added.has(name)) {
        P.addClaims(data, S.claimsOf(JSON.parse(text)));
        added.add(name);
      }
    },
    parts: function (req, prefix) { return JSON.stringify(P.parts(data, JSON.parse(req), prefix, function (n) { return added.has(n); })); },
    compute: function (req, prefix) {
      P.settleTargets(data, function (k) { return added.has(S.claimPart(k, prefix)); });
      var p = P.compute(data, JSON.parse(req));
      return JSON.stringify({ root: p.root, install: p.install, findings: p.findings, asks: p.asks, cfg: p.cfg, base: p.base,
        settings: p.settings, sums: p.sums, text: { cfg: P.text(p.cfg, label), base: P.text(p.base, label),
        settings: P.text(p.settings, label), sums: P.text(p.sums, label) } });
    },
    write: function (kind, v) { return JSON.stringify(cfg.write(kind, JSON.parse(v))); },
    listed: function (text, lines) {
      var kinds = ["content", "groundcover", "fallback-archive"], have = new Set(), out = [];
      var mine = cfg.parse(text), ours = cfg.parse(JSON.parse(lines).join("\n"));
      kinds.forEach(function (k) { mine[k].forEach(function (x) { have.add(k + "\n" + cfg.fold(x.value)); }); });
      kinds.forEach(function (k) { ours[k].forEach(function (x) { if (have.has(k + "\n" + cfg.fold(x.value))) { out.push(x.line - 1); } }); });
      return JSON.stringify(out.sort(function (a, b) { return a - b; }));
    }
  };
})(AshyamsPlan, AshyamsShards, OpenMWCfg);`

// New loads the scripts into a fresh runtime.
func New(opts Options) (*Engine, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	e := &Engine{rt: goja.New(), opts: opts}
	if _, err := e.rt.RunString("var window = this;"); err != nil {
		return nil, err
	}
	for _, name := range []string{"version.js", "openmwcfg.js", "shards.js", "plan.js"} {
		src, err := fs.ReadFile(assets.FS, name)
		if err != nil {
			return nil, err
		}
		if _, err := e.rt.RunScript(name, string(src)); err != nil {
			return nil, fmt.Errorf("loading %s: %w", name, err)
		}
	}
	if _, err := e.rt.RunScript("host.js", hostJS); err != nil {
		return nil, err
	}
	e.host = e.rt.Get("host").ToObject(e.rt)
	return e, nil
}

// call runs the host function fn on args, interrupted at the timeout; undefined is "".
func (e *Engine) call(fn string, args ...any) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stopped != nil {
		return "", e.stopped
	}
	f, ok := goja.AssertFunction(e.host.Get(fn))
	if !ok {
		return "", fmt.Errorf("the plan engine has no function %s", fn)
	}
	vals := make([]goja.Value, len(args))
	for i, a := range args {
		vals[i] = e.rt.ToValue(a)
	}
	var tm sync.Mutex
	done := false
	t := time.AfterFunc(e.opts.Timeout, func() {
		tm.Lock()
		defer tm.Unlock()
		if !done {
			e.rt.Interrupt(ErrTimeout)
		}
	})
	v, err := f(goja.Undefined(), vals...)
	tm.Lock()
	done = true
	tm.Unlock()
	t.Stop()
	e.rt.ClearInterrupt()
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		e.stopped = fmt.Errorf("%w (after %v, in %s)", ErrTimeout, e.opts.Timeout, fn)
		return "", e.stopped
	}
	if err != nil {
		return "", fmt.Errorf("the plan engine's %s: %w", fn, err)
	}
	if goja.IsUndefined(v) {
		return "", nil
	}
	return v.String(), nil
}

// callJSON is call with a JSON result decoded into out.
func (e *Engine) callJSON(out any, fn string, args ...any) error {
	s, err := e.call(fn, args...)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(s), out)
}

// Request is a plan link's request (plan.js parseFragment).
type Request struct {
	// Add holds project ids ("<project-id>") and claims ("<project-id>@<site-id>").
	Add    []string `json:"add"`
	OpenMW string   `json:"openmw"` // the player's OpenMW version ("" when not given)
	Lua    string   `json:"lua"`    // the player's Lua API revision
	Root   string   `json:"root"`   // the mods folder, absolute ("" plans under a placeholder)
	// Base says the player has the base game (the default): its files order the plan and are
	// not written again; without it, a need for them is a finding.
	Base bool `json:"base"`
	// Platform is os-arch[-variant] ("linux-x86_64"): only its builds of a tool are planned
	// ("" plans every platform's).
	Platform string `json:"platform"`
	// On and Off are component changes, "<project-id>:<component-id>" each.
	On  []string `json:"on"`
	Off []string `json:"off"`
	// Set holds choices of a setting releases disagree on: "<project-id>[<category>]<key>".
	Set     []string  `json:"set"`
	Refused []Refusal `json:"refused"` // what the link asked that was refused
}

// Refusal is a value the writer or link reader would not write: the protocol's field name
// ("root" for the mods folder), the value as shown, and why.
type Refusal struct {
	Field  string `json:"field"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("the %s %q %s", r.Field, r.Value, r.Reason)
}

// ParseFragment reads a plan link's fragment (with or without "#"). What it cannot read is in
// Request.Refused; an error is the engine's own (ErrTimeout).
func (e *Engine) ParseFragment(fragment string) (Request, error) {
	var r Request
	err := e.callJSON(&r, "parse", fragment)
	return r, err
}

// Fragment writes r as a plan link's fragment, "#..." ("" for an empty request).
func (e *Engine) Fragment(r Request) (string, error) {
	b, err := json.Marshal(r.normal())
	if err != nil {
		return "", err
	}
	return e.call("fragment", string(b))
}

// normal is r with every list non-nil, as the scripts expect.
func (r Request) normal() Request {
	for _, l := range []*[]string{&r.Add, &r.On, &r.Off, &r.Set} {
		if *l == nil {
			*l = []string{}
		}
	}
	if r.Refused == nil {
		r.Refused = []Refusal{}
	}
	return r
}

// Parts lists the data parts (file plan/data/<name>.js) the plan of r reads and the engine
// lacks. Add them and ask again until none: each round may name parts the last one requires.
func (e *Engine) Parts(r Request) ([]string, error) {
	b, err := json.Marshal(r.normal())
	if err != nil {
		return nil, err
	}
	var names []string
	err = e.callJSON(&names, "parts", string(b), e.opts.Shards)
	return names, err
}

// AddPart adds the claims of data part name from its published file (plan/data/<name>.js),
// once. It fails when the file is not that part (ParsePart).
func (e *Engine) AddPart(name string, file []byte) error {
	got, text, err := ParsePart(file)
	if err != nil {
		return fmt.Errorf("the data part %s: %w", name, err)
	}
	if got != name {
		return fmt.Errorf("the data part %s holds the part %q", name, got)
	}
	_, err = e.call("add", name, text)
	return err
}

// Listed returns the indexes of lines naming a content file, groundcover file or archive the
// openmw.cfg text already lists, compared as OpenMW does (it aborts on a duplicate).
func (e *Engine) Listed(text string, lines []string) ([]int, error) {
	b, err := json.Marshal(lines)
	if err != nil {
		return nil, err
	}
	var out []int
	err = e.callJSON(&out, "listed", text, string(b))
	return out, err
}
