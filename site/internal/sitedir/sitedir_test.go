package sitedir

import (
	"os"
	"path/filepath"
	"testing"
)

// BaseURL reads the marker's base_url line; no marker, or a marker without the line, is "".
func TestBaseURL(t *testing.T) {
	for _, c := range []struct {
		marker *string
		want   string
	}{
		{nil, ""},
		{ptr("written by a build\n"), ""},
		{ptr("written by a build\n" + MarkerBase + "https://idx.example/x/ \n"), "https://idx.example/x/"},
	} {
		out := t.TempDir()
		if c.marker != nil {
			if err := os.WriteFile(filepath.Join(out, Marker), []byte(*c.marker), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := BaseURL(out); err != nil || got != c.want {
			t.Errorf("marker %v: BaseURL = %q, %v; want %q", c.marker, got, err, c.want)
		}
	}
	// A marker that is a directory cannot be read: an error, not "".
	out := t.TempDir()
	if err := os.Mkdir(filepath.Join(out, Marker), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := BaseURL(out); err == nil {
		t.Error("an unreadable marker gave no error")
	}
}

func ptr(s string) *string { return &s }

// BasePath is one spelling of the base URL's path, with a final slash.
func TestBasePath(t *testing.T) {
	for base, want := range map[string]string{
		"":                                  "/",
		"https://idx.example":               "/",
		"https://idx.example/":              "/",
		"https://idx.example/ashyams-go":    "/ashyams-go/",
		"https://idx.example/my%20index/":   "/my%20index/",
		"https://idx.example/ind%c3%a9x/":   "/ind%C3%A9x/",
		"https://idx.example/it's/":         "/it%27s/",
		"https://idx.example/bad%zzescape/": "/",
	} {
		if got := BasePath(base); got != want {
			t.Errorf("BasePath(%q) = %q, want %q", base, got, want)
		}
	}
}
