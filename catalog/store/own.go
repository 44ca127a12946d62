package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// OwnDir is the top-level directory of this index's own files: what it keeps about a record
// beyond the reference index's fields (FORMATS sections 1.1-1.6), so every record file stays
// in the reference's exact shape and both indexes read the same state. The reference's loader
// reads sources/, origins/, claims/, events/ and media/ and its save prunes only inside
// sources/, origins/, claims/ and media/, so it neither reads nor removes this directory.
//
// Each own file mirrors its record's path (OwnPath): ashyams-go/network.json,
// ashyams-go/sources/<source>.json, ashyams-go/origins/<site>/origin.json and
// ashyams-go/claims/<project>/<site>/claim.json. It holds the SHA-256 of the record bytes it
// was written beside ("record_sha256") and applies only while the record still has exactly
// those bytes: a record the reference index rewrote (its last_attempt changes on every
// refresh) makes its own file stale, and a stale or missing own file reads as "nothing more".
// Losing these files loses only conveniences (validators, pending digests, the last refresh's
// health changes and interruption, remembered media refusals, structured findings); the next
// refresh rebuilds them (OwnReadme says so in the state).
const OwnDir = "ashyams-go"

// OwnReadmePath is the README of OwnDir, rewritten by every refresh (with network.json).
const OwnReadmePath = OwnDir + "/README.md"

// OwnReadme is the fixed text of OwnReadmePath.
const OwnReadme = `# ashyams-go: this index's own files

The records outside this directory are in the reference index's exact shape, so the Rust
AsHyAmS and AsHyAmS-go both read and continue this state. What only AsHyAmS-go keeps about
a record lives here, at the record's own path (ashyams-go/claims/<project>/<site>/claim.json
extends claims/<project>/<site>/claim.json), with the SHA-256 of the record bytes it was
written beside. Once the record changes (a refresh by either index) the file no longer
applies.

Nothing here is needed to read the state. Deleting this directory loses only conveniences:
HTTP validators (the next fetch is unconditional), the last refresh's health changes and
interruption record, remembered card-image refusals (tried again), pending-write digests and
structured findings. The next refresh by AsHyAmS-go rebuilds them.
`

// OwnPath is the path of the own file extending the record at rel (OwnDir + "/" + rel), and
// whether rel is a record that has one: network.json, a source, an origin or a claim record.
func OwnPath(rel string) (string, bool) {
	parts := strings.Split(rel, "/")
	switch {
	case rel == NetworkFile,
		len(parts) == 2 && parts[0] == SourcesDir && strings.HasSuffix(parts[1], ".json"),
		len(parts) == 3 && parts[0] == OriginsDir && parts[2] == OriginFile,
		len(parts) == 4 && parts[0] == ClaimsDir && parts[3] == ClaimFile:
		return OwnDir + "/" + rel, true
	}
	return "", false
}

// Finding is one problem a read found, structured for pages and tools: which kind (a token a
// reader groups by: a protocol rule or JSON Schema keyword, or the claim or site health of a
// read that failed), where in the document (a JSON pointer of the publisher's keys, "" for the
// document or none), the index's words, and the publisher's text the words quote, apart:
// Words holds a slot "{n}" (protocol.ForSlots) where it quotes Quotes[n-1]. A read can find
// several: every one is kept, in the order found, in the own file of the record the read
// wrote (Source, Origin and Claim Findings), beside the record's one problem string.
type Finding struct {
	Kind   string   `json:"kind"`
	At     string   `json:"at,omitempty"`
	Words  string   `json:"words"`
	Quotes []string `json:"quotes,omitempty"`
}

// FindingsOf are protocol findings as a record keeps them, in their order.
func FindingsOf(fs []protocol.Finding) []Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]Finding, len(fs))
	for i, f := range fs {
		out[i] = Finding{Kind: f.Rule, At: f.Pointer, Words: f.Words, Quotes: f.Quotes}
	}
	return out
}

// Quoting is a finding of kind whose words are text with each occurrence of a known value
// (a URL, a digest the read was given) a slot: the values are known, nothing is looked for by
// its shape. A value that does not occur is not quoted.
func Quoting(kind, text string, values ...string) Finding {
	f := Finding{Kind: kind}
	var b strings.Builder
	for rest := text; ; {
		best, at := -1, -1
		for i, v := range values {
			if j := strings.Index(rest, v); v != "" && j >= 0 && (at < 0 || j < at || j == at && len(v) > len(values[best])) {
				best, at = i, j
			}
		}
		if at < 0 {
			b.WriteString(rest)
			break
		}
		f.Quotes = append(f.Quotes, values[best])
		b.WriteString(rest[:at] + "{" + strconv.Itoa(len(f.Quotes)) + "}")
		rest = rest[at+len(values[best]):]
	}
	f.Words = b.String()
	return f
}

