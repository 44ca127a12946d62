package store

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

func (c *checker) leftover(rel string) {
	c.out = append(c.out, Problem{Path: rel, Kind: Leftover, Message: LeftoverMessage})
}

func (c *checker) stray(rel string) {
	c.add(Stray, rel, "is not part of the state layout (seeds/state.txt, \"Layout\")")
}

func (c *checker) entries(rel string) []fs.DirEntry {
	ents, err := os.ReadDir(c.d.Path(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(Unreadable, rel, "cannot be listed: %v", err)
	}
	return ents
}

func (c *checker) scan() {
	for _, e := range c.entries("") {
		n := e.Name()
		switch {
		case IsTemp(n):
			c.leftover(n)
		case strings.HasPrefix(n, "."): // .git and other Git files of the checkout
		case n != NetworkFile && c.notDirOrFile(n, e):
		case e.IsDir() && n == SourcesDir:
			c.sourceFiles = c.files(SourcesDir, ".json")
		case e.IsDir() && n == EventsDir:
			c.eventFiles = c.files(EventsDir, ".json")
		case e.IsDir() && n == MediaDir:
			c.mediaFiles = c.files(MediaDir, "")
		case e.IsDir() && n == OriginsDir:
			for _, site := range c.files(OriginsDir, "/") {
				if c.recordDir(OriginsDir+"/"+site, OriginFile, IndexFile) {
					c.siteDirs = append(c.siteDirs, site)
				}
			}
		case e.IsDir() && n == ClaimsDir:
			for _, p := range c.files(ClaimsDir, "/") {
				sites := c.files(ClaimsDir+"/"+p, "/")
				if len(sites) == 0 && len(c.entries(ClaimsDir+"/"+p)) == 0 {
					c.leftoverDir(ClaimsDir + "/" + p)
				}
				for _, site := range sites {
					if c.recordDir(ClaimsDir+"/"+p+"/"+site, ClaimFile, ManifestFile) {
						c.claimDirs = append(c.claimDirs, p+"/"+site)
					}
				}
			}
		case !e.IsDir() && n == NetworkFile:
		case !e.IsDir() && n == ReferenceReadme: // the reference index's save writes it
		case e.IsDir() && n == OwnDir: // this index's own files, read with their records
		default:
			c.stray(n)
		}
	}
}

// files lists the regular files in dir ending in ext (any when ""), or its directories when
// ext is "/", reporting leftovers and anything else as stray.
func (c *checker) files(dir, ext string) []string {
	var out []string
	wantDir := ext == "/"
	for _, e := range c.entries(dir) {
		n, rel := e.Name(), dir+"/"+e.Name()
		switch {
		case IsTemp(n) && !e.IsDir():
			c.leftover(rel)
		case wantDir && c.notDirOrFile(rel, e):
		case e.IsDir() != wantDir || strings.HasPrefix(n, "."), !wantDir && (!strings.HasSuffix(n, ext) || n == ext):
			c.stray(rel)
		default:
			out = append(out, n)
		}
	}
	return out
}

// notDirOrFile reports an entry that is neither a directory nor a regular file, for names the
// layout gives directories.
func (c *checker) notDirOrFile(rel string, e fs.DirEntry) bool {
	if t := e.Type(); t.IsDir() || t.IsRegular() {
		return false
	}
	c.add(Unreadable, rel, "cannot be read: %s", readErrorWords(notRegular(rel, e.Type())))
	return true
}

func (c *checker) leftoverDir(rel string) {
	c.out = append(c.out, Problem{Path: rel + "/", Kind: Leftover, Message: "holds no record: " + LeftoverMessage})
}

// recordDir checks a directory holding one record file and optionally its bytes file, and
// reports whether the record is there.
func (c *checker) recordDir(dir, record, bytesFile string) bool {
	has, other := false, false
	ents := c.entries(dir)
	for _, e := range ents {
		n, rel := e.Name(), dir+"/"+e.Name()
		switch {
		case IsTemp(n) && !e.IsDir():
			c.leftover(rel)
		case !e.IsDir() && n == record:
			has = true
		case !e.IsDir() && n == bytesFile:
			other = true
		default:
			other = true
			c.stray(rel)
		}
	}
	switch {
	case has:
		return true
	case other:
		c.add(Unreadable, dir+"/"+record, "missing, but its directory holds other files")
	case len(ents) == 0: // (temporary files were reported one by one)
		c.leftoverDir(dir)
	}
	return false
}
