package store

import (
	"path"
	"strconv"
	"strings"
)

// Problem is one broken invariant of the state: the record's path (slash-separated, "" for the
// state itself), its Kind and what is wrong, in words. Check is the one place that words an
// invariant.
type Problem struct {
	Path    string
	Kind    Kind
	Message string
}

// String is "path: message", or the message alone for the state directory itself.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Kind says which invariant of seeds/state.txt ("Recovery") a Problem breaks.
type Kind uint8

// The kinds of Problem. Each Problem has exactly one.
const (
	// NoState: the state directory is missing, cannot be read or is not a directory.
	NoState Kind = iota + 1
	// Leftover: a temporary file, or a directory holding nothing else, that an interrupted
	// write left. Load ignores it and Tidy removes it.
	Leftover
	// Stray: a name that is not part of the layout (seeds/state.txt, "Layout").
	Stray
	// Unreadable: a record that is missing, cannot be read or does not parse, or a directory
	// that cannot be listed.
	Unreadable
	// BadValue: a field outside its form (a time, a digest, network.json's format or crawler,
	// a media path, a health that records no problem, an event kind), or network.json missing
	// beside records.
	BadValue
	// HealthWord: a health written as the words of the seeds/state.txt table instead of its
	// token. The network model reads it as the token.
	HealthWord
	// UnknownHealth: a health that is neither a token nor the words of one.
	UnknownHealth
	// Misnamed: a name its facts do not give (a source file, a site directory, an entry id).
	Misnamed
	// Misplaced: a record whose own id, project or origin is not the directory it sits in.
	Misplaced
	// NoOrigin: a claim whose site has no origin record.
	NoOrigin
	// Dangling: any other reference that does not resolve (a source's origin, an origin's
	// sources, claim.moved_to and moved_from).
	Dangling
	// TrailMismatch: a resolved source whose trail never reached its origin's index_url.
	TrailMismatch
	// Unwithdrawn: a claim still in the catalog whose site only removed sources led to.
	Unwithdrawn
	// IndexMissing: origin.json records index_sha256 but dreamweave.json is missing.
	IndexMissing
	// IndexDigest: the held dreamweave.json hashes to neither index_sha256 nor
	// pending_sha256, or is held with no digest recorded.
	IndexDigest
	// ManifestMissing: claim.json records ingested_sha256 but manifest.json is missing.
	ManifestMissing
	// ManifestDigest: the held manifest.json hashes to neither ingested_sha256 nor
	// pending_sha256.
	ManifestDigest
	// ManifestUnrecorded: manifest.json is held while claim.json records no digest for it.
	ManifestUnrecorded
	// ManifestContent: the held manifest.json is not a manifest of the claim's project.
	ManifestContent
	// StaleCurrent: a current claim holding another manifest than the advertised one, with no
	// pending_sha256.
	StaleCurrent
	// EventIDMismatch: an event id that is not EventID of its own facts.
	EventIDMismatch
	// EventMisnamed: an event file whose name is not its id.
	EventMisnamed
	// MediaMissing: a cached image a claim names that media/ lacks; a copy of the state may
	// leave images out, and a refresh fetches them again.
	MediaMissing
	// MediaDigest: a file in media/ whose bytes do not hash to its name.
	MediaDigest
)

var kindNames = [...]string{
	NoState: "no-state", Leftover: "leftover", Stray: "stray", Unreadable: "unreadable",
	BadValue: "bad-value", HealthWord: "health-word", UnknownHealth: "unknown-health",
	Misnamed: "misnamed", Misplaced: "misplaced", NoOrigin: "no-origin", Dangling: "dangling",
	TrailMismatch: "trail-mismatch", Unwithdrawn: "unwithdrawn", IndexMissing: "index-missing",
	IndexDigest: "index-digest", ManifestMissing: "manifest-missing", ManifestDigest: "manifest-digest",
	ManifestUnrecorded: "manifest-unrecorded", ManifestContent: "manifest-content",
	StaleCurrent: "stale-current", EventIDMismatch: "event-id-mismatch", EventMisnamed: "event-misnamed",
	MediaMissing: "media-missing", MediaDigest: "media-digest",
}

// String is the kind's short name ("manifest-digest"); "kind(N)" for an unknown value.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// LeftoverMessage is the message of every Problem of kind Leftover.
const LeftoverMessage = "leftover from an interrupted write (a refresh stopped before renaming it into place); the next `ashyams refresh` removes it"

// MediaProblem returns the digest of the cached image b at rel, and a MediaDigest Problem when
// the file's name gives another.
func MediaProblem(rel string, b []byte) (string, *Problem) {
	got := Digest(b)
	if stem, _, _ := strings.Cut(path.Base(rel), "."); got != stem {
		return got, &Problem{Path: rel, Kind: MediaDigest, Message: "hashes to " + got + ", not the digest its name gives"}
	}
	return got, nil
}
