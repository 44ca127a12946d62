package protocol

import (
	"errors"
	"strings"
	"testing"
)

// checkWords fails unless f's Words and Quotes say exactly its Message (each slot refilled
// with its quotation as the message quotes it) and no quotation of three characters or more
// is left inside the words (a plain lowercase word such as a field name "version" may also
// be one of the index's words, so only quotations with another character are looked for).
func checkWords(t *testing.T, f Finding) {
	t.Helper()
	if got := leafPhrase(f).String(); got != f.Message {
		t.Errorf("finding at %s [%s]: words %q with quotes %q say\n  %s\nnot its message\n  %s", f.Pointer, f.Rule, f.Words, f.Quotes, got, f.Message)
	}
	for _, q := range f.Quotes {
		if len(q) >= 3 && strings.Trim(q, "abcdefghijklmnopqrstuvwxyz_") != "" && strings.Contains(f.Words, q) {
			t.Errorf("finding at %s [%s]: the quotation %q is still in the words %q", f.Pointer, f.Rule, q, f.Words)
		}
	}
}

// TestWordsKeepPublisherTextApart: faults of every kind of message (schema: unknown field,
// pattern, format, oneOf; rules: id, digest, version, constraint, namespace, status, heads,
// duplicate key, number range, newer protocol, index order and duplicate id) give findings
// whose words hold slots where the message quotes the document, the values in Quotes.
func TestWordsKeepPublisherTextApart(t *testing.T) {
	for i, src := range trees(t, candlelight) {
		t.Run(src.name, func(t *testing.T) { wordsApart(t, func(rel string) any { return trees(t, rel)[i].tree }) })
	}
}

// wordsApart is TestWordsKeepPublisherTextApart on the documents tree gives, fresh each call.
func wordsApart(t *testing.T, tree func(rel string) any) {
	var all []Finding
	v := tree(candlelight)
	obj(v, "/project")["homepage"] = "https://example.org/"
	obj(v, "/releases/2")["version"] = "1.0.0.0.0.0.0"
	obj(v, "/releases/2")["deprecated"] = map[string]any{"reason": "old"}
	obj(v, "/releases/0/runtimes")["openmw"] = ">=0.49, ~0.50"
	entry := IndexEntry{ID: "4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90", Manifest: "projects/x.json", ManifestSHA256: strings.Repeat("0", 64)}
	_, fs := ValidateForEntry(encode(nil, v), entry, "")
	all = append(all, fs...)
	unknown := find(fs, "/project/homepage", "additionalProperties")
	if unknown == nil || len(unknown.Quotes) == 0 || unknown.Quotes[0] != "homepage" || strings.Contains(unknown.Words, "homepage") {
		t.Errorf("the unknown field's name is not kept apart: %+v", unknown)
	}
	sha := find(fs, "", RuleManifestSHA256)
	if sha == nil || !contains(sha.Quotes, "projects/x.json") || !contains(sha.Quotes, strings.Repeat("0", 64)) {
		t.Errorf("the digest finding does not quote the entry's manifest URL and digest apart: %+v", sha)
	}

	v = tree(candlelight)
	obj(v, "/releases/0/runtimes")["openmw"] = ">=0.49, >=x"
	obj(v, "/project")["id"] = "0e7eb278-83f7-48e6-b938-25d306e84c41"
	_, fs = ValidateForEntry(encode(nil, v), entry, "")
	all = append(all, fs...)
	id := find(fs, "/project/id", RuleIDMatch)
	if id == nil || len(id.Quotes) != 2 || id.Quotes[0] != "0e7eb278-83f7-48e6-b938-25d306e84c41" || id.Quotes[1] != entry.ID {
		t.Errorf("the id finding does not quote both ids apart: %+v", id)
	}

	for _, doc := range []string{
		`{"schema_version":"3","document":"project"}`,
		`{"schema_version":"2","document":"thing"}`,
		`{"schema_version":"2","document":"project","document":"index"}`,
		`{"schema_version":"2","document":"project","size":1e999}`,
	} {
		_, fs := ValidateManifest([]byte(doc), "")
		all = append(all, fs...)
	}
	ix := tree(stashIndex)
	p := arr(ix, "/projects")
	p[0], p[1] = p[1], p[0]
	_, fs = ValidateIndex(encode(nil, ix))
	all = append(all, fs...)
	if len(all) < 10 {
		t.Fatalf("only %d findings; the faults above should give more", len(all))
	}
	for _, f := range all {
		checkWords(t, f)
	}
}

// TestQuotingFindsKnownValues: a catalog/version error names the value it refused; quoting
// makes each known value a quotation and leaves the rest as words, % included.
func TestQuotingFindsKnownValues(t *testing.T) {
	ph := constraintText(errors.New(`constraint ">=1, ~2%": comparator "~2%" has no operator`), ">=1, ~2%")
	m, w, q := say("%s", ph)
	if m != `constraint ">=1, ~2%": comparator "~2%" has no operator` {
		t.Errorf("message changed: %s", m)
	}
	if w != `constraint "{1}": comparator "{2}" has no operator` || len(q) != 2 || q[0] != ">=1, ~2%" || q[1] != "~2%" {
		t.Errorf("words %q quotes %q", w, q)
	}
	if m, w, q := say("%s", quoting("nothing quoted 100%", "absent")); m != "nothing quoted 100%" || w != m || q != nil {
		t.Errorf("text without the value: %q %q %q", m, w, q)
	}
}

// TestForSlotsBraces: only "{digits}" with a number from 1 is a slot; other braces are words.
func TestForSlotsBraces(t *testing.T) {
	var got []string
	ForSlots(`a {1} b {x} {0} {} {12`, func(text string, n int) {
		got = append(got, text, string(rune('0'+n)))
	})
	if strings.Join(got, "|") != `a |1| b {x} {0} {} {12|0` {
		t.Errorf("got %q", got)
	}
}

func find(fs []Finding, ptr, rule string) *Finding {
	for i := range fs {
		if fs[i].Pointer == ptr && fs[i].Rule == rule {
			return &fs[i]
		}
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
