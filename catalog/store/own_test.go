package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// fullClaim is a claim holding every extra this index keeps beside a claim record.
func fullClaim() Claim {
	d := strings.Repeat("a", 64)
	e := strings.Repeat("e", 64)
	file := "media/" + d + ".png"
	return Claim{
		Project: "00000000-0000-4000-8000-000000000001", Origin: "a-example-00000000",
		AdvertisedSHA256: d, IngestedSHA256: &d, PendingSHA256: &e,
		Validators: Validators{ETag: `"x"`, LastModified: "Wed, 30 Sep 2026 19:57:46 GMT"},
		Rejected:   &Rejected{SHA256: e, Crawler: "0.1.0", Problem: "too big", Health: ClaimRefused},
		Health:     ClaimCurrent, Media: &Media{URL: "https://a.example/i.png", Alt: "i", File: &file, Definitive: true},
		FirstObserved: "2026-10-10T00:00:00Z", LastAttempt: "2026-10-10T00:00:00Z",
		Findings: []Finding{{Kind: "schema", At: "/colour", Words: "unknown field \"{1}\"", Quotes: []string{"colour"}}, {Kind: "digest", Words: "the digest differs"}},
	}
}

// A record writes in the reference's shape and its extras in its own file; reading both gives
// the record back whole; the own file goes when nothing is left in it.
func TestOwnFileRoundTrip(t *testing.T) {
	d := Open(t.TempDir())
	c := fullClaim()
	rel := ClaimPath(c.Project, c.Origin)
	must(t, d.WriteJSON(rel, c))
	rec, err := d.ReadBytes(rel)
	must(t, err)
	for _, k := range []string{"pending_sha256", "validators", "definitive", "health\": \"refused", "findings"} {
		if strings.Contains(string(rec), k) {
			t.Errorf("claim.json holds %s:\n%s", k, rec)
		}
	}
	ownRel, ok := OwnPath(rel)
	if !ok || ownRel != "ashyams-go/"+rel {
		t.Fatalf("OwnPath(%s) = %s, %v", rel, ownRel, ok)
	}
	if !strings.Contains(string(mustRead(t, d, ownRel)), `"record_sha256": "`+Digest(rec)+`"`) {
		t.Errorf("the own file is not bound to the record's bytes:\n%s", mustRead(t, d, ownRel))
	}
	var back Claim
	must(t, d.ReadJSON(rel, &back))
	if !reflect.DeepEqual(back, c) {
		t.Errorf("read back %+v\nwant %+v", back, c)
	}

	plain := c
	plain.PendingSHA256, plain.Validators, plain.Findings = nil, Validators{}, nil
	plain.Rejected = &Rejected{SHA256: c.Rejected.SHA256, Crawler: "0.1.0", Problem: "too big"}
	plain.Media = &Media{URL: c.Media.URL, Alt: c.Media.Alt, File: c.Media.File}
	must(t, d.WriteJSON(rel, plain))
	if d.Exists(ownRel) {
		t.Errorf("%s stays with nothing in it", ownRel)
	}
	must(t, d.WriteJSON(rel, c))
	must(t, d.Remove(rel))
	if d.Exists(ownRel) || d.Exists(rel) {
		t.Error("Remove left the record or its own file")
	}
}

// An own file bound to other record bytes (the reference rewrote the record) adds nothing; an
// own file that does not parse is an error naming it; a record as an earlier build of this
// index wrote it, with the extras inside, does not read until Migrate rewrites it.
func TestOwnFileStaleBrokenLegacy(t *testing.T) {
	d := Open(t.TempDir())
	c := fullClaim()
	rel := ClaimPath(c.Project, c.Origin)
	ownRel, _ := OwnPath(rel)
	must(t, d.WriteJSON(rel, c))
	rec := mustRead(t, d, rel)
	later := strings.Replace(string(rec), `"last_attempt": "2026-10-10T00:00:00Z"`, `"last_attempt": "2026-10-10T06:00:00Z"`, 1)
	must(t, os.WriteFile(d.Path(rel), []byte(later), 0o644))
	var got Claim
	must(t, d.ReadJSON(rel, &got))
	if got.PendingSHA256 != nil || got.Validators != (Validators{}) || got.Findings != nil || got.Media.Definitive || got.Rejected.Health != "" {
		t.Errorf("a stale own file applied: %+v", got)
	}

	must(t, os.WriteFile(d.Path(ownRel), []byte(`{"record_sha256": "x", "colour": 1}`), 0o644))
	if err := d.ReadJSON(rel, &got); err == nil || !strings.Contains(err.Error(), ownRel+": ") || !strings.Contains(err.Error(), `unknown field "colour"`) {
		t.Errorf("a broken own file: %v", err)
	}

	must(t, os.RemoveAll(filepath.Join(d.Root, OwnDir)))
	legacy := strings.Replace(later, `"rejected": {`, `"pending_sha256": "`+strings.Repeat("e", 64)+`",
  "validators": {"etag": "\"x\""},
  "rejected": {`, 1)
	legacy = strings.Replace(legacy, `"problem": "too big"`, `"problem": "too big", "health": "refused"`, 1)
	legacy = strings.Replace(legacy, `"problem": null
  },`, `"problem": null, "definitive": true
  },`, 1)
	must(t, os.WriteFile(d.Path(rel), []byte(legacy), 0o644))
	if err := d.ReadJSON(rel, &Claim{}); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("a record in the earlier format read: %v", err)
	}
	moved, err := d.Migrate(d.Check())
	must(t, err)
	if !slices.Equal(moved, []string{rel}) {
		t.Errorf("Migrate rewrote %v, want %s", moved, rel)
	}
	got = Claim{}
	must(t, d.ReadJSON(rel, &got))
	if got.PendingSHA256 == nil || got.Validators.ETag != `"x"` || !got.Media.Definitive || got.Rejected.Health != ClaimRefused {
		t.Errorf("the earlier build's keys were not migrated: %+v", got)
	}
	if b := mustRead(t, d, rel); strings.Contains(string(b), "definitive") || strings.Contains(string(b), "validators") || !d.Exists(ownRel) {
		t.Errorf("migrated, the record still holds the earlier build's keys:\n%s", b)
	}
	// A record with a key no build wrote is left for Check to report.
	must(t, os.WriteFile(d.Path(rel), []byte(strings.Replace(legacy, `"validators"`, `"colour": 1, "validators"`, 1)), 0o644))
	if moved, err := d.Migrate(d.Check()); err != nil || len(moved) != 0 {
		t.Errorf("Migrate rewrote %v (%v) holding an unknown key", moved, err)
	}
}

