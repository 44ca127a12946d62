package shards

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitetest"
)

// TestScriptString: ScriptString quotes any text so that the script string reads back as the text:
// quotes, backslashes, line terminators and controls escaped, the rest as it is.
func TestScriptString(t *testing.T) {
	for _, s := range []string{"", `{"a":"b\"c"}`, `it's`, `back\slash`, "line\nbreak\r", "sep\u2028para\u2029", "nul\x00del\x7f", "Ωμέγα ✓", `\'`} {
		q := ScriptString(s)
		if strings.ContainsAny(q[1:len(q)-1], "\n\r\u2028\u2029\x00") {
			t.Errorf("ScriptString(%q) = %q holds a raw terminator or control", s, q)
		}
		got, err := sitetest.JSUnquote(q)
		if err != nil || got != s {
			t.Errorf("ScriptString(%q) = %q reads back as %q (%v)", s, q, got, err)
		}
	}
}
