package install

import (
	"fmt"
	"slices"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
)

// Uninstall plans taking out of o.Mods what install wrote for projects (ids or
// "<project-id>/<site-id>" keys; none: all) and their lines, keeping the player's
// files. A project another installed one requires is refused unless that one goes too.
func Uninstall(o Options, projects []string) (*Change, error) {
	old, err := installed(&o)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(engine.Options{})
	if err != nil {
		return nil, err
	}
	c := &Change{Index: old.Index, Link: old.Link, o: o, old: old, eng: eng}
	gone := map[string]bool{}
	for _, p := range projects {
		found := false
		for _, cl := range old.Claims {
			if p == cl.Key || p == strings.SplitN(cl.Key, "/", 2)[0] {
				gone[cl.Key], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s is not installed in %s", p, o.Mods)
		}
	}
	for _, was := range old.Claims {
		cl := Claim{LockClaim: was, State: StateSame}
		if len(projects) == 0 || gone[was.Key] {
			cl.State, cl.Was = StateRemove, &was
		}
		c.Claims = append(c.Claims, cl)
	}
	for _, cl := range c.Claims {
		for _, r := range cl.Requires {
			if cl.State == StateSame && gone[r] {
				return nil, fmt.Errorf("%s requires %s: name it too, or keep both", c.name(&cl), r)
			}
		}
	}
	c.Cfg, c.Settings = c.remaining(old.OpenMWCfg), c.remaining(old.SettingsCfg)
	return c, c.relink(gone)
}

// remaining are the lines of rec's block whose claim stays.
func (c *Change) remaining(rec *CfgRecord) []LockLine {
	if rec == nil {
		return nil
	}
	var ss []setting
	for _, s := range settingsOf(rec.Lines) {
		if cl := c.claim(s.line.Key); cl == nil || cl.State != StateRemove {
			ss = append(ss, s)
		}
	}
	return settingsLines(ss)
}

// relink takes the removed claims' projects out of the lock's plan link, so update does not
// bring them back.
func (c *Change) relink(gone map[string]bool) error {
	base, frag, _ := strings.Cut(c.Link, "#")
	req, err := c.eng.ParseFragment(frag)
	if err != nil {
		return err
	}
	req.Add = slices.DeleteFunc(req.Add, func(t string) bool {
		for k := range gone {
			if p, _, _ := strings.Cut(k, "/"); strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	})
	if len(req.Add) == 0 {
		for _, cl := range c.Claims {
			if cl.State != StateRemove {
				req.Add = append(req.Add, strings.Replace(cl.Key, "/", "@", 1))
			}
		}
	}
	frag, err = c.eng.Fragment(req)
	c.Link = base + frag
	return err
}
