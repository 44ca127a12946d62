package install

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/assets/engine"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/download"
	"github.com/DreamWeave-MP/ashyams-go/crawl/install/unzip"
)

// Apply makes the change: downloads, then folders built in a stage and moved into place with
// the lock and config files (backed up as "<file>.ashyams-backup"). It returns what the player
// should know; on an error nothing of the player's changes.
func (c *Change) Apply(ctx context.Context) ([]string, error) {
	var notes []string
	cache := &download.Cache{Dir: c.o.Cache, Client: c.o.client(), Progress: c.o.Progress}
	got := map[string]string{}
	for i := range c.Claims {
		cl := &c.Claims[i]
		if cl.State != StateNew && cl.State != StateUpdate {
			continue
		}
		a := cl.artifact
		res, err := cache.Get(ctx, download.Artifact{Size: a.Size, SHA256: a.SHA256, Sources: sources(a.Sources)})
		if err != nil {
			return notes, fmt.Errorf("%s: the artifact %s (%s): %w", c.name(cl), a.ID, a.Filename, err)
		}
		for _, r := range res.Rejected {
			notes = append(notes, fmt.Sprintf("%s: the artifact %s from %s was not used: %s", c.name(cl), a.ID, r.Source.URL, r.Reason))
		}
		if res.Source != nil {
			cl.Artifacts[0].Source = res.Source.URL
			if len(res.Rejected) > 0 {
				notes = append(notes, fmt.Sprintf("%s: the artifact %s was installed from %s (%s)", c.name(cl), a.ID, res.Source.URL, res.Source.Kind))
			}
		}
		got[cl.Key] = res.Path
	}
	_, err := os.Stat(c.o.Mods)
	c.created = errors.Is(err, fs.ErrNotExist)
	st, err := newStage(c.o.Mods)
	if err != nil {
		return notes, err
	}
	folders, kept, err := c.build(ctx, st, got)
	notes = append(notes, kept...)
	if err != nil {
		st.discard()
		return notes, err
	}
	files, err := c.files()
	if err != nil {
		st.discard()
		return notes, err
	}
	if err := st.commit(folders, files); err != nil {
		return notes, err
	}
	if files[filepath.Join(c.o.Mods, LockName)] == nil && c.old != nil && c.old.CreatedMods {
		os.Remove(c.o.Mods) // only when empty, as before the first install
	}
	return notes, nil
}

func (c *Change) name(cl *Claim) string { return label(cl.Name, cl.Version, cl.Key) }

func sources(ss []engine.Source) []download.Source {
	out := make([]download.Source, len(ss))
	for i, s := range ss {
		out[i] = download.Source(s)
	}
	return out
}

// build makes in the stage each folder the change writes.
func (c *Change) build(ctx context.Context, st *stage, got map[string]string) (folders, kept []string, err error) {
	for i := range c.Claims {
		cl := &c.Claims[i]
		if cl.State == StateSame || cl.State == StateKeep {
			continue
		}
		if err := step("build " + cl.Folder); err != nil || ctx.Err() != nil {
			return nil, nil, errors.Join(err, context.Cause(ctx))
		}
		dst := st.newDir(cl.Folder)
		if cl.Was == nil || cl.Was.Folder != cl.Folder {
			if _, err := os.Lstat(filepath.Join(c.o.Mods, cl.Folder)); err == nil {
				return nil, nil, fmt.Errorf("%s: %s already holds a folder %s that ashyams did not install; move it away first", c.name(cl), c.o.Mods, cl.Folder)
			}
		}
		if cl.State != StateRemove {
			var prefixes []string
			for _, comp := range cl.Components {
				prefixes = append(prefixes, comp.Path)
			}
			if err := os.Mkdir(dst, 0o755); err != nil {
				return nil, nil, err
			}
			files, err := unzip.Extract(got[cl.Key], dst, prefixes, cmp.Or(c.o.Limits, unzip.DefaultLimits))
			if err != nil {
				a := cl.artifact
				return nil, nil, fmt.Errorf("%s: the artifact %s (%s) from %s: %w", c.name(cl), a.ID, a.Filename, cmp.Or(cl.Artifacts[0].Source, "the download cache"), err)
			}
			cl.Files = nil
			for _, f := range files {
				f.Path = cl.Folder + "/" + f.Path
				cl.Files = append(cl.Files, f)
			}
		}
		if cl.Was != nil {
			k, err := c.carry(cl, dst)
			if err != nil {
				return nil, nil, err
			}
			kept = append(kept, k...)
		}
		folders = append(folders, cl.Folder)
		if cl.Was != nil && cl.Was.Folder != cl.Folder {
			folders = append(folders, cl.Was.Folder)
		}
	}
	return folders, kept, nil
}

