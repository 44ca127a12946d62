// Package corpustest is test-only: the one place that knows where ../shared is, and the
// generated stand-ins that check the same behaviours without it. A test reads the real corpus
// through Optional, as one more case beside its generated ones, so a clone without ../shared
// skips nothing. ASHYAMS_NO_SHARED=1 makes ../shared read as absent, so the generated cases can
// be run alone where it is present.
package corpustest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Root is ../shared: "shared" beside the nearest directory above the working directory that
// holds go.mod. The error says why it is absent.
func Root() (string, error) {
	if os.Getenv("ASHYAMS_NO_SHARED") != "" {
		return "", errors.New("ASHYAMS_NO_SHARED is set")
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
	root := filepath.Join(filepath.Dir(dir), "shared")
	_, err = os.Stat(root)
	return root, err
}

// Find is the path of rel (slash-separated) below ../shared/corpus, and whether it exists.
func Find(rel string) (string, bool) { return FindShared("corpus/" + rel) }

// FindShared is the path of rel (slash-separated) below ../shared, and whether it exists.
func FindShared(rel string) (string, bool) {
	root, err := Root()
	if err != nil {
		return "", false
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	_, err = os.Stat(p)
	return p, err == nil
}

// Optional is Find(rel) for a test whose generated cases check the same behaviour: when rel is
// absent it logs so and reports false, or fails tb under CI (ASHYAMS_CI set), which always runs
// with ../shared beside the clone.
func Optional(tb testing.TB, rel string) (string, bool) {
	tb.Helper()
	p, ok := Find(rel)
	if !ok {
		absent(tb, "corpus/"+rel, tb.Logf, "the generated cases only")
	}
	return p, ok
}

// Path is Find(rel), skipping tb, saying so, when it is absent.
func Path(tb testing.TB, rel string) string { return skipUnless(tb, "corpus/"+rel) }

// Shared is FindShared(rel), skipping tb, saying so, when it is absent.
func Shared(tb testing.TB, rel string) string { return skipUnless(tb, rel) }

// skipUnless is the path of rel below ../shared. When it is absent the test is skipped, or
// fails under CI.
func skipUnless(tb testing.TB, rel string) string {
	tb.Helper()
	p, ok := FindShared(rel)
	if !ok {
		absent(tb, rel, tb.Skipf, "this test reads the real corpus")
	}
	return p
}

// absent reports ../shared/rel missing through say, or fails tb under CI (ASHYAMS_CI set),
// which always runs with ../shared beside the clone.
func absent(tb testing.TB, rel string, say func(string, ...any), why string) {
	tb.Helper()
	if os.Getenv("ASHYAMS_CI") != "" {
		tb.Fatalf("../shared/%s is absent, and CI runs with it", rel)
	}
	say("../shared/%s is absent: %s", rel, why)
}
