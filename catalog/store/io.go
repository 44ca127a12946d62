package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Dir is a state directory rooted at Root, a file system path.
type Dir struct {
	Root  string
	batch *batch // OpenBatch: writes are synced together by Sync
}

// Open returns the state directory at root. Nothing is read or created until used.
func Open(root string) *Dir { return &Dir{Root: root} }

// Path joins rel (slash-separated, relative to the state root) onto the state root.
func (d *Dir) Path(rel string) string { return filepath.Join(d.Root, filepath.FromSlash(rel)) }

// Record paths are relative to the state root and slash-separated (seeds/state.txt, "Layout").

// SourcePath is "sources/<source>.json"; source is SourceID(url).
func SourcePath(source string) string { return SourcesDir + "/" + source + ".json" }

// OriginPath is "origins/<site>/origin.json"; site is SiteID(index_url).
func OriginPath(site string) string { return OriginsDir + "/" + site + "/" + OriginFile }

// OriginIndexPath is "origins/<site>/dreamweave.json", the site index's last good bytes.
func OriginIndexPath(site string) string { return OriginsDir + "/" + site + "/" + IndexFile }

// ClaimPath is "claims/<project>/<site>/claim.json".
func ClaimPath(project, site string) string {
	return ClaimsDir + "/" + project + "/" + site + "/" + ClaimFile
}

// ManifestPath is "claims/<project>/<site>/manifest.json", the claim's last good manifest.
func ManifestPath(project, site string) string {
	return ClaimsDir + "/" + project + "/" + site + "/" + ManifestFile
}

// EventPath is "events/<id>.json"; id is EventID of its facts.
func EventPath(id string) string { return EventsDir + "/" + id + ".json" }

// TempPrefix begins the name of every temporary file WriteBytes creates beside its target: a
// write that never finished.
const TempPrefix = ".tmp-"

// IsTemp reports whether a file name (not a path) is a temporary file of WriteBytes.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// WriteBytes replaces the file at rel with b atomically (a synced temp file renamed over it),
// so an interrupted refresh never leaves a half-written record (SPEC section 3). In batch mode
// (OpenBatch) Sync makes the files durable at once.
func (d *Dir) WriteBytes(rel string, b []byte) error {
	path := d.Path(rel)
	var err error
	// A concurrent Remove may take away a directory left empty before the temp file exists.
	for range 3 {
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = replace(path, b, 0o644, d.batch == nil)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	d.wrote(path)
	return nil
}

// ReplaceFile replaces the file at path with b atomically, as WriteBytes does, keeping its
// permissions (0644 for a new file); path's directory must exist.
func ReplaceFile(path string, b []byte) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := replace(path, b, mode, true); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// replace writes b to a temp file beside path, synced when sync is set, and renames it over
// path; on failure path is untouched.
func replace(path string, b []byte, mode os.FileMode, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if werr == nil && sync {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return werr
	}
	return nil
}

// Remove deletes the file at rel, its own file, and the directories they leave empty; a
// missing file is no error.
func (d *Dir) Remove(rel string) error {
	if ownRel, ok := OwnPath(rel); ok {
		if err := d.remove(ownRel); err != nil {
			return err
		}
	}
	return d.remove(rel)
}

func (d *Dir) remove(rel string) error {
	if err := os.Remove(d.Path(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	if strings.HasPrefix(rel, OwnDir+"/") {
		// Own directories stay when empty, so no concurrent write loses its directory.
		return nil
	}
	for dir := path.Dir(rel); strings.Contains(dir, "/"); dir = path.Dir(dir) {
		ents, err := os.ReadDir(d.Path(dir))
		if err != nil || len(ents) > 0 {
			return nil
		}
		if os.Remove(d.Path(dir)) != nil {
			return nil // gone, or a concurrent write put a file in it
		}
	}
	return nil
}

// MarshalRecord is the canonical encoding of a record, serde_json's pretty style (FORMATS
// section 1.9): two-space indent, struct order, raw UTF-8, no escaping of HTML or "/".
func MarshalRecord(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return unescapeLineSeparators(buf.Bytes()), nil
}

// unescapeLineSeparators turns encoding/json's `\u2028` and `\u2029` back into the raw
// characters, as serde_json writes them.
func unescapeLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if rest := b[i:]; bytes.HasPrefix(rest, []byte(`\u2028`)) || bytes.HasPrefix(rest, []byte(`\u2029`)) {
			out = append(out, string(rune(0x2028+int(rest[5]-'8')))...)
			i += 5
			continue
		}
		out = append(out, b[i], b[i+1]) // any other escape, kept whole
		i++
	}
	return out
}

// WriteJSON writes v at rel as a canonical record, atomically, with its own file (RecordFiles).
// A file that already holds exactly its bytes is left untouched.
func (d *Dir) WriteJSON(rel string, v any) error {
	files, err := RecordFiles(rel, v)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.Bytes == nil {
			if d.Exists(f.Rel) {
				if err := d.Remove(f.Rel); err != nil {
					return err
				}
			}
			continue
		}
		if old, err := d.readFile(f.Rel, MaxRecordBytes); err == nil && bytes.Equal(old, f.Bytes) {
			continue
		}
		if err := d.WriteBytes(f.Rel, f.Bytes); err != nil {
			return err
		}
	}
	return nil
}

