package protocol

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Finding is one problem with a document: Pointer is an RFC 6901 JSON pointer to the value at
// fault ("" is the whole document), Rule a Rule* id or the JSON Schema keyword broken, and
// Message names the field and what is wrong. Words is Message with each value quoted from the
// document replaced by a slot "{n}" (ForSlots), Quotes those values in slot order, so a reader
// sets publisher text apart without searching the sentence.
type Finding struct {
	Pointer string   `json:"pointer"`          // RFC 6901, publisher keys as published ("" = the document)
	Rule    string   `json:"rule"`             // a Rule* id or a JSON Schema keyword
	Message string   `json:"message"`          // one line, printable (see Printable), names the field
	Words   string   `json:"words"`            // Message with {n} slots for the quotations
	Quotes  []string `json:"quotes,omitempty"` // the quoted values, printable, by slot
}

func found(ptr, rule, format string, args ...any) Finding {
	m, w, q := say(format, args...)
	return Finding{Pointer: ptr, Rule: rule, Message: m, Words: w, Quotes: q}
}

func same(a, b Finding) bool {
	return a.Pointer == b.Pointer && a.Rule == b.Rule && a.Message == b.Message
}

// String renders a finding on one line: pointer (or "(document)"), rule in brackets, message.
func (f Finding) String() string {
	p := Printable(f.Pointer)
	if p == "" {
		p = "(document)"
	}
	return fmt.Sprintf("%s [%s] %s", p, Printable(f.Rule), Printable(f.Message))
}

// Summary renders findings for one problem line: the first three, then "and N more".
func Summary(fs []Finding) string {
	var parts []string
	for i, f := range fs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-3))
			break
		}
		parts = append(parts, f.String())
	}
	return strings.Join(parts, "; ")
}

// Printable returns s with every character that is not printable (strconv.IsPrint; the space
// is kept) written as strconv.Quote writes it, without the quotes, so quoted publisher text
// can neither break a log line nor drive a terminal. It is idempotent.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r != ' ' && !strconv.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || strconv.IsPrint(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // "'\x1b'": the escape between the quotes
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// printableFindings passes every Message, Words and quotation through Printable: the one exit
// of this package's findings. Pointers stay exact.
func printableFindings(fs []Finding) []Finding {
	for i := range fs {
		if fs[i].Words == "" {
			fs[i].Words = fs[i].Message
		}
		fs[i].Message, fs[i].Words = Printable(fs[i].Message), Printable(fs[i].Words)
		for j, q := range fs[i].Quotes {
			fs[i].Quotes[j] = Printable(q)
		}
	}
	return fs
}

// Rule ids for findings that are not JSON Schema keywords: the protocol rules of SPEC section 1
// and the input rules of crawler.txt "Resource limits".
const (
	// Input: the bytes are not acceptable JSON.
	RuleCrawlerPolicy = "crawler-policy" // more than 16 MiB: refused by crawler policy, never "invalid"
	RuleUTF8          = "utf8"           // invalid UTF-8, or a lone UTF-16 surrogate escape
	RuleSyntax        = "json-syntax"    // malformed JSON, with line and column
	RuleDuplicateKey  = "duplicate-key"  // the same key twice in one object
	RuleDepth         = "depth"          // nesting deeper than MaxDepth
	RuleNumberRange   = "number-range"   // a number no float64 holds, or an absurd literal
	RuleInteger       = "integer"        // an integer field not written as an int64 integer
	RuleDecode        = "decode"         // the typed model could not be filled (reported, never silent)
	RuleInternal      = "internal"       // this index's own bug (a schema that does not compile)
	RuleNotChecked    = "not-checked"    // a rule that could not run on a schema-invalid document, and why

	// Dispatch: what kind of document this is.
	RuleNotDreamWeave = "not-dreamweave" // no schema_version/document, or not an index or project
	RuleNewerProtocol = "newer-protocol" // schema_version other than "2": speaks a newer protocol
	RuleDocumentKind  = "document-kind"  // an index where a manifest was expected, or the reverse

	// Protocol rules (SPEC section 1).
	RuleIDMatch              = "id-match"                // manifest project.id differs from the index entry
	RuleManifestSHA256       = "manifest-sha256"         // manifest bytes do not hash to the entry's manifest_sha256
	RuleChannelHeads         = "channel-heads"           // channels differ from the recomputed heads
	RuleUniquePrecedence     = "unique-precedence"       // two releases with equal precedence
	RuleVersionScheme        = "version-scheme"          // a version that does not parse under the scheme
	RuleStatusNotice         = "status-notice"           // yanked/deprecated present exactly when status says so
	RuleExtensionNamespace   = "extension-namespace"     // extension or critical_extensions name not openmw or dotted
	RuleConstraint           = "constraint"              // a constraint that does not parse
	RuleRelationshipVersion  = "relationship-version"    // version without project
	RuleRelationshipCapabity = "relationship-capability" // capability on a kind other than requires/recommends/conflicts
	RuleRelationshipTarget   = "relationship-target"     // both project and capability
	RuleIndexOrder           = "index-order"             // projects not sorted by id
	RuleIndexUniqueID        = "index-unique-id"         // the same id twice in one site index
	RuleConfigLine           = "config-line"             // a value no openmw.cfg, settings.cfg or SHA256SUMS line holds safely
)

// IsNotDreamWeave reports whether the findings say the bytes are not a DreamWeave document.
func IsNotDreamWeave(fs []Finding) bool { return hasRule(fs, RuleNotDreamWeave) }

// IsNewerProtocol reports whether the findings say the document "speaks a newer protocol".
func IsNewerProtocol(fs []Finding) bool { return hasRule(fs, RuleNewerProtocol) }

// IsRefused reports whether the document was refused by crawler policy, never called invalid.
func IsRefused(fs []Finding) bool { return hasRule(fs, RuleCrawlerPolicy) }

func hasRule(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// sortFindings orders findings by pointer (array indexes as numbers), rule, message, and drops
// exact duplicates. RuleNotChecked comes after every fault, so a summary names faults first.
func sortFindings(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		if ni, nj := fs[i].Rule == RuleNotChecked, fs[j].Rule == RuleNotChecked; ni != nj {
			return nj
		}
		if c := comparePointers(fs[i].Pointer, fs[j].Pointer); c != 0 {
			return c < 0
		}
		if fs[i].Rule != fs[j].Rule {
			return fs[i].Rule < fs[j].Rule
		}
		return fs[i].Message < fs[j].Message
	})
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && same(f, fs[i-1]) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func comparePointers(a, b string) int {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		x, y := at[i], bt[i]
		if x == y {
			continue
		}
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		if xerr == nil && yerr == nil {
			if xn < yn {
				return -1
			}
			return 1
		}
		return strings.Compare(x, y)
	}
	return len(at) - len(bt)
}

// Pointer builds an RFC 6901 JSON pointer from reference tokens (strings or ints).
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(escapeToken(v))
		default:
			b.WriteString(escapeToken(fmt.Sprint(v)))
		}
	}
	return b.String()
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// lastToken returns the field name a pointer ends in ("" for the document).
func lastToken(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return unescapeToken(p[i+1:])
	}
	return ""
}