// Segments splits the finding's words for display: the index's words, and each quotation
// where its slot is (quoted[i] true); a slot with no quotation is dropped.
func (f Finding) Segments() (segs []string, quoted []bool) {
	protocol.ForSlots(f.Words, func(text string, n int) {
		if text != "" {
			segs, quoted = append(segs, text), append(quoted, false)
		}
		if n > 0 && n <= len(f.Quotes) {
			segs, quoted = append(segs, f.Quotes[n-1]), append(quoted, true)
		}
	})
	return segs, quoted
}

// Text is the finding on one line for a terminal: the pointer, then the words with each
// quotation in its slot.
func (f Finding) Text() string {
	segs, _ := f.Segments()
	s := strings.Join(segs, "")
	if f.At != "" {
		s = f.At + ": " + s
	}
	return s
}

// The own files' shapes. Record is the SHA-256 of the record bytes the file extends.
type (
	networkOwn struct {
		Record        string         `json:"record_sha256"`
		HealthChanges []HealthChange `json:"health_changes,omitempty"`
		Interrupted   *Interrupted   `json:"interrupted,omitempty"`
	}
	sourceOwn struct {
		Record     string     `json:"record_sha256"`
		Validators Validators `json:"validators,omitzero"`
		Findings   []Finding  `json:"findings,omitempty"`
	}
	originOwn struct {
		Record        string    `json:"record_sha256"`
		PendingSHA256 *string   `json:"pending_sha256,omitempty"`
		Findings      []Finding `json:"findings,omitempty"`
	}
	claimOwn struct {
		Record          string     `json:"record_sha256"`
		PendingSHA256   *string    `json:"pending_sha256,omitempty"`
		Validators      Validators `json:"validators,omitzero"`
		RejectedHealth  string     `json:"rejected_health,omitempty"`
		MediaDefinitive bool       `json:"media_definitive,omitempty"`
		Findings        []Finding  `json:"findings,omitempty"`
	}
)

// own returns what v keeps beyond its record (nil when nothing), for a record type with an own
// file; ok is false for any other value.
func own(v any) (o any, ok bool) {
	switch r := v.(type) {
	case Network:
		return own(&r)
	case Source:
		return own(&r)
	case Origin:
		return own(&r)
	case Claim:
		return own(&r)
	case *Network:
		if len(r.HealthChanges) == 0 && r.Interrupted == nil {
			return nil, true
		}
		return &networkOwn{HealthChanges: r.HealthChanges, Interrupted: r.Interrupted}, true
	case *Source:
		if r.Validators == (Validators{}) && len(r.Findings) == 0 {
			return nil, true
		}
		return &sourceOwn{Validators: r.Validators, Findings: r.Findings}, true
	case *Origin:
		if r.PendingSHA256 == nil && len(r.Findings) == 0 {
			return nil, true
		}
		return &originOwn{PendingSHA256: r.PendingSHA256, Findings: r.Findings}, true
	case *Claim:
		o := &claimOwn{PendingSHA256: r.PendingSHA256, Validators: r.Validators, Findings: r.Findings}
		if r.Rejected != nil {
			o.RejectedHealth = r.Rejected.Health
		}
		if r.Media != nil {
			o.MediaDefinitive = r.Media.Definitive
		}
		if o.PendingSHA256 == nil && o.Validators == (Validators{}) && o.RejectedHealth == "" && !o.MediaDefinitive && len(o.Findings) == 0 {
			return nil, true
		}
		return o, true
	}
	return nil, false
}

// File is one file a write puts in the state: its path relative to the root and its bytes;
// nil Bytes means the file is removed (an own file with nothing left to say).
type File struct {
	Rel   string
	Bytes []byte
}

// RecordFiles encodes v for the state path rel: the record in the reference index's shape
// (MarshalRecord) and, for a Network, Source, Origin or Claim (value or pointer) at its record
// path, its own file (OwnPath) bound to those record bytes, or the own file's removal when v
// keeps nothing more. With network.json comes OwnReadmePath. Dir.WriteJSON writes these files
// in order, the record first.
func RecordFiles(rel string, v any) ([]File, error) {
	b, err := MarshalRecord(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", rel, err)
	}
	files := []File{{Rel: rel, Bytes: b}}
	ownRel, isRecord := OwnPath(rel)
	o, hasOwn := own(v)
	if !isRecord || !hasOwn {
		return files, nil
	}
	if o == nil {
		files = append(files, File{Rel: ownRel})
	} else {
		bind(o, Digest(b))
		ob, err := MarshalRecord(o)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", ownRel, err)
		}
		files = append(files, File{Rel: ownRel, Bytes: ob})
	}
	if rel == NetworkFile {
		files = append(files, File{Rel: OwnReadmePath, Bytes: []byte(OwnReadme)})
	}
	return files, nil
}

// bind sets an own file's record_sha256.
func bind(o any, sum string) {
	switch x := o.(type) {
	case *networkOwn:
		x.Record = sum
	case *sourceOwn:
		x.Record = sum
	case *originOwn:
		x.Record = sum
	case *claimOwn:
		x.Record = sum
	}
}

