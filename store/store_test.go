package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
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
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func intp(i int) *int       { return &i }
func int64p(i int64) *int64 { return &i }

// newLocation stores a location with a unique entity key.
func newLocation(t *testing.T, db *store.DB) *chairside.Location {
	t.Helper()
	l := &chairside.Location{
		EntityKey: randomDigits(16), Name: "Smile Dental", State: "CA", GroupID: "g1",
		BrandName: "Smile", BrandLogo: "/logo.svg",
		Waterfall: []chairside.WaterfallStep{
			{ProviderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
			{ProviderKey: "proceed", Role: chairside.RoleSecondary, ApplyMode: chairside.ModeFull, AutoSubmit: true},
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
func newSession(t *testing.T, db *store.DB, created time.Time) *chairside.Session {
	t.Helper()
	l := newLocation(t, db)
	s := &chairside.Session{
		ID: "sess-" + randomDigits(12), LocationID: l.ID, ApplicationID: "app-" + randomDigits(12),
		Env: chairside.EnvTest, GroupID: "g1", ExperienceType: chairside.ExperienceInStore, FlowType: chairside.FlowApply,
		WarnCountdownMillis: 30000, TimeoutAfterMillis: 600000, DynamicProviderKey: "synchrony_standard",
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
func newApplication(t *testing.T, db *store.DB, s *chairside.Session, primary chairside.Applicant, joint *chairside.Applicant) *chairside.Application {
	t.Helper()
	a := &chairside.Application{
		ID: s.ApplicationID, SessionID: s.ID, LocationID: s.LocationID,
		PurchaseAmountCents: 500000, InsuranceBenefitsCents: 25000, ExternalCustomerID: "cust-1",
		JointEnabled: joint != nil, Primary: primary, Joint: joint, TestCase: "approve_all", CreatedAt: s.CreatedAt,
	}
	must(t, db.CreateApplication(ctx, a))
	return a
}

// newProviderApplication stores a provider application for a.
func newProviderApplication(t *testing.T, db *store.DB, a *chairside.Application, providerKey string) *chairside.ProviderApplication {
	t.Helper()
	pa := &chairside.ProviderApplication{
		ApplicationID: a.ID, ProviderKey: providerKey, Role: chairside.RolePrimary,
		ApplyMode: chairside.ModePrequalify, Status: chairside.StatusStarted, CreatedAt: a.CreatedAt,
	}
	must(t, db.CreateProviderApplication(ctx, pa))
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

func TestLocations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		if l.ID == "" {
			t.Fatal("CreateLocation did not assign an id")
		}
		got, err := db.FindLocationByID(ctx, l.ID)
		must(t, err)
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("FindLocationByID = %+v, want %+v", got, l)
		}
		got, err = db.FindLocationByEntityKey(ctx, l.EntityKey)
		must(t, err)
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("FindLocationByEntityKey = %+v, want %+v", got, l)
		}
		if got.Next("synchrony_standard").ProviderKey != "proceed" {
			t.Fatal("waterfall order lost")
		}

		l2 := &chairside.Location{ID: "loc-2", EntityKey: randomDigits(16), Name: "Neutral", State: "DC", GroupID: "g2", CreatedAt: t0.Add(time.Second)}
		must(t, db.CreateLocation(ctx, l2))
		list, err := db.ListLocations(ctx)
		must(t, err)
		if len(list) != 2 || list[0].ID != l.ID || list[1].ID != "loc-2" {
			t.Fatalf("ListLocations = %v", list)
		}
		if list[1].Waterfall != nil {
			t.Fatalf("nil waterfall came back as %#v", list[1].Waterfall)
		}

		dup := *l
		dup.ID = ""
		wantCode(t, db.CreateLocation(ctx, &dup), chairside.ECONFLICT)
		_, err = db.FindLocationByID(ctx, "nope")
		wantCode(t, err, chairside.ENOTFOUND)
		_, err = db.FindLocationByEntityKey(ctx, "0000000000000000")
		wantCode(t, err, chairside.ENOTFOUND)
	})
}

func TestLocationsEmptyList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		list, err := db.ListLocations(ctx)
		must(t, err)
		if len(list) != 0 {
			t.Fatalf("ListLocations on an empty store = %v", list)
		}
	})
}

func TestFlowTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		tok := &chairside.FlowToken{
			Hash: "h1", LocationID: l.ID, PurchaseAmountCents: 123456, InsuranceBenefitsCents: 500,
			FirstName: "Siobhán", LastName: "O'Hara", ExperienceType: chairside.ExperienceInStore,
			ExpiresAt: t0.Add(chairside.FlowTokenTTL), CreatedAt: t0,
		}
		must(t, db.CreateFlowToken(ctx, tok))
		wantCode(t, db.CreateFlowToken(ctx, tok), chairside.ECONFLICT)

		used := t0.Add(time.Hour)
		got, err := db.ConsumeFlowToken(ctx, "h1", used)
		must(t, err)
		want := *tok
		want.UsedAt = &used
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("ConsumeFlowToken = %+v, want %+v", got, &want)
		}
		// Consumed twice: the second is refused.
		_, err = db.ConsumeFlowToken(ctx, "h1", used)
		wantCode(t, err, chairside.ENOTFOUND)

		// Expired: refused at and after ExpiresAt.
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "h2", LocationID: l.ID, ExperienceType: chairside.ExperienceAtHome, ExpiresAt: t0.Add(time.Minute)}))
		_, err = db.ConsumeFlowToken(ctx, "h2", t0.Add(time.Minute))
		wantCode(t, err, chairside.ENOTFOUND)
		// … and still usable just before, without a name.
		got, err = db.ConsumeFlowToken(ctx, "h2", t0.Add(time.Minute-time.Millisecond))
		must(t, err)
		if got.FirstName != "" || got.LastName != "" {
			t.Fatalf("token without a name came back with %q %q", got.FirstName, got.LastName)
		}

		_, err = db.ConsumeFlowToken(ctx, "missing", t0)
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "h3", LocationID: "nope", ExpiresAt: t0}), chairside.ENOTFOUND)
		wantCode(t, db.CreateFlowToken(ctx, &chairside.FlowToken{LocationID: l.ID}), chairside.EINVALID)
	})
}

func TestConsumeFlowTokenConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "race", LocationID: l.ID, ExpiresAt: t0.Add(time.Hour)}))
		var ok, notFound atomic.Int32
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				_, err := db.ConsumeFlowToken(ctx, "race", t0)
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
				case chairside.ENOTFOUND:
					notFound.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || notFound.Load() != 19 {
			t.Fatalf("%d consumed, %d refused; want 1 and 19", ok.Load(), notFound.Load())
		}
	})
}

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		got, err := db.FindSession(ctx, s.ID)
		must(t, err)
		want := *s
		want.LastSeenAt = t0 // defaulted to CreatedAt
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("FindSession = %+v, want %+v", got, &want)
		}
		if !got.Live(t0.Add(time.Minute)) {
			t.Fatal("new session not live")
		}
		wantCode(t, db.CreateSession(ctx, s), chairside.ECONFLICT)

		// Touch moves LastSeenAt forward, never back.
		must(t, db.TouchSession(ctx, s.ID, t0.Add(5*time.Minute)))
		must(t, db.TouchSession(ctx, s.ID, t0.Add(2*time.Minute)))
		got, _ = db.FindSession(ctx, s.ID)
		if !got.LastSeenAt.Equal(t0.Add(5 * time.Minute)) {
			t.Fatalf("LastSeenAt = %v, want %v", got.LastSeenAt, t0.Add(5*time.Minute))
		}

		// Finish once; the second finish conflicts and keeps the first.
		must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(10*time.Minute)))
		wantCode(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCancel, t0.Add(11*time.Minute)), chairside.ECONFLICT)
		got, err = db.FindSession(ctx, s.ID)
		must(t, err)
		if got.Outcome != chairside.OutcomeCompleted || got.FinishedAt == nil || !got.FinishedAt.Equal(t0.Add(10*time.Minute)) {
			t.Fatalf("finished session = %+v", got)
		}
		if got.Live(t0.Add(10 * time.Minute)) {
			t.Fatal("finished session still live")
		}

		_, err = db.FindSession(ctx, "missing")
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.TouchSession(ctx, "missing", t0), chairside.ENOTFOUND)
		wantCode(t, db.FinishSession(ctx, "missing", chairside.OutcomeCancel, t0), chairside.ENOTFOUND)
		wantCode(t, db.CreateSession(ctx, &chairside.Session{ID: "x", LocationID: "nope"}), chairside.ENOTFOUND)
		wantCode(t, db.CreateSession(ctx, &chairside.Session{LocationID: s.LocationID}), chairside.EINVALID)
	})
}

func TestFinishSessionConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		var ok, conflicts atomic.Int32
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				err := db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(time.Minute))
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
				case chairside.ECONFLICT:
					conflicts.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || conflicts.Load() != 9 {
			t.Fatalf("%d finished, %d conflicts; want 1 and 9", ok.Load(), conflicts.Load())
		}
	})
}

func TestApplications(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		db := e.DB
		s := newSession(t, db, t0)
		joint := applicant("ねこ", "Nakamura-Ōta", "123456789")
		a := newApplication(t, db, s, applicant("Seán", "O'Hara", "078051120"), &joint)
		if a.SSNIndex != e.Keys.BlindIndex("078051120") {
			t.Fatalf("SSNIndex = %q, want the blind index of the SSN", a.SSNIndex)
		}
		got, err := db.FindApplication(ctx, a.ID)
		must(t, err)
		if !reflect.DeepEqual(got, a) {
			t.Fatalf("FindApplication =\n%+v\nwant\n%+v", got, a)
		}
		if got.Primary.LastName != "O'Hara" || got.Joint.FirstName != "ねこ" {
			t.Fatalf("names changed: %q, %q", got.Primary.LastName, got.Joint.FirstName)
		}
		wantCode(t, db.CreateApplication(ctx, a), chairside.ECONFLICT)

		// Update: drop the joint applicant, change the SSN and amounts.
		db.Now = func() time.Time { return t0.Add(time.Hour) }
		got.Joint, got.JointEnabled = nil, false
		got.Primary.SSN = "111223333"
		got.Primary.AddressLine2 = `Apt "4"; DROP TABLE applications; --`
		got.PurchaseAmountCents = 750000
		must(t, db.UpdateApplication(ctx, got))
		if !got.UpdatedAt.Equal(t0.Add(time.Hour)) || got.SSNIndex != e.Keys.BlindIndex("111223333") {
			t.Fatalf("after update: UpdatedAt %v, SSNIndex %q", got.UpdatedAt, got.SSNIndex)
		}
		again, err := db.FindApplication(ctx, a.ID)
		must(t, err)
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("after update FindApplication =\n%+v\nwant\n%+v", again, got)
		}

		// An application without any applicant data yet.
		s2 := newSession(t, db, t0)
		empty := &chairside.Application{ID: s2.ApplicationID, SessionID: s2.ID, LocationID: s2.LocationID}
		must(t, db.CreateApplication(ctx, empty))
		if empty.SSNIndex != "" {
			t.Fatalf("empty SSN got index %q", empty.SSNIndex)
		}
		gotEmpty, err := db.FindApplication(ctx, empty.ID)
		must(t, err)
		if gotEmpty.Joint != nil || gotEmpty.Primary != (chairside.Applicant{}) {
			t.Fatalf("empty application came back as %+v", gotEmpty)
		}

		_, err = db.FindApplication(ctx, "missing")
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.UpdateApplication(ctx, &chairside.Application{ID: "missing"}), chairside.ENOTFOUND)

		// Generated ids.
		gen := &chairside.Application{SessionID: s2.ID}
		must(t, db.CreateApplication(ctx, gen))
		if len(gen.ID) != 32 || gen.CreatedAt.IsZero() {
			t.Fatalf("generated id %q, CreatedAt %v", gen.ID, gen.CreatedAt)
		}
	})
}

