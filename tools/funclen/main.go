// Command funclen lists the Go functions longer than a limit, so that
// `make lint` keeps every function short enough to read in one screen.
//
//	go run ./tools/funclen [-max 80] [dir ...]
//
// It reads the Go files of each directory given (scripts/lint.sh passes
// the module's package directories), or, with none, of every directory
// below "." but hidden ones, testdata, vendor and web. Tests and generated
// files do not count. Each function counts from its "func" line to its
// closing brace. It prints one line per function over the limit, longest
// first, and exits 1 when there is any.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// long is one function over the limit.
type long struct {
	pos   string
	name  string
	lines int
}

func main() {
	limit := flag.Int("max", 80, "the most lines a function may have")
	flag.Parse()
	files, err := goFiles(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "funclen:", err)
		os.Exit(2)
	}
	var found []long
	for _, path := range files {
		fl, err := longFuncs(path, *limit)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(2)
		}
		found = append(found, fl...)
	}
	slices.SortFunc(found, func(a, b long) int { return b.lines - a.lines })
	for _, f := range found {
		fmt.Printf("%s: %s is %d lines (at most %d)\n", f.pos, f.name, f.lines, *limit)
	}
	if len(found) > 0 {
		os.Exit(1)
	}
}

// goFiles lists the Go files that count: those directly in dirs, or with
// no dirs those below ".".
func goFiles(dirs []string) ([]string, error) {
	counts := func(name string) bool {
		return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
	}
	var files []string
	if len(dirs) > 0 {
		for _, dir := range dirs {
			entries, err := os.ReadDir(dir)
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if !e.IsDir() && counts(e.Name()) {
					files = append(files, filepath.Join(dir, e.Name()))
				}
			}
		}
		return files, nil
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && skipDir(path):
			return filepath.SkipDir
		case !d.IsDir() && counts(path):
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// skipDir reports whether a directory holds no Go code of ours.
func skipDir(path string) bool {
	base := filepath.Base(path)
	return path != "." && (strings.HasPrefix(base, ".") || base == "node_modules" || base == "vendor" || base == "web" || base == "testdata")
}

// longFuncs parses one file and answers its functions over limit lines.
func longFuncs(path string, limit int) ([]long, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	var out []long
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		if n := end.Line - start.Line + 1; n > limit {
			out = append(out, long{pos: fmt.Sprintf("%s:%d", path, start.Line), name: funcName(fn), lines: n})
		}
	}
	return out, nil
}

// funcName is a function's name, with its receiver type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if idx, ok := t.(*ast.IndexExpr); ok {
		t = idx.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
