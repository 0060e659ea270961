package locale_test

import (
	"testing"

	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/testkit"
)

// TestBrowserCatalogue: the browser's copy of the catalogue is the Go
// catalogue (locale/browser.go).
func TestBrowserCatalogue(t *testing.T) {
	testkit.Generated(t, "../"+locale.BrowserCatalogueFile, locale.BrowserCatalogue())
}
