package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// A finding's message quotes what the document holds. say formats a message twice: with every
// quoted value in place (Finding.Message), and with each replaced by a numbered slot "{n}"
// (Finding.Words), the values in Finding.Quotes, so a page sets each value off as the
// publisher's text.

// pub marks a message argument as the document's text: a slot in the words.
type pub string

// phrase is a part of a message with arguments of its own, formatted with %s; the values it
// quotes become slots of the finding it is in.
type phrase struct {
	format string
	args   []any
}

// String is the phrase as the message holds it.
func (p phrase) String() string {
	m, _, _ := say(p.format, p.args...)
	return m
}

// slot stands for the n-th quoted value in the words: "{n}", in double quotes where the
// message has %q.
type slot int

// Format writes the slot.
func (s slot) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, `"{%d}"`, int(s))
		return
	}
	fmt.Fprintf(f, "{%d}", int(s))
}

// say formats format with args as the message and as the words, and returns the quoted values
// in slot order. pub and phrase arguments quote; any other is the index's own.
func say(format string, args ...any) (message, words string, quotes []string) {
	plain := make([]any, len(args))
	slots := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case pub:
			plain[i] = string(v)
			quotes = append(quotes, string(v))
			slots[i] = slot(len(quotes))
		case phrase:
			m, w, q := say(v.format, v.args...)
			plain[i] = m
			slots[i] = renumber(w, len(quotes))
			quotes = append(quotes, q...)
		default:
			plain[i], slots[i] = a, a
		}
	}
	return fmt.Sprintf(format, plain...), fmt.Sprintf(format, slots...), quotes
}

func renumber(words string, by int) string {
	if by == 0 {
		return words
	}
	var b strings.Builder
	ForSlots(words, func(text string, n int) {
		b.WriteString(text)
		if n > 0 {
			b.WriteString("{" + strconv.Itoa(n+by) + "}")
		}
	})
	return b.String()
}

// ForSlots walks a finding's Words: f gets each stretch of text and the number of the slot
// after it (1 for Quotes[0]; 0 after the last). A brace that opens no "{<digits>}" is text.
func ForSlots(words string, f func(text string, n int)) {
	at := 0
	for i := 0; i < len(words); i++ {
		if words[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(words) && '0' <= words[j] && words[j] <= '9' {
			j++
		}
		if j == i+1 || j == len(words) || words[j] != '}' {
			continue
		}
		n, err := strconv.Atoi(words[i+1 : j])
		if err != nil || n == 0 {
			continue
		}
		f(words[at:i], n)
		at, i = j+1, j
	}
	f(words[at:], 0)
}

// quoting is text the index did not format itself (a catalog/version error) as a phrase: each
// occurrence of a known value, %q-quoted, becomes a quotation. Nothing is found by its shape.
func quoting(text string, values ...string) phrase {
	var fb strings.Builder
	var args []any
	for rest := text; rest != ""; {
		best, bestAt := "", -1
		for _, v := range values {
			q := strconv.Quote(v)
			if v == "" {
				continue
			}
			if i := strings.Index(rest, q); i >= 0 && (bestAt < 0 || i < bestAt || i == bestAt && len(q) > len(strconv.Quote(best))) {
				best, bestAt = v, i
			}
		}
		if bestAt < 0 {
			fb.WriteString(strings.ReplaceAll(rest, "%", "%%"))
			break
		}
		fb.WriteString(strings.ReplaceAll(rest[:bestAt], "%", "%%"))
		fb.WriteString("%q")
		args = append(args, pub(best))
		rest = rest[bestAt+len(strconv.Quote(best)):]
	}
	return phrase{format: fb.String(), args: args}
}

// constraintText is a catalog/version constraint error as a phrase quoting c and its parts.
func constraintText(err error, c string) phrase {
	values := []string{c}
	for _, p := range strings.Split(c, ",") {
		values = append(values, strings.TrimSpace(p))
	}
	return quoting(err.Error(), values...)
}

// versionForms say which form a version takes under each scheme (versions.md, Grammar).
var versionForms = map[version.Scheme]string{
	version.Numeric: "under numeric versioning a version is one to six release numbers without leading zeros, separated by dots, then optionally a -pre-release and a +build label, such as 1.2.10 or 2.0-beta.1",
	version.Decimal: "under decimal versioning a version is one to six release numbers separated by dots, the first without leading zeros, then optionally a -pre-release and a +build label, such as 0.963 or 1.05-beta.1",
}

// versionFault is a catalog/version error for v as a phrase, with the form v must take.
func versionFault(err error, v string, sch version.Scheme) phrase {
	return phrase{"%s (%s)", []any{quoting(err.Error(), v), versionForms[sch]}}
}

// leafPhrase is a finding made by say as a phrase of another finding's message (the causes a
// oneOf finding lists); its message is the finding's Message.
func leafPhrase(f Finding) phrase {
	var fb strings.Builder
	var args []any
	quoted := false // the slot before this stretch was "{n}": its closing quote starts it
	ForSlots(f.Words, func(text string, n int) {
		if quoted {
			text = strings.TrimPrefix(text, `"`)
		}
		quoted = false
		verb := "%s"
		if n > 0 && n <= len(f.Quotes) && strings.HasSuffix(text, `"`) {
			text, verb, quoted = strings.TrimSuffix(text, `"`), "%q", true
		}
		fb.WriteString(strings.ReplaceAll(text, "%", "%%"))
		if n > 0 && n <= len(f.Quotes) {
			fb.WriteString(verb)
			args = append(args, pub(f.Quotes[n-1]))
		}
	})
	return phrase{fb.String(), args}
}

// libQuoting is a JSON Schema library message quoting s its own way, as a phrase.
func libQuoting(text, s string) phrase {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = "'" + strings.ReplaceAll(q[1:len(q)-1], "'", `\'`) + "'"
	before, after, ok := strings.Cut(text, q)
	if !ok {
		return phrase{"%s", []any{text}}
	}
	return phrase{"%s'%s'%s", []any{before, pub(s), after}}
}

// valueAt is the value at pointer ptr in a document decoded by parseStrict; nil when none.
func valueAt(v any, ptr string) any {
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
