package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Dir is a state directory rooted at Root.
type Dir struct {
	Root string
}

// Open returns the state directory at root. Nothing is read or created until used.
func Open(root string) *Dir { return &Dir{Root: root} }

// Path joins rel (slash-separated) onto the state root.
func (d *Dir) Path(rel string) string { return filepath.Join(d.Root, filepath.FromSlash(rel)) }

// Rel paths of the records, slash-separated.
func SourcePath(source string) string    { return SourcesDir + "/" + source + ".json" }
func OriginPath(site string) string      { return OriginsDir + "/" + site + "/" + OriginFile }
func OriginIndexPath(site string) string { return OriginsDir + "/" + site + "/" + IndexFile }
func ClaimPath(project, site string) string {
	return ClaimsDir + "/" + project + "/" + site + "/" + ClaimFile
}
func ManifestPath(project, site string) string {
	return ClaimsDir + "/" + project + "/" + site + "/" + ManifestFile
}
func EventPath(id string) string { return EventsDir + "/" + id + ".json" }

// WriteBytes replaces the file at rel with b atomically: a temp file in the same directory is
// written, synced and renamed over the target, so an interrupted refresh never leaves a
// half-written record (SPEC section 3).
func (d *Dir) WriteBytes(rel string, b []byte) error {
	path := d.Path(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", rel, werr)
	}
	return nil
}

// MarshalRecord is the canonical encoding of a record: two-space indented JSON, HTML
// characters unescaped, one trailing newline. The same record always gives the same bytes, so
// git history shows only real changes.
func MarshalRecord(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON writes v at rel as a canonical record (MarshalRecord), atomically. A file that
// already holds exactly those bytes is left untouched.
func (d *Dir) WriteJSON(rel string, v any) error {
	b, err := MarshalRecord(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	if old, err := os.ReadFile(d.Path(rel)); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return d.WriteBytes(rel, b)
}

// ErrEventExists is returned by WriteEvent when a different event already holds the id.
var ErrEventExists = errors.New("a different event with this id is already recorded")

// WriteEvent records e under events/<id>.json. Events are never rewritten: an event with the
// same id already on disk is left as it is (re-running a crawl over the same observations
// records nothing twice).
func (d *Dir) WriteEvent(e Event) (written bool, err error) {
	rel := EventPath(e.ID)
	if _, err := os.Stat(d.Path(rel)); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, d.WriteJSON(rel, e)
}

// ReadJSON decodes the record at rel into v. Unknown fields are an error: a record this
// crawler cannot read fully is the index's own bug, reported with its path.
func (d *Dir) ReadJSON(rel string, v any) error {
	b, err := os.ReadFile(d.Path(rel))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: trailing data after the record", rel)
	}
	return nil
}

// ReadBytes returns the file at rel.
func (d *Dir) ReadBytes(rel string) ([]byte, error) { return os.ReadFile(d.Path(rel)) }

// Exists reports whether rel exists.
func (d *Dir) Exists(rel string) bool {
	_, err := os.Stat(d.Path(rel))
	return err == nil
}

// list returns the sorted names in dir (relative), skipping temp files; a missing dir is empty.
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

// Snapshot is everything the state holds except manifest and index bytes, which are read on
// demand (Dir.ReadBytes with ManifestPath / OriginIndexPath). Sorted: sources by file name,
// origins by id, claims by project then site, events by observed_at then id.
type Snapshot struct {
	Network     *Network // nil when network.json is absent (no refresh has run)
	Sources     []Source
	SourceFiles []string // sources/<name>.json file names, parallel to Sources
	Origins     []Origin
	Claims      []ClaimRecord
	Events      []Event
}

// Load reads every record. Any record that does not parse is returned as an error naming its
// path: a state that contradicts itself fails the build (the index's own bug).
func (d *Dir) Load() (*Snapshot, error) {
	s := &Snapshot{}
	if d.Exists(NetworkFile) {
		s.Network = &Network{}
		if err := d.ReadJSON(NetworkFile, s.Network); err != nil {
			return nil, err
		}
	}
	files, err := d.list(SourcesDir, false)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		var src Source
		if err := d.ReadJSON(SourcesDir+"/"+f, &src); err != nil {
			return nil, err
		}
		s.Sources = append(s.Sources, src)
		s.SourceFiles = append(s.SourceFiles, f)
	}
	sites, err := d.list(OriginsDir, true)
	if err != nil {
		return nil, err
	}
	for _, site := range sites {
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
			var c Claim
			if err := d.ReadJSON(ClaimPath(p, site), &c); err != nil {
				return nil, err
			}
			s.Claims = append(s.Claims, ClaimRecord{Claim: c, Dir: ClaimsDir + "/" + p + "/" + site})
		}
	}
	evs, err := d.list(EventsDir, false)
	if err != nil {
		return nil, err
	}
	for _, f := range evs {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		var e Event
		if err := d.ReadJSON(EventsDir+"/"+f, &e); err != nil {
			return nil, err
		}
		s.Events = append(s.Events, e)
	}
	sort.SliceStable(s.Events, func(i, j int) bool {
		if s.Events[i].ObservedAt != s.Events[j].ObservedAt {
			return s.Events[i].ObservedAt < s.Events[j].ObservedAt
		}
		return s.Events[i].ID < s.Events[j].ID
	})
	return s, nil
}
