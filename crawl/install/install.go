// Package install is the DreamWeave client of `ashyams install`, `update` and `uninstall`
// (SPEC section 8): a plan link planned by assets/engine, artifacts verified (download),
// components extracted (unzip) into a stage moved into place, the writer's lines in one marked
// block of the player's config files, and a lock file.
package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/unzip"
)

// Options configure a change to a mods folder.
type Options struct {
	// Mods is the mods folder, absolute; OpenMWCfg and SettingsCfg the player's files ("":
	// none); Cache the shared download cache.
	Mods, OpenMWCfg, SettingsCfg, Cache string
	AllowLoopback                       bool
	// Set holds setting choices, as a link's set=.
	Set []string
	// Choose asks the player a plan's question and returns the option chosen; nil: a question
	// is an error saying how to answer it.
	Choose   func(q string, options []string) (int, error)
	Progress func(url string, size, from int64) io.WriteCloser // download.Cache's
	Client   *guard.Client                                     // nil: the guard
	Limits   unzip.Limits                                      // zero: unzip.DefaultLimits
}

func (o *Options) client() *guard.Client {
	if o.Client == nil {
		o.Client = guard.New(guard.Options{AllowLoopback: o.AllowLoopback, Timeout: guard.DefaultTimeout})
	}
	return o.Client
}

// The states of a claim in a change.
const (
	StateNew    = "new"
	StateUpdate = "update"
	StateSame   = "same"
	StateRemove = "remove"
	StateKeep   = "keep" // installed, no longer listed by the index: left as it is
)

// Claim is one claim of a change as it will be (as it is, for remove and keep); Was is the
// installed one it updates.
type Claim struct {
	LockClaim
	State    string
	Was      *LockClaim
	artifact *engine.Artifact
}

// Change is what a command would do, shown to the player before Apply does it.
type Change struct {
	Index, Link string
	Claims      []Claim
	// Skipped are plan claims not installed, and why; Warnings what the player should know
	// first; Left the lines left out because the player's file has them.
	Skipped, Warnings, Left []string
	// Cfg and Settings are the blocks' lines after the change.
	Cfg, Settings []LockLine

	o       Options
	old     *Lock
	eng     *engine.Engine
	created bool // Apply made the mods folder
}

// Refused is a plan that cannot be installed: every reason, each naming its project.
type Refused struct{ Reasons []string }

func (r *Refused) Error() string {
	return "the plan cannot be installed:\n  " + strings.Join(r.Reasons, "\n  ")
}

// Install plans the plan (a link or plan file, ReadPlan) for o.Mods; a mods folder holding an
// install of another plan is refused.
func Install(ctx context.Context, plan string, o Options) (*Change, error) {
	link, planned, err := ReadPlan(plan)
	if err != nil {
		return nil, err
	}
	old, err := ReadLock(o.Mods)
	if err != nil {
		return nil, err
	}
	c, err := prepare(ctx, link, o, old)
	if err != nil {
		return nil, err
	}
	if old != nil && old.Link != c.Link {
		return nil, fmt.Errorf("%s holds an install of another plan, %s: run `ashyams update`, or `ashyams uninstall` first", o.Mods, old.Link)
	}
	for _, p := range planned {
		if cl := c.claim(p.Project + "/" + p.Site); cl == nil || cl.Version != p.Version {
			now := "is not in the plan now"
			if cl != nil {
				now = "is at " + cl.Version + " now"
			}
			c.Warnings = append(c.Warnings, fmt.Sprintf("the plan file planned %s/%s at %s; it %s", p.Project, p.Site, p.Version, now))
		}
	}
	return c, nil
}

// Update plans again the plan o.Mods' lock names, from the index as it is now.
func Update(ctx context.Context, o Options) (*Change, error) {
	old, err := installed(&o)
	if err != nil {
		return nil, err
	}
	return prepare(ctx, old.Link, o, old)
}

// installed reads the lock of o.Mods, an error when there is none, and points o at the cfg
// files the lock names unless o names others.
func installed(o *Options) (*Lock, error) {
	old, err := ReadLock(o.Mods)
	if err == nil && old == nil {
		err = fmt.Errorf("%s has no %s: nothing was installed there", o.Mods, LockName)
	}
	if err != nil {
		return nil, err
	}
	if o.OpenMWCfg == "" && old.OpenMWCfg != nil {
		o.OpenMWCfg = old.OpenMWCfg.Path
	}
	if o.SettingsCfg == "" && old.SettingsCfg != nil {
		o.SettingsCfg = old.SettingsCfg.Path
	}
	return old, nil
}

