package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
)

// valueType is the JSON type a key holds.
type valueType int

const (
	tStr     valueType = iota // a string
	tOptStr                   // a string or null
	tUint                     // a non-negative integer (u64)
	tStrList                  // an array of strings
	tStatus                   // a release status token
	tRelKind                  // a relationship kind token
	tTarget                   // a Target object
	tNotes                    // a notes object or null
	tChanges                  // an array of release-level changes
)

// key is one JSON key of a change: its name, its value's type and the Change field holding it.
type key struct {
	name, field string
	typ         valueType
	index       []int // the field's index in Change
}

// newKey is the key name held in Change's field of that name; an unknown field panics.
func newKey(name, field string, typ valueType) key {
	f, ok := reflect.TypeFor[Change]().FieldByName(field)
	if !ok {
		panic("diff: Change has no field " + field)
	}
	return key{name, field, typ, f.Index}
}

// at is a pointer to the field of c that holds k.
func (k key) at(c *Change) any {
	return reflect.ValueOf(c).Elem().FieldByIndex(k.index).Addr().Interface()
}

func (k key) as(t valueType) key { k.typ = t; return k }

var (
	kField       = newKey("field", "Field", tStr)
	kChannel     = newKey("channel", "Channel", tStr)
	kVersion     = newKey("version", "Version", tStr)
	kDate        = newKey("date", "Date", tOptStr)
	kStatus      = newKey("status", "Status", tStatus)
	kNotes       = newKey("notes", "Notes", tNotes)
	kReason      = newKey("reason", "Reason", tOptStr)
	kReplacement = newKey("replacement", "Replacement", tOptStr)
	kBefore      = newKey("before", "Before", tOptStr)
	kAfter       = newKey("after", "After", tOptStr)
	kChanges     = newKey("changes", "Changes", tChanges)
	kAdded       = newKey("added", "Added", tStrList)
	kRemoved     = newKey("removed", "Removed", tStrList)
	kLink        = newKey("link", "Link", tStr)
	kRuntime     = newKey("runtime", "Runtime", tStr)
	kCapability  = newKey("capability", "Capability", tStr)
	kKind        = newKey("kind", "Kind", tStr)
	kRelKind     = kKind.as(tRelKind)
	kTarget      = newKey("target", "Target", tTarget)
	kConstraint  = newKey("version", "Constraint", tOptStr)
	kComponent   = newKey("component", "Component", tStr)
	kName        = newKey("name", "Name", tStr)
	kDetails     = newKey("details", "Details", tStrList)
	kGroup       = newKey("group", "Group", tStr)
	kNamespace   = newKey("namespace", "Namespace", tStr)
	kArtifact    = newKey("artifact", "Artifact", tStr)
	kFilename    = newKey("filename", "Filename", tStr)
	kSize        = newKey("size", "Size", tUint)
	kSHA256      = newKey("sha256", "SHA256", tStr)
	kURL         = newKey("url", "URL", tStr)
	kFormat      = newKey("format", "Format", tStr)
)

// fields is one key per Change field the vocabulary uses, in field order, so write can check
// that a token's unused fields are zero.
var fields = func() []key {
	seen := map[string]bool{}
	var out []key
	for _, t := range Tokens() {
		for _, k := range vocabulary[t].keys {
			if !seen[k.field] {
				seen[k.field] = true
				out = append(out, k)
			}
		}
	}
	return out
}()

// statuses and relationKinds are the protocol's tokens, the only ones the reference accepts.
var (
	statuses      = map[string]bool{"available": true, "yanked": true, "deprecated": true}
	relationKinds = map[string]bool{"requires": true, "recommends": true, "conflicts": true, "compatible": true, "replaces": true}
)

