package schemas

import (
	"os"
	"strings"
	"testing"
)

// TestPlanFileSchema: README.md's example plan file is valid; a file without its link, with a
// link that is not a plan page's, or with a field the format does not have is not.
func TestPlanFileSchema(t *testing.T) {
	s, err := Compile(FS, PlanFile)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, _ := strings.Cut(string(readme), "## The plan file")
	_, example, _ = strings.Cut(example, "```json\n")
	example, _, _ = strings.Cut(example, "```")
	if err := Validate(s, []byte(example)); err != nil || example == "" {
		t.Errorf("README.md's example %q: %v", example, err)
	}
	const id = "0e7eb278-83f7-48e6-b938-25d306e84c41"
	good := `{"format": "ashyams-plan-1", "link": "https://x.example/ix/plan/#add=` + id + `", "planned": [{"project": "` + id + `", "site": "x-example-1234abcd", "version": "1.2.0"}]}`
	if err := Validate(s, []byte(good)); err != nil {
		t.Errorf("a good plan file: %v", err)
	}
	for doc, want := range map[string]string{
		`{"format": "ashyams-plan-1"}`: `missing properties: 'link'`,
		`{"format": "ashyams-plan-1", "link": "https://x.example/ix/setup/#add=` + id + `"}`:                                           `"/link"`,
		`{"format": "ashyams-plan-1", "link": "ftp://x.example/plan/#add=` + id + `"}`:                                                 `"/link"`,
		`{"format": "ashyams-plan-2", "link": "https://x.example/plan/#"}`:                                                             `"/format"`,
		`{"format": "ashyams-plan-1", "link": "https://x.example/plan/#", "root": "/x"}`:                                               `additionalProperties 'root' not allowed`,
		`{"format": "ashyams-plan-1", "link": "https://x.example/plan/#", "planned": [{"project": "X", "site": "s", "version": "1"}]}`: `"/planned/0/project"`,
	} {
		if err := Validate(s, []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", doc, err, want)
		}
	}
}
