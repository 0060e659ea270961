package office

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestPasskeys: a passkey added where a second factor is required is the
// account's second factor (with recovery codes); after the password it
// answers the second factor; by itself it signs the member in, both
// factors passed; a challenge answers once, a passkey made for another
// address never, and a disabled account's not at all.
func TestPasskeys(t *testing.T) {
	svc, _, _ := signInFixture(t, storetest.SQLite(t))
	svc.RequireSecondFactor = true
	ctx := context.Background()
	const base = "https://chairside.bright.example"
	phone := &testkit.Authenticator{Origin: base, RPID: "chairside.bright.example"}
	create := func(o *PasskeyOptions) PasskeyAnswer {
		return PasskeyAnswer{CeremonyID: o.CeremonyID, Credential: phone.Create(t, o.Options)}
	}
	get := func(a *testkit.Authenticator, o *PasskeyOptions) PasskeyAnswer {
		return PasskeyAnswer{CeremonyID: o.CeremonyID, Credential: a.Get(t, o.Options)}
	}

	c := signedIn(t, svc, "192.0.2.1")
	opts, err := svc.BeginPasskey(ctx, c, base)
	if err != nil {
		t.Fatal(err)
	}
	answer := create(opts)
	codes, err := svc.FinishPasskey(ctx, c, base, answer)
	if err != nil {
		t.Fatal(err)
	}
	if len(codes.Codes) != recoveryCodes {
		t.Fatalf("the first second factor's recovery codes: %v", codes.Codes)
	}
	if _, err := svc.FinishPasskey(ctx, c, base, answer); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("the same answer again: %v", err)
	}
	if c = again(t, svc, c); c.Stage != StageReady || c.Staff.Passkeys != 1 {
		t.Fatalf("after adding: stage %s, %d passkeys", c.Stage, c.Staff.Passkeys)
	}

	// After the password, the passkey is the second factor.
	c = signedIn(t, svc, "192.0.2.1")
	if c.Stage != StageSecondFactor {
		t.Fatalf("stage %s", c.Stage)
	}
	opts, err = svc.BeginPasskeyCheck(ctx, c, base)
	if err != nil {
		t.Fatal(err)
	}
	if allow := phone.Allowed(t, opts.Options); len(allow) != 1 {
		t.Fatalf("allowed credentials %v", allow)
	}
	if err := svc.FinishPasskeyCheck(ctx, c, base, get(phone, opts)); err != nil {
		t.Fatal(err)
	}
	if c = again(t, svc, c); c.Stage != StageReady {
		t.Fatalf("after the passkey: %s", c.Stage)
	}

	// A passkey alone signs in, no email typed.
	opts, err = svc.BeginPasskeySignIn(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	in, err := svc.FinishPasskeySignIn(ctx, base, get(phone, opts), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if in.Stage != StageReady || in.Staff.Email != desk {
		t.Fatalf("signed in by passkey: %s %s", in.Stage, in.Staff.Email)
	}

	// Another site's passkey, or one answered for another address, fails.
	stranger := phone.Copy("https://elsewhere.example", "elsewhere.example")
	opts, _ = svc.BeginPasskeySignIn(ctx, base)
	if _, err := svc.FinishPasskeySignIn(ctx, base, get(stranger, opts), "192.0.2.1"); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("a passkey answered for another site: %v", err)
	}

	// A disabled account's passkey signs nobody in.
	if err := svc.DisableStaff(ctx, desk); err != nil {
		t.Fatal(err)
	}
	opts, _ = svc.BeginPasskeySignIn(ctx, base)
	if _, err := svc.FinishPasskeySignIn(ctx, base, get(phone, opts), "192.0.2.1"); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("a disabled account's passkey: %v", err)
	}
}

// TestPasskeySignInLocks: wrong passkey answers are counted like wrong
// passwords, per account and address: the fifth locks that pair, the
// right passkey included, while the same passkey from another address
// still signs in.
func TestPasskeySignInLocks(t *testing.T) {
	svc, _, _ := signInFixture(t, storetest.SQLite(t))
	ctx := context.Background()
	const base = "https://chairside.bright.example"
	phone := &testkit.Authenticator{Origin: base, RPID: "chairside.bright.example"}
	c := signedIn(t, svc, "192.0.2.1")
	opts, err := svc.BeginPasskey(ctx, c, base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.FinishPasskey(ctx, c, base, PasskeyAnswer{CeremonyID: opts.CeremonyID, Credential: phone.Create(t, opts.Options)}); err != nil {
		t.Fatal(err)
	}
	try := func(a *testkit.Authenticator, ip string) error {
		o, err := svc.BeginPasskeySignIn(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.FinishPasskeySignIn(ctx, base, PasskeyAnswer{CeremonyID: o.CeremonyID, Credential: a.Get(t, o.Options)}, ip)
		return err
	}
	stranger := phone.Copy("https://elsewhere.example", "elsewhere.example")
	for i := 1; i <= MaxFailures; i++ {
		want := chairside.EUNAUTHORIZED
		if i == MaxFailures {
			want = chairside.ERATELIMITED
		}
		if err := try(stranger, "198.51.100.7"); chairside.ErrorCode(err) != want {
			t.Fatalf("wrong answer %d: %v, want %s", i, err, want)
		}
	}
	if err := try(phone, "198.51.100.7"); chairside.ErrorCode(err) != chairside.ERATELIMITED {
		t.Fatalf("the right passkey from the locked address: %v", err)
	}
	if err := try(phone, "192.0.2.1"); err != nil {
		t.Fatalf("the right passkey from the office: %v", err)
	}
}
