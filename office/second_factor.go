package office

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"rsc.io/qr"

	"github.com/chairside/chairside"
)

// The second factor (docs/behaviour.md, "Two-step sign-in"): a code from
// an authenticator app (TOTP, RFC 6238: six digits, 30-second steps,
// HMAC-SHA1, as every such app reads an otpauth link), or one of ten
// recovery codes shown once when the app is set up.
const (
	totpPeriod    = 30
	recoveryCodes = 10
	// totpIssuer names us in the staff member's authenticator app.
	totpIssuer = "Chairside"
)

// Messages staff read.
const (
	msgBadCode    = "That code did not work. Type the 6 digits your authenticator app shows now, or a recovery code."
	msgNoSetup    = "Start setting up your authenticator app again."
	msgAlreadySet = "Your second factor is already set up."
)

// TOTPSetup is what the screen shows to set up an authenticator app: the
// otpauth link as a QR code, and its key to type where no camera reads it.
type TOTPSetup struct {
	Key string `json:"key"`
	URI string `json:"uri"`
	QR  QRCode `json:"qr"`
}

// RecoveryCodes are shown once, when the second factor is set up.
type RecoveryCodes struct {
	Codes []string `json:"codes"`
}

// BeginTOTP makes a new authenticator key for the caller, who has no
// second factor yet, and answers it to be scanned. A key made before and
// never confirmed is replaced.
func (s *Service) BeginTOTP(ctx context.Context, c *Caller) (*TOTPSetup, error) {
	if c.Staff.HasSecondFactor() {
		return nil, chairside.Errorf(chairside.ECONFLICT, msgAlreadySet)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: c.Staff.Email, Period: totpPeriod,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, fmt.Errorf("office: new authenticator key: %w", err)
	}
	if err := s.store.SetStaffTOTP(ctx, c.Staff.ID, key.Secret()); err != nil {
		return nil, err
	}
	code, err := qr.Encode(key.URL(), qr.M)
	if err != nil {
		return nil, fmt.Errorf("office: authenticator QR code: %w", err)
	}
	return &TOTPSetup{Key: groupsOf4(key.Secret()), URI: key.URL(), QR: qrRows(code)}, nil
}

// ConfirmTOTP checks a code from the app being set up; when it is right
// the second factor is on from now, this session has passed it, and the
// answer is the recovery codes, shown this once.
func (s *Service) ConfirmTOTP(ctx context.Context, c *Caller, code string) (*RecoveryCodes, error) {
	if c.Staff.HasSecondFactor() {
		return nil, chairside.Errorf(chairside.ECONFLICT, msgAlreadySet)
	}
	if c.Staff.TOTPSecret == "" {
		return nil, chairside.Errorf(chairside.ECONFLICT, msgNoSetup)
	}
	now := s.Now()
	scope := "totp-setup\x00" + c.Staff.ID + "\x00" + c.IP
	step, err := s.checkCode(ctx, c, scope, now, func() (int64, bool) { return totpStep(c.Staff.TOTPSecret, code, now) })
	if err != nil {
		return nil, err
	}
	codes, hashes := newRecoveryCodes()
	if err := s.store.ConfirmStaffTOTP(ctx, c.Staff.ID, step, hashes, now); err != nil {
		return nil, err
	}
	if err := s.store.PassStaffSessionSecondFactor(ctx, c.Session.IDHash, now); err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditSecondFactorSet, "authenticator app")
	return &RecoveryCodes{Codes: codes}, nil
}

// PassSecondFactor checks the code asked after the password: a code of the
// caller's authenticator app, good once, or an unspent recovery code. At
// most MaxFailures wrong codes per account and address in LockFor, as for
// passwords.
func (s *Service) PassSecondFactor(ctx context.Context, c *Caller, code string) error {
	if !c.Staff.HasSecondFactor() {
		return chairside.Errorf(chairside.ECONFLICT, msgNoSetup)
	}
	now := s.Now()
	scope := "second-factor\x00" + c.Staff.ID + "\x00" + c.IP
	recovery := false
	_, err := s.checkCode(ctx, c, scope, now, func() (int64, bool) {
		if step, ok := totpStep(c.Staff.TOTPSecret, code, now); ok {
			used, err := s.store.UseTOTPStep(ctx, c.Staff.ID, step)
			return step, err == nil && used
		}
		if h := recoveryHash(code); h != "" {
			used, err := s.store.UseRecoveryCode(ctx, c.Staff.ID, h, now)
			recovery = err == nil && used
			return 0, recovery
		}
		return 0, false
	})
	if err != nil {
		return err
	}
	if err := s.store.PassStaffSessionSecondFactor(ctx, c.Session.IDHash, now); err != nil {
		return err
	}
	if recovery {
		left, _ := s.store.RecoveryCodesLeft(ctx, c.Staff.ID)
		s.did(ctx, c, chairside.AuditRecoveryCode, fmt.Sprintf("%d recovery codes left", left))
	} else {
		s.did(ctx, c, chairside.AuditSecondFactor, "authenticator app")
	}
	return nil
}

