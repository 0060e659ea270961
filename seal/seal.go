// Package seal encrypts personal data before it reaches a database and
// computes blind indexes for the few equality look-ups the product needs
// (an SSN's daily cap on credit pulls, existing accounts).
//
// A sealed value is a string "v1:<keyid>:<base64(nonce|ciphertext)>" made
// with AES-256-GCM. The key id lets keys rotate: new values are sealed with
// the current key while values sealed with older keys still open, as long as
// those keys stay in the keyring. Every sealed value is bound to where it is
// stored by additional authenticated data (aad, e.g. an application id and a
// column name), so a ciphertext copied into another row does not open.
//
// Keys live outside the database: in a key file created on first start
// (LoadOrCreate) or in configuration (FromJSON, for CHAIRSIDE_KEYS).
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// KeySize is the size in bytes of every key: AES-256 keys and the HMAC-SHA256
// index key alike.
const KeySize = 32

// version is the format prefix of sealed values; a future format gets "v2".
const version = "v1"

// ErrOpen is returned by Open for any value that cannot be opened: a
// malformed value, an unknown key id, a wrong aad or a tampered ciphertext.
// It deliberately says nothing more, so that neither the value nor the
// reason leaks into logs.
var ErrOpen = errors.New("seal: cannot open sealed value")

// Keyring holds the AES-256 keys by key id, the id of the key new values are
// sealed with, and a separate HMAC-SHA256 key for blind indexes. A Keyring is
// safe for concurrent use; it never changes after it is built.
type Keyring struct {
	current string
	aeads   map[string]cipher.AEAD
	index   []byte
}

// New returns a Keyring for keys (key id → 32-byte AES-256 key), sealing with
// currentID, and computing blind indexes with indexKey (32 bytes). The index
// key must differ from every encryption key: one key, one purpose.
func New(keys map[string][]byte, currentID string, indexKey []byte) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, errors.New("seal: no keys")
	}
	if _, ok := keys[currentID]; !ok {
		return nil, fmt.Errorf("seal: current key id %q is not in the keyring", currentID)
	}
	if len(indexKey) != KeySize {
		return nil, fmt.Errorf("seal: index key must be %d bytes, got %d", KeySize, len(indexKey))
	}
	k := &Keyring{current: currentID, aeads: make(map[string]cipher.AEAD, len(keys))}
	for id, key := range keys {
		if id == "" || strings.Contains(id, ":") {
			return nil, fmt.Errorf("seal: invalid key id %q", id)
		}
		if len(key) != KeySize {
			return nil, fmt.Errorf("seal: key %q must be %d bytes, got %d", id, KeySize, len(key))
		}
		if hmac.Equal(key, indexKey) {
			return nil, fmt.Errorf("seal: key %q is also the index key", id)
		}
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, fmt.Errorf("seal: key %q: %w", id, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("seal: key %q: %w", id, err)
		}
		k.aeads[id] = aead
	}
	k.index = append([]byte(nil), indexKey...)
	return k, nil
}

// CurrentID returns the id of the key new values are sealed with.
func (k *Keyring) CurrentID() string { return k.current }

// KeyIDs returns the ids of every key that can open values, sorted.
func (k *Keyring) KeyIDs() []string {
	ids := make([]string, 0, len(k.aeads))
	for id := range k.aeads {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Seal encrypts plaintext with the current key, binding it to aad (say
// "app_123/primary"), and returns "v1:<keyid>:<base64(nonce|ciphertext)>".
// The nonce is 12 random bytes per value, so sealing the same plaintext twice
// gives two different strings.
func (k *Keyring) Seal(plaintext []byte, aad string) (string, error) {
	aead := k.aeads[k.current]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: nonce: %w", err)
	}
	// Seal appends the ciphertext to nonce, giving nonce|ciphertext|tag.
	out := aead.Seal(nonce, nonce, plaintext, additional(k.current, aad))
	return version + ":" + k.current + ":" + base64.RawStdEncoding.EncodeToString(out), nil
}

// Open decrypts a value made by Seal with the same aad. Any malformed,
// tampered or misplaced value, or one sealed with a key id this keyring does
// not hold, answers ErrOpen (wrapped with the key id when known) and never
// partial plaintext.
func (k *Keyring) Open(sealed string, aad string) ([]byte, error) {
	ver, rest, ok := strings.Cut(sealed, ":")
	if !ok || ver != version {
		return nil, fmt.Errorf("%w: unknown format", ErrOpen)
	}
	id, payload, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, fmt.Errorf("%w: unknown format", ErrOpen)
	}
	aead, ok := k.aeads[id]
	if !ok {
		return nil, fmt.Errorf("%w: unknown key id %q", ErrOpen, id)
	}
	raw, err := base64.RawStdEncoding.DecodeString(payload)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, fmt.Errorf("%w: key id %q: malformed", ErrOpen, id)
	}
	nonce, ct := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	plain, err := aead.Open(nil, nonce, ct, additional(id, aad))
	if err != nil {
		return nil, fmt.Errorf("%w: key id %q: authentication failed", ErrOpen, id)
	}
	return plain, nil
}

