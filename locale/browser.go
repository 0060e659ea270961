package locale

import (
	"bytes"
	"encoding/json"
)

// BrowserCatalogueFile is the browser's copy of the catalogue, from the
// module's root: with it the browser says its own validation messages, and
// the labels it already holds, in the language the patient switches to
// (web/src/lib/serverText.ts). `make generate` writes it (tools/generate).
const BrowserCatalogueFile = "web/src/lib/serverMessages.generated.json"

// BrowserCatalogue renders the browser's copy of the catalogue.
func BrowserCatalogue() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]map[string]string{"es": Catalogue()}); err != nil {
		panic(err) // a map of strings always encodes
	}
	return b.Bytes()
}
