package seal_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chairside/chairside/seal"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, seal.KeySize) }

func mustNew(t *testing.T, keys map[string][]byte, current string) *seal.Keyring {
	t.Helper()
	k, err := seal.New(keys, current, key(0xEE))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpenRoundTrip(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	for _, plain := range []string{"", "078051120", `{"firstName":"O'Hara","lastName":"ねこ"}`} {
		s, err := k.Seal([]byte(plain), "app1/primary")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(s, "v1:k1:") {
			t.Fatalf("sealed value %q lacks the v1:k1: prefix", s)
		}
		if plain != "" && strings.Contains(s, plain) {
			t.Fatalf("sealed value contains the plaintext")
		}
		got, err := k.Open(s, "app1/primary")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != plain {
			t.Fatalf("Open = %q, want %q", got, plain)
		}
	}
}

func TestSealNonceIsRandom(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	a, _ := k.Seal([]byte("same"), "x")
	b, _ := k.Seal([]byte("same"), "x")
	if a == b {
		t.Fatal("two seals of the same plaintext are equal; nonce reused")
	}
}

func TestOpenRefusesTampering(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	s, err := k.Seal([]byte("078051120"), "app1/primary")
	if err != nil {
		t.Fatal(err)
	}
	prefix := "v1:k1:"
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(s, prefix))
	if err != nil {
		t.Fatal(err)
	}
	// Flip every byte in turn: nonce, ciphertext and tag must all be covered.
	for i := range raw {
		bad := append([]byte(nil), raw...)
		bad[i] ^= 0x01
		got, err := k.Open(prefix+base64.RawStdEncoding.EncodeToString(bad), "app1/primary")
		if !errors.Is(err, seal.ErrOpen) || got != nil {
			t.Fatalf("flipped byte %d: Open = %q, %v; want nil, ErrOpen", i, got, err)
		}
	}
	cases := map[string]string{
		"truncated":      s[:len(s)-4],
		"empty":          "",
		"no version":     strings.TrimPrefix(s, "v1:"),
		"other version":  "v2" + s[2:],
		"unknown key id": strings.Replace(s, ":k1:", ":k9:", 1),
		"bad base64":     s + "!!",
		"short":          prefix + "AAAA",
	}
	for name, v := range cases {
		if got, err := k.Open(v, "app1/primary"); !errors.Is(err, seal.ErrOpen) || got != nil {
			t.Errorf("%s: Open = %q, %v; want nil, ErrOpen", name, got, err)
		}
	}
}

func TestOpenRefusesWrongAAD(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	s, _ := k.Seal([]byte("078051120"), "app1/primary")
	for _, aad := range []string{"app2/primary", "app1/joint", ""} {
		if _, err := k.Open(s, aad); !errors.Is(err, seal.ErrOpen) {
			t.Errorf("aad %q: err = %v, want ErrOpen", aad, err)
		}
	}
}

func TestOpenErrorHasNoPlaintext(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	_, err := k.Open("v1:k1:MDc4MDUxMTIw", "secret-aad")
	if err == nil || strings.Contains(err.Error(), "078051120") || strings.Contains(err.Error(), "MDc4MDUxMTIw") {
		t.Fatalf("error %v leaks the value", err)
	}
}

func TestRotation(t *testing.T) {
	old := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	s1, _ := old.Seal([]byte("before"), "a")

	rotated := mustNew(t, map[string][]byte{"k1": key(1), "k2": key(2)}, "k2")
	if got, err := rotated.Open(s1, "a"); err != nil || string(got) != "before" {
		t.Fatalf("old value after rotation: %q, %v", got, err)
	}
	s2, _ := rotated.Seal([]byte("after"), "a")
	if !strings.HasPrefix(s2, "v1:k2:") {
		t.Fatalf("new value %q not sealed with the current key", s2)
	}
	if got, err := rotated.Open(s2, "a"); err != nil || string(got) != "after" {
		t.Fatalf("new value: %q, %v", got, err)
	}
	// A server still on the old keyring refuses the new key id.
	if _, err := old.Open(s2, "a"); !errors.Is(err, seal.ErrOpen) {
		t.Fatalf("old keyring opened a k2 value: %v", err)
	}
	if ids := rotated.KeyIDs(); len(ids) != 2 || ids[0] != "k1" || ids[1] != "k2" || rotated.CurrentID() != "k2" {
		t.Fatalf("KeyIDs = %v, CurrentID = %q", ids, rotated.CurrentID())
	}
}