func (c *Change) claim(key string) *Claim {
	for i := range c.Claims {
		if c.Claims[i].Key == key {
			return &c.Claims[i]
		}
	}
	return nil
}

// prepare plans link for o.Mods, asking the plan's questions, and compares it with the lock.
func prepare(ctx context.Context, link string, o Options, old *Lock) (*Change, error) {
	ix, frag, err := openIndex(link, o.client(), o.AllowLoopback)
	if err != nil {
		return nil, err
	}
	eng, req, err := ix.load(ctx, frag)
	if err != nil {
		return nil, err
	}
	req.Root, req.Set = o.Mods, append(req.Set, o.Set...)
	cat, err := ix.healths(ctx)
	if err != nil {
		return nil, err
	}
	plan, err := ask(ctx, ix, eng, &req, cat, o.Choose)
	if err != nil {
		return nil, err
	}
	frag, err = eng.Fragment(req)
	if err != nil {
		return nil, err
	}
	c := &Change{Index: ix.base, Link: ix.base + "plan/" + frag, o: o, old: old, eng: eng}
	var refused []string
	for _, pc := range plan.Claims {
		if why := c.add(pc, cat[pc.Key]); why != "" {
			refused = append(refused, label(pc.Name, pc.Version, pc.Key)+": "+why)
		}
	}
	for _, f := range plan.Findings {
		if s := findingText(f, c); s != "" {
			c.Warnings = append(c.Warnings, s)
		}
		if f.Kind == "not-found" && old == nil {
			var t struct{ Token string }
			json.Unmarshal(f.Raw, &t)
			refused = append(refused, fmt.Sprintf("%s: this index lists no such project", t.Token))
		}
	}
	if len(refused) > 0 {
		return nil, &Refused{refused}
	}
	c.dropped(cat)
	c.Cfg = c.cfgLines(plan.CFG, c.old.cfg(true))
	if o.SettingsCfg != "" {
		c.Settings = c.cfgLines(plan.Settings, c.old.cfg(false))
	}
	return c, c.leaveOut(plan.Base)
}

// ask plans req, putting each of the plan's questions to the player and planning again.
func ask(ctx context.Context, ix *index, eng *engine.Engine, req *engine.Request, cat map[string]health, choose func(string, []string) (int, error)) (*engine.Plan, error) {
	for range maxRounds {
		plan, err := ix.plan(ctx, eng, *req)
		if err != nil || len(plan.Asks) == 0 {
			return plan, err
		}
		a := plan.Asks[0]
		q, opts := question(a, cat)
		if choose == nil {
			return nil, fmt.Errorf("%s; choose in the plan link (add=<project-id>@<site-id>) or with --set, or run the command in a terminal", q)
		}
		n, err := choose(q, opts)
		if err != nil {
			return nil, err
		}
		if n < 0 || n >= len(a.Options) {
			return nil, errors.New("no option chosen")
		}
		project, site, _ := strings.Cut(a.Options[n], "/")
		if a.Kind == "setting" {
			req.Set = append(req.Set, project+"["+a.Category+"]"+a.Setting)
		} else {
			req.Add = append(req.Add, project+"@"+site)
		}
	}
	return nil, errors.New("the plan asks too many questions")
}

// question words a plan's question and its options.
func question(a engine.Ask, cat map[string]health) (string, []string) {
	var q string
	switch a.Kind {
	case "setting":
		q = fmt.Sprintf("releases ask different values of the setting [%s] %s", a.Category, a.Setting)
	case "capability":
		q = fmt.Sprintf("several claims provide the capability %q", a.Capability)
	default:
		q = fmt.Sprintf("the project %s is published by several sites", a.Project)
	}
	opts := make([]string, len(a.Options))
	for i, k := range a.Options {
		h := cat[k]
		opts[i] = label(h.Name, h.version(), k)
		if a.Kind == "setting" && i < len(a.Values) {
			opts[i] += " asks " + a.Values[i]
		}
	}
	return q, opts
}

func (h health) version() string {
	if h.Current == nil {
		return ""
	}
	return h.Current.Version
}

// label names a claim for the player: "Name version (key)".
func label(name, version, key string) string {
	return strings.TrimSpace(name+" "+version) + " (" + key + ")"
}