// additional is the aad actually authenticated: the caller's aad plus the
// format and key id, so the header of a sealed value cannot be edited either.
func additional(keyID, aad string) []byte {
	return []byte(version + ":" + keyID + ":" + aad)
}

// BlindIndex returns the hex HMAC-SHA256 of value under the index key: equal
// values give equal indexes, but an index cannot be reversed without the key
// (an SSN has too few possible values for a plain hash to protect it).
func (k *Keyring) BlindIndex(value string) string {
	m := hmac.New(sha256.New, k.index)
	m.Write([]byte(value))
	return hex.EncodeToString(m.Sum(nil))
}

// File is the JSON form of a keyring, in a key file or in configuration:
//
//	{"current":"k1","keys":{"k1":"<base64 32 bytes>"},"index":"<base64 32 bytes>"}
//
// To rotate, add a new key, make it current, and keep the old ones for as
// long as values sealed with them exist.
type File struct {
	Current string            `json:"current"`
	Keys    map[string]string `json:"keys"`
	Index   string            `json:"index"`
}

// FromJSON builds a Keyring from the JSON form described at File, such as
// the value of the CHAIRSIDE_KEYS environment variable. Errors never include
// key material.
func FromJSON(data []byte) (*Keyring, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, errors.New("seal: keys are not valid JSON")
	}
	keys := make(map[string][]byte, len(f.Keys))
	for id, b64 := range f.Keys {
		key, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("seal: key %q is not valid base64", id)
		}
		keys[id] = key
	}
	index, err := base64.StdEncoding.DecodeString(f.Index)
	if err != nil {
		return nil, errors.New("seal: index key is not valid base64")
	}
	return New(keys, f.Current, index)
}

// FromEnv is FromJSON for a configuration string such as CHAIRSIDE_KEYS.
func FromEnv(value string) (*Keyring, error) {
	return FromJSON([]byte(value))
}

// Generate returns the JSON form of a fresh keyring with one key, "k1", and
// an index key, all from crypto/rand.
func Generate() ([]byte, error) {
	key := make([]byte, KeySize)
	index := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("seal: generate: %w", err)
	}
	if _, err := rand.Read(index); err != nil {
		return nil, fmt.Errorf("seal: generate: %w", err)
	}
	f := File{
		Current: "k1",
		Keys:    map[string]string{"k1": base64.StdEncoding.EncodeToString(key)},
		Index:   base64.StdEncoding.EncodeToString(index),
	}
	return json.MarshalIndent(f, "", "  ")
}

// LoadOrCreate reads the key file at path, or, when there is none yet,
// creates it (and its directory) with fresh keys and mode 0600. The file is
// created exclusively, so two servers starting at once cannot write two
// different keyrings: the loser reads the winner's file.
func LoadOrCreate(path string) (*Keyring, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if data, err = create(path); errors.Is(err, fs.ErrExist) {
			data, err = os.ReadFile(path)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("seal: key file %s: %w", path, err)
	}
	k, err := FromJSON(data)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}

// create writes a fresh key file at path, failing with fs.ErrExist if one
// appeared meanwhile.
func create(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	data, err := Generate()
	if err != nil {
		return nil, err
	}
	// Write to a temporary file and link it into place, so no reader ever
	// sees a half-written key file.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keys-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	// os.Link fails if path exists, unlike os.Rename, which would replace it.
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return data, err
	}
	// Some file systems have no hard links: fall back to an exclusive
	// create, accepting that a concurrent reader might see a partial file.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	return data, nil
}
