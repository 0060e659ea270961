package store_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// t0 is the fixed "now" of these tests.
var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

var ctx = context.Background()

// wantCode fails the test unless err carries the domain error code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := chairside.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

// must fails the test on err.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func intp(i int) *int { return &i }

func int64p(i int64) *int64 { return &i }

// newLocation stores a location with a unique entity key.
func newLocation(t testing.TB, db *store.DB) *chairside.Location {
	t.Helper()
	l := &chairside.Location{
		EntityKey: randomDigits(16), Name: "Smile Dental", State: "CA", GroupID: "g1",
		BrandName: "Smile", BrandLogo: "/logo.svg",
		Waterfall: []chairside.WaterfallStep{
			{LenderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
			{LenderKey: "proceed", Role: chairside.RoleSecondary, ApplyMode: chairside.ModeFull, AutoSubmit: true},
		},
		CreatedAt: t0,
	}
	must(t, db.CreateLocation(ctx, l))
	return l
}

var digitCounter atomic.Int64

func randomDigits(n int) string {
	s := time.Now().Format("150405") + "0000000000000000"
	c := digitCounter.Add(1)
	b := []byte(s[:n])
	for i := n - 1; c > 0 && i >= 0; i-- {
		b[i] = byte('0' + c%10)
		c /= 10
	}
	return string(b)
}

// newSession stores a session at a new location, created at created.
func newSession(t testing.TB, db *store.DB, created time.Time) *chairside.Session {
	t.Helper()
	l := newLocation(t, db)
	s := &chairside.Session{
		ID: "sess-" + randomDigits(12), LocationID: l.ID, ApplicationID: "app-" + randomDigits(12),
		Env: chairside.EnvTest, GroupID: "g1", ExperienceType: chairside.ExperienceInStore, FlowType: chairside.FlowApply,
		WarnCountdownMillis: 30000, TimeoutAfterMillis: 600000, DynamicLenderKey: "synchrony_standard",
		CreatedAt: created,
	}
	must(t, db.CreateSession(ctx, s))
	return s
}

// applicant returns a full applicant with the given name and SSN.
func applicant(first, last, ssn string) chairside.Applicant {
	return chairside.Applicant{
		FirstName: first, LastName: last, MiddleInitial: "Q", DateOfBirth: "1961-07-04", SSN: ssn,
		AddressLine1: "1 Main St", AddressCity: "Springfield", AddressState: "CA", AddressZipCode: "90001",
		Email: "pat@example.com", MobilePhone: "5555550123", EmployerName: "Acme", MonthsEmployed: intp(36),
		HousingStatus: "rent", HousingPaymentAmount: int64p(150000), IDType: "driver_license", IDNumber: "D1234567",
		AnnualGrossIncome: int64p(8500000), PayFrequency: "bi_weekly",
	}
}

// newApplication stores an application for session s.
func newApplication(t testing.TB, db *store.DB, s *chairside.Session, primary chairside.Applicant, joint *chairside.Applicant) *chairside.Application {
	t.Helper()
	a := &chairside.Application{
		ID: s.ApplicationID, SessionID: s.ID, LocationID: s.LocationID,
		PurchaseAmountCents: 500000, InsuranceBenefitsCents: 25000, ExternalCustomerID: "cust-1",
		JointEnabled: joint != nil, Primary: primary, Joint: joint, TestCase: "approve_all", CreatedAt: s.CreatedAt,
	}
	must(t, db.CreateApplication(ctx, a))
	return a
}

// newLenderApplication stores a lender application for a.
func newLenderApplication(t testing.TB, db *store.DB, a *chairside.Application, lenderKey string) *chairside.LenderApplication {
	t.Helper()
	pa := &chairside.LenderApplication{
		ApplicationID: a.ID, LenderKey: lenderKey, Role: chairside.RolePrimary,
		ApplyMode: chairside.ModePrequalify, Status: chairside.StatusStarted, CreatedAt: a.CreatedAt,
	}
	must(t, db.CreateLenderApplication(ctx, pa))
	return pa
}

func TestOpen(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		must(t, e.DB.Ping(ctx))
		if e.DB.Engine() != e.Name {
			t.Fatalf("Engine() = %q, want %q", e.DB.Engine(), e.Name)
		}
		// A second server on the same database finds the schema migrated
		// and migrates nothing twice.
		db2, err := store.Open(ctx, e.DSN, e.Keys)
		must(t, err)
		defer db2.Close()
		var n int
		must(t, store.RawDB(db2).QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n))
		files, err := filepath.Glob("migrations/*.sql")
		must(t, err)
		if n != len(files) || n < 2 {
			t.Fatalf("schema_migrations has %d rows, want one per migration (%d)", n, len(files))
		}
		// Both servers see each other's writes.
		l := newLocation(t, e.DB)
		if _, err := db2.FindLocationByID(ctx, l.ID); err != nil {
			t.Fatal(err)
		}
	})
}

func TestOpenErrors(t *testing.T) {
	if _, err := store.Open(ctx, "", storetest.Keys(t)); err == nil {
		t.Fatal("Open with an empty dsn succeeded")
	}
	if _, err := store.Open(ctx, t.TempDir()+"/x.db", nil); err == nil {
		t.Fatal("Open without keys succeeded")
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := store.Open(cctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=1", storetest.Keys(t)); err == nil {
		t.Fatal("Open of an unreachable PostgreSQL succeeded")
	}
}

func TestSQLiteCreatesDirectory(t *testing.T) {
	path := t.TempDir() + "/a/b/chairside.db"
	db, err := store.Open(ctx, path, storetest.Keys(t))
	must(t, err)
	must(t, db.Close())
}
