package testkit

import (
	"bytes"
	"os"
	"testing"
)

// Generated fails unless the file at path holds exactly want: a file
// written from Go declarations by `make generate` (tools/generate) that
// must not drift from them (validate's tables, locale's catalogue, the
// settings table of docs/running.md).
func Generated(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is not what the Go declarations give; rewrite it with: make generate", path)
	}
}
