package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/unzip"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// LockName is the lock file's name in the mods folder.
const LockName = "ashyams-lock.json"

// Lock is what install wrote into a mods folder (schemas/ashyams-lock-1.schema.json).
type Lock struct {
	Format      string      `json:"format"`
	Index       string      `json:"index"`
	Link        string      `json:"link"`
	Mods        string      `json:"mods"`
	CreatedMods bool        `json:"created_mods,omitempty"`
	OpenMWCfg   *CfgRecord  `json:"openmw_cfg"`
	SettingsCfg *CfgRecord  `json:"settings_cfg"`
	Claims      []LockClaim `json:"claims"`
}

// CfgRecord is a config file lines went into: whether install created it or put a line end
// before the block, and the block's lines.
type CfgRecord struct {
	Path    string     `json:"path"`
	Created bool       `json:"created"`
	Newline bool       `json:"newline"`
	Lines   []LockLine `json:"lines"`
}

// LockLine is one line of a block and the claim that declared it ("" for none).
type LockLine struct {
	Text string `json:"text"`
	Key  string `json:"key"`
}

// LockClaim is one installed claim: release, components, artifacts, and every file written
// (paths under the mods folder, "/"-separated).
type LockClaim struct {
	Key        string          `json:"key"`
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	Health     string          `json:"health"`
	Stale      bool            `json:"stale,omitempty"`
	Folder     string          `json:"folder"`
	Requires   []string        `json:"requires,omitempty"`
	Components []LockComponent `json:"components"`
	Artifacts  []LockArtifact  `json:"artifacts"`
	Files      []unzip.File    `json:"files"`
}

// LockComponent is a component installed: its id and path in the archive.
type LockComponent struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

// LockArtifact is an artifact installed and the source of its verified bytes ("" for the cache).
type LockArtifact struct {
	ID       string `json:"id"`
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Source   string `json:"source"`
}

const lockFormat = "ashyams-lock-1"

// ReadLock reads the mods folder dir's lock (at most 64 MiB): nil when none. A lock breaking
// its schema or naming a path outside its claim's folder or another mods folder is refused.
func ReadLock(dir string) (*Lock, error) {
	path := filepath.Join(dir, LockName)
	var l Lock
	found, err := readJSON(path, 64<<20, schemas.LockFile, &l)
	if !found && err == nil {
		return nil, nil
	}
	if err == nil && !sameDir(l.Mods, dir) {
		err = fmt.Errorf("it was written for the mods folder %s", l.Mods)
	}
	for _, c := range l.Claims {
		for _, p := range append([]string{c.Folder}, filePaths(c.Files)...) {
			if err == nil && (!filepath.IsLocal(filepath.FromSlash(p)) || p != c.Folder && !strings.HasPrefix(p, c.Folder+"/")) {
				err = fmt.Errorf("the claim %s names the path %q outside its folder %q", c.Key, p, c.Folder)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the lock file %s is refused: %w", path, err)
	}
	return &l, nil
}

func filePaths(fs []unzip.File) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Path
	}
	return out
}

// sameDir reports whether a and b name one directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// lockBytes is l as written: two-space indented, one line end.
func lockBytes(l *Lock) ([]byte, error) {
	l.Format = lockFormat
	b, err := json.MarshalIndent(l, "", "  ")
	return append(b, '\n'), err
}

// cfg is the lock's record of openmw.cfg (or settings.cfg); nil for none.
func (l *Lock) cfg(openmw bool) *CfgRecord {
	switch {
	case l == nil:
		return nil
	case openmw:
		return l.OpenMWCfg
	}
	return l.SettingsCfg
}
