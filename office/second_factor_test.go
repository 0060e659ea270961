package office

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store/storetest"
)

// codeAt is what an authenticator app with key shows at t.
func codeAt(t *testing.T, key string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(strings.ReplaceAll(key, "-", ""), at,
		totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// signedIn signs the desk in from ip and answers the caller as the next
// call would see it.
func signedIn(t *testing.T, svc *Service, ip string) *Caller {
	t.Helper()
	ctx := context.Background()
	in, err := svc.SignIn(ctx, desk, password, ip)
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Authenticate(ctx, in.SessionID, ip)
	if err != nil {
		t.Fatal(err)
	}
	if c.Stage != in.Stage {
		t.Fatalf("signed in at stage %s, authenticated at %s", in.Stage, c.Stage)
	}
	return c
}

// TestSecondFactorSetUpThenAsked: where a second factor is required, a
// password alone reaches nothing of the office's until an authenticator
// app is set up from its key; from then on a code is asked after the
// password, each code and each recovery code good once.
func TestSecondFactorSetUpThenAsked(t *testing.T) {
	svc, now, _ := signInFixture(t, storetest.SQLite(t))
	svc.RequireSecondFactor = true
	ctx := context.Background()
	ip := "198.51.100.20"

	c := signedIn(t, svc, ip)
	if c.Stage != StageSetUpSecondFactor || c.May(SeeDay) || chairside.ErrorCode(c.Allow(SeeDay)) != chairside.EFORBIDDEN || len(c.Permissions()) != 0 {
		t.Fatalf("a password alone: stage %s, may see the day %v", c.Stage, c.May(SeeDay))
	}
	if _, err := svc.ConfirmTOTP(ctx, c, "123456"); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("a code before any key: %v", err)
	}
	setup, err := svc.BeginTOTP(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(setup.URI, "otpauth://totp/Chairside:") || len(setup.QR.Rows) == 0 || !strings.Contains(setup.URI, "secret="+strings.ReplaceAll(setup.Key, "-", "")) {
		t.Fatalf("setup = %+v", setup)
	}
	c = again(t, svc, c)
	if _, err := svc.ConfirmTOTP(ctx, c, "000000"); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("a wrong code: %v", err)
	}
	codes, err := svc.ConfirmTOTP(ctx, c, codeAt(t, setup.Key, *now))
	if err != nil {
		t.Fatal(err)
	}
	if len(codes.Codes) != recoveryCodes || len(codes.Codes[0]) != 19 {
		t.Fatalf("recovery codes = %v", codes.Codes)
	}
	if c = again(t, svc, c); c.Stage != StageReady || !c.May(SeeDay) || c.May(ManageStaff) {
		t.Fatalf("after setting up: stage %s, permissions %v", c.Stage, c.Permissions())
	}

	// The next sign-in asks for a code; the one just used is spent.
	c = signedIn(t, svc, ip)
	if c.Stage != StageSecondFactor || c.May(SeeDay) {
		t.Fatalf("the next sign-in: stage %s", c.Stage)
	}
	if err := svc.PassSecondFactor(ctx, c, codeAt(t, setup.Key, *now)); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("the same code again: %v", err)
	}
	*now = now.Add(30 * time.Second)
	if err := svc.PassSecondFactor(ctx, c, codeAt(t, setup.Key, *now)); err != nil {
		t.Fatal(err)
	}
	if c = again(t, svc, c); c.Stage != StageReady {
		t.Fatalf("after the code: %s", c.Stage)
	}

	// A recovery code, typed loosely, works once.
	loose := strings.ToUpper(strings.ReplaceAll(codes.Codes[3], "-", " "))
	c = signedIn(t, svc, ip)
	if err := svc.PassSecondFactor(ctx, c, loose); err != nil {
		t.Fatalf("a recovery code: %v", err)
	}
	c = signedIn(t, svc, ip)
	if err := svc.PassSecondFactor(ctx, c, codes.Codes[3]); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("a spent recovery code: %v", err)
	}
	// Wrong codes lock the second factor of this address, the right code
	// included, as wrong passwords do.
	for i := 2; i <= MaxFailures; i++ {
		err := svc.PassSecondFactor(ctx, c, "999999")
		if want := map[bool]string{true: chairside.ERATELIMITED, false: chairside.EUNAUTHORIZED}[i == MaxFailures]; chairside.ErrorCode(err) != want {
			t.Fatalf("wrong code %d: %v, want %s", i, err, want)
		}
	}
	*now = now.Add(30 * time.Second)
	if err := svc.PassSecondFactor(ctx, c, codeAt(t, setup.Key, *now)); chairside.ErrorCode(err) != chairside.ERATELIMITED {
		t.Fatalf("the right code while locked: %v", err)
	}

	// Lost phone: the reset from the command line; the next sign-in sets
	// up a new app.
	if err := svc.ResetSecondFactor(ctx, desk); err != nil {
		t.Fatal(err)
	}
	if err := svc.StillSignedIn(ctx, c); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("a session from before the reset: %v", err)
	}
	if c = signedIn(t, svc, "192.0.2.7"); c.Stage != StageSetUpSecondFactor {
		t.Fatalf("after a reset: %s", c.Stage)
	}
}

// TestSecondFactorOptionalOutsideProd: without the requirement a password
// alone is ready, and an account that set up an app is asked for it.
func TestSecondFactorOptionalOutsideProd(t *testing.T) {
	svc, now, _ := signInFixture(t, storetest.SQLite(t))
	ctx := context.Background()
	c := signedIn(t, svc, "192.0.2.1")
	if c.Stage != StageReady {
		t.Fatalf("stage %s", c.Stage)
	}
	setup, err := svc.BeginTOTP(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ConfirmTOTP(ctx, again(t, svc, c), codeAt(t, setup.Key, *now)); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.BeginTOTP(ctx, again(t, svc, c)); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("a second setup: %v", err)
	}
	if c = signedIn(t, svc, "192.0.2.1"); c.Stage != StageSecondFactor {
		t.Fatalf("with an app: %s", c.Stage)
	}
}

// again reads the caller's session afresh, as the next call would.
func again(t *testing.T, svc *Service, c *Caller) *Caller {
	t.Helper()
	c, err := svc.Reread(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
