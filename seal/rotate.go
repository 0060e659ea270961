package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Rotate answers the key set data (the JSON form, File) with a fresh key
// added. With makeCurrent, new values are sealed with the newest key from
// then on: the fresh one, or one added earlier without it (a staged key,
// already known to every server of a deployment). Old keys stay, to open
// what they sealed, until Retire removes them. The index key is kept: the
// SSN's blind index cannot be recomputed once the SSN is purged.
func Rotate(data []byte, add, makeCurrent bool) (out []byte, newest string, err error) {
	f, err := parseFile(data)
	if err != nil {
		return nil, "", err
	}
	newest = f.newestID()
	if add {
		key := make([]byte, KeySize)
		if _, err := rand.Read(key); err != nil {
			return nil, "", fmt.Errorf("seal: rotate: %w", err)
		}
		newest = "k" + strconv.Itoa(f.maxNumber()+1)
		f.Keys[newest] = base64.StdEncoding.EncodeToString(key)
	}
	if makeCurrent {
		f.Current = newest
	}
	return f.encode()
}

// Retire answers data without the key id, refused for the current key.
// The caller checks first that nothing is sealed with it any more.
func Retire(data []byte, id string) ([]byte, error) {
	f, err := parseFile(data)
	if err != nil {
		return nil, err
	}
	if _, ok := f.Keys[id]; !ok {
		return nil, fmt.Errorf("seal: retire: no key %q", id)
	}
	if id == f.Current {
		return nil, fmt.Errorf("seal: retire: %q is the current key; rotate first", id)
	}
	delete(f.Keys, id)
	out, _, err := f.encode()
	return out, err
}

// Prefix answers how values sealed with key id begin ("v1:k2:"), for a
// store looking for them.
func Prefix(id string) string { return version + ":" + id + ":" }

func parseFile(data []byte) (*File, error) {
	if _, err := FromJSON(data); err != nil { // every key well-formed
		return nil, err
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, errors.New("seal: keys are not valid JSON")
	}
	return &f, nil
}

// maxNumber is the highest n of the keys named kN (0 when none).
func (f *File) maxNumber() int {
	max := 0
	for id := range f.Keys {
		if n, err := strconv.Atoi(strings.TrimPrefix(id, "k")); err == nil && strings.HasPrefix(id, "k") && n > max {
			max = n
		}
	}
	return max
}

// newestID is the key kN with the highest n, or the current key when the
// keys are named otherwise.
func (f *File) newestID() string {
	if n := f.maxNumber(); n > 0 {
		return "k" + strconv.Itoa(n)
	}
	return f.Current
}

func (f *File) encode() ([]byte, string, error) {
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, "", err
	}
	if _, err := FromJSON(out); err != nil {
		return nil, "", err
	}
	return out, f.newestID(), nil
}

// WriteFile replaces the key file at path with data, readable by its owner
// only, through a temporary file renamed into place: a crash leaves the old
// file or the new one, never half of either.
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(append(bytes.TrimSpace(data), '\n'))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// The key backup's format: a header line naming it, then base64 of
// salt|nonce|AES-256-GCM(key set), the key derived from the passphrase
// with argon2id at 64 MiB and 3 passes (a backup is opened rarely, so it
// can afford to be slow to guess).
const (
	backupHeader  = "chairside-keys-backup v1\n"
	backupTime    = 3
	backupMemory  = 64 * 1024
	backupThreads = 1
	saltSize      = 16
	// MinPassphrase is the shortest passphrase a key backup takes.
	MinPassphrase = 12
)

// ErrPassphrase is a key backup that the passphrase does not open (or a
// damaged one: the two cannot be told apart).
var ErrPassphrase = errors.New("seal: the passphrase does not open this key backup, or it is damaged")

// SealBackup encrypts the key set data under passphrase, for a copy kept
// apart from the data's backup.
func SealBackup(data []byte, passphrase string) ([]byte, error) {
	if len(passphrase) < MinPassphrase {
		return nil, fmt.Errorf("seal: a key backup's passphrase has at least %d characters", MinPassphrase)
	}
	if _, err := FromJSON(data); err != nil {
		return nil, err
	}
	salt := make([]byte, saltSize)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	aead, err := backupAEAD(passphrase, salt)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append(append(salt, nonce...), aead.Seal(nil, nonce, bytes.TrimSpace(data), []byte(backupHeader))...)
	return []byte(backupHeader + base64.StdEncoding.EncodeToString(out) + "\n"), nil
}

// OpenBackup answers the key set a backup made by SealBackup holds.
func OpenBackup(backup []byte, passphrase string) ([]byte, error) {
	body, ok := bytes.CutPrefix(backup, []byte(backupHeader))
	if !ok {
		return nil, errors.New("seal: not a Chairside key backup")
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(body)))
	if err != nil || len(raw) < saltSize+12+16 {
		return nil, ErrPassphrase
	}
	aead, err := backupAEAD(passphrase, raw[:saltSize])
	if err != nil {
		return nil, err
	}
	nonce := raw[saltSize : saltSize+aead.NonceSize()]
	data, err := aead.Open(nil, nonce, raw[saltSize+aead.NonceSize():], []byte(backupHeader))
	if err != nil {
		return nil, ErrPassphrase
	}
	if _, err := FromJSON(data); err != nil {
		return nil, err
	}
	return data, nil
}

func backupAEAD(passphrase string, salt []byte) (cipher.AEAD, error) {
	key := argon2.IDKey([]byte(passphrase), salt, backupTime, backupMemory, backupThreads, KeySize)
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