// WriteEvent records e under EventPath; an id already on disk is left as it is (written false).
func (d *Dir) WriteEvent(e Event) (written bool, err error) {
	rel := EventPath(e.ID)
	if _, err := os.Stat(d.Path(rel)); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, d.WriteJSON(rel, e)
}

// ReadJSON decodes the record at rel into v with its own file (DecodeRecord); unknown fields
// are an error naming the path.
func (d *Dir) ReadJSON(rel string, v any) error {
	return d.readJSON(new(bytes.Buffer), new(recordDecoder), rel, v)
}

// readJSON is ReadJSON reading the record into buf and decoding it with rd.
func (d *Dir) readJSON(buf *bytes.Buffer, rd *recordDecoder, rel string, v any) error {
	b, err := d.readInto(buf, rel, MaxRecordBytes)
	if err != nil {
		return err
	}
	var ownB []byte
	if ownRel, ok := OwnPath(rel); ok {
		ownB, err = d.readFile(ownRel, MaxRecordBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return decodeRecord(rd, rel, b, ownB, v)
}

// ReadBytes returns the held file at rel, a regular file of at most MaxHeldBytes.
func (d *Dir) ReadBytes(rel string) ([]byte, error) { return d.readFile(rel, MaxHeldBytes) }

// Exists reports whether rel exists, as whatever it is (a dangling symbolic link exists).
func (d *Dir) Exists(rel string) bool {
	_, err := d.lstatBelow(rel)
	return err == nil
}

// list returns the sorted names of directories (wantDir) or files in rel, skipping names that
// begin with "."; a missing dir is empty.
func (d *Dir) list(rel string, wantDir bool) ([]string, error) {
	ents, err := os.ReadDir(d.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() != wantDir {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}

// ClaimRecord is a claim with its location.
type ClaimRecord struct {
	Claim
	Dir string // claims/<project>/<site>, slash-separated
}

// Snapshot is everything the state holds but manifest and index bytes, sorted: sources by file
// name, origins by id, claims by (project, site), events by (observed_at, id).
type Snapshot struct {
	Network     *Network // nil when network.json is absent (no refresh has run)
	Sources     []Source
	SourceFiles []string // sources/<name>.json file names, parallel to Sources
	Origins     []Origin
	Claims      []ClaimRecord
	Events      []Event
	// IndexDigests and ManifestDigests are the held bytes' SHA-256 (CheckLoad only).
	IndexDigests    map[string]string
	ManifestDigests map[string]string
	// Manifests are the held manifests that passed every check (CheckLoadForRender only).
	Manifests map[string]*protocol.Manifest
}

// Load reads every record, skipping what an interrupted write left; one that does not parse is
// an error naming its path.
func (d *Dir) Load() (*Snapshot, error) {
	s := &Snapshot{}
	if d.Exists(NetworkFile) {
		s.Network = &Network{}
		if err := d.ReadJSON(NetworkFile, s.Network); err != nil {
			return nil, err
		}
	}
	var err error
	if s.Sources, s.SourceFiles, err = readRecords[Source](d, SourcesDir); err != nil {
		return nil, err
	}
	sites, err := d.list(OriginsDir, true)
	if err != nil {
		return nil, err
	}
	for _, site := range sites {
		if d.onlyLeftovers(OriginsDir + "/" + site) {
			continue
		}
		var o Origin
		if err := d.ReadJSON(OriginPath(site), &o); err != nil {
			return nil, err
		}
		s.Origins = append(s.Origins, o)
	}
	projects, err := d.list(ClaimsDir, true)
	if err != nil {
		return nil, err
	}
	for _, p := range projects {
		sites, err := d.list(ClaimsDir+"/"+p, true)
		if err != nil {
			return nil, err
		}
		for _, site := range sites {
			if d.onlyLeftovers(ClaimsDir + "/" + p + "/" + site) {
				continue
			}
			var c Claim
			if err := d.ReadJSON(ClaimPath(p, site), &c); err != nil {
				return nil, err
			}
			s.Claims = append(s.Claims, ClaimRecord{Claim: c, Dir: ClaimsDir + "/" + p + "/" + site})
		}
	}
	if s.Events, _, err = readRecords[Event](d, EventsDir); err != nil {
		return nil, err
	}
	sortEvents(s.Events)
	return s, nil
}

func readRecords[T any](d *Dir, dir string) ([]T, []string, error) {
	files, err := d.list(dir, false)
	if err != nil {
		return nil, nil, err
	}
	var out []T
	var names []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		var v T
		if err := d.ReadJSON(dir+"/"+f, &v); err != nil {
			return nil, nil, err
		}
		out, names = append(out, v), append(names, f)
	}
	return out, names, nil
}

func sortEvents(es []Event) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].ObservedAt != es[j].ObservedAt {
			return es[i].ObservedAt < es[j].ObservedAt
		}
		return es[i].ID < es[j].ID
	})
}

