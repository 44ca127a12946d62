package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"io/fs"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

// hostileValues replace one value of a record or a held document: paths, other schemes,
// markup, controls, look-alike ids, values of another type, empties and long text.
var hostileValues = []any{
	"../../../../tmp/ashyams-hostile", "..", "/etc/passwd", "a/b", "data:text/html,<script>alert(1)</script>",
	"javascript:alert(1)", "file:///etc/passwd", "HTTPS://UPPER.EXAMPLE/", "https://", "//evil.example/x",
	"https://evil.example/x?q=1#f", "", " ", "\u202e\u2066x", "<script>alert(1)</script>", "\x00", "line\nbreak",
	"00000000-0000-4000-8000-00000000000A", "00000000-0000-4000-8000-000000000000", "current", "withdrawn", "invalid",
	"2026-13-45T99:99:99Z", "2026-10-10T12:00:00Z", "0123456789abcdef0123", strings.Repeat("e", 64), strings.Repeat("x", 5000),
	json.Number("-1"), json.Number("0"), json.Number("9007199254740993"), true, false, nil, map[string]any{}, []any{},
}

// stateFile is one file of a state directory copied into memory.
type stateFile struct {
	rel string
	b   []byte
}

// readState reads every regular file under root, by slash path, sorted.
func readState(tb testing.TB, root string) []stateFile {
	tb.Helper()
	var out []stateFile
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out = append(out, stateFile{filepath.ToSlash(rel), b})
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// writeState writes files as a state directory at root.
func writeState(tb testing.TB, root string, files []stateFile) {
	tb.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// jsonLeaf is a place in a decoded JSON value: the container and the key or index in it.
type jsonLeaf struct {
	obj  map[string]any
	arr  []any
	key  string
	i    int
	path string
}

// leaves lists every place in v that holds a value, in document order.
func leaves(v any, at string, out *[]jsonLeaf) {
	switch x := v.(type) {
	case map[string]any:
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			*out = append(*out, jsonLeaf{obj: x, key: k, path: at + "/" + k})
			leaves(x[k], at+"/"+k, out)
		}
	case []any:
		for i := range x {
			*out = append(*out, jsonLeaf{arr: x, i: i, path: fmt.Sprintf("%s/%d", at, i)})
			leaves(x[i], fmt.Sprintf("%s/%d", at, i), out)
		}
	}
}

// mutateState changes one value of one JSON file of files, chosen by r, to a hostile value,
// and then repairs what a forger repairs with public formulas: an event's id and file name,
// the digests naming a held manifest or site index. It returns the files and what it did.
func mutateState(tb testing.TB, r *rand.Rand, files []stateFile) ([]stateFile, string) {
	tb.Helper()
	var cands []int
	for i, f := range files {
		if strings.HasSuffix(f.rel, ".json") {
			cands = append(cands, i)
		}
	}
	fi := cands[r.Intn(len(cands))]
	f := files[fi]
	dec := json.NewDecoder(bytes.NewReader(f.b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return files, "nothing to change in " + f.rel + " (not JSON)"
	}
	var ls []jsonLeaf
	leaves(doc, "", &ls)
	if len(ls) == 0 {
		return files, "nothing to change in " + f.rel
	}
	l := ls[r.Intn(len(ls))]
	v := hostileValues[r.Intn(len(hostileValues))]
	what := fmt.Sprintf("%s%s = %.60q", f.rel, l.path, fmt.Sprint(v))
	switch {
	case l.obj != nil && r.Intn(8) == 0:
		delete(l.obj, l.key)
		what = fmt.Sprintf("%s%s deleted", f.rel, l.path)
	case l.obj != nil:
		l.obj[l.key] = v
	default:
		l.arr[l.i] = v
	}
	b := encodeLikeRecord(tb, doc)
	out := append([]stateFile(nil), files...)
	out[fi] = stateFile{f.rel, b}
	if r.Intn(4) != 0 {
		out = repair(tb, out, fi)
		what += " (repaired)"
	}
	return out, what
}

// encodeLikeRecord encodes v as the crawler writes records.
func encodeLikeRecord(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := store.MarshalRecord(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// repair makes the file at fi consistent again where public formulas allow: an event gets
// the id its facts give and that file name; a held manifest or index gets its digest recorded.
func repair(tb testing.TB, files []stateFile, fi int) []stateFile {
	f := files[fi]
	set := func(rel string, edit func(m map[string]any)) {
		for i := range files {
			if files[i].rel != rel {
				continue
			}
			var m map[string]any
			dec := json.NewDecoder(bytes.NewReader(files[i].b))
			dec.UseNumber()
			if dec.Decode(&m) != nil || m == nil {
				return
			}
			edit(m)
			files[i].b = encodeLikeRecord(tb, m)
		}
	}
	dir, base := path.Split(f.rel)
	switch {
	case strings.HasPrefix(f.rel, store.EventsDir+"/"):
		var e struct {
			Kind, Project, Origin string
			Before, After         *string
		}
		if json.Unmarshal(f.b, &e) != nil {
			return files
		}
		id := store.EventID(e.Kind, e.Project, e.Origin, e.Before, e.After)
		var m map[string]any
		if json.Unmarshal(f.b, &m) != nil || m == nil {
			return files
		}
		m["id"] = id
		files[fi] = stateFile{store.EventPath(id), encodeLikeRecord(tb, m)}
	case base == store.ManifestFile:
		d := store.Digest(f.b)
		set(dir+store.ClaimFile, func(m map[string]any) {
			m["ingested_sha256"], m["advertised_sha256"] = d, d
			if e, ok := m["entry"].(map[string]any); ok {
				e["manifest_sha256"] = d
			}
		})
	case base == store.IndexFile:
		d := store.Digest(f.b)
		set(dir+store.OriginFile, func(m map[string]any) { m["index_sha256"] = d })
	}
	return files
}

// checkedStateBuilds mutates the base state n times from seed and asserts, for each, that a
// state check passes is a state build builds.
func checkedStateBuilds(t *testing.T, base []stateFile, seed int64, n int) {
	r := rand.New(rand.NewSource(seed))
	files := base
	var did []string
	for i := 0; i < n; i++ {
		var what string
		files, what = mutateState(t, r, files)
		did = append(did, what)
	}
	root := filepath.Join(t.TempDir(), "state")
	writeState(t, root, files)
	if probs := store.Open(root).Check(); len(probs) > 0 {
		return // check refuses it: nothing to build
	}
	if _, err := Build(Options{State: root, Out: filepath.Join(t.TempDir(), "public")}); err != nil {
		t.Errorf("seed %d: check passes the state after\n  %s\nbut build fails: %v", seed, strings.Join(did, "\n  "), err)
	}
}

// propertyBase is the setup test's network (two sites, an identity conflict, relationships,
// yanked releases, hostile names) with an observed event per claim and a cached image: a
// state check passes, as the mutations' starting point.
func propertyBase(t testing.TB) []stateFile {
	t.Helper()
	s := newSetupState(t)
	f := &statetest.State{TB: t, Dir: store.Open(s.state)}
	snap, err := f.Dir.Load()
	if err != nil {
		t.Fatal(err)
	}
	img := f.Media(sitetest.EncodePNG(t, sitetest.Solid(64, 36, color.NRGBA{R: 200, A: 255})), "png")
	for i, c := range snap.Claims {
		if c.IngestedSHA256 == nil {
			continue
		}
		f.Event(store.Event{Kind: store.EventObserved, Project: c.Project, Origin: c.Origin, Name: c.Entry.Name,
			ObservedAt: statetest.Time, After: c.IngestedSHA256, Changes: []diff.Change{}})
		if i == 0 {
			cl := c.Claim
			cl.Media = &store.Media{URL: "https://lanterns.example/card.png", Alt: "a card", File: &img}
			f.Write(store.ClaimPath(c.Project, c.Origin), cl)
		}
	}
	if probs := f.Dir.Check(); len(probs) > 0 {
		t.Fatalf("the base state does not pass check: %v", probs)
	}
	return readState(t, s.state)
}

// FuzzCheckedStateBuilds: whatever a forger changes in a state (one to three values of its
// records and held documents, with event ids and digests recomputed), a state `ashyams check`
// passes is one `ashyams build` builds. The input is the seed of the mutations.
func FuzzCheckedStateBuilds(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 4, 5, 6, 7, 8} {
		f.Add(seed, uint8(1))
	}
	base := propertyBase(f) // mutations copy what they change: one base serves every input
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		checkedStateBuilds(t, base, seed, 1+int(n%3))
	})
}

// TestCheckedStateBuilds runs FuzzCheckedStateBuilds' property over 300 seeds (skipped
// under -short, where the fuzz target's own seeds run).
func TestCheckedStateBuilds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("300 mutated states, each checked and built: skipped under -short")
	}
	base := propertyBase(t)
	for seed := int64(100); seed < 400; seed++ {
		checkedStateBuilds(t, base, seed, 1+int(seed%3))
	}
}

