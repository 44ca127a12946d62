package protocol

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Doc is a decoded DreamWeave document.
type Doc struct {
	Kind     string    // DocIndex, DocProject, or "" when the kind could not be told
	Index    *Index    // the site index once it passed the schema; nil otherwise
	Manifest *Manifest // the manifest once it passed the schema; nil otherwise
	// Loose is the manifest as far as the typed model holds it, whatever the schema said.
	Loose *Manifest
}

// Decode reads b as a DreamWeave document and validates it completely: strict JSON, dispatch
// on schema_version/document, the embedded JSON Schema, then the protocol rules of SPEC
// section 1 (rulesBeside), so one run reports every fault. It is valid exactly when no
// findings come back. Doc is nil when the bytes are not a DreamWeave index or manifest; Index
// or Manifest is filled only once the document passed the schema.
func Decode(b []byte) (*Doc, []Finding) {
	return decode(b, "", entryWant{})
}

// ValidateIndex decodes and validates b as a site index (see Decode).
func ValidateIndex(b []byte) (*Index, []Finding) {
	d, fs := decode(b, DocIndex, entryWant{})
	if d == nil {
		return nil, fs
	}
	return d.Index, fs
}

// ValidateManifest decodes and validates b as a project manifest (see Decode). A project.id
// other than expectID is a RuleIDMatch finding; "" skips that check.
func ValidateManifest(b []byte, expectID string) (*Manifest, []Finding) {
	d, fs := decode(b, DocProject, entryWant{id: expectID})
	if d == nil {
		return nil, fs
	}
	return d.Manifest, fs
}

func decode(b []byte, want string, e entryWant) (*Doc, []Finding) {
	d, fs := decodeFindings(b, want, e)
	return d, printableFindings(fs)
}

func decodeFindings(b []byte, want string, e entryWant) (*Doc, []Finding) {
	v, fs := parseStrict(b)
	if fs != nil {
		return nil, sortFindings(fs)
	}
	kind, fs := dispatch(v)
	if fs != nil {
		return nil, fs
	}
	if want != "" && kind != want {
		return nil, []Finding{found("/document", RuleDocumentKind,
			"document is %q, expected %q (%s)", pub(kind), want, kindName(want))}
	}
	idx, proj, err := ourSchemas()
	if err != nil {
		return nil, []Finding{{Rule: RuleInternal, Message: "this index's schema does not compile: " + err.Error()}}
	}
	doc := &Doc{Kind: kind}
	var findings []Finding
	if kind == DocIndex {
		findings = SchemaFindings(idx, v)
		var ix Index
		err := json.Unmarshal(b, &ix) // a schema-invalid index decodes as far as it can
		if len(findings) == 0 {
			if err != nil {
				return doc, []Finding{{Rule: RuleDecode, Message: "the site index does not fit the typed model: " + err.Error()}}
			}
			doc.Index = &ix
		}
		findings = append(findings, rulesBeside(findings, indexRules(&ix))...)
	} else {
		findings = SchemaFindings(proj, v)
		findings = append(findings, rulesBeside(findings, integerFields(v))...)
		var m Manifest
		err := json.Unmarshal(b, &m) // a schema-invalid manifest decodes as far as it can
		if err == nil {
			doc.Loose = &m
		}
		if len(findings) == 0 {
			if err != nil {
				return doc, []Finding{{Rule: RuleDecode, Message: "the manifest does not fit the typed model: " + err.Error()}}
			}
			doc.Manifest = &m
		}
		findings = append(findings, rulesBeside(findings, manifestRules(&m, e))...)
	}
	return doc, sortFindings(findings)
}

// rulesBeside is the rule findings worth reporting beside the schema findings: none at or under
// a value the schema faults, and one RuleNotChecked finding for the channel heads when a value
// they are computed from is at fault (blocksHeads).
func rulesBeside(schema, rules []Finding) []Finding {
	if len(schema) == 0 {
		return rules
	}
	var out []Finding
	var headsBlock string
	for _, f := range schema {
		if headsBlock == "" && blocksHeads(f) {
			headsBlock = f.Pointer
		}
	}
	for _, r := range rules {
		if headsBlock != "" && r.Rule == RuleChannelHeads {
			continue
		}
		if !faulted(schema, r.Pointer) {
			out = append(out, r)
		}
	}
	if headsBlock != "" {
		out = append(out, found("/channels", RuleNotChecked,
			"the channel heads were not checked: they are recomputed from every release, and the value at %s must be fixed first", pointerWords(headsBlock)))
	}
	return out
}

func faulted(schema []Finding, ptr string) bool {
	for _, f := range schema {
		if f.Pointer == ptr || f.Pointer == "" || strings.HasPrefix(ptr, f.Pointer+"/") {
			return true
		}
	}
	return false
}

