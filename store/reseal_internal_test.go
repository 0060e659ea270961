package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSealedColumnsListed: every value the store seals is bound with an
// aad function, and every such function is one of sealedColumns', so a
// key rotation re-seals every sealed column (a new one not listed would
// keep the old key alive for ever).
func TestSealedColumnsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sealCall := regexp.MustCompile(`keys\.Seal\([^,]+,\s*(\w+)\(`)
	registry, err := os.ReadFile("reseal.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range sealCall.FindAllStringSubmatch(string(src), -1) {
			found++
			if !strings.Contains(string(registry), m[1]) {
				t.Errorf("%s seals with %s, which sealedColumns does not list", f, m[1])
			}
		}
	}
	if found < len(sealedColumns) {
		t.Errorf("found %d calls sealing values, fewer than the %d sealed columns", found, len(sealedColumns))
	}
}
