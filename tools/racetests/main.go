// Command racetests prints the tests of the packages in the folders it is
// given that start goroutines — a go statement, a WaitGroup's or
// errgroup's Go, in the test or a test helper it calls — as one -run
// pattern, "^(TestA|TestB)$" (a name two packages share runs in both).
// scripts/test.sh runs those tests again under the race detector: it
// costs five to eight times a test's CPU, so the whole suite runs without
// it and the detector watches the tests made to have callers race
// (docs/testing.md, "How the run is kept fast").
//
// Usage: racetests DIR...
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	seen := map[string]bool{}
	var all []string
	for _, dir := range os.Args[1:] {
		names, err := racyTests(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "racetests:", err)
			os.Exit(1)
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				all = append(all, n)
			}
		}
	}
	if len(all) == 0 {
		fmt.Fprintln(os.Stderr, "racetests: no test starts goroutines")
		os.Exit(1)
	}
	sort.Strings(all)
	fmt.Printf("^(%s)$\n", strings.Join(all, "|"))
}

// racyTests answers the sorted names of dir's tests that start goroutines,
// in their own bodies or through the package's test helpers they call (a
// helper's helper too).
func racyTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	bodies := map[string]*ast.BlockStmt{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Body != nil {
				bodies[fn.Name.Name] = fn.Body
			}
		}
	}
	racy := map[string]bool{}
	for name, body := range bodies {
		racy[name] = startsGoroutines(body)
	}
	// A function calling a racy one is racy: repeat until nothing changes.
	for changed := true; changed; {
		changed = false
		for name, body := range bodies {
			if !racy[name] && callsAny(body, racy) {
				racy[name], changed = true, true
			}
		}
	}
	var names []string
	for name := range bodies {
		if racy[name] && strings.HasPrefix(name, "Test") && name != "TestMain" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, nil
}

// callsAny reports whether body calls, by its plain name, a function
// that racy marks.
func callsAny(body *ast.BlockStmt, racy map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && racy[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// startsGoroutines reports whether body holds a go statement or a call of
// a method named Go (sync.WaitGroup.Go, errgroup.Group.Go), function
// literals included.
func startsGoroutines(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
				found = true
			}
		}
		return !found
	})
	return found
}
