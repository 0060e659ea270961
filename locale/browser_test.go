package locale_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"testing"

	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/testkit"
)

var update = flag.Bool("update", false, "rewrite "+browserCatalogueFile+" from the Go catalogue")

// browserCatalogueFile is the browser's copy of the catalogue: with it the
// browser says its own validation messages, and the labels it already
// holds, in the language the patient switches to (web/src/lib/serverText.ts).
const browserCatalogueFile = "../web/src/lib/serverMessages.generated.json"

func TestBrowserCatalogue(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]map[string]string{"es": locale.Catalogue()}); err != nil {
		t.Fatal(err)
	}
	testkit.Generated(t, browserCatalogueFile, b.Bytes(), *update, "go test ./locale/ -run TestBrowserCatalogue -update")
}