func TestBlindIndex(t *testing.T) {
	k := mustNew(t, map[string][]byte{"k1": key(1)}, "k1")
	a, b := k.BlindIndex("078051120"), k.BlindIndex("078051120")
	if a != b || len(a) != 64 {
		t.Fatalf("BlindIndex not deterministic hex-64: %q %q", a, b)
	}
	if a == k.BlindIndex("078051121") {
		t.Fatal("different values share an index")
	}
	other, _ := seal.New(map[string][]byte{"k1": key(1)}, "k1", key(0xDD))
	if other.BlindIndex("078051120") == a {
		t.Fatal("index does not depend on the index key")
	}
}

func TestNewRefusesBadKeys(t *testing.T) {
	cases := []struct {
		name    string
		keys    map[string][]byte
		current string
		index   []byte
	}{
		{"no keys", nil, "k1", key(0xEE)},
		{"missing current", map[string][]byte{"k1": key(1)}, "k2", key(0xEE)},
		{"short key", map[string][]byte{"k1": key(1)[:16]}, "k1", key(0xEE)},
		{"short index", map[string][]byte{"k1": key(1)}, "k1", key(0xEE)[:8]},
		{"index reuses key", map[string][]byte{"k1": key(1)}, "k1", key(1)},
		{"colon in id", map[string][]byte{"k:1": key(1)}, "k:1", key(0xEE)},
	}
	for _, c := range cases {
		if _, err := seal.New(c.keys, c.current, c.index); err == nil {
			t.Errorf("%s: New succeeded", c.name)
		}
	}
}

func TestLoadOrCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "keys.json")
	k1, err := seal.LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode = %v, want 0600", fi.Mode().Perm())
	}
	s, _ := k1.Seal([]byte("kept"), "a")

	k2, err := seal.LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k2.Open(s, "a"); err != nil || string(got) != "kept" {
		t.Fatalf("reloaded keyring: %q, %v", got, err)
	}
	if k1.BlindIndex("x") != k2.BlindIndex("x") {
		t.Fatal("reloaded keyring has another index key")
	}
	// The same JSON works from configuration.
	data, _ := os.ReadFile(path)
	k3, err := seal.FromEnv(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k3.Open(s, "a"); err != nil || string(got) != "kept" {
		t.Fatalf("FromEnv keyring: %q, %v", got, err)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("key dir has %d entries, want 1", len(entries))
	}
}

func TestLoadOrCreateConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	const n = 8
	rings := make([]*seal.Keyring, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, err := seal.LoadOrCreate(path)
			if err != nil {
				t.Error(err)
				return
			}
			rings[i] = k
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, k := range rings[1:] {
		if k.BlindIndex("x") != rings[0].BlindIndex("x") {
			t.Fatal("concurrent starts made different keyrings")
		}
	}
}

func TestFromJSONErrorsHaveNoKeys(t *testing.T) {
	for _, in := range []string{
		`not json`,
		`{"current":"k1","keys":{"k1":"***"},"index":"AAAA"}`,
		`{"current":"k1","keys":{"k1":"c2VjcmV0"},"index":"c2VjcmV0"}`,
	} {
		_, err := seal.FromJSON([]byte(in))
		if err == nil {
			t.Errorf("FromJSON(%s) succeeded", in)
			continue
		}
		if strings.Contains(err.Error(), "c2VjcmV0") || strings.Contains(err.Error(), "***") {
			t.Errorf("error %q leaks key material", err)
		}
	}
}
