package seal_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chairside/chairside/seal"
)

// TestRotateStageRetire: a rotation adds a key and seals with it, old
// values still open; a staged key is known but not used until the next
// rotation makes it current; the current key cannot be retired, an old
// one can, and values it sealed then no longer open.
func TestRotateStageRetire(t *testing.T) {
	data, err := seal.Generate()
	if err != nil {
		t.Fatal(err)
	}
	k1, _ := seal.FromJSON(data)
	old, _ := k1.Seal([]byte("Ada"), "applications/1/primary")

	staged, newest, err := seal.Rotate(data, true, false)
	if err != nil || newest != "k2" {
		t.Fatalf("stage: %q %v", newest, err)
	}
	ring, _ := seal.FromJSON(staged)
	if ring.CurrentID() != "k1" || strings.Join(ring.KeyIDs(), ",") != "k1,k2" {
		t.Fatalf("a staged key is used: current %s of %v", ring.CurrentID(), ring.KeyIDs())
	}
	rotated, newest, err := seal.Rotate(staged, false, true)
	if err != nil || newest != "k2" {
		t.Fatalf("rotate to the staged key: %q %v", newest, err)
	}
	ring, _ = seal.FromJSON(rotated)
	fresh, _ := ring.Seal([]byte("Ada"), "applications/1/primary")
	if ring.CurrentID() != "k2" || !strings.HasPrefix(fresh, seal.Prefix("k2")) || !strings.HasPrefix(old, seal.Prefix("k1")) {
		t.Fatalf("after rotating: current %s, fresh %.6s", ring.CurrentID(), fresh)
	}
	if got, err := ring.Open(old, "applications/1/primary"); err != nil || string(got) != "Ada" {
		t.Fatalf("an old value after rotating: %q %v", got, err)
	}
	if _, err := seal.Retire(rotated, "k2"); err == nil {
		t.Error("the current key was retired")
	}
	retired, err := seal.Retire(rotated, "k1")
	if err != nil {
		t.Fatal(err)
	}
	ring, _ = seal.FromJSON(retired)
	if _, err := ring.Open(old, "applications/1/primary"); !errors.Is(err, seal.ErrOpen) {
		t.Errorf("a value of a retired key opened: %v", err)
	}
	if got, err := ring.Open(fresh, "applications/1/primary"); err != nil || string(got) != "Ada" {
		t.Errorf("a current value after retiring the old key: %q %v", got, err)
	}
	// The blind index is the same before and after: an SSN's cap still counts.
	if k1.BlindIndex("123456789") != ring.BlindIndex("123456789") {
		t.Error("a rotation changed the blind index key")
	}
	third, newest, _ := seal.Rotate(retired, true, true)
	if ring, _ = seal.FromJSON(third); newest != "k3" || ring.CurrentID() != "k3" {
		t.Errorf("the next key: %s, current %s", newest, ring.CurrentID())
	}
}

// TestKeyBackup: the backup opens with its passphrase only, never holds
// the keys in clear, and refuses a short passphrase and a damaged file.
func TestKeyBackup(t *testing.T) {
	data, _ := seal.Generate()
	if _, err := seal.SealBackup(data, "short"); err == nil {
		t.Error("a short passphrase was taken")
	}
	const pass = "correct horse battery staple"
	b, err := seal.SealBackup(data, pass)
	if err != nil {
		t.Fatal(err)
	}
	ring, _ := seal.FromJSON(data)
	for _, part := range bytes.Split(data, []byte(`"`)) {
		if len(part) > 20 && bytes.Contains(b, part) {
			t.Fatalf("the backup holds key material in clear: %s", part)
		}
	}
	got, err := seal.OpenBackup(b, pass)
	if err != nil {
		t.Fatal(err)
	}
	back, _ := seal.FromJSON(got)
	if back.BlindIndex("x") != ring.BlindIndex("x") || back.CurrentID() != ring.CurrentID() {
		t.Error("the opened backup is not the same key set")
	}
	if _, err := seal.OpenBackup(b, pass+"!"); !errors.Is(err, seal.ErrPassphrase) {
		t.Errorf("a wrong passphrase: %v", err)
	}
	damaged := bytes.Clone(b)
	damaged[len(damaged)-10] ^= 0x01
	if _, err := seal.OpenBackup(damaged, pass); err == nil {
		t.Error("a damaged backup opened")
	}
	if _, err := seal.OpenBackup(data, pass); err == nil {
		t.Error("a key file was taken for a backup")
	}
}

// TestWriteFileReplaces: the key file is replaced whole, private to its owner.
func TestWriteFileReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := seal.Generate()
	if err := seal.WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	got, _ := os.ReadFile(path)
	if err != nil || fi.Mode().Perm() != 0o600 || !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(data)) {
		t.Errorf("after WriteFile: %v %v %q", fi.Mode(), err, got)
	}
}
