package store

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// Golden encodings of the reference index's record shapes this index writes (FORMATS sections
// 1.3 to 1.5 and 1.9): keys, their order, null where the reference writes null, and the JSON
// style. Each is compared byte for byte.
func TestRecordShapesGolden(t *testing.T) {
	s := func(v string) *string { return &v }
	d := strings.Repeat("a", 64)
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"origin with redirects and a move", Origin{
			ID: "new-site-00000000", IndexURL: "https://new.example/dreamweave.json", Sources: []string{"https://old.example/"},
			Redirects:  []string{"https://old.example/", "https://old.example/dreamweave.json"},
			Validators: Validators{ETag: `"x"`}, IndexSHA256: &d, Health: OriginHealthy, Issues: []string{},
			Previous: []Move{{Origin: "old-example-11111111", IndexURL: "https://old.example/dreamweave.json", ObservedAt: "2026-10-10T12:00:00Z",
				Evidence: MoveEvidence("https://old.example/", true)}},
			FirstObserved: "2026-10-10T12:00:00Z", LastAttempt: "2026-10-10T12:00:00Z", LastSuccess: s("2026-10-10T12:00:00Z"),
		}, `{
  "id": "new-site-00000000",
  "index_url": "https://new.example/dreamweave.json",
  "site_name": null,
  "site_url": null,
  "generator": null,
  "sources": [
    "https://old.example/"
  ],
  "redirects": [
    "https://old.example/",
    "https://old.example/dreamweave.json"
  ],
  "validators": {
    "etag": "\"x\""
  },
  "index_sha256": "` + d + `",
  "health": "healthy",
  "problem": null,
  "issues": [],
  "previous": [
    {
      "origin": "old-example-11111111",
      "index_url": "https://old.example/dreamweave.json",
      "observed_at": "2026-10-10T12:00:00Z",
      "evidence": "the enrolled source https://old.example/ now redirects to this site"
    }
  ],
  "first_observed": "2026-10-10T12:00:00Z",
  "last_attempt": "2026-10-10T12:00:00Z",
  "last_success": "2026-10-10T12:00:00Z"
}
`},
		{"claim never accepted: null digest, rejected, null updated, empty summary", Claim{
			Project: "p", Origin: "o",
			Entry: protocol.IndexEntry{ID: "p", Name: "P", Summary: s(""), Type: "mod", Status: "active", Page: "https://o.example/p/",
				Manifest: "https://o.example/p.json", ManifestSHA256: d, Channels: map[string]string{"stable": "1.0.0", "dev": "1.1.0-dev.1"}},
			AdvertisedSHA256: d, Rejected: &Rejected{SHA256: d, Crawler: "0.1.0", Problem: "/project/id: not a UUID"},
			Health: ClaimInvalid, Problem: s("/project/id: not a UUID"),
			FirstObserved: "2026-10-10T12:00:00Z", LastAttempt: "2026-10-10T12:00:00Z",
		}, `{
  "project": "p",
  "origin": "o",
  "entry": {
    "id": "p",
    "name": "P",
    "summary": "",
    "type": "mod",
    "status": "active",
    "page": "https://o.example/p/",
    "manifest": "https://o.example/p.json",
    "manifest_sha256": "` + d + `",
    "updated": null,
    "channels": {
      "dev": "1.1.0-dev.1",
      "stable": "1.0.0"
    }
  },
  "advertised_sha256": "` + d + `",
  "ingested_sha256": null,
  "rejected": {
    "sha256": "` + d + `",
    "crawler": "0.1.0",
    "problem": "/project/id: not a UUID"
  },
  "health": "invalid",
  "problem": "/project/id: not a UUID",
  "media": null,
  "first_observed": "2026-10-10T12:00:00Z",
  "last_changed": null,
  "last_attempt": "2026-10-10T12:00:00Z",
  "last_success": null
}
`},
		{"moved event: moved_from after changes, raw line separators", Event{
			ID: "x", Kind: EventObserved, Project: "p", Origin: "o", Name: "A\u2028B\u2029<&>/", ObservedAt: "2026-10-10T12:00:00Z",
			Before: &d, After: &d, Changes: []diff.Change{}, MovedFrom: s("old"),
		}, "{\n  \"id\": \"x\",\n  \"kind\": \"observed\",\n  \"project\": \"p\",\n  \"origin\": \"o\",\n  \"name\": \"A\u2028B\u2029<&>/\",\n" +
			"  \"observed_at\": \"2026-10-10T12:00:00Z\",\n  \"before\": \"" + d + "\",\n  \"after\": \"" + d + "\",\n  \"changes\": [],\n  \"moved_from\": \"old\"\n}\n"},
		{"escapes kept: a backslash before u2028 text, control characters", Network{Format: 1, Crawler: `a\u2028` + "\x01\t\n", ObservedAt: "t"},
			"{\n  \"format\": 1,\n  \"crawler\": \"a\\\\u2028\\u0001\\t\\n\",\n  \"observed_at\": \"t\"\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MarshalRecord(tc.v)
			must(t, err)
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// A record the reference index would not write fails to load with an error naming the file
// and the field, and loading changes nothing on disk.
func TestLoadRefusesForeignShapes(t *testing.T) {
	tests := []struct {
		name, rel, from, to, want string
	}{
		{"unknown key in a claim", ClaimPath(tinyProject, tinySite), `"health": "current"`, `"health": "current", "at": "2026-10-10T12:00:00Z"`,
			ClaimPath(tinyProject, tinySite) + `: json: unknown field "at"`},
		{"redirects as hop objects", OriginPath(tinySite), `"redirects": []`, `"redirects": [{"from": "a", "to": "b", "status": 301}]`,
			OriginPath(tinySite) + ": json: cannot unmarshal object into Go struct field Origin.redirects of type string"},
		{"previous as a site id", OriginPath(tinySite), `"previous": []`, `"previous": ["old-site-00000000"]`,
			OriginPath(tinySite) + ": json: cannot unmarshal string into Go struct field Origin.previous of type store.Move"},
		{"unknown key in an index entry", ClaimPath(tinyProject, tinySite), `"id": "` + tinyProject + `",`, `"id": "` + tinyProject + `", "extra": 1,`,
			ClaimPath(tinyProject, tinySite) + `: json: unknown field "extra"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyState(t)
			b, err := d.ReadBytes(tc.rel)
			must(t, err)
			if !strings.Contains(string(b), tc.from) {
				t.Fatalf("%s does not hold %s:\n%s", tc.rel, tc.from, b)
			}
			bad := []byte(strings.Replace(string(b), tc.from, tc.to, 1))
			must(t, os.WriteFile(d.Path(tc.rel), bad, 0o644))
			before := snapshotFiles(t, d)
			_, err = d.Load()
			if err == nil || err.Error() != tc.want {
				t.Errorf("Load: %v\nwant %s", err, tc.want)
			}
			if after := snapshotFiles(t, d); !equalFiles(before, after) {
				t.Error("a failed load changed the state")
			}
			found := false
			for _, p := range d.Check() {
				found = found || (p.Path == tc.rel && strings.HasPrefix(p.Message, "does not parse as a record"))
			}
			if !found {
				t.Errorf("Check does not report %s", tc.rel)
			}
		})
	}
}

// Tokens and digests outside the vocabulary are Check problems naming the file and the field.
func TestCheckBadTokens(t *testing.T) {
	tests := []struct {
		name, rel, from, to, want string
	}{
		{"source health", SourcePath(tinySource), `"health": "resolved"`, `"health": "lost"`,
			`health "lost" is not a source health value (resolved, unreachable, refused, no-index, broken-link, unsupported-version)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyState(t)
			b, err := d.ReadBytes(tc.rel)
			must(t, err)
			if !strings.Contains(string(b), tc.from) {
				t.Fatalf("%s does not hold %s", tc.rel, tc.from)
			}
			must(t, os.WriteFile(d.Path(tc.rel), []byte(strings.Replace(string(b), tc.from, tc.to, 1)), 0o644))
			var msgs []string
			for _, p := range d.Check() {
				if p.Path == tc.rel {
					msgs = append(msgs, p.Message)
				}
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("Check on %s: %q, want one containing %q", tc.rel, msgs, tc.want)
			}
		})
	}
}