func TestProviderApplications(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		if pa.Version != 1 || pa.ID == "" {
			t.Fatalf("created pa = %+v", pa)
		}
		got, err := db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(got, pa) {
			t.Fatalf("FindProviderApplication = %+v, want %+v", got, pa)
		}
		if got.Decision != nil {
			t.Fatal("decision before any was recorded")
		}
		wantCode(t, db.CreateProviderApplication(ctx, &chairside.ProviderApplication{ApplicationID: a.ID, ProviderKey: "synchrony_standard", Status: chairside.StatusStarted}), chairside.ECONFLICT)
		wantCode(t, db.CreateProviderApplication(ctx, &chairside.ProviderApplication{ApplicationID: "missing", ProviderKey: "x", Status: chairside.StatusStarted}), chairside.ENOTFOUND)

		// Update from the current version succeeds and increments it.
		db.Now = func() time.Time { return t0.Add(time.Minute) }
		got.Status, got.LenderApplicationID, got.SelectedPlanCode = chairside.StatusPlanSelected, "L-1", "P24"
		must(t, db.UpdateProviderApplication(ctx, got))
		if got.Version != 2 || !got.UpdatedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("after update: version %d, UpdatedAt %v", got.Version, got.UpdatedAt)
		}
		again, err := db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("after update = %+v, want %+v", again, got)
		}
		// The stale copy conflicts and changes nothing.
		pa.Status = chairside.StatusCompleted
		wantCode(t, db.UpdateProviderApplication(ctx, pa), chairside.ECONFLICT)
		if pa.Version != 1 {
			t.Fatalf("failed update changed Version to %d", pa.Version)
		}
		again, _ = db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		if again.Status != chairside.StatusPlanSelected {
			t.Fatalf("stale update wrote status %q", again.Status)
		}
		wantCode(t, db.UpdateProviderApplication(ctx, &chairside.ProviderApplication{ID: "missing", Version: 1}), chairside.ENOTFOUND)
		_, err = db.FindProviderApplication(ctx, a.ID, "proceed")
		wantCode(t, err, chairside.ENOTFOUND)

		// List, in creation order, each with its own latest decision.
		pa2 := &chairside.ProviderApplication{ApplicationID: a.ID, ProviderKey: "proceed", Role: chairside.RoleSecondary, ApplyMode: chairside.ModeFull, Status: chairside.StatusStarted, CreatedAt: t0.Add(time.Second)}
		must(t, db.CreateProviderApplication(ctx, pa2))
		must(t, db.CreateDecision(ctx, &chairside.Decision{ProviderApplicationID: pa.ID, ProviderKey: "synchrony_standard", Operation: "prequalify", ResponseCode: chairside.ResponseDeclined, CreatedAt: t0}))
		must(t, db.CreateDecision(ctx, &chairside.Decision{ProviderApplicationID: pa2.ID, ProviderKey: "proceed", Operation: "apply", ResponseCode: chairside.ResponseApproved, ApprovedAmountCents: 500000, CreatedAt: t0.Add(time.Second)}))
		list, err := db.ListProviderApplications(ctx, a.ID)
		must(t, err)
		if len(list) != 2 || list[0].ProviderKey != "synchrony_standard" || list[1].ProviderKey != "proceed" {
			t.Fatalf("ListProviderApplications = %v", list)
		}
		if list[0].Decision == nil || list[0].Decision.ResponseCode != chairside.ResponseDeclined ||
			list[1].Decision == nil || list[1].Decision.ResponseCode != chairside.ResponseApproved {
			t.Fatalf("decisions attached wrongly: %+v / %+v", list[0].Decision, list[1].Decision)
		}
		none, err := db.ListProviderApplications(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("list for a missing application = %v", none)
		}
	})
}

// TestUpdateProviderApplicationConcurrent is "50 parallel accepts → exactly
// one succeeds": every goroutine read the same version.
func TestUpdateProviderApplicationConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		const n = 50
		var ok, conflicts atomic.Int32
		var winner atomic.Value
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			mine := *pa // each request holds its own copy read at version 1
			mine.Status = chairside.StatusOfferAccepted
			mine.LenderApplicationID = "L-" + string(rune('A'+i%26))
			wg.Go(func() {
				<-start
				err := db.UpdateProviderApplication(ctx, &mine)
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
					winner.Store(mine.LenderApplicationID)
				case chairside.ECONFLICT:
					conflicts.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		if ok.Load() != 1 || conflicts.Load() != n-1 {
			t.Fatalf("%d succeeded, %d conflicted; want 1 and %d", ok.Load(), conflicts.Load(), n-1)
		}
		got, err := db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if got.Version != 2 || got.LenderApplicationID != winner.Load() {
			t.Fatalf("stored version %d lender id %q; want 2 and the winner's %q", got.Version, got.LenderApplicationID, winner.Load())
		}
	})
}

