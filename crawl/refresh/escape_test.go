package refresh

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
)

// hostileQuery is publisher text that would drive or disguise a terminal or a CI log: a
// right-to-left override, NEL, a line separator, a C1 CSI.
const hostileQuery = "?q=\u202eRLO\u0085NEL\u2028LS\u009b2J"

// unsafeLines returns the lines of out holding a rune that is not printable (the line breaks
// between lines excepted), or a line starting a workflow command.
func unsafeLines(out string) []string {
	var bad []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		for _, r := range l {
			if !strconv.IsPrint(r) {
				bad = append(bad, strconv.Quote(l))
				break
			}
		}
		if strings.HasPrefix(strings.TrimLeft(l, " "), "::") {
			bad = append(bad, strconv.Quote(l))
		}
	}
	return bad
}

// A site index whose manifest URL carries hostile characters: refresh's
// progress (stderr, the CI log) and its summary (stdout, the commit message), and inspect's
// report, print it escaped (\u202e, \u0085, \u2028, \u009b), each on its own line.
func TestHostileIndexTextIsEscaped(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.editIndex(tplDir, func(doc map[string]any) {
		for _, p := range doc["projects"].([]any) {
			if e := p.(map[string]any); e["id"] == tallow {
				e["manifest"] = l.url(tplDir + "/missing.json" + hostileQuery)
			}
		}
	})
	src := l.source(tplDir)
	var progress bytes.Buffer
	o := l.options(src)
	o.Progress = &progress
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	out := sum.String()
	if !strings.Contains(out, `\u202eRLO\u0085NEL\u2028LS\u009b2J`) {
		t.Errorf("the summary does not show the escaped URL:\n%s", out)
	}
	if !strings.Contains(progress.String(), `\u202eRLO\u0085NEL\u2028LS\u009b2J`) {
		t.Errorf("progress does not show the escaped URL:\n%s", progress.String())
	}
	for name, text := range map[string]string{"summary": out, "progress": progress.String()} {
		if bad := unsafeLines(text); len(bad) > 0 {
			t.Errorf("%s prints raw publisher text:\n%s", name, strings.Join(bad, "\n"))
		}
	}
	rep, err := Inspect(context.Background(), src, Options{AllowLoopback: true, Sleep: l.sl.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.String(); !strings.Contains(s, `\u202eRLO`) || len(unsafeLines(s)) > 0 {
		t.Errorf("inspect prints raw publisher text:\n%s", strings.Join(unsafeLines(s), "\n"))
	}
}
