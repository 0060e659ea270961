package office

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

const (
	desk     = "desk@bright.example"
	password = "a long front desk password"
)

// signInFixture is an office service over a fresh store, with one staff
// member of the test office, and a fixed clock.
func signInFixture(t *testing.T, e storetest.Engine) (*Service, *time.Time, *chairside.Staff) {
	t.Helper()
	return signInFixtureOf(t, e)
}

// signInFixtureOf is signInFixture for a test or a benchmark.
func signInFixtureOf(t testing.TB, e storetest.Engine) (*Service, *time.Time, *chairside.Staff) {
	t.Helper()
	testkit.SeedOffice(t, e.DB)
	svc := New(e.DB, nil)
	// What is counted here is tries, not hashing (password_test.go): each
	// check costs a string comparison, not argon2id's work.
	hashed := HashPassword(password)
	svc.verify = func(encoded, pw string) bool { return encoded == hashed && pw == password }
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	svc.Now = func() time.Time { return now }
	st, err := svc.AddStaff(context.Background(), testkit.EntityKey, desk, password, chairside.StaffFrontDesk)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.DB.SetStaffPassword(context.Background(), st.ID, hashed); err != nil {
		t.Fatal(err)
	}
	return svc, &now, st
}

// code answers a sign-in's error code, "" when it signed in.
func code(_ *SignedIn, err error) string { return chairside.ErrorCode(err) }

// TestLockIsPerAddress: five wrong passwords from one address lock that
// address out, answering the lock even to the right password; the worker
// at the office, on another address, still signs in. An email with no
// account answers exactly as one with an account: the same refusal, then
// the same lock at the fifth try.
func TestLockIsPerAddress(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		svc, now, _ := signInFixture(t, e)
		ctx := context.Background()
		for _, email := range []string{desk, "nobody@bright.example"} {
			for i := 1; i <= 4; i++ {
				if c := code(svc.SignIn(ctx, email, "wrong", "203.0.113.9")); c != chairside.EUNAUTHORIZED {
					t.Fatalf("%s, try %d: %q, want %q", email, i, c, chairside.EUNAUTHORIZED)
				}
			}
			if c := code(svc.SignIn(ctx, email, "wrong", "203.0.113.9")); c != chairside.ERATELIMITED {
				t.Fatalf("%s, fifth try: %q, want the lock", email, c)
			}
		}
		if c := code(svc.SignIn(ctx, desk, password, "203.0.113.9")); c != chairside.ERATELIMITED {
			t.Fatalf("the right password from the locked address: %q, want the lock", c)
		}
		if c := code(svc.SignIn(ctx, desk, password, "198.51.100.20")); c != "" {
			t.Fatalf("the worker at the office: %q, want signed in", c)
		}
		*now = now.Add(LockFor)
		if c := code(svc.SignIn(ctx, desk, password, "203.0.113.9")); c != "" {
			t.Fatalf("after the lock: %q, want signed in", c)
		}
	})
}

// TestLockHoldsUnderParallelTries: 20 and then 100 tries at once with
// wrong passwords check five of them; the right password after them is
// refused with the lock; a disabled account answers as any other.
func TestLockHoldsUnderParallelTries(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		svc, now, st := signInFixture(t, e)
		ctx := context.Background()
		for _, n := range []int{20, 100} {
			ip := "203.0.113." + string(rune('0'+n/20))
			codes := map[string]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for range n - 1 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := svc.SignIn(ctx, desk, "wrong", ip)
					c := chairside.ErrorCode(err)
					if c == chairside.EINTERNAL {
						t.Log(err)
					}
					mu.Lock()
					codes[c]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			if codes[chairside.EUNAUTHORIZED] != MaxFailures-1 || codes[chairside.ERATELIMITED] != n-MaxFailures {
				t.Fatalf("%d wrong tries at once: %v; want %d refused as wrong, the fifth and the rest locked", n-1, codes, MaxFailures-1)
			}
			if c := code(svc.SignIn(ctx, desk, password, ip)); c != chairside.ERATELIMITED {
				t.Fatalf("the right password after %d wrong ones: %q, want the lock", n-1, c)
			}
		}
		audit, err := e.DB.ListOfficeAudit(ctx, st.LocationID)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, a := range audit {
			if a.Details == "wrong password" {
				checked++
			}
		}
		if checked != 2*MaxFailures {
			t.Errorf("%d wrong passwords were checked, want %d (five per address)", checked, 2*MaxFailures)
		}
		if err := svc.DisableStaff(ctx, desk); err != nil {
			t.Fatal(err)
		}
		*now = now.Add(LockFor)
		if c := code(svc.SignIn(ctx, desk, password, "198.51.100.20")); c != chairside.EUNAUTHORIZED {
			t.Fatalf("a disabled account: %q, want the answer of a wrong password", c)
		}
	})
}
