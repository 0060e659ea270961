// Command generate writes the files the project generates from a source
// of truth in Go, from the module's root (`make generate` runs it):
//
//   - the browser's copy of the server's message catalogue (locale/browser.go);
//   - the browser's validation tables (validate/browser_tables.go);
//   - the codes and routes the browser may log (flow/client_log.go);
//   - the settings table of docs/running.md, from cmd/chairside/config.go,
//     through `chairside settings -doc` (package main cannot be imported).
//
// Tests in each package fail when a committed file is not what this
// writes; lint runs them.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"

	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/validate"
)

// settingsDoc is the document whose settings table is rewritten.
const settingsDoc = "docs/running.md"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	settings, err := settingsDocument()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		path string
		body []byte
	}{
		{locale.BrowserCatalogueFile, locale.BrowserCatalogue()},
		{validate.BrowserTablesFile, validate.BrowserTables()},
		{flow.ClientLogFile, flow.BrowserClientLog()},
		{settingsDoc, settings},
	} {
		if err := write(f.path, f.body); err != nil {
			return err
		}
	}
	return nil
}

// settingsDocument answers docs/running.md with its settings table as the
// server's configuration gives it.
func settingsDocument() ([]byte, error) {
	var out, errs bytes.Buffer
	cmd := exec.Command("go", "run", "./cmd/chairside", "settings", "-doc", settingsDoc)
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("chairside settings: %v: %s", err, errs.String())
	}
	return out.Bytes(), nil
}

// write writes body to path unless it already holds it, and says which
// files changed.
func write(path string, body []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, body) {
		return nil
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return err
	}
	fmt.Println("generate: wrote", path)
	return nil
}