func (d *Dir) onlyLeftovers(rel string) bool {
	ents, err := os.ReadDir(d.Path(rel))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() || !IsTemp(e.Name()) {
			return false
		}
	}
	return true
}

// Tidy removes what interrupted writes left: temporary files, own files whose record is gone,
// then empty site and claim directories; never a record. Only the state's one writer may call
// it. It returns the removed paths, sorted.
func (d *Dir) Tidy() ([]string, error) {
	var removed []string
	err := filepath.WalkDir(d.Root, func(p string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == d.Root {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != d.Root && strings.HasPrefix(e.Name(), ".") {
				return fs.SkipDir // .git and the like: not ours
			}
			return nil
		}
		rel, _ := filepath.Rel(d.Root, p)
		rel = filepath.ToSlash(rel)
		if !IsTemp(e.Name()) && !d.orphanOwn(rel) {
			return nil
		}
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("tidy: %w", err)
		}
		removed = append(removed, rel)
		return nil
	})
	if err != nil {
		return removed, err
	}
	var dirs []string // each site and claim directory, a project's after its sites
	sites, _ := d.list(OriginsDir, true)
	for _, site := range sites {
		dirs = append(dirs, OriginsDir+"/"+site)
	}
	projects, _ := d.list(ClaimsDir, true)
	for _, p := range projects {
		sites, _ := d.list(ClaimsDir+"/"+p, true)
		for _, site := range sites {
			dirs = append(dirs, ClaimsDir+"/"+p+"/"+site)
		}
		dirs = append(dirs, ClaimsDir+"/"+p)
	}
	for _, rel := range dirs {
		if ents, err := os.ReadDir(d.Path(rel)); err != nil || len(ents) > 0 {
			continue
		}
		if err := os.Remove(d.Path(rel)); err != nil {
			return removed, fmt.Errorf("tidy: %w", err)
		}
		removed = append(removed, rel+"/")
	}
	sort.Strings(removed)
	return removed, nil
}

// orphanOwn reports whether rel is an own file (its README aside) whose record is gone.
func (d *Dir) orphanOwn(rel string) bool {
	record, ok := strings.CutPrefix(rel, OwnDir+"/")
	if !ok || rel == OwnReadmePath {
		return false
	}
	if _, isRecord := OwnPath(record); !isRecord {
		return true // nothing this index writes
	}
	return !d.Exists(record)
}
