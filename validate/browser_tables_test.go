package validate_test

import (
	"testing"

	"github.com/chairside/chairside/testkit"
	"github.com/chairside/chairside/validate"
)

// TestBrowserTables: the browser's copy of the validation data is what the
// Go declarations give (validate/browser_tables.go).
func TestBrowserTables(t *testing.T) {
	testkit.Generated(t, "../"+validate.BrowserTablesFile, validate.BrowserTables())
}