func TestDecisions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		expires := t0.Add(30 * 24 * time.Hour)
		d1 := &chairside.Decision{
			ProviderApplicationID: pa.ID, ProviderKey: "synchrony_standard", Operation: "prequalify",
			ResponseCode: chairside.ResponsePending, PendingReasons: []string{"identity", "income"},
			Stipulations:        []chairside.Stipulation{{ID: "s1", Type: "id_check", Description: "Upload ID", Status: "open"}},
			DownPaymentRequired: true, DownPaymentCents: 10000, ExistingAccount: true, LenderApplicationID: "L-9",
			OfferedProviderID: "partner", ExpiresAt: &expires, CreatedAt: t0,
		}
		must(t, db.CreateDecision(ctx, d1))
		got, err := db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(got.Decision, d1) {
			t.Fatalf("Decision = %+v, want %+v", got.Decision, d1)
		}
		// Several decisions in the same millisecond: the last written is
		// the latest.
		for _, code := range []string{chairside.ResponseDeclined, chairside.ResponseError, chairside.ResponseApproved} {
			must(t, db.CreateDecision(ctx, &chairside.Decision{ProviderApplicationID: pa.ID, ProviderKey: "synchrony_standard", Operation: "apply", ResponseCode: code, CreatedAt: t0.Add(time.Minute)}))
		}
		got, _ = db.FindProviderApplication(ctx, a.ID, "synchrony_standard")
		if got.Decision.ResponseCode != chairside.ResponseApproved {
			t.Fatalf("latest decision = %q, want approved", got.Decision.ResponseCode)
		}
		if got.Decision.Stipulations != nil || got.Decision.PendingReasons != nil || got.Decision.ExpiresAt != nil {
			t.Fatalf("nil fields came back non-nil: %+v", got.Decision)
		}
		wantCode(t, db.CreateDecision(ctx, &chairside.Decision{ProviderApplicationID: "missing", Operation: "apply", ResponseCode: "error"}), chairside.ENOTFOUND)
		wantCode(t, db.CreateDecision(ctx, d1), chairside.ECONFLICT)
	})
}

func TestPaymentPlans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		plans := []chairside.PaymentPlan{
			{ProviderKey: "synchrony_standard", TypeID: chairside.PlanDeferredInterest, ProviderPlanCode: "P12", DurationMonths: 12,
				MonthlyAmountCents: 41667, TotalCostCents: 500000, APR: 26.99, PromoAPR: 0, Description: "No interest if paid in full in 12 months",
				ExpireDateTime: t0.Add(48 * time.Hour), MinAmountCents: 20000, MaxAmountCents: 2500000, AmountFinancedCents: 500000},
			{ProviderKey: "synchrony_standard", TypeID: chairside.PlanFixedRate, ProviderPlanCode: "P60", DurationMonths: 60,
				MonthlyAmountCents: 10125, TotalCostCents: 607500, APR: 9.9, PromoAPR: 9.9, ExpireDateTime: t0.Add(48 * time.Hour),
				AmountFinancedCents: 480000, DownPaymentCents: 20000, ProductType: "bankloan", SubLenderID: "sub-1"},
		}
		must(t, db.SavePaymentPlans(ctx, pa.ID, plans))
		got, err := db.ListPaymentPlans(ctx, pa.ID)
		must(t, err)
		if !reflect.DeepEqual(got, plans) {
			t.Fatalf("ListPaymentPlans =\n%+v\nwant\n%+v", got, plans)
		}
		// Saving again replaces the set.
		must(t, db.SavePaymentPlans(ctx, pa.ID, plans[1:]))
		got, _ = db.ListPaymentPlans(ctx, pa.ID)
		if len(got) != 1 || got[0].ProviderPlanCode != "P60" {
			t.Fatalf("after replace: %+v", got)
		}
		must(t, db.SavePaymentPlans(ctx, pa.ID, nil))
		got, _ = db.ListPaymentPlans(ctx, pa.ID)
		if len(got) != 0 {
			t.Fatalf("after clearing: %+v", got)
		}
		wantCode(t, db.SavePaymentPlans(ctx, "missing", plans), chairside.ENOTFOUND)
		got, err = db.ListPaymentPlans(ctx, "missing")
		must(t, err)
		if len(got) != 0 {
			t.Fatalf("plans of a missing provider application: %+v", got)
		}
	})
}

