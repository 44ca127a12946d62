package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// CheckLoad reads a sound state once and returns exactly what Load returns, with the digests of
// the held bytes.
func TestCheckLoadIsLoad(t *testing.T) {
	forEachFixture(t, func(t *testing.T, fx fixture) {
		d := fx.build(t)
		// A second source whose file name sorts differently from its stem ("a-b.json" before
		// "a.json", though "a" < "a-b") keeps Load's file name order.
		for _, name := range []string{"a", "a-b"} {
			var s Source
			must(t, d.ReadJSON(SourcePath(fx.source), &s))
			u := "https://" + name + ".example/"
			s.URL, s.Origin, s.Health, s.Problem, s.Method = u, nil, SourceUnresolved, strPtr("unreachable"), nil
			s.Trail = []TrailStep{}
			must(t, d.WriteJSON(SourcePath(SourceID(u)), s))
		}
		want, err := d.Load()
		if err != nil {
			t.Fatal(err)
		}
		got, ps := d.CheckLoad()
		if len(ps) != 0 {
			t.Fatalf("check: %v", ps)
		}
		if len(got.IndexDigests) != len(got.Origins) || len(got.ManifestDigests) == 0 {
			t.Errorf("digests: %d of %d indexes, %d manifests", len(got.IndexDigests), len(got.Origins), len(got.ManifestDigests))
		}
		for site, sum := range got.IndexDigests {
			b, err := d.ReadBytes(OriginIndexPath(site))
			if err != nil || Digest(b) != sum {
				t.Errorf("index digest of %s: %s, the file hashes to %s (%v)", site, sum, Digest(b), err)
			}
		}
		for dir, sum := range got.ManifestDigests {
			b, err := d.ReadBytes(dir + "/" + ManifestFile)
			if err != nil || Digest(b) != sum {
				t.Errorf("manifest digest of %s: %s, the file hashes to %s (%v)", dir, sum, Digest(b), err)
			}
		}
		got.IndexDigests, got.ManifestDigests = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("CheckLoad differs from Load:\n got %+v\nwant %+v", got, want)
		}
	})
}

func strPtr(s string) *string { return &s }

// A state that fails check gives every problem Check gives, with the records that parsed.
func TestCheckLoadReportsEveryProblem(t *testing.T) {
	d := tinyState(t)
	b, _ := d.ReadBytes(ManifestPath(tinyProject, tinySite))
	must(t, os.WriteFile(d.Path(ManifestPath(tinyProject, tinySite)), append(b, ' '), 0o644))
	s, ps := d.CheckLoad()
	if s == nil || len(s.Claims) != 1 || !reflect.DeepEqual(ps, d.Check()) || len(ps) != 1 {
		t.Fatalf("snapshot %v, problems %v", s != nil, ps)
	}
	s, ps = Open(filepath.Join(t.TempDir(), "none")).CheckLoad()
	if s == nil || len(s.Claims) != 0 || len(ps) != 1 || ps[0].Path != "" {
		t.Fatalf("a missing state: snapshot %+v, problems %v", s, ps)
	}
}

// An interrupted refresh's record parses and is checked: its time and its reason.
func TestCheckInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    Interrupted
		want string
	}{
		{"sound", Interrupted{At: tinyNow, Reason: "interrupted by SIGINT", SourcesNotRead: []string{}, SitesNotRead: []string{tinySite},
			SitesPartlyRead: []PartlyRead{{Site: tinySite, Projects: []string{tinyProject}}}}, ""},
		{"bad time", Interrupted{At: "yesterday", Reason: "x"}, `interrupted.at "yesterday" is not a UTC time`},
		{"no reason", Interrupted{At: tinyNow}, "interrupted.reason is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyState(t)
			var n Network
			must(t, d.ReadJSON(NetworkFile, &n))
			n.Interrupted = &tc.x
			must(t, d.WriteJSON(NetworkFile, n))
			ps := d.Check()
			switch {
			case tc.want == "" && len(ps) != 0:
				t.Fatalf("check: %v", ps)
			case tc.want != "" && (len(ps) != 1 || ps[0].Path != NetworkFile || !strings.Contains(ps[0].Message, tc.want)):
				t.Fatalf("check: %v, want one problem of network.json saying %q", ps, tc.want)
			}
			if tc.want == "" {
				s, _ := d.CheckLoad()
				if !reflect.DeepEqual(s.Network.Interrupted, &tc.x) {
					t.Errorf("loaded %+v", s.Network.Interrupted)
				}
			}
		})
	}
	// A complete refresh's network.json has exactly the reference index's keys.
	b, err := MarshalRecord(Network{Format: Format, Crawler: "c", ObservedAt: tinyNow})
	if err != nil || strings.Contains(string(b), "interrupted") {
		t.Errorf("complete: %s %v", b, err)
	}
}

// In batch mode each write is whole at once (renamed into place) and Sync makes them durable
// and forgets them; the portable path syncs files and directories.
func TestBatchWritesAndSync(t *testing.T) {
	root := t.TempDir()
	d := OpenBatch(root)
	must(t, d.WriteJSON(SourcePath("a"), Source{URL: "u"}))
	must(t, d.WriteBytes(OriginIndexPath("s"), []byte("{}")))
	if n := len(d.batch.files); n != 2 {
		t.Fatalf("batch holds %d files, want 2", n)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, SourcesDir)); len(ents) != 1 {
		t.Fatalf("sources/: %v (a temporary file left?)", ents)
	}
	must(t, d.Sync())
	if len(d.batch.files) != 0 || len(d.batch.dirs) != 0 {
		t.Errorf("Sync kept %d files, %d dirs", len(d.batch.files), len(d.batch.dirs))
	}
	must(t, d.Sync()) // nothing left: nothing to do
	must(t, fsyncPaths(map[string]bool{d.Path(SourcePath("a")): true}, map[string]bool{d.Path(SourcesDir): true}))
	if err := fsyncPaths(map[string]bool{filepath.Join(root, "gone"): true}, nil); err == nil {
		t.Error("syncing a missing file succeeded")
	}
	must(t, Open(root).Sync()) // not in batch mode: nothing to do
}
