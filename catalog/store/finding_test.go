package store

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// TestQuotingKnownValues: each known value in a problem becomes a slot, left to right, the
// longer of two at one place; the words keep none of them and Text says the problem again.
func TestQuotingKnownValues(t *testing.T) {
	u := "http://a.example/m.json"
	f := Quoting(ClaimInconsistent, "the manifest served at "+u+" hashes to abc, but the site index advertises abcd", u, "abc", "abcd", "absent")
	if f.Words != "the manifest served at {1} hashes to {2}, but the site index advertises {3}" {
		t.Errorf("words %q", f.Words)
	}
	if strings.Join(f.Quotes, " ") != u+" abc abcd" {
		t.Errorf("quotes %q", f.Quotes)
	}
	if got := f.Text(); got != "the manifest served at "+u+" hashes to abc, but the site index advertises abcd" {
		t.Errorf("text %q", got)
	}
	if f := Quoting("k", "no values here"); f.Words != "no values here" || f.Quotes != nil {
		t.Errorf("got %+v", f)
	}
}

// TestSegmentsSetQuotesApart: a finding's segments alternate the index's words and the
// quotations, and a publisher's value that looks like a slot stays a quotation.
func TestSegmentsSetQuotesApart(t *testing.T) {
	f := Finding{Kind: "pattern", At: "/a", Words: `field "{1}" is {2}`, Quotes: []string{"a", "{1}"}}
	segs, q := f.Segments()
	if strings.Join(segs, "|") != `field "|a|" is |{1}` || len(q) != 4 || q[0] || !q[1] || q[2] || !q[3] {
		t.Errorf("segments %q %v", segs, q)
	}
	if f.Text() != `/a: field "a" is {1}` {
		t.Errorf("text %q", f.Text())
	}
}

// TestFindingsOfKeepsEveryFinding: every protocol finding is kept, in order, with its rule,
// pointer, words and quotations.
func TestFindingsOfKeepsEveryFinding(t *testing.T) {
	_, fs := protocol.ValidateManifest([]byte(`{"schema_version":"2","document":"project","colour":1,"size":1.5}`), "")
	got := FindingsOf(fs)
	if len(got) != len(fs) || len(got) < 2 {
		t.Fatalf("%d findings kept of %d", len(got), len(fs))
	}
	for i, f := range fs {
		if got[i].Kind != f.Rule || got[i].At != f.Pointer || got[i].Words != f.Words || strings.Join(got[i].Quotes, "\x00") != strings.Join(f.Quotes, "\x00") {
			t.Errorf("finding %d: %+v from %+v", i, got[i], f)
		}
	}
	if FindingsOf(nil) != nil {
		t.Error("no findings should keep nil")
	}
}