func TestConsents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		signed := t0.Add(3 * time.Minute)
		png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR binary \x00\xff")
		c1 := &chairside.Consent{SessionID: "s1", ApplicationID: "a1", ProviderKey: "synchrony_standard", Kind: chairside.ConsentSoftPull,
			DocumentID: "prequalification", DocumentVersion: "2026-01", DocumentSHA256: "abc123", ConsentText: "I agree to a soft pull.",
			ShownAt: t0, ConsentedAt: t0.Add(time.Minute), IP: "203.0.113.9", UserAgent: "Mozilla/5.0"}
		c2 := &chairside.Consent{SessionID: "s1", ApplicationID: "a1", ProviderKey: "synchrony_standard", Kind: chairside.ConsentTerms,
			DocumentID: "agreement", DocumentVersion: "v3", DocumentSHA256: "def456", ConsentText: "I sign.", ProviderPlanCode: "P12",
			ShownAt: t0.Add(2 * time.Minute), ConsentedAt: t0.Add(3 * time.Minute), SignedAt: &signed, SignaturePNG: png}
		// Written out of order; listed by ConsentedAt.
		must(t, db.CreateConsent(ctx, c2))
		must(t, db.CreateConsent(ctx, c1))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: "s2", ApplicationID: "a2", Kind: chairside.ConsentESign}))
		got, err := db.ListConsents(ctx, "a1")
		must(t, err)
		if len(got) != 2 || !reflect.DeepEqual(got[0], c1) || !reflect.DeepEqual(got[1], c2) {
			t.Fatalf("ListConsents =\n%+v\n%+v\nwant\n%+v\n%+v", got[0], got[1], c1, c2)
		}
		wantCode(t, db.CreateConsent(ctx, c1), chairside.ECONFLICT)
		none, err := db.ListConsents(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("consents of a missing application: %v", none)
		}
	})
}

func TestEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var want []*chairside.Event
		for i, typ := range []string{"flow.started", "decision.recorded", "offer.accepted", "flow.finished"} {
			e := &chairside.Event{SessionID: "s1", ApplicationID: "a1", ProviderKey: "proceed", Type: typ,
				Data: map[string]any{"step": float64(i), "ok": true, "name": "ok"}, CreatedAt: t0} // same millisecond
			must(t, db.AppendEvent(ctx, e))
			want = append(want, e)
		}
		must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: "s2", Type: "other"}))
		got, err := db.ListEvents(ctx, "s1")
		must(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ListEvents = %v, want %v", got, want)
		}
		none, err := db.ListEvents(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("events of a missing session: %v", none)
		}
		wantCode(t, db.AppendEvent(ctx, want[0]), chairside.ECONFLICT)
	})
}

func TestLenderCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		c := &chairside.LenderCall{ProviderApplicationID: pa.ID, Step: chairside.StepAccept, SessionID: s.ID,
			Reference: "ref-1", RequestHash: "h1", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)}
		existing, claimed, err := db.ClaimLenderCall(ctx, c)
		must(t, err)
		if !claimed || existing != nil || c.Attempt != 1 || c.State != chairside.CallRunning {
			t.Fatalf("first claim: claimed %v, existing %+v, call %+v", claimed, existing, c)
		}
		// A second claim finds the first, running, and changes nothing.
		existing, claimed, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{ProviderApplicationID: pa.ID, Step: chairside.StepAccept,
			SessionID: s.ID, Reference: "ref-2", RequestHash: "h2", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)})
		must(t, err)
		if claimed || existing.Reference != "ref-1" || existing.RequestHash != "h1" || existing.State != chairside.CallRunning || existing.Expired(t0) || !existing.Expired(t0.Add(time.Minute)) {
			t.Fatalf("second claim: claimed %v, existing %+v", claimed, existing)
		}
		// Its lease still runs: no takeover.
		early := *existing
		early.ClaimedAt, early.LeaseUntil = t0.Add(30*time.Second), t0.Add(2*time.Minute)
		wantCode(t, db.RetakeLenderCall(ctx, &early), chairside.ECONFLICT)
		// After it, a takeover moves to attempt 2; the old attempt can no
		// longer settle, the new one can.
		late := *existing
		late.ClaimedAt, late.LeaseUntil = t0.Add(2*time.Minute), t0.Add(3*time.Minute)
		must(t, db.RetakeLenderCall(ctx, &late))
		if late.Attempt != 2 {
			t.Fatalf("takeover attempt %d", late.Attempt)
		}
		c.State, c.Response = chairside.CallDone, []byte(`{"old":true}`)
		wantCode(t, db.SettleLenderCall(ctx, c), chairside.ECONFLICT)
		late.State, late.Response = chairside.CallDone, []byte(`{"status":"offer_accepted"}`)
		must(t, db.SettleLenderCall(ctx, &late))
		got, err := db.FindLenderCall(ctx, pa.ID, chairside.StepAccept)
		must(t, err)
		if got.State != chairside.CallDone || string(got.Response) != `{"status":"offer_accepted"}` || got.Attempt != 2 || got.Reference != "ref-1" || got.SettledAt == nil {
			t.Fatalf("settled call: %+v", got)
		}
		// A done call is neither taken over nor settled again.
		wantCode(t, db.RetakeLenderCall(ctx, got), chairside.ECONFLICT)
		wantCode(t, db.SettleLenderCall(ctx, &late), chairside.ECONFLICT)
		// A failed call is taken over at once.
		f := &chairside.LenderCall{ProviderApplicationID: pa.ID, Step: chairside.StepESign, SessionID: s.ID,
			Reference: "ref-3", RequestHash: "h", ClaimedAt: t0, LeaseUntil: t0.Add(time.Hour)}
		_, _, err = db.ClaimLenderCall(ctx, f)
		must(t, err)
		f.State = chairside.CallFailed
		must(t, db.SettleLenderCall(ctx, f))
		must(t, db.RetakeLenderCall(ctx, f))
		if f.Attempt != 2 || f.State != chairside.CallRunning {
			t.Fatalf("retake of a failed call: %+v", f)
		}

		_, err = db.FindLenderCall(ctx, pa.ID, chairside.StepComplete)
		wantCode(t, err, chairside.ENOTFOUND)
		_, _, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{ProviderApplicationID: "missing", Step: chairside.StepAccept, Reference: "ref-4"})
		wantCode(t, err, chairside.ENOTFOUND)
		_, _, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{})
		wantCode(t, err, chairside.EINVALID)
	})
}

// TestClaimLenderCallConcurrent: of parallel claims of one step exactly one
// claims it, on both engines.
func TestClaimLenderCallConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newProviderApplication(t, db, a, "synchrony_standard")
		var claimed atomic.Int32
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Go(func() {
				ex, ok, err := db.ClaimLenderCall(ctx, &chairside.LenderCall{ProviderApplicationID: pa.ID, Step: chairside.StepPrequalify,
					SessionID: s.ID, Reference: fmt.Sprintf("ref-%d", i), RequestHash: "h", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)})
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					claimed.Add(1)
				} else if ex == nil || ex.State != chairside.CallRunning {
					t.Errorf("not claimed and no running call: %+v", ex)
				}
			})
		}
		wg.Wait()
		if claimed.Load() != 1 {
			t.Fatalf("%d claims succeeded, want 1", claimed.Load())
		}
	})
}

