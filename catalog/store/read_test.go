package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileFiles are the files of the tiny state a pushed state branch could replace, by role.
func hostileFiles() map[string]string {
	return map[string]string{
		"network.json":   NetworkFile,
		"an event":       EventPath(EventID(EventObserved, tinyProject, tinySite, nil, ptrTo(Digest(tinyMan)))),
		"a source":       SourcePath(tinySource),
		"an origin":      OriginPath(tinySite),
		"a site index":   OriginIndexPath(tinySite),
		"a claim":        ClaimPath(tinyProject, tinySite),
		"a manifest":     ManifestPath(tinyProject, tinySite),
		"a cached image": MediaDir + "/" + Digest([]byte("image")) + ".png",
	}
}

// wantUnreadable asserts that Check and CheckLoadForRender each report rel as Unreadable,
// with a message containing words, and that ReadBytes of rel fails with want.
func wantUnreadable(t *testing.T, d *Dir, rel, words string, want error) {
	t.Helper()
	for scope, probs := range map[string][]Problem{"check": d.Check(), "render": func() []Problem { _, ps := d.CheckLoadForRender(); return ps }()} {
		if scope == "render" && strings.HasPrefix(rel, MediaDir+"/") {
			continue // a build reads the images it uses itself (site/internal/cards)
		}
		found := false
		for _, p := range probs {
			if p.Path == rel && p.Kind == Unreadable && strings.Contains(p.Message, words) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no unreadable problem for %s saying %q; got %v", scope, rel, words, probs)
		}
	}
	if _, err := d.ReadBytes(rel); !errors.Is(err, want) {
		t.Errorf("ReadBytes(%s) = %v, want %v", rel, err, want)
	}
}

// A state whose network.json, event, records, held documents or cached image is a symbolic
// link to /dev/zero (or to a file outside the state) is read through no link: Check names
// each link, and Load refuses a linked record, without reading a byte through it.
func TestSymlinkedStateFilesAreRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero:", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.json")
	must(t, os.WriteFile(outside, tinyMan, 0o644))
	for role, rel := range hostileFiles() {
		for _, target := range []string{"/dev/zero", outside} {
			t.Run(role+" to "+target, func(t *testing.T) {
				d := tinyState(t)
				must(t, os.MkdirAll(filepath.Dir(d.Path(rel)), 0o755))
				os.Remove(d.Path(rel))
				must(t, os.Symlink(target, d.Path(rel)))
				wantUnreadable(t, d, rel, "it is a symbolic link", ErrNotRegular)
				if held := map[string]bool{"a site index": true, "a manifest": true, "a cached image": true}; !held[role] {
					if _, err := d.Load(); !errors.Is(err, ErrNotRegular) { // Load reads records, never held bytes
						t.Errorf("Load: %v, want ErrNotRegular", err)
					}
				}
			})
		}
	}
}

// A directory of the layout that is a symbolic link is named as such, and nothing under it
// is read: a claims/<project> leading to another claim's records is not a second claim.
func TestSymlinkedStateDirectoriesAreRefused(t *testing.T) {
	for _, rel := range []string{ClaimsDir, ClaimsDir + "/" + "99999999-2222-4333-8444-555555555555", EventsDir, OriginsDir + "/" + SiteID("https://other.example/dreamweave.json")} {
		t.Run(rel, func(t *testing.T) {
			d := tinyState(t)
			target := t.TempDir()
			if !strings.Contains(rel, "/") { // a whole top-level directory: move it out, link to it
				must(t, os.Rename(d.Path(rel), filepath.Join(target, "moved")))
				target = filepath.Join(target, "moved")
			}
			must(t, os.Symlink(target, d.Path(rel)))
			found := false
			for _, p := range d.Check() {
				if p.Path == rel && p.Kind == Unreadable && strings.Contains(p.Message, "it is a symbolic link") {
					found = true
				}
			}
			if !found {
				t.Errorf("no unreadable problem naming the link %s: %v", rel, d.Check())
			}
		})
	}
}

// A held document over the document limit and a record over the record limit are refused
// unread (sparse files: no disk is spent), each named with its size and the limit.
func TestOversizedStateFilesAreRefused(t *testing.T) {
	for rel, size := range map[string]int64{
		ManifestPath(tinyProject, tinySite): MaxHeldBytes + 1,
		OriginIndexPath(tinySite):           MaxHeldBytes + 1,
		ClaimPath(tinyProject, tinySite):    MaxRecordBytes + 1,
		NetworkFile:                         MaxRecordBytes + 1,
	} {
		t.Run(rel, func(t *testing.T) {
			d := tinyState(t)
			must(t, os.Truncate(d.Path(rel), size))
			wantUnreadable(t, d, rel, "over the", ErrTooLarge)
		})
	}
	// At the limit is not over it.
	d := tinyState(t)
	rel := ManifestPath(tinyProject, tinySite)
	must(t, os.Truncate(d.Path(rel), MaxHeldBytes))
	if b, err := d.ReadBytes(rel); err != nil || len(b) != MaxHeldBytes {
		t.Errorf("ReadBytes of a file at the limit: %d bytes, %v", len(b), err)
	}
}

// A device or a named pipe in place of a record is refused without opening it (a pipe would
// block a reader that opened it).
func TestFifoRecordIsRefused(t *testing.T) {
	d := tinyState(t)
	rel := ClaimPath(tinyProject, tinySite)
	must(t, os.Remove(d.Path(rel)))
	if err := mkfifo(d.Path(rel)); err != nil {
		t.Skip("no named pipes here:", err)
	}
	wantUnreadable(t, d, rel, "it is a named pipe", ErrNotRegular)
}
