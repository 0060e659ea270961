package office

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/chairside/chairside"
)

// Argon2id parameters for new hashes (docs/decisions.md, "Safe
// defaults"). Each hash records its own, so raising them later leaves
// older hashes verifiable.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonSaltLen   = 16
	argonKeyLen    = 32
)

// Password rules.
const (
	MinPasswordLen = 12
	MaxPasswordLen = 256
)

// CheckPassword answers EINVALID, in words for the staff member, when pw
// may not be used as the password of email.
func CheckPassword(email, pw string) error {
	n := len([]rune(pw))
	switch {
	case n < MinPasswordLen:
		return passwordError("Use at least %d characters.", MinPasswordLen)
	case n > MaxPasswordLen:
		return passwordError("Use at most %d characters.", MaxPasswordLen)
	case strings.EqualFold(strings.TrimSpace(pw), strings.TrimSpace(email)):
		return passwordError("Your password cannot be your email address.")
	}
	return nil
}

func passwordError(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &chairside.Error{Code: chairside.EINVALID, Message: msg,
		FieldErrors: []chairside.FieldError{{Field: "password", Message: msg}}}
}

// HashPassword returns pw's argon2id hash in the PHC string format,
// $argon2id$v=19$m=…,t=…,p=…$salt$key, with a fresh random salt.
func HashPassword(pw string) string {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic("office: crypto/rand failed: " + err.Error())
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// VerifyPassword reports whether pw matches encoded, using the parameters
// recorded in it and a constant-time comparison. A malformed hash or one
// with absurd parameters never matches.
func VerifyPassword(encoded, pw string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	if m < 8 || m > 1<<20 || t < 1 || t > 16 || p < 1 {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > 128 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is verified against when no account matches an email, so a
// wrong email takes as long as a wrong password.
var dummyHash = HashPassword("not a password of anyone here")