// add adds the planned claim pc, or says why the plan cannot be installed.
func (c *Change) add(pc engine.Claim, h health) string {
	switch {
	case !pc.Installs:
		c.Skipped = append(c.Skipped, label(pc.Name, pc.Version, pc.Key)+": its release does not say how OpenMW loads it (no openmw extension); download it yourself")
		return ""
	case len(pc.Refused) > 0:
		var why []string
		for _, r := range pc.Refused {
			why = append(why, r.Error())
		}
		return strings.Join(why, "; ")
	case !pc.Valid:
		return "its release offers no valid component selection"
	}
	for _, x := range pc.Critical {
		if x != "openmw" {
			return fmt.Sprintf("its release names the critical extension %q, which this program does not apply (it applies openmw)", x)
		}
	}
	if h.stale() {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: this index holds only a cached copy of it (health %q), which may no longer be the publisher's", label(pc.Name, pc.Version, pc.Key), h.Health))
	}
	cl := Claim{LockClaim: LockClaim{Key: pc.Key, Name: pc.Name, Version: pc.Version, Health: h.Health, Stale: h.stale(), Folder: pc.Folder, Requires: pc.Requires}}
	i := slices.IndexFunc(pc.Artifacts, func(a engine.Artifact) bool { return a.Format == "flat" || a.Format == "bain" || a.Format == "fomod" })
	if i < 0 {
		return "none of its artifacts is an archive of game data (flat, bain or fomod)"
	}
	cl.artifact = &pc.Artifacts[i]
	a := cl.artifact
	cl.Artifacts = []LockArtifact{{ID: a.ID, Filename: a.Filename, Size: a.Size, SHA256: a.SHA256}}
	for _, comp := range pc.Components {
		cl.Components = append(cl.Components, LockComponent{ID: comp.ID, Path: comp.Path})
	}
	cl.State = StateNew
	if was := c.old.claim(pc.Key); was != nil {
		cl.Was, cl.State = was, StateUpdate
		if was.Version == cl.Version && was.Folder == cl.Folder && slices.Equal(was.Components, cl.Components) && was.Artifacts[0].SHA256 == a.SHA256 {
			cl.State, cl.Files, cl.Artifacts = StateSame, was.Files, was.Artifacts
		}
	}
	c.Claims = append(c.Claims, cl)
	return ""
}

func (l *Lock) claim(key string) *LockClaim {
	if l == nil {
		return nil
	}
	for i := range l.Claims {
		if l.Claims[i].Key == key {
			return &l.Claims[i]
		}
	}
	return nil
}

// dropped adds the installed claims the plan no longer holds: removed, or kept when the index
// no longer lists them (never removed on its word alone).
func (c *Change) dropped(cat map[string]health) {
	if c.old == nil {
		return
	}
	for _, was := range c.old.Claims {
		if c.claim(was.Key) != nil {
			continue
		}
		cl := Claim{LockClaim: was, State: StateRemove, Was: &was}
		if _, listed := cat[was.Key]; !listed {
			cl.State = StateKeep
		}
		c.Claims = append(c.Claims, cl)
	}
}

// findingWords say plan.js findings in a line, {1} the claim and {2} the other; "" for those
// said elsewhere.
var findingWords = map[string]string{
	"conflict":          "{1} declares a conflict with {2}",
	"missing":           "{1} requires something this index does not list",
	"version":           "{1} requires another version of {2}",
	"release-status":    "{1}: its release is yanked or deprecated",
	"two-claims":        "{2} is another site's claim of {1}'s project; {1} is planned",
	"runtime":           "{1} declares another OpenMW version than yours",
	"needs-content":     "{1} needs a content file the plan does not have",
	"selection-refused": "{1}: a component choice of the link was left out",
	"no-openmw":         "", "refused": "", "no-valid-selection": "",
}

// findingText says a finding of the plan in a line ("" for one said elsewhere).
func findingText(f engine.Finding, c *Change) string {
	words, ok := findingWords[f.Kind]
	if !ok {
		words = "the plan notes " + f.Kind + ": {1} {2}"
	}
	if words == "" {
		return ""
	}
	name := func(k string) string {
		if cl := c.claim(k); cl != nil {
			return label(cl.Name, cl.Version, k)
		}
		return k
	}
	s := strings.TrimSpace(strings.NewReplacer("{1}", name(f.Key), "{2}", name(f.Other)).Replace(words))
	if f.Field != "" {
		s += fmt.Sprintf(": the %s %q %s", f.Field, f.Value, f.Reason)
	}
	return s
}
