// Command testsum reads the machine-readable reports of every test suite
// (go test -json, Vitest's JSON reporter, Playwright's JSON reporter) and
// prints one closing line, "tests: N passed, N failed", so a run that
// executed nothing — or lost a whole suite — is visible at a glance.
//
// Usage: testsum [-go FILE] [-vitest FILE] [-playwright FILE]
// A named report that is missing or empty counts as one failure: a suite
// that did not run must not look like a suite that passed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
)

type counts struct{ passed, failed, skipped int }

// failedNames collects, while the reports are read, a line for each failed
// test of Vitest and Playwright (Go prints its failures as it goes).
var failedNames []string

// firstLine answers the first line of an error message, shortened.
func firstLine(msg string) string {
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg
}

// ansi matches the terminal colour codes Playwright puts in its messages.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// pwError answers what a CI log needs to tell which check failed in a
// browser test: the message's first lines without colour codes (for an
// expect, the locator, the expected and the received text) and the test file's
// line from the stack.
func pwError(msg, stack string) string {
	lines := strings.Split(strings.TrimSpace(ansi.ReplaceAllString(msg, "")), "\n")
	kept := []string{}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && len(kept) < 6 {
			kept = append(kept, firstLine(l))
		}
	}
	for _, l := range strings.Split(stack, "\n") {
		if strings.Contains(l, ".spec.ts:") {
			kept = append(kept, strings.TrimSpace(l))
			break
		}
	}
	return strings.Join(kept, "\n    ")
}

func (c *counts) add(o counts) {
	c.passed += o.passed
	c.failed += o.failed
	c.skipped += o.skipped
}

func main() {
	goFile := flag.String("go", "", "go test -json output")
	vitestFile := flag.String("vitest", "", "vitest --reporter=json output")
	pwFile := flag.String("playwright", "", "playwright JSON reporter output")
	flag.Parse()

	var total counts
	for _, s := range []struct {
		name, file string
		read       func(string) (counts, error)
	}{
		{"go", *goFile, readGo},
		{"vitest", *vitestFile, readVitest},
		{"playwright", *pwFile, readPlaywright},
	} {
		if s.file == "" {
			continue
		}
		c, err := s.read(s.file)
		if err == nil && c.passed+c.failed+c.skipped == 0 {
			err = fmt.Errorf("no tests ran")
		}
		if err != nil {
			fmt.Printf("%s: %v\n", s.name, err)
			c = counts{failed: 1}
		}
		fmt.Printf("%-10s %d passed, %d failed, %d skipped\n", s.name+":", c.passed, c.failed, c.skipped)
		total.add(c)
	}
	// The names come last, beside the total: a CI log cut to its tail
	// still says which test failed.
	for _, name := range failedNames {
		fmt.Println("failed:", name)
	}
	fmt.Printf("tests: %d passed, %d failed, %d skipped\n", total.passed, total.failed, total.skipped)
	if total.failed > 0 {
		os.Exit(1)
	}
}

// readGo counts test (not package) results in go test -json output.
func readGo(path string) (counts, error) {
	f, err := os.Open(path)
	if err != nil {
		return counts{}, err
	}
	defer f.Close()
	var c counts
	testFailed := map[string]bool{}  // packages with a failed test
	outputs := map[string][]string{} // output of running tests, by package and name
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Test, Package, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			fmt.Println(sc.Text()) // build errors print plain text lines
			continue
		}
		// Echo what go test would print without -v: each package's closing
		// line, and the whole output of every failed test.
		if ev.Action == "output" {
			if ev.Test == "" {
				fmt.Print(ev.Output)
			} else {
				key := ev.Package + " " + ev.Test
				outputs[key] = append(outputs[key], ev.Output)
			}
		}
		if ev.Test != "" && (ev.Action == "fail" || ev.Action == "skip") {
			// A skip prints its reason too: a suite that skipped its
			// PostgreSQL half must say so.
			for _, line := range outputs[ev.Package+" "+ev.Test] {
				if !strings.HasPrefix(line, "=== ") {
					fmt.Print(line)
				}
			}
		}
		if ev.Test != "" && (ev.Action == "pass" || ev.Action == "skip" || ev.Action == "fail") {
			delete(outputs, ev.Package+" "+ev.Test)
		}
		switch {
		case ev.Test == "" && ev.Action == "fail":
			if !testFailed[ev.Package] {
				c.failed++ // the package failed to build, or outside any test
			}
		case ev.Test == "":
		case ev.Action == "pass":
			c.passed++
		case ev.Action == "fail":
			c.failed++
			testFailed[ev.Package] = true
		case ev.Action == "skip":
			c.skipped++
		}
	}
	return c, sc.Err()
}

func readVitest(path string) (counts, error) {
	var r struct {
		NumPassedTests, NumFailedTests, NumPendingTests, NumTodoTests int
		NumFailedTestSuites                                           int
		TestResults                                                   []struct {
			Name             string
			Message          string
			AssertionResults []struct {
				FullName, Status string
				FailureMessages  []string
			}
		}
	}
	if err := readJSON(path, &r); err != nil {
		return counts{}, err
	}
	for _, file := range r.TestResults {
		if len(file.AssertionResults) == 0 && file.Message != "" {
			failedNames = append(failedNames, fmt.Sprintf("vitest %s: %s", file.Name, firstLine(file.Message)))
		}
		for _, a := range file.AssertionResults {
			if a.Status == "failed" {
				msg := ""
				if len(a.FailureMessages) > 0 {
					msg = firstLine(a.FailureMessages[0])
				}
				failedNames = append(failedNames, fmt.Sprintf("vitest %s: %s", a.FullName, msg))
			}
		}
	}
	return counts{r.NumPassedTests, r.NumFailedTests + r.NumFailedTestSuites, r.NumPendingTests + r.NumTodoTests}, nil
}

func readPlaywright(path string) (counts, error) {
	var r struct {
		Stats  struct{ Expected, Unexpected, Flaky, Skipped int }
		Errors []json.RawMessage
		pwSuite
	}
	if err := readJSON(path, &r); err != nil {
		return counts{}, err
	}
	r.failures("")
	return counts{r.Stats.Expected, r.Stats.Unexpected + r.Stats.Flaky + len(r.Errors), r.Stats.Skipped}, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// pwSuite is the part of Playwright's JSON report that names failures:
// suites nest, and each spec's tests hold one result per try.
type pwSuite struct {
	Title  string
	Suites []pwSuite
	Specs  []struct {
		Title string
		Tests []struct {
			ProjectName string
			Status      string // expected, unexpected, flaky, skipped
			Results     []struct {
				Error struct{ Message, Stack string }
			}
		}
	}
}

func (s pwSuite) failures(prefix string) {
	if s.Title != "" {
		prefix += s.Title + " › "
	}
	for _, sp := range s.Specs {
		for _, t := range sp.Tests {
			if t.Status != "unexpected" && t.Status != "flaky" {
				continue
			}
			msg := ""
			for _, res := range t.Results {
				if res.Error.Message != "" {
					msg = pwError(res.Error.Message, res.Error.Stack)
					break
				}
			}
			failedNames = append(failedNames, fmt.Sprintf("playwright [%s] %s%s (%s): %s", t.ProjectName, prefix, sp.Title, t.Status, msg))
		}
	}
	for _, sub := range s.Suites {
		sub.failures(prefix)
	}
}
