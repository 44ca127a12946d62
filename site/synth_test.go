package site

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestWriteSynthSite writes a synthetic state of $ASHYAMS_SYNTH claims (synthState) and the
// site built from it under $ASHYAMS_SYNTH_OUT (state/ and public/), to look at or measure:
//
//	ASHYAMS_SYNTH=10000 ASHYAMS_SYNTH_OUT=/tmp/synth go test ./site -run TestWriteSynthSite
//
// It skips unless both are set.
func TestWriteSynthSite(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("ASHYAMS_SYNTH"))
	dir := os.Getenv("ASHYAMS_SYNTH_OUT")
	if err != nil || n <= 0 || dir == "" {
		t.Skip("ASHYAMS_SYNTH (a number of claims) and ASHYAMS_SYNTH_OUT (a directory) are not both set")
	}
	state := filepath.Join(dir, "state")
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	synthState(t, state, n)
	if _, err := Build(Options{State: state, Out: filepath.Join(dir, "public")}); err != nil {
		t.Fatal(err)
	}
}
