package testkit

import (
	"bytes"
	"os"
	"testing"
)

// Generated checks a file the browser reads that a Go test writes from the
// Go declarations (validate's tables, locale's catalogue): with update it
// writes want to path, otherwise it fails unless the file holds exactly
// want, naming the command that rewrites it.
func Generated(t *testing.T, path string, want []byte, update bool, rewrite string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is not what the Go declarations give; rewrite it with: %s", path, rewrite)
	}
}