// MarshalJSON writes c as the reference writes it: "change" first, then exactly the token's
// keys in its order. A release-level token, a value of the wrong type or a set field the
// token does not use is an error.
func (c Change) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := c.write(&buf, false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON reads one top-level change whose keys are exactly its token's (a missing
// nullable key reads as null). Unknown tokens, unknown or duplicate keys and values of the
// wrong type are errors naming the token and key; c is left unchanged then.
func (c *Change) UnmarshalJSON(b []byte) error {
	var n Change
	if err := n.read(b, false); err != nil {
		return err
	}
	*c = n
	return nil
}

// lookup is token's kind, or an error when there is no such token at that level.
func lookup(token string, nested bool) (kind, error) {
	k, ok := vocabulary[token]
	switch {
	case !ok:
		return k, fmt.Errorf("change %q: unknown change token", token)
	case k.nested != nested && nested:
		return k, fmt.Errorf("change %q is a top-level change, not allowed inside channel-head or release-amended", token)
	case k.nested != nested:
		return k, fmt.Errorf("change %q is a release-level change, allowed only inside channel-head or release-amended", token)
	}
	return k, nil
}

func (c *Change) write(buf *bytes.Buffer, nested bool) error {
	kd, err := lookup(c.Change, nested)
	if err != nil {
		return err
	}
	buf.WriteString(`{"change":`)
	writeString(buf, c.Change)
	for _, k := range kd.keys {
		buf.WriteByte(',')
		writeString(buf, k.name)
		buf.WriteByte(':')
		if err := c.writeValue(buf, k); err != nil {
			return fmt.Errorf("change %q: key %q: %w", c.Change, k.name, err)
		}
	}
	buf.WriteByte('}')
	for _, f := range fields {
		if !slices.ContainsFunc(kd.keys, func(k key) bool { return k.field == f.field }) && !isZero(f.at(c)) {
			return fmt.Errorf("change %q has no key %q, but its %s is set", c.Change, f.name, f.field)
		}
	}
	return nil
}

func isZero(p any) bool {
	switch p := p.(type) {
	case *string:
		return *p == ""
	case **string:
		return *p == nil
	case *[]string:
		return len(*p) == 0
	case *json.RawMessage:
		return len(*p) == 0
	case *uint64:
		return *p == 0
	case **Target:
		return *p == nil
	case *[]Change:
		return len(*p) == 0
	}
	panic(fmt.Sprintf("diff: a key holds a %T", p))
}

func (c *Change) writeValue(buf *bytes.Buffer, k key) error {
	switch p := k.at(c).(type) {
	case *json.RawMessage:
		v, err := k.canonical(*p)
		if err != nil {
			return err
		}
		buf.Write(v)
	case *string:
		if err := checkToken(*p, k.typ); err != nil {
			return err
		}
		writeString(buf, *p)
	case **string:
		if *p == nil {
			buf.WriteString("null")
		} else {
			writeString(buf, **p)
		}
	case *uint64:
		buf.WriteString(strconv.FormatUint(*p, 10))
	case *[]string:
		writeList(buf, *p)
	case **Target:
		if *p == nil {
			return errors.New("no target")
		}
		b, err := encode(*p)
		if err != nil {
			return err
		}
		buf.Write(b)
	case *[]Change:
		buf.WriteByte('[')
		for i := range *p {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := (*p)[i].write(buf, true); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	return nil
}

func (c *Change) read(b []byte, nested bool) error {
	kvs, err := object(b)
	if err != nil {
		return fmt.Errorf("change: %w", err)
	}
	vals := map[string]json.RawMessage{}
	for _, kv := range kvs {
		vals[kv.key] = kv.raw
	}
	tokRaw, ok := vals["change"]
	if !ok {
		return errors.New(`change: no "change" key`)
	}
	if err := strictString(tokRaw, &c.Change); err != nil {
		return fmt.Errorf(`change: key "change": %w`, err)
	}
	kd, err := lookup(c.Change, nested)
	if err != nil {
		return err
	}
	for _, kv := range kvs {
		if kv.key != "change" && !slices.ContainsFunc(kd.keys, func(k key) bool { return k.name == kv.key }) {
			return fmt.Errorf("change %q: unknown key %q", c.Change, kv.key)
		}
	}
	for _, k := range kd.keys {
		raw, present := vals[k.name]
		if err := c.readValue(k, raw, present); err != nil {
			return fmt.Errorf("change %q: key %q: %w", c.Change, k.name, err)
		}
	}
	return nil
}

func (c *Change) readValue(k key, raw json.RawMessage, present bool) error {
	if !present && k.typ != tOptStr && k.typ != tNotes {
		return errors.New("missing")
	}
	switch p := k.at(c).(type) {
	case *json.RawMessage:
		v, err := k.canonical(raw)
		if err != nil {
			return err
		}
		*p = v
	case *string:
		if err := strictString(raw, p); err != nil {
			return err
		}
		return checkToken(*p, k.typ)
	case **string:
		if !present || string(bytes.TrimSpace(raw)) == "null" {
			return nil
		}
		var s string
		if err := strictString(raw, &s); err != nil {
			return fmt.Errorf("%s is not a string or null", bytes.TrimSpace(raw))
		}
		*p = &s
	case *uint64:
		v, err := canonicalValue(raw, tUint)
		if err != nil {
			return err
		}
		*p, _ = strconv.ParseUint(string(v), 10, 64)
	case *[]string:
		l, err := strictList(raw)
		if err != nil {
			return err
		}
		*p = l
	case **Target:
		t, err := readTarget(raw)
		if err != nil {
			return err
		}
		*p = t
	case *[]Change:
		t := bytes.TrimSpace(raw)
		var items []json.RawMessage
		if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &items) != nil {
			return fmt.Errorf("%.40s is not an array of changes", t)
		}
		*p = make([]Change, len(items))
		for i, it := range items {
			if err := (*p)[i].read(it, true); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
	}
	return nil
}

func (k key) canonical(raw json.RawMessage) (json.RawMessage, error) {
	if k.typ == tNotes {
		return canonicalNotes(raw)
	}
	return canonicalValue(raw, k.typ)
}

func checkToken(s string, typ valueType) error {
	switch {
	case typ == tStatus && !statuses[s]:
		return fmt.Errorf("%q is not a release status (available, yanked, deprecated)", s)
	case typ == tRelKind && !relationKinds[s]:
		return fmt.Errorf("%q is not a relationship kind (requires, recommends, conflicts, compatible, replaces)", s)
	}
	return nil
}

// canonicalValue checks a raw before/after value against typ and returns it re-encoded as the
// reference writes it; absent is null where typ allows it.
func canonicalValue(raw json.RawMessage, typ valueType) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		if typ == tOptStr {
			return json.RawMessage("null"), nil
		}
		return nil, errors.New("no value")
	}
	switch typ {
	case tOptStr:
		if string(bytes.TrimSpace(raw)) == "null" {
			return json.RawMessage("null"), nil
		}
		fallthrough
	case tStr, tStatus, tRelKind:
		var s string
		if err := strictString(raw, &s); err != nil {
			return nil, err
		}
		if err := checkToken(s, typ); err != nil {
			return nil, err
		}
		return encode(s)
	case tUint:
		var n uint64
		t := bytes.TrimSpace(raw)
		if len(t) == 0 || t[0] < '0' || t[0] > '9' || json.Unmarshal(t, &n) != nil {
			return nil, fmt.Errorf("%s is not a non-negative integer", t)
		}
		return json.RawMessage(strconv.FormatUint(n, 10)), nil
	}
	return nil, fmt.Errorf("internal: raw value of type %d", typ)
}

func strictString(raw json.RawMessage, s *string) error {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '"' {
		return fmt.Errorf("%s is not a string", t)
	}
	return json.Unmarshal(t, s)
}

// notesShape is the protocol's release notes object in the reference's key order.
type notesShape struct {
	Summary     *string   `json:"summary,omitempty"`
	Highlights  *string   `json:"highlights,omitempty"`
	Added       *[]string `json:"added,omitempty"`
	Changed     *[]string `json:"changed,omitempty"`
	Fixed       *[]string `json:"fixed,omitempty"`
	Breaking    *[]string `json:"breaking,omitempty"`
	Migration   *string   `json:"migration,omitempty"`
	KnownIssues *[]string `json:"known_issues,omitempty"`
	Notes       *string   `json:"notes,omitempty"`
}

// canonicalNotes checks a notes value (or null) and returns it in the reference's key order.
func canonicalNotes(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("null"), nil
	}
	kvs, err := object(t)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	var n notesShape
	fields := map[string]any{"summary": &n.Summary, "highlights": &n.Highlights, "migration": &n.Migration,
		"notes": &n.Notes, "added": &n.Added, "changed": &n.Changed, "fixed": &n.Fixed,
		"breaking": &n.Breaking, "known_issues": &n.KnownIssues}
	for _, kv := range kvs {
		dst, ok := fields[kv.key]
		if !ok {
			return nil, fmt.Errorf("notes: unknown key %q", kv.key)
		}
		if err := decodeNotesValue(kv.raw, dst); err != nil {
			return nil, fmt.Errorf("notes: key %q: %w", kv.key, err)
		}
	}
	return encode(n)
}

