package refresh

import (
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// state is what a refresh reads and writes: *store.Dir, or memState, the dry run behind
// Inspect, which so takes exactly the refresh's code path.
type state interface {
	ReadJSON(rel string, v any) error
	ReadBytes(rel string) ([]byte, error)
	Exists(rel string) bool
	WriteJSON(rel string, v any) error
	WriteBytes(rel string, b []byte) error
	WriteEvent(e store.Event) (bool, error)
	Sync() error // makes every write durable; called before network.json, the commit point
	Remove(rel string) error
}

var _ state = (*store.Dir)(nil)

// memState holds records in memory, encoded exactly as store.Dir would write them.
type memState struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memState) ReadJSON(rel string, v any) error {
	b, err := m.ReadBytes(rel)
	if err != nil {
		return err
	}
	var own []byte
	if ownRel, ok := store.OwnPath(rel); ok {
		own, _ = m.ReadBytes(ownRel)
	}
	return store.DecodeRecord(rel, b, own, v)
}

func (m *memState) ReadBytes(rel string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[rel]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), b...), nil
}

func (m *memState) Exists(rel string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.files[rel]
	return ok
}

func (m *memState) WriteJSON(rel string, v any) error {
	files, err := store.RecordFiles(rel, v)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.Bytes == nil {
			m.Remove(f.Rel)
		} else if err := m.WriteBytes(f.Rel, f.Bytes); err != nil {
			return err
		}
	}
	return nil
}

func (m *memState) WriteBytes(rel string, b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[rel] = append([]byte(nil), b...)
	return nil
}

func (m *memState) Sync() error { return nil }

func (m *memState) WriteEvent(e store.Event) (bool, error) {
	rel := store.EventPath(e.ID)
	if m.Exists(rel) {
		return false, nil
	}
	return true, m.WriteJSON(rel, e)
}

func (m *memState) Remove(rel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, rel)
	if ownRel, ok := store.OwnPath(rel); ok {
		delete(m.files, ownRel)
	}
	return nil
}

// paths lists the held paths with a prefix, sorted.
func (m *memState) paths(prefix string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for p := range m.files {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
