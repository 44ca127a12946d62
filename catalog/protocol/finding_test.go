package protocol

import (
	"fmt"
	"testing"
)

// TestSummary: one problem line holds the first three findings and counts the rest.
func TestSummary(t *testing.T) {
	var fs []Finding
	for i := range 5 {
		fs = append(fs, Finding{Pointer: fmt.Sprintf("/a/%d", i), Rule: "type", Message: "m"})
	}
	if got, want := Summary(fs), "/a/0 [type] m; /a/1 [type] m; /a/2 [type] m; and 2 more"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	if got := Summary(fs[:1]); got != "/a/0 [type] m" {
		t.Errorf("one finding: %q", got)
	}
}
