package plan

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestClaimPartKeys holds PartKeys to every name of an InstallClaim's JSON but its key
// fields, each once, as many as partDigits writes, and to assets/shards.js partKeys.
func TestClaimPartKeys(t *testing.T) {
	names := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if !f.Anonymous {
				names[strings.Split(f.Tag.Get("json"), ",")[0]] = true
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(InstallClaim{}))
	for _, k := range keyFields {
		if k != "project" { // a relationship's project is no key field
			delete(names, k)
		}
	}
	want := slices.Sorted(maps.Keys(names))
	if !slices.Equal(PartKeys, want) {
		t.Errorf("partKeys are\n%q\nan InstallClaim's names (sorted)\n%q", PartKeys, want)
	}
	if len(PartKeys) > len(partDigits) {
		t.Errorf("%d PartKeys, %d short names", len(PartKeys), len(partDigits))
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("ASHYAMS_CI") != "" {
			t.Fatalf("node is not installed, and CI installs it: %v", err)
		}
		t.Skipf("node is not installed (%v)", err)
	}
	out, err := exec.Command(node, "-e", `process.stdout.write(JSON.stringify(require(process.argv[1]).partKeys))`,
		filepath.Join("..", "..", "assets", "shards.js")).Output()
	if err != nil {
		t.Fatal(err)
	}
	var js []string
	if err := json.Unmarshal(out, &js); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(js, PartKeys) {
		t.Errorf("assets/shards.js partKeys are\n%q\nsite/plan's\n%q", js, PartKeys)
	}
}
