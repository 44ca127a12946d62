package discover

import (
	"net/http"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
)

func resp(body, contentType string) *guard.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &guard.Response{Status: 200, Header: h, Body: []byte(body)}
}

// Sniffing reads documents with the protocol's strict decoder: a body that looks like JSON and
// is not well-formed is KindMalformed with the findings, never a kind guessed from its fields.
func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		body, ct, kind, rule string
	}{
		{indexDoc, "application/json", KindIndex, ""},
		{manifestDoc, "", KindProject, ""},
		{`{"schema_version": "3", "document": "index"}`, "application/json", KindIndex, ""}, // newer protocol: still the index, reported as such
		{`{"schema_version": 2, "document": "index"}`, "application/json", KindIndex, ""},   // a type error the index's validation reports
		{`{"hello": "world"}`, "application/json", KindOther, ""},
		{`[1, 2]`, "text/plain", KindOther, ""},
		{`{"schema_version": "2", "document": "index", "document": "project"}`, "application/json", KindMalformed, "duplicate-key"},
		{`{"schema_version": "2", "document": "project", "document": "index"}`, "text/html", KindMalformed, "duplicate-key"},
		{"\ufeff" + indexDoc, "application/json", KindMalformed, "json-syntax"},
		{indexDoc[:40], "application/json", KindMalformed, "json-syntax"},
		{"not json at all", "application/vnd.dreamweave.index+json", KindMalformed, "json-syntax"},
		{"{\"a\": \"\xff\"}", "", KindMalformed, "utf8"},
		{"<!doctype html><title>x</title>", "text/html; charset=utf-8", KindPage, ""},
		{"<!doctype html><title>x</title>", "", KindPage, ""},
		{"plain words", "text/plain", KindOther, ""},
	} {
		kind, fs := sniff(resp(tc.body, tc.ct))
		if kind != tc.kind {
			t.Errorf("%.50q (%s): kind %q, want %q", tc.body, tc.ct, kind, tc.kind)
		}
		if tc.rule == "" && fs != nil || tc.rule != "" && (len(fs) == 0 || fs[0].Rule != tc.rule) {
			t.Errorf("%.50q: findings %v, want rule %q", tc.body, fs, tc.rule)
		}
	}
}

// FuzzSniff: sniffing any body never panics, is deterministic, and gives findings exactly for
// KindMalformed.
func FuzzSniff(f *testing.F) {
	f.Add([]byte(indexDoc), "application/json")
	f.Add([]byte(manifestDoc), "")
	f.Add([]byte(`{"document": "index", "document": "project", "schema_version": "2"}`), "application/json")
	f.Add([]byte("\ufeff{}"), "")
	f.Add([]byte("<html><head><link rel=alternate></head>"), "text/html")
	f.Fuzz(func(t *testing.T, body []byte, ct string) {
		kind, fs := sniff(resp(string(body), ct))
		again, fs2 := sniff(resp(string(body), ct))
		if kind != again || len(fs) != len(fs2) {
			t.Fatalf("not deterministic: %q %v then %q %v", kind, fs, again, fs2)
		}
		switch kind {
		case KindMalformed:
			if len(fs) == 0 {
				t.Fatal("malformed without findings")
			}
			for _, f := range fs {
				if !inputRules[f.Rule] || strings.TrimSpace(f.Message) == "" {
					t.Fatalf("finding %+v is not about the bytes", f)
				}
			}
		case KindIndex, KindProject, KindPage, KindOther:
			if fs != nil {
				t.Fatalf("%s with findings %v", kind, fs)
			}
		default:
			t.Fatalf("kind %q", kind)
		}
	})
}
