package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shape rules of the repository's Go (issue 36): no non-test file over maxFileLines lines,
// no function (declared or literal, from func to its closing brace) over maxFuncLines.
const (
	maxFileLines = 600
	maxFuncLines = 80
)

// TestShape checks every non-test Go file of the repository against the shape rules and logs
// the non-test Go total in characters (bytes, as the weight budget counts them).
func TestShape(t *testing.T) {
	root := filepath.Join("..", "..")
	files, chars := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files, chars = files+1, chars+len(src)
		if n := bytes.Count(src, []byte("\n")); n > maxFileLines {
			t.Errorf("%s: %d lines, over %d: split it by concern", rel, n, maxFileLines)
		}
		for _, f := range longFuncs(t, rel, src) {
			t.Errorf("%s: over %d lines: split it", f, maxFuncLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("found %d non-test Go files under %s: the walk no longer sees the repository", files, root)
	}
	t.Logf("non-test Go: %d files, %d characters", files, chars)
}

// longFuncs lists the functions in src over maxFuncLines as "file:line name (n lines)".
func longFuncs(t *testing.T, rel string, src []byte) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, 0)
	if err != nil {
		t.Errorf("%s: %v", rel, err)
		return nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		name, body := "func literal", (*ast.BlockStmt)(nil)
		switch x := n.(type) {
		case *ast.FuncDecl:
			name, body = x.Name.Name, x.Body
		case *ast.FuncLit:
			body = x.Body
		}
		if body != nil {
			start := fset.Position(n.Pos())
			if l := fset.Position(body.End()).Line - start.Line + 1; l > maxFuncLines {
				out = append(out, fmt.Sprintf("%s %s (%d lines)", start, name, l))
			}
		}
		return true
	})
	return out
}
