package chairside_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// docCitation is a comment's citation of a project document, with the
	// section it names when it names one: (docs/behaviour.md, "Routes").
	docCitation = regexp.MustCompile(`\b((?:docs/)?[A-Za-z-]+\.md)(?:,\s*"([^"]+)")?`)
	// filePath is a comment's mention of a file of the repository by its
	// path from the root: store/batch.go, web/e2e/helpers.ts.
	filePath = regexp.MustCompile(`\b(?:[a-z_-]+/)+[A-Za-z_.-]+\.(?:go|sql|ts|tsx|mjs|yaml)\b`)
	// benchmarkFigure is a measured number: it belongs in
	// docs/performance.md, which comments cite instead.
	benchmarkFigure = regexp.MustCompile(`\d[\d.,]*\s?(?:ms|µs|MB|calls/s|fsyncs)\b`)
	// strayCitations name documents this repository does not have.
	strayCitations = regexp.MustCompile(`(?i)spec §|\bthe spec\b|server-behaviour\.md|security\.md|design notes?\b`)
)

// TestCommentsCiteWhatExists: the Go comments cite only documents and
// sections that exist in the repository, name only files that exist, and
// carry no benchmark figures (those are in docs/performance.md), so a
// comment cannot silently outlive what it describes.
func TestCommentsCiteWhatExists(t *testing.T) {
	for _, path := range goFiles(t) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, group := range f.Comments {
			text := strings.Join(strings.Fields(group.Text()), " ")
			at := fset.Position(group.Pos())
			checkComment(t, at.String(), text, strings.HasSuffix(path, "_test.go"))
		}
	}
}

func checkComment(t *testing.T, at, text string, isTest bool) {
	t.Helper()
	if m := strayCitations.FindString(text); m != "" {
		t.Errorf("%s: cites %q, which is not in this repository", at, m)
	}
	if m := benchmarkFigure.FindString(text); m != "" && !isTest {
		t.Errorf("%s: the figure %q belongs in docs/performance.md", at, m)
	}
	for _, m := range docCitation.FindAllStringSubmatch(text, -1) {
		doc, section := m[1], m[2]
		body, err := os.ReadFile(doc)
		if err != nil {
			t.Errorf("%s: cites %s, which does not exist", at, doc)
			continue
		}
		if section != "" && !hasSection(string(body), section) {
			t.Errorf("%s: cites %s, %q, which has no such section", at, doc, section)
		}
	}
	for _, p := range filePath.FindAllString(text, -1) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: names %s, which does not exist", at, p)
		}
	}
}

// hasSection reports whether a Markdown document has a heading, or a bold
// item, named section.
func hasSection(doc, section string) bool {
	for line := range strings.Lines(doc) {
		line = strings.TrimSpace(line)
		if strings.TrimSpace(strings.TrimLeft(line, "#")) == section && strings.HasPrefix(line, "#") {
			return true
		}
		if strings.Contains(line, "**"+section+"**") {
			return true
		}
	}
	return false
}

// goFiles lists the repository's Go files, but none an npm package ships.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "."):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go"):
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
