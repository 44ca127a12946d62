package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
)

// OwnDir holds what this index keeps about a record beyond the reference index's keys (FORMATS
// sections 1.1-1.6), at the record's path below it, bound to the SHA-256 of the record bytes:
// once the record changes, it reads as nothing. Losing it loses only conveniences.
const OwnDir = "ashyams-go"

// OwnReadmePath is the README of OwnDir, rewritten by every refresh.
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

// OwnPath is the own file of the record at rel, and whether rel is a record that has one.
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

// Finding is one problem a read found: Kind (a rule or schema keyword, or a failed read's
// health), At (a JSON pointer), Words with slots "{n}" for Quotes[n-1] (protocol.ForSlots).
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

// Quoting is a finding of kind whose text has each occurrence of a value made a slot.
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

// Segments splits the words into text and quotations (quoted[i] true).
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

// Text is the finding on one line: the pointer, then the words with the quotations in place.
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

// own returns what v keeps beyond its record (nil when nothing); ok is false for a type with
// no own file.
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

// File is one file a write puts in the state, relative to the root; nil Bytes removes it.
type File struct {
	Rel   string
	Bytes []byte
}

// RecordFiles encodes v for rel: the record, then its own file bound to it, or that file's
// removal; with network.json, OwnReadmePath.
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

// decodeStrict decodes b into v, refusing unknown fields and trailing data.
func decodeStrict(b []byte, v any) error { return new(recordDecoder).decode(b, v) }

// recordDecoder is decodeStrict for records in turn, through one json.Decoder kept while
// each record leaves only blanks after it.
type recordDecoder struct {
	r   bytes.Reader
	dec *json.Decoder
	fed int64 // bytes dec read before this record
}

func (rd *recordDecoder) decode(b []byte, v any) error {
	if rd.dec == nil {
		rd.dec, rd.fed = json.NewDecoder(&rd.r), 0
		rd.dec.DisallowUnknownFields()
	}
	rd.r.Reset(b)
	err := rd.dec.Decode(v)
	if err == nil && rd.dec.More() {
		err = fmt.Errorf("trailing data after the record")
	}
	// More is false before '}' or ']' too.
	if err != nil || len(bytes.TrimLeft(b[rd.dec.InputOffset()-rd.fed:], " \t\r\n")) > 0 {
		rd.dec = nil
	}
	rd.fed += int64(len(b))
	return err
}

// DecodeRecord decodes the record bytes rec at rel into v strictly, then what its own file
// ownB adds when bound to rec.
func DecodeRecord(rel string, rec, ownB []byte, v any) error {
	return decodeRecord(new(recordDecoder), rel, rec, ownB, v)
}

func decodeRecord(rd *recordDecoder, rel string, rec, ownB []byte, v any) error {
	if err := rd.decode(rec, v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if _, ok := own(v); !ok || ownB == nil {
		return nil
	}
	if err := applyOwn(ownB, Digest(rec), v); err != nil {
		ownRel, _ := OwnPath(rel)
		return fmt.Errorf("%s: %w", ownRel, err)
	}
	return nil
}

// Migrate rewrites each record among ps (Check's Unreadable problems) that an earlier build
// wrote with its own keys inside (FORMATS section 4), and returns the rewritten paths.
func (d *Dir) Migrate(ps []Problem) ([]string, error) {
	var done []string
	for _, p := range ps {
		rec, err := d.readFile(p.Path, MaxRecordBytes)
		if p.Kind != Unreadable || err != nil {
			continue
		}
		if v := migrate(p.Path, rec); v != nil {
			if err := d.WriteJSON(p.Path, v); err != nil {
				return done, err
			}
			done = append(done, p.Path)
		}
	}
	return done, nil
}

// migrate decodes rec with an earlier build's own keys read as its own file's; nil when it
// holds none or does not then decode.
func migrate(rel string, rec []byte) any {
	var m map[string]json.RawMessage
	if _, ok := OwnPath(rel); !ok || json.Unmarshal(rec, &m) != nil {
		return nil
	}
	o := map[string]json.RawMessage{"record_sha256": json.RawMessage(`""`)}
	move := func(m map[string]json.RawMessage, key, to string) {
		if raw, ok := m[key]; ok {
			o[to] = raw
			delete(m, key)
		}
	}
	var v any
	switch dir, _, _ := strings.Cut(rel, "/"); dir {
	case NetworkFile:
		v = &Network{}
		move(m, "health_changes", "health_changes")
		move(m, "interrupted", "interrupted")
	case SourcesDir:
		v = &Source{}
		move(m, "validators", "validators")
	case OriginsDir:
		v = &Origin{}
		move(m, "pending_sha256", "pending_sha256")
	default:
		v = &Claim{}
		move(m, "pending_sha256", "pending_sha256")
		move(m, "validators", "validators")
		for obj, key := range map[string]string{"rejected": "health", "media": "definitive"} {
			var inner map[string]json.RawMessage
			if json.Unmarshal(m[obj], &inner) == nil && inner[key] != nil {
				move(inner, key, obj+"_"+key)
				m[obj], _ = json.Marshal(inner)
			}
		}
	}
	stripped, _ := json.Marshal(m)
	ob, _ := json.Marshal(o)
	if len(o) == 1 || decodeStrict(stripped, v) != nil || applyOwn(ob, "", v) != nil {
		return nil
	}
	return v
}

// applyOwn decodes an own file and, when bound to the record digest sum, sets it on v.
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
