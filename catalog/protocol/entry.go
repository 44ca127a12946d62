package protocol

import (
	"crypto/sha256"
	"encoding/hex"
)

// ValidateForEntry validates b as the manifest a site index entry points at, with every check
// the crawler makes (SPEC section 1): b hashes to entry.ManifestSHA256, is a valid manifest,
// and its project.id is entry.ID. where names the entry in messages ("<index> /projects/<n>");
// "" says "the index entry". The manifest is returned once it passed the schema.
func ValidateForEntry(b []byte, entry IndexEntry, where string) (*Manifest, []Finding) {
	e := entryWant{id: entry.ID, manifest: entry.Manifest, sha256: entry.ManifestSHA256, where: where, checkSHA: true}
	d, fs := decode(b, DocProject, e)
	if f, ok := e.shaFinding(b); ok {
		fs = printableFindings(sortFindings(append(fs, f)))
	}
	if d == nil {
		return nil, fs
	}
	return d.Manifest, fs
}

// entryWant is what the index entry pointing at a manifest expects; zero expects nothing.
type entryWant struct {
	id       string // the entry's id; "" skips RuleIDMatch
	manifest string // the entry's manifest URL, for messages
	sha256   string // the entry's manifest_sha256 (checkSHA)
	where    string // "<index> /projects/<n>", or ""
	checkSHA bool
}

func (e entryWant) idFinding(m *Manifest) (Finding, bool) {
	if e.id == "" || m.Project.ID == e.id {
		return Finding{}, false
	}
	format := "project.id %q differs from the id %q of the index entry that points at this manifest%s"
	where := ""
	if e.where != "" {
		where = " (" + e.where + ")"
	}
	return found("/project/id", RuleIDMatch, format, pub(m.Project.ID), pub(e.id), where), true
}

func (e entryWant) shaFinding(b []byte) (Finding, bool) {
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	if !e.checkSHA || got == e.sha256 {
		return Finding{}, false
	}
	where := e.where
	if where == "" {
		where = "the index entry"
	}
	return found("", RuleManifestSHA256, "the manifest's bytes hash to %s, but %s (%s) advertises manifest_sha256 %s", got, where, pub(e.manifest), pub(e.sha256)), true
}