// blocksHeads reports whether f faults a value the channel heads are computed from.
func blocksHeads(f Finding) bool {
	t := strings.Split(f.Pointer, "/")
	switch {
	case f.Pointer == "" || f.Pointer == "/project" || f.Pointer == "/project/versioning":
		return true
	case len(t) >= 2 && t[1] == "channels" && len(t) <= 4:
		return true
	case len(t) == 2 && t[1] == "releases", len(t) == 3 && t[1] == "releases":
		return true
	case len(t) == 4 && t[1] == "releases":
		return t[3] == "version" || t[3] == "status" || t[3] == "channel"
	}
	return false
}

func pointerWords(ptr string) phrase {
	if ptr == "" {
		return phrase{format: "the top of the document"}
	}
	return phrase{"%s", []any{pub(ptr)}}
}

func kindName(k string) string {
	if k == DocIndex {
		return "a site index"
	}
	return "a project manifest"
}

// dispatch tells the document kind from schema_version and document, never from other fields.
func dispatch(v any) (string, []Finding) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", []Finding{{Rule: RuleNotDreamWeave, Message: fmt.Sprintf("the top-level value is %s, not an object: not a DreamWeave document", jsonKind(v))}}
	}
	sv, hasSV := m["schema_version"]
	dv, hasDoc := m["document"]
	switch {
	case !hasSV && !hasDoc:
		return "", []Finding{{Rule: RuleNotDreamWeave, Message: "no schema_version and no document field: not a DreamWeave document"}}
	case !hasSV:
		return "", []Finding{{Pointer: "/schema_version", Rule: RuleNotDreamWeave, Message: "no schema_version field: not a DreamWeave document"}}
	case !hasDoc:
		return "", []Finding{{Pointer: "/document", Rule: RuleNotDreamWeave, Message: "no document field: not a DreamWeave document"}}
	}
	s, ok := sv.(string)
	if !ok {
		return "", []Finding{{Pointer: "/schema_version", Rule: "type", Message: fmt.Sprintf("field \"schema_version\" is %s; it must be a string such as %q", jsonKind(sv), SchemaVersion)}}
	}
	if s != SchemaVersion {
		return "", []Finding{found("/schema_version", RuleNewerProtocol,
			"schema_version %q: the document speaks a newer protocol (this index reads schema_version %q)", pub(s), SchemaVersion)}
	}
	d, ok := dv.(string)
	if !ok {
		return "", []Finding{{Pointer: "/document", Rule: "type", Message: fmt.Sprintf("field \"document\" is %s; it must be the string \"index\" or \"project\"", jsonKind(dv))}}
	}
	if d != DocIndex && d != DocProject {
		return "", []Finding{found("/document", RuleNotDreamWeave,
			"document %q is neither \"index\" nor \"project\": not a DreamWeave site index or project manifest", pub(d))}
	}
	return d, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

var intLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// integerFields checks the manifest's integer fields are integers that fit an int64: JSON
// Schema calls 1.0 an integer, which the typed model cannot hold.
func integerFields(v any) []Finding {
	var fs []Finding
	check := func(ptr string, x any) {
		n, ok := x.(json.Number)
		if !ok {
			return
		}
		s := string(n)
		if !intLiteral.MatchString(s) {
			fs = append(fs, found(ptr, RuleInteger, "%s is %s: write an integer without fraction or exponent", fieldLabel(ptr), pub(s)))
		} else if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			fs = append(fs, found(ptr, RuleInteger, "%s is %s: beyond the 64-bit integer range", fieldLabel(ptr), pub(s)))
		}
	}
	root, _ := v.(map[string]any)
	if p, ok := root["project"].(map[string]any); ok {
		if in, ok := p["integrations"].(map[string]any); ok {
			if nx, ok := in["nexusmods"].(map[string]any); ok {
				check("/project/integrations/nexusmods/mod_id", nx["mod_id"])
			}
		}
	}
	rels, _ := root["releases"].([]any)
	for i, r := range rels {
		rm, _ := r.(map[string]any)
		arts, _ := rm["artifacts"].([]any)
		for j, a := range arts {
			am, _ := a.(map[string]any)
			check(Pointer("releases", i, "artifacts", j, "size"), am["size"])
		}
	}
	return fs
}

// SchemeOf is the manifest's versioning scheme (project.versioning; absent means numeric).
func SchemeOf(m *Manifest) version.Scheme {
	if m == nil {
		return version.Numeric
	}
	return version.SchemeOf(m.Project.Versioning)
}

// shortNamespaces are the extension namespaces the protocol names without a dot.
var shortNamespaces = map[string]bool{"openmw": true}

var dottedNamespace = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$`)

// ValidNamespace reports whether name may name an extension: openmw or a dotted name.
func ValidNamespace(name string) bool {
	return shortNamespaces[name] || dottedNamespace.MatchString(name)
}

func namespacePhrase(name string) phrase {
	return phrase{"extension namespace %q is neither a short name the protocol defines (%s) nor a dotted name such as org.tes3mp", []any{pub(name), strings.Join(sortedKeys(shortNamespaces), ", ")}}
}
