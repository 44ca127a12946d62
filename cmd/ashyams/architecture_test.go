package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ARCHITECTURE.md is where a newcomer finds their way in, so it must not drift from the tree:
// every package of the module has its row in the package table, and every path it names in
// backquotes (a package, a folder or a file) exists.

// archPath is a backquoted repository path: a top-level folder, then more of the path.
var archPath = regexp.MustCompile("`((?:catalog|cmd|crawl|site|schemas|templates|assets|network)(?:/[A-Za-z0-9_.-]+)*)/?`")

// archQuoted is any backquoted text.
var archQuoted = regexp.MustCompile("`([^`]+)`")

func TestArchitectureNamesEveryPackageAndExistingPaths(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/DreamWeave-MP/ashyams-go/"
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: %q", len(pkgs), pkgs)
	}
	rows := map[string]bool{} // the packages named in the first cell of a table row
	for _, line := range strings.Split(doc, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.TrimSpace(cells[0]) == "" {
			for _, m := range archQuoted.FindAllStringSubmatch(cells[1], -1) {
				rows[m[1]] = true
			}
		}
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p, module)
		if strings.Contains(rel, "/internal/") {
			continue // described by the row of the package it serves
		}
		if !rows[rel] {
			t.Errorf("ARCHITECTURE.md has no row for the package %s", rel)
		}
	}

	named := archPath.FindAllStringSubmatch(doc, -1)
	if len(named) < 20 {
		t.Fatalf("found %d paths in ARCHITECTURE.md; the pattern no longer matches how it names them", len(named))
	}
	for _, m := range named {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", m[1])
		}
	}
}
