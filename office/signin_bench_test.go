package office

import (
	"context"
	"fmt"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store/storetest"
)

// BenchmarkSignInAnswers times a refused sign-in of each kind with the
// real password hashing, on SQLite: a wrong password, an unknown email, a
// disabled account and a locked address. They must cost the same, within
// noise, or the time of an answer says which it was. A quiet machine's
// figures are in docs/performance.md ("Staff sign-in").
//
//	go test ./office/ -run '^$' -bench SignInAnswers -benchtime 40x
func BenchmarkSignInAnswers(b *testing.B) {
	e := storetest.SQLite(b)
	ctx := context.Background()
	svc, _, _ := signInFixtureOf(b, e)
	svc.verify = VerifyPassword // the real cost is what is measured
	off, err := svc.AddStaff(ctx, "1000200030004000", "gone@bright.example", password, chairside.StaffManager)
	if err != nil {
		b.Fatal(err)
	}
	if err := svc.DisableStaff(ctx, off.Email); err != nil {
		b.Fatal(err)
	}
	// A locked address: five tries from it first.
	for range MaxFailures {
		_, _ = svc.SignIn(ctx, desk, "wrong", "203.0.113.99")
	}
	for _, c := range []struct{ name, email, pw, ip string }{
		{"wrong-password", desk, "wrong", ""},
		{"unknown-email", "nobody@bright.example", "wrong", ""},
		{"disabled", off.Email, password, ""},
		{"locked", desk, password, "203.0.113.99"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				ip := c.ip
				if ip == "" {
					// A fresh address each time, so that the lock never comes.
					ip = fmt.Sprintf("198.51.%d.%d", i/250%250, i%250)
				}
				if _, err := svc.SignIn(ctx, c.email, c.pw, ip); err == nil {
					b.Fatal("signed in")
				}
			}
		})
	}
}