// decodeNotesValue decodes a notes value into **string or **[]string; null reads as absent.
func decodeNotesValue(raw json.RawMessage, dst any) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	switch d := dst.(type) {
	case **string:
		var s string
		if err := strictString(raw, &s); err != nil {
			return err
		}
		*d = &s
	case **[]string:
		l, err := strictList(raw)
		if err != nil {
			return err
		}
		*d = &l
	}
	return nil
}

func strictList(raw json.RawMessage) ([]string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return nil, fmt.Errorf("%s is not an array of strings", t)
	}
	var l []string
	if err := json.Unmarshal(t, &l); err != nil {
		return nil, fmt.Errorf("%s is not an array of strings", t)
	}
	if l == nil {
		l = []string{}
	}
	return l, nil
}

type keyValue struct {
	key string
	raw json.RawMessage
}

// object splits a JSON object into its keys and raw values, in order; a duplicate key is an
// error.
func object(b []byte) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%.40s is not an object", bytes.TrimSpace(b))
	}
	var out []keyValue
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		if seen[k] {
			return nil, fmt.Errorf("duplicate key %q", k)
		}
		seen[k] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, keyValue{k, raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("trailing data after the object")
	}
	return out, nil
}

func readTarget(raw json.RawMessage) (*Target, error) {
	kvs, err := object(raw)
	if err != nil {
		return nil, err
	}
	var t Target
	hasName := false
	for _, kv := range kvs {
		var dst *string
		switch kv.key {
		case "project":
			dst = &t.Project
		case "capability":
			dst = &t.Capability
		case "name":
			dst, hasName = &t.Name, true
		case "url":
			dst = &t.URL
		default:
			return nil, fmt.Errorf("unknown target key %q", kv.key)
		}
		if kv.key != "name" && string(bytes.TrimSpace(kv.raw)) == "null" {
			continue // an optional key read as absent, as the reference reads it
		}
		if err := strictString(kv.raw, dst); err != nil {
			return nil, fmt.Errorf("target key %q: %w", kv.key, err)
		}
	}
	if !hasName {
		return nil, errors.New(`target: missing key "name"`)
	}
	return &t, nil
}

// encode writes v as compact JSON without HTML escaping: the record writer escapes the file.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := encode(s) // a string always encodes
	buf.Write(b)
}

func writeList(buf *bytes.Buffer, l []string) {
	buf.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, s)
	}
	buf.WriteByte(']')
}