// A state whose network.json, an event, a held manifest or a cached image is a symbolic link
// to /dev/zero: check names the link, and build ends (refusing the state, or showing the
// image as unreadable) without reading through it, so it never runs out of memory.
func TestBuildStateLinkedToDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero:", err)
	}
	base := propertyBase(t)
	var event, manifest, media string
	for _, f := range base {
		switch {
		case strings.HasPrefix(f.rel, store.EventsDir+"/") && event == "":
			event = f.rel
		case path.Base(f.rel) == store.ManifestFile && manifest == "":
			manifest = f.rel
		case strings.HasPrefix(f.rel, store.MediaDir+"/") && media == "":
			media = f.rel
		}
	}
	for _, rel := range []string{store.NetworkFile, event, manifest, media} {
		t.Run(rel, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "state")
			writeState(t, root, base)
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
			named := false
			for _, pr := range store.Open(root).Check() {
				named = named || (pr.Path == rel && strings.Contains(pr.Message, "symbolic link"))
			}
			if !named {
				t.Errorf("check does not name %s as a symbolic link: %v", rel, store.Open(root).Check())
			}
			_, err := Build(Options{State: root, Out: filepath.Join(t.TempDir(), "public")})
			switch {
			case rel == media && err != nil:
				t.Errorf("build refused a state for an unreadable image: %v", err)
			case rel != media && (err == nil || !strings.Contains(err.Error(), rel)):
				t.Errorf("build of a state whose %s is a link: %v, want an error naming it", rel, err)
			}
		})
	}
}