// TestReservePullConcurrent: parallel reservations never pass the limit.
func TestReservePullConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var taken atomic.Int32
		var wg sync.WaitGroup
		for range 25 {
			wg.Go(func() {
				err := db.Batch(ctx, func(st chairside.Store) error {
					ok, err := st.ReservePull(ctx, "ssn:abc:2026-11-23", 10)
					if ok {
						taken.Add(1)
					}
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if taken.Load() != 10 {
			t.Fatalf("%d pulls reserved, want the limit of 10", taken.Load())
		}
		if ok, err := db.ReservePull(ctx, "ssn:abc:2026-11-24", 10); err != nil || !ok {
			t.Fatalf("another scope: %v %v", ok, err)
		}
		if ok, err := db.ReservePull(ctx, "x", 0); err != nil || ok {
			t.Fatalf("a limit of 0: %v %v", ok, err)
		}
	})
}

func TestPurgePersonalData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		cutoff := t0.Add(24 * time.Hour)
		type app struct {
			a      *chairside.Application
			purged bool
		}
		var apps []app
		mk := func(created time.Time, finish *time.Time, wantPurged bool) {
			s := newSession(t, db, created)
			j := applicant("Joint", "Person", "222334444")
			a := newApplication(t, db, s, applicant("Ann", "O'Hara", "078051120"), &j)
			if finish != nil {
				must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, *finish))
			}
			pa := newProviderApplication(t, db, a, "synchrony_standard")
			must(t, db.CreateDecision(ctx, &chairside.Decision{ProviderApplicationID: pa.ID, Operation: "apply", ResponseCode: chairside.ResponseApproved, CreatedAt: created}))
			must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, Kind: chairside.ConsentHardPull, ConsentedAt: created, SignaturePNG: []byte("png")}))
			must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, ApplicationID: a.ID, Type: "flow.finished", CreatedAt: created}))
			apps = append(apps, app{a, wantPurged})
		}
		before, after := cutoff.Add(-time.Minute), cutoff.Add(time.Minute)
		mk(t0, &before, true)                                                                                                                  // finished before the cutoff
		mk(t0, &after, false)                                                                                                                  // finished after it
		mk(cutoff.Add(-chairside.SessionMaxAge-time.Minute), nil, true)                                                                        // abandoned long enough ago
		mk(cutoff.Add(-chairside.SessionMaxAge+time.Minute), nil, false)                                                                       // maybe still live at the cutoff
		mk(cutoff.Add(-time.Hour), nil, false)                                                                                                 // live
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "old", LocationID: apps[0].a.LocationID, FirstName: "Ann", ExpiresAt: t0})) // expired before the cutoff

		db.Now = func() time.Time { return cutoff }
		n, err := db.PurgePersonalData(ctx, cutoff)
		must(t, err)
		if n != 2 {
			t.Fatalf("purged %d applications, want 2", n)
		}
		for i, x := range apps {
			got, err := db.FindApplication(ctx, x.a.ID)
			must(t, err)
			if x.purged {
				if got.PurgedAt == nil || !got.PurgedAt.Equal(cutoff) || got.Primary != (chairside.Applicant{}) || got.Joint != nil {
					t.Errorf("app %d not purged: %+v", i, got)
				}
				// Everything that is not personal data stays.
				if got.PurchaseAmountCents != x.a.PurchaseAmountCents || got.SSNIndex != x.a.SSNIndex || got.SessionID != x.a.SessionID {
					t.Errorf("app %d lost non-personal fields: %+v", i, got)
				}
				wantCode(t, db.UpdateApplication(ctx, x.a), chairside.ECONFLICT)
			} else if got.PurgedAt != nil || !reflect.DeepEqual(got, x.a) {
				t.Errorf("app %d changed by the purge: %+v", i, got)
			}
			pa, err := db.FindProviderApplication(ctx, x.a.ID, "synchrony_standard")
			must(t, err)
			if pa.Decision == nil || pa.Decision.ResponseCode != chairside.ResponseApproved {
				t.Errorf("app %d lost its decision", i)
			}
			consents, err := db.ListConsents(ctx, x.a.ID)
			must(t, err)
			if len(consents) != 1 || string(consents[0].SignaturePNG) != "png" {
				t.Errorf("app %d lost its consent: %+v", i, consents)
			}
			events, err := db.ListEvents(ctx, x.a.SessionID)
			must(t, err)
			if len(events) != 1 {
				t.Errorf("app %d lost its events", i)
			}
		}
		// Purging again finds nothing new.
		n, err = db.PurgePersonalData(ctx, cutoff)
		must(t, err)
		if n != 0 {
			t.Fatalf("second purge purged %d", n)
		}
		var sealed string
		must(t, store.RawDB(db).QueryRow(store.Rebind(db, `SELECT name_sealed FROM flow_tokens WHERE hash = ?`), "old").Scan(&sealed))
		if sealed != "" {
			t.Fatal("expired flow token kept its sealed name")
		}
	})
}