// checkCode runs check as one try of scope (oneTry): a wrong code is
// audited and answers EUNAUTHORIZED, or the lock.
func (s *Service) checkCode(ctx context.Context, c *Caller, scope string, now time.Time, check func() (int64, bool)) (int64, error) {
	var step int64
	err := s.oneTry(ctx, chairside.HashSecret(scope), now, func() (good bool) {
		step, good = check()
		return good
	}, func(locking bool) {
		s.did(ctx, c, chairside.AuditSecondFactorBad, "wrong code")
		if locking {
			s.did(ctx, c, chairside.AuditLocked, "second factor locked for 15 minutes")
		}
	}, chairside.Errorf(chairside.EUNAUTHORIZED, msgBadCode))
	return step, err
}

// oneTry counts an answer to a sign-in question (a code, a passkey) as a
// password is counted: one try of scope (a hash) is taken before check
// runs, so at most MaxFailures answers are checked in a window however
// many arrive at once. A locked scope answers the lock and check does not
// run; a wrong answer calls wrong (locking when this try took the last
// one, which locks the scope for LockFor) and answers bad or the lock; a
// right one forgets the scope's tries.
func (s *Service) oneTry(ctx context.Context, scope string, now time.Time, check func() bool, wrong func(locking bool), bad error) error {
	ok, until, err := s.store.ReserveSignIn(ctx, scope, MaxFailures, LockFor, now)
	if err != nil {
		return err
	}
	if !ok {
		return locked(until.Sub(now))
	}
	if !check() {
		wrong(!until.IsZero())
		if !until.IsZero() {
			return locked(until.Sub(now))
		}
		return bad
	}
	return s.store.ClearSignIn(ctx, scope)
}

// totpStep answers the 30-second step whose code is code, looking one step
// either side of now for a phone's clock that is a little off.
func totpStep(secret, code string, now time.Time) (int64, bool) {
	code = strings.Join(strings.Fields(code), "")
	if secret == "" || len(code) != 6 {
		return 0, false
	}
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	for _, d := range []int64{0, -1, 1} {
		at := now.Add(time.Duration(d*totpPeriod) * time.Second)
		want, err := totp.GenerateCodeCustom(secret, at, opts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return at.Unix() / totpPeriod, true
		}
	}
	return 0, false
}

// recoveryAlphabet is Crockford's base 32: no i, l or o to read as 1 or
// 0, and no u.
var recoveryAlphabet = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// newRecoveryCodes makes the recovery codes, 16 characters of 5 bits each
// (80 bits: unguessable, so a plain hash keeps them), written in groups
// of four, and their hashes.
func newRecoveryCodes() (codes, hashes []string) {
	for range recoveryCodes {
		raw := make([]byte, 10)
		_, _ = rand.Read(raw) // never fails (crypto/rand's documentation)
		c := groupsOf4(recoveryAlphabet.EncodeToString(raw))
		codes = append(codes, c)
		hashes = append(hashes, recoveryHash(c))
	}
	return codes, hashes
}

// recoveryHash is the stored form of a recovery code as typed: spaces,
// dashes and case do not matter; anything not 16 of its letters is none
// ("").
func recoveryHash(code string) string {
	c := strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(code))
	if len(c) != 16 {
		return ""
	}
	if _, err := recoveryAlphabet.DecodeString(c); err != nil {
		return ""
	}
	return chairside.HashSecret("recovery\x00" + c)
}

// groupsOf4 writes s in groups of four joined by dashes, easier to read
// out and type.
func groupsOf4(s string) string {
	var parts []string
	for len(s) > 4 {
		parts, s = append(parts, s[:4]), s[4:]
	}
	return strings.Join(append(parts, s), "-")
}