// carry copies into dst the files of the claim's installed folder the player changed or added,
// kept in place of the new version's.
func (c *Change) carry(cl *Claim, dst string) ([]string, error) {
	ours := map[string]string{}
	for _, f := range cl.Was.Files {
		ours[f.Path] = f.SHA256
	}
	newFiles := map[string]bool{}
	for _, f := range cl.Files {
		newFiles[f.Path] = true
	}
	var kept []string
	root := filepath.Join(c.o.Mods, cl.Was.Folder)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(c.o.Mods, p)
		rel = filepath.ToSlash(rel)
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: %s is not a regular file; move it out of the folder first", c.name(cl), p)
		}
		to := filepath.Join(dst, filepath.FromSlash(strings.TrimPrefix(rel, cl.Was.Folder+"/")))
		if same, err := copyUnless(p, to, ours[rel]); same || err != nil {
			return err
		}
		what := "added"
		if _, ok := ours[rel]; ok {
			what = "changed"
		}
		kept = append(kept, fmt.Sprintf("%s: kept %s, which you %s", c.name(cl), p, what))
		if newFiles[rel] {
			cl.Files = dropFile(cl.Files, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if cl.State == StateRemove && len(kept) == 0 {
		os.Remove(dst)
	}
	return kept, err
}

// copyUnless copies the file from to the path to, unless its SHA-256 is sum (same).
func copyUnless(from, to, sum string) (same bool, err error) {
	f, err := os.Open(from)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil || hex.EncodeToString(h.Sum(nil)) == sum {
		return err == nil, err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return false, err
	}
	w, err := os.Create(to)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = io.Copy(w, f)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return false, err
}

func dropFile(fs []unzip.File, path string) []unzip.File {
	var out []unzip.File
	for _, f := range fs {
		if f.Path != path {
			out = append(out, f)
		}
	}
	return out
}

// files are the lock and config files as the change leaves them, with backups (nil: removed).
func (c *Change) files() (map[string][]byte, error) {
	l := &Lock{Index: c.Index, Link: c.Link, Mods: c.o.Mods, CreatedMods: c.created || c.old != nil && c.old.CreatedMods}
	for _, cl := range c.Claims {
		if cl.State != StateRemove {
			l.Claims = append(l.Claims, cl.LockClaim)
		}
	}
	out := map[string][]byte{}
	put := func(path string, lines []LockLine, was *CfgRecord) (*CfgRecord, error) {
		b, rec, old, err := c.cfgFile(path, lines, was)
		if err == nil && !(old == nil && b == nil || old != nil && b != nil && bytes.Equal(old, b)) {
			out[path] = b
			if old != nil {
				out[path+".ashyams-backup"] = old
			}
		}
		return rec, err
	}
	for _, f := range []struct {
		path  string
		lines []LockLine
		rec   **CfgRecord
		was   *CfgRecord
	}{{c.o.OpenMWCfg, c.Cfg, &l.OpenMWCfg, c.old.cfg(true)}, {c.o.SettingsCfg, c.Settings, &l.SettingsCfg, c.old.cfg(false)}} {
		var err error
		if f.was != nil && f.was.Path != f.path { // the block moves to another file
			_, err = put(f.was.Path, nil, f.was)
		}
		if err == nil && f.path != "" {
			*f.rec, err = put(f.path, f.lines, f.was)
		}
		if err != nil {
			return nil, err
		}
	}
	b, err := lockBytes(l)
	if len(l.Claims) == 0 {
		b = nil
	}
	out[filepath.Join(c.o.Mods, LockName)] = b
	return out, err
}
