package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// checkIndex: the held site index hashes to index_sha256, or to pending_sha256 while a
// replacement is pending.
func (c *checker) checkIndex(site string, o Origin) {
	idx := OriginIndexPath(site)
	b, err := c.d.readInto(&c.buf, idx, MaxHeldBytes)
	recorded := deref(o.IndexSHA256)
	switch {
	case err == nil:
		c.indexSums[site] = Digest(b)
		c.heldMatches(idx, OriginFile+" records", "index_sha256", Digest(b), recorded, deref(o.PendingSHA256), IndexDigest, IndexDigest)
	case !errors.Is(err, fs.ErrNotExist):
		c.add(Unreadable, idx, "cannot be read: %s", readErrorWords(err))
	case recorded != "":
		c.add(IndexMissing, idx, "is missing, but origin.json records index_sha256 %s", recorded)
	}
}

// heldMatches reports whether the held bytes at rel, hashing to got, are the recorded or the
// pending ones; otherwise it reports unrecorded or mismatch.
func (c *checker) heldMatches(rel, records, field, got, recorded, pending string, unrecorded, mismatch Kind) bool {
	switch {
	case recorded == "" && pending == "":
		c.add(unrecorded, rel, "is held but %s no %s", records, field)
	case got == recorded, pending != "" && got == pending:
		return true
	case pending != "":
		c.add(mismatch, rel, "hashes to %s, but %s %s %q and pending_sha256 %s", got, records, field, recorded, pending)
	default:
		c.add(mismatch, rel, "hashes to %s, but %s %s %s", got, records, field, recorded)
	}
	return false
}

// checkManifest: the held bytes hash to ingested_sha256 (or pending_sha256) and are a manifest
// of the claim's project.
func (c *checker) checkManifest(project, site string, cl Claim) {
	mrel := ManifestPath(project, site)
	b, err := c.d.readInto(&c.buf, mrel, MaxHeldBytes)
	pending := deref(cl.PendingSHA256)
	if cl.PendingSHA256 != nil && !hexDigest.MatchString(pending) {
		c.add(BadValue, ClaimPath(project, site), "pending_sha256 %q is not a SHA-256 digest", pending)
	}
	ingested := cl.Ingested()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.add(Unreadable, mrel, "cannot be read: %s", readErrorWords(err))
		return
	}
	if err != nil {
		if ingested != "" {
			c.add(ManifestMissing, mrel, "is missing, but claim.json records ingested_sha256 %s", ingested)
		}
		return
	}
	got := Digest(b)
	c.manSums[project+"/"+site] = got
	ok := c.heldMatches(mrel, ClaimFile+" records", "ingested_sha256", got, ingested, pending, ManifestUnrecorded, ManifestDigest)
	if ingested == "" && pending == "" {
		return
	}
	m := c.manifest(mrel, project, b)
	if ok && m != nil && c.render {
		c.manifests[project+"/"+site] = m
	}
	// Held to the schema in the full scope only (the build reads past it).
	if ok && m != nil && !c.render {
		if msg := manifestSchemaProblem(b); msg != "" {
			c.add(BadValue, mrel, "%s", msg)
		}
	}
}

// manifest decodes held manifest bytes as the network model does and checks they describe
// project; nil when they do not.
func (c *checker) manifest(rel, project string, b []byte) *protocol.Manifest {
	var m protocol.Manifest
	if n := bytes.Count(b, []byte(`"artifacts"`)); n > 0 { // one a release; decoding grows by one
		m.Releases = make([]protocol.Release, 0, min(n, 64))
	}
	err := json.Unmarshal(b, &m)
	if len(m.Releases) == 0 && cap(m.Releases) > 0 { // no releases key ([] makes a new slice)
		m.Releases = nil
	}
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		c.add(ManifestContent, rel, "is not JSON: %v", err)
		return nil
	case err != nil:
		c.add(ManifestContent, rel, "does not parse as a project manifest: %v", err)
		return nil
	case m.Document != protocol.DocProject:
		c.add(ManifestContent, rel, "has document %q, not %q", m.Document, protocol.DocProject)
		return nil
	case m.Project.ID != project:
		c.add(ManifestContent, rel, "describes project %q, not the claim's project %s", m.Project.ID, project)
		return nil
	}
	return &m
}

// checkMedia: every cached image is named by the digest of its bytes (full scope only).
func (c *checker) checkMedia() {
	if c.render {
		return
	}
	for _, f := range c.mediaFiles {
		rel := MediaDir + "/" + f
		b, err := c.d.ReadBytes(rel)
		if err != nil {
			c.add(Unreadable, rel, "cannot be read: %s", readErrorWords(err))
			continue
		}
		if _, p := MediaProblem(rel, b); p != nil {
			c.out = append(c.out, *p)
		}
	}
}
