package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
)

// markers are the comment lines around mods' block and the one naming it inside.
func markers(e *engine.Engine, mods string) (begin, end, head string, err error) {
	h := sha256.Sum256([]byte(mods))
	id := "ashyams " + hex.EncodeToString(h[:4])
	if begin, err = e.Comment(id + " begin: lines of `ashyams install`, which `ashyams uninstall` takes out"); err != nil {
		return
	}
	if head, err = e.Comment("for the mods folder " + mods); err != nil {
		return
	}
	end, err = e.Comment(id + " end")
	return
}

// cfgLines are the plan's lines of a block, kept claims' lines taken from the lock's rec.
func (c *Change) cfgLines(plan []engine.Line, rec *CfgRecord) []LockLine {
	var out []LockLine
	for _, l := range plan {
		out = append(out, LockLine{Text: l.Text, Key: l.Key})
	}
	if rec == nil {
		return out
	}
	for _, s := range settingsOf(rec.Lines) {
		if cl := c.claim(s.line.Key); cl != nil && cl.State == StateKeep {
			out = append(out, s.cat, s.line)
		}
	}
	return settingsLines(settingsOf(out))
}

// setting is a block line with its category line (none in openmw.cfg).
type setting struct{ cat, line LockLine }

// settingsOf pairs each non-category line with its category.
func settingsOf(lines []LockLine) []setting {
	var out []setting
	var cat LockLine
	for _, l := range lines {
		if l.Key == "" && strings.HasPrefix(l.Text, "[") {
			cat = l
		} else {
			out = append(out, setting{cat, l})
		}
	}
	return out
}

// settingsLines writes settings back, a category line wherever the category changes.
func settingsLines(ss []setting) []LockLine {
	var out []LockLine
	for i, s := range ss {
		if s.cat.Text != "" && (i == 0 || ss[i-1].cat.Text != s.cat.Text) {
			out = append(out, s.cat)
		}
		out = append(out, s.line)
	}
	return out
}

// playerText is the file at path without the block of the mods folder ("" when absent).
func (c *Change) playerText(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	begin, end, _, err := markers(c.eng, c.o.Mods)
	if err != nil {
		return nil, err
	}
	out, err := removeBlock(b, begin, end, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; mend the file by hand", path, err)
	}
	return out, nil
}

// leaveOut drops lines the player's files already have (OpenMW aborts on a duplicate content
// file or setting); an openmw.cfg lacking the base game's files is a warning.
func (c *Change) leaveOut(base []engine.Line) error {
	if c.o.OpenMWCfg != "" {
		text, err := c.playerText(c.o.OpenMWCfg)
		if err != nil {
			return err
		}
		var lines, baseLines []string
		for _, l := range c.Cfg {
			lines = append(lines, l.Text)
		}
		for _, l := range base {
			baseLines = append(baseLines, l.Text)
		}
		idx, err := c.eng.Listed(string(text), lines)
		if err != nil {
			return err
		}
		for _, i := range idx {
			c.Left = append(c.Left, c.Cfg[i].Text+": "+c.o.OpenMWCfg+" lists it already, so the plan's line is left out")
		}
		c.Cfg = without(c.Cfg, idx)
		listed, err := c.eng.Listed(string(text), baseLines)
		if err != nil {
			return err
		}
		if missing := without(baseLines, listed); len(missing) > 0 {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s lacks the base game's %s, which the plan loads its content after: add them with the OpenMW launcher", c.o.OpenMWCfg, strings.Join(missing, ", ")))
		}
	}
	if c.o.SettingsCfg == "" {
		return nil
	}
	text, err := c.playerText(c.o.SettingsCfg)
	if err != nil {
		return err
	}
	have := settingKeys(text)
	var kept []setting
	for _, s := range settingsOf(c.Settings) {
		key, _, _ := strings.Cut(s.line.Text, " = ")
		if have[strings.Trim(s.cat.Text, "[]")+"\x00"+key] {
			c.Left = append(c.Left, fmt.Sprintf("%s %s: %s sets it already, and its value is kept", s.cat.Text, s.line.Text, c.o.SettingsCfg))
			continue
		}
		kept = append(kept, s)
	}
	c.Settings = settingsLines(kept)
	return nil
}

// without is xs but the items at idx, an increasing list of indexes.
func without[T any](xs []T, idx []int) []T {
	var out []T
	for i, l := range xs {
		if len(idx) > 0 && idx[0] == i {
			idx = idx[1:]
			continue
		}
		out = append(out, l)
	}
	return out
}

// settingKeys reads settings.cfg text as OpenMW does into "category\x00key"s.
func settingKeys(text []byte) map[string]bool {
	out := map[string]bool{}
	cat := ""
	for _, l := range bytes.Split(text, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		switch {
		case s == "" || s[0] == '#':
		case s[0] == '[' && s[len(s)-1] == ']':
			cat = s[1 : len(s)-1]
		default:
			if k, _, ok := strings.Cut(s, "="); ok {
				out[cat+"\x00"+strings.TrimSpace(k)] = true
			}
		}
	}
	return out
}

// cfgFile is the file at path with its block holding lines (none: removed), the lock's record
// of it (nil: no block) and the file as it was (nil: absent).
func (c *Change) cfgFile(path string, lines []LockLine, was *CfgRecord) (out []byte, rec *CfgRecord, old []byte, err error) {
	begin, end, head, err := markers(c.eng, c.o.Mods)
	if err != nil {
		return nil, nil, nil, err
	}
	old, err = os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, err
	}
	rec = &CfgRecord{Path: path, Lines: lines, Created: old == nil}
	if was != nil && was.Path == path {
		rec.Created, rec.Newline = was.Created, was.Newline
	}
	texts := []string{head}
	for _, l := range lines {
		texts = append(texts, l.Text)
	}
	out, added, err := mergeBlock(old, begin, end, texts)
	if len(lines) == 0 {
		out, err = removeBlock(old, begin, end, rec.Newline)
		if rec.Created && len(out) == 0 {
			out = nil
		} else if out == nil {
			out = []byte{}
		}
		rec = nil
	} else {
		rec.Newline = rec.Newline || added
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w; mend the file by hand", path, err)
	}
	return out, rec, old, nil
}