func mustRead(t *testing.T, d *Dir, rel string) []byte {
	t.Helper()
	b, err := d.ReadBytes(rel)
	must(t, err)
	return b
}

// The reference's save removes a record it no longer names and leaves the own file beside it
// (it does not know ashyams-go/): Tidy, which a refresh runs first, removes that orphan and
// keeps every own file whose record is there.
func TestTidyRemovesOrphanOwnFiles(t *testing.T) {
	d := Open(t.TempDir())
	c := fullClaim()
	rel := ClaimPath(c.Project, c.Origin)
	must(t, d.WriteJSON(rel, c))
	other := c
	other.Origin = "b-example-00000000"
	otherRel := ClaimPath(other.Project, other.Origin)
	must(t, d.WriteJSON(otherRel, other))
	must(t, d.WriteJSON(NetworkFile, Network{Format: Format, Crawler: "test", ObservedAt: "2026-10-10T00:00:00Z"}))
	must(t, os.Remove(d.Path(otherRel)))
	removed, err := d.Tidy()
	must(t, err)
	ownOther, _ := OwnPath(otherRel)
	ownRel, _ := OwnPath(rel)
	if !slices.Contains(removed, ownOther) || slices.Contains(removed, ownRel) || d.Exists(ownOther) {
		t.Errorf("Tidy removed %v, want %s among them and not %s", removed, ownOther, ownRel)
	}
	if !d.Exists(ownRel) || !d.Exists(OwnReadmePath) {
		t.Error("Tidy removed an own file whose record is there, or the README")
	}
}

// One recordDecoder reading records in turn decodes each as a fresh decoder does: the same
// value and the same error, whatever the record before it left (a refusal, a trailing '}').
func TestRecordDecoderInTurn(t *testing.T) {
	records := []string{
		`{"id":"a","kind":"observed"}`,
		"{\"id\":\"b\"}\n\n",
		`{"id":"c"}}`,
		`{"id":"d"}]`,
		`{"id":"e"} {"id":"f"}`,
		`{"id":"g","colour":"red"}`,
		`{"id":"h"`,
		``,
		" \n",
		`{"id":`,
		`[1]`,
		`{"id":"i"} x`,
		`{"id":1}`,
	}
	decode := func(rd *recordDecoder, rec string) string {
		var e Event
		err := rd.decode([]byte(rec), &e)
		return fmt.Sprintf("%+v %v", e, err)
	}
	for _, first := range records {
		for _, second := range records {
			rd := &recordDecoder{}
			decode(rd, first)
			if got, want := decode(rd, second), decode(&recordDecoder{}, second); got != want {
				t.Errorf("%q after %q: %s, alone %s", second, first, got, want)
			}
		}
	}
	// In turn, and from the start again, every record decodes as it does alone.
	rd := &recordDecoder{}
	for _, rec := range append(records, records...) {
		if got, want := decode(rd, rec), decode(&recordDecoder{}, rec); got != want {
			t.Errorf("%q in turn: %s, alone %s", rec, got, want)
		}
	}
}

// The held manifest the render keeps is what json.Unmarshal makes of its bytes, releases
// sized ahead or not: nil when the key is absent or null, empty when [], each release whole.
func TestCheckerManifestAsUnmarshal(t *testing.T) {
	const id = "00000000-0000-4000-8000-000000000001"
	head := `{"document":"project","project":{"id":"` + id + `"}`
	rel := `{"version":"1.0.%d","artifacts":[{"id":"main"}],"provides":["artifacts"]}`
	var many []string
	for i := range 70 {
		many = append(many, fmt.Sprintf(rel, i))
	}
	for _, releases := range []string{
		``,
		`,"releases":null`,
		`,"releases":[]`,
		`,"releases":[` + fmt.Sprintf(rel, 0) + `]`,
		`,"releases":[` + strings.Join(many[:3], ",") + `]`,
		`,"releases":[` + strings.Join(many, ",") + `]`,
		`,"extensions":{"artifacts":1},"releases":[]`,
	} {
		b := []byte(head + releases + `}`)
		var want protocol.Manifest
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got := (&checker{}).manifest("m.json", id, b)
		if got == nil || !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: %+v, want %+v", releases, got, want)
		}
	}
}