// decodeStrict decodes one JSON value from b into v, refusing unknown fields and trailing
// data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the record")
	}
	return nil
}

// The record files as an earlier build of this index wrote them: the reference's keys plus
// the ones that now live in the own files. Reading through them keeps such a state readable;
// the next write moves what they hold into the own file.
type (
	sourceFile struct {
		*Source
		Validators Validators `json:"validators,omitzero"`
	}
	originFile struct {
		*Origin
		PendingSHA256 *string `json:"pending_sha256,omitempty"`
	}
	claimFile struct {
		*Claim
		PendingSHA256 *string       `json:"pending_sha256,omitempty"`
		Validators    Validators    `json:"validators,omitzero"`
		Rejected      *rejectedFile `json:"rejected"`
		Media         *mediaFile    `json:"media"`
	}
	rejectedFile struct {
		*Rejected
		Health string `json:"health,omitempty"`
	}
	mediaFile struct {
		*Media
		Definitive bool `json:"definitive,omitempty"`
	}
	networkFile struct {
		*Network
		HealthChanges []HealthChange `json:"health_changes,omitempty"`
		Interrupted   *Interrupted   `json:"interrupted,omitempty"`
	}
)

// DecodeRecord decodes the record bytes rec read at rel into v, strictly (unknown fields and
// trailing data are errors), then, when v is a *Network, *Source, *Origin or *Claim and ownB
// (the bytes of its own file, nil when there is none) is bound to rec, what the own file adds.
// A stale own file (bound to other record bytes) adds nothing. A record holding the keys an
// earlier build of this index wrote into it (FORMATS section 4: source.validators,
// claim.media.definitive, ...) is read with them.
func DecodeRecord(rel string, rec, ownB []byte, v any) error {
	ownRel, _ := OwnPath(rel)
	err := decodeStrict(rec, v)
	if err != nil {
		if lerr := decodeLegacy(rec, v); lerr == nil {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if _, ok := own(v); !ok || ownB == nil {
		return nil
	}
	if err := applyOwn(ownB, Digest(rec), v); err != nil {
		return fmt.Errorf("%s: %w", ownRel, err)
	}
	return nil
}

// decodeLegacy decodes a record as an earlier build of this index wrote it (the legacy record
// file types above), for a record that does not decode in the reference's shape.
func decodeLegacy(rec []byte, v any) error {
	var err error
	switch r := v.(type) {
	case *Network:
		f := networkFile{Network: r}
		if err = decodeStrict(rec, &f); err == nil {
			r.HealthChanges, r.Interrupted = f.HealthChanges, f.Interrupted
		}
	case *Source:
		f := sourceFile{Source: r}
		if err = decodeStrict(rec, &f); err == nil {
			r.Validators = f.Validators
		}
	case *Origin:
		f := originFile{Origin: r}
		if err = decodeStrict(rec, &f); err == nil {
			r.PendingSHA256 = f.PendingSHA256
		}
	case *Claim:
		f := claimFile{Claim: r}
		if err = decodeStrict(rec, &f); err == nil {
			r.PendingSHA256, r.Validators, r.Rejected, r.Media = f.PendingSHA256, f.Validators, nil, nil
			if f.Rejected != nil && f.Rejected.Rejected != nil {
				r.Rejected = f.Rejected.Rejected
				r.Rejected.Health = f.Rejected.Health
			}
			if f.Media != nil && f.Media.Media != nil {
				r.Media = f.Media.Media
				r.Media.Definitive = f.Media.Definitive
			}
		}
	default:
		err = fmt.Errorf("no earlier shape")
	}
	return err
}

// applyOwn decodes an own file and, when it is bound to the record digest sum, sets what it
// holds on v.
func applyOwn(b []byte, sum string, v any) error {
	switch r := v.(type) {
	case *Network:
		var o networkOwn
		if err := decodeStrict(b, &o); err != nil || o.Record != sum {
			return err
		}
		r.HealthChanges, r.Interrupted = o.HealthChanges, o.Interrupted
	case *Source:
		var o sourceOwn
		if err := decodeStrict(b, &o); err != nil || o.Record != sum {
			return err
		}
		r.Validators, r.Findings = o.Validators, o.Findings
	case *Origin:
		var o originOwn
		if err := decodeStrict(b, &o); err != nil || o.Record != sum {
			return err
		}
		r.PendingSHA256, r.Findings = o.PendingSHA256, o.Findings
	case *Claim:
		var o claimOwn
		if err := decodeStrict(b, &o); err != nil || o.Record != sum {
			return err
		}
		r.PendingSHA256, r.Validators, r.Findings = o.PendingSHA256, o.Validators, o.Findings
		if r.Rejected != nil {
			r.Rejected.Health = o.RejectedHealth
		}
		if r.Media != nil {
			r.Media.Definitive = o.MediaDefinitive
		}
	}
	return nil
}