// An ingested_sha256 of "" (the reference writes null for none) is a Check problem, and so is
// the manifest it leaves unvouched for.
func TestCheckEmptyIngestedDigest(t *testing.T) {
	d := tinyState(t)
	var c Claim
	must(t, d.ReadJSON(ClaimPath(tinyProject, tinySite), &c))
	c.IngestedSHA256 = ptrTo("")
	must(t, d.WriteJSON(ClaimPath(tinyProject, tinySite), c))
	var msgs []string
	for _, p := range d.Check() {
		msgs = append(msgs, p.String())
	}
	want := []string{
		ClaimPath(tinyProject, tinySite) + `: ingested_sha256 "" is not a SHA-256 digest (null means no manifest is held)`,
		ManifestPath(tinyProject, tinySite) + ": is held but claim.json records no ingested_sha256",
	}
	for _, w := range want {
		if !slices.Contains(msgs, w) {
			t.Errorf("Check: %q, want %q among them", msgs, w)
		}
	}
}

// Every reference source health token is accepted by Check.
func TestCheckAcceptsReferenceSourceHealth(t *testing.T) {
	for _, h := range SourceHealths[1:] {
		d := tinyState(t)
		var s Source
		must(t, d.ReadJSON(SourcePath(tinySource), &s))
		s.Health, s.Problem = h, ptrTo("why, in words")
		must(t, d.WriteJSON(SourcePath(tinySource), s))
		for _, p := range d.Check() {
			if p.Path == SourcePath(tinySource) && strings.Contains(p.Message, "health") {
				t.Errorf("%s: %s", h, p)
			}
		}
	}
}

func ptrTo(s string) *string { return &s }

// snapshotFiles reads every file under the state root, by relative path.
func snapshotFiles(t *testing.T, d *Dir) map[string]string {
	t.Helper()
	out := map[string]string{}
	must(t, filepath.WalkDir(d.Root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	}))
	return out
}

func equalFiles(a, b map[string]string) bool { return maps.Equal(a, b) }
