package flow_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// countingLenders wraps the sandbox to count decision calls and to make
// AcceptOffer fail on demand.
type countingLenders struct {
	inner      chairside.Lenders
	decides    atomic.Int32
	failAccept atomic.Bool
}

func (c *countingLenders) Lender(key string) (chairside.Lender, error) {
	l, err := c.inner.Lender(key)
	if err != nil {
		return nil, err
	}
	return &countingLender{Lender: l, c: c}, nil
}

type countingLender struct {
	chairside.Lender
	c *countingLenders
}

func (l *countingLender) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	l.c.decides.Add(1)
	return l.Lender.Decide(ctx, req)
}

func (l *countingLender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	if l.c.failAccept.Load() {
		return errors.New("lender down")
	}
	return l.Lender.AcceptOffer(ctx, req)
}

type fixture struct {
	svc     *flow.Service
	lenders *countingLenders
	db      chairside.Store
}

func newFixture(t *testing.T, e storetest.Engine, opts flow.Options) *fixture {
	t.Helper()
	err := e.DB.CreateLocation(context.Background(), &chairside.Location{
		EntityKey: "1000200030004000", Name: "Bright Smiles Dental", State: "CA", GroupID: "g",
		Waterfall: []chairside.WaterfallStep{
			{ProviderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
			{ProviderKey: "fortiva_standard", Role: chairside.RoleSecondary, ApplyMode: chairside.ModePrequalify},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	l := &countingLenders{inner: sandbox.New(sandbox.Options{})}
	return &fixture{svc: flow.New(e.DB, l, e.Keys, opts), lenders: l, db: e.DB}
}

// caller starts a session and answers its caller.
func (f *fixture) caller(t *testing.T) *flow.Caller {
	t.Helper()
	ctx := context.Background()
	start, err := f.svc.StartByEntityKey(ctx, "1000200030004000", flow.StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
	if err != nil {
		t.Fatal(err)
	}
	return &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"}
}

func (f *fixture) submit(t *testing.T, c *flow.Caller, key, lastName, ssn string) (*flow.DecisionResponse, error) {
	t.Helper()
	ctx := context.Background()
	doc, err := f.svc.Disclosures(ctx, c, key, flow.DocPrequalification)
	if err != nil {
		t.Fatal(err)
	}
	income := int64(6_000_000)
	return f.svc.Submit(ctx, c, key, flow.OpPrequalify, &flow.SubmitRequest{
		Primary: chairside.Applicant{
			FirstName: "Ana", LastName: lastName, DateOfBirth: "1975-06-15", SSN: ssn,
			AddressLine1: "1 Market St", AddressCity: "San Francisco", AddressState: "CA", AddressZipCode: "94105",
			Email: "ana@example.com", MobilePhone: "4155550100", AnnualGrossIncome: &income,
		},
		Consent: &flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true},
	})
}

// TestNoLenderCallWithoutNeed: replays, capped submits and other sessions'
// objects never reach the lender.
func TestNoLenderCallWithoutNeed(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{SessionPullCap: 2})
		c := f.caller(t)
		first, err := f.submit(t, c, "synchrony_standard", "Approve", "123450001")
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.submit(t, c, "synchrony_standard", "Approve", "123450001")
		if err != nil || again.ResponseCode != first.ResponseCode || f.lenders.decides.Load() != 1 {
			t.Fatalf("replay: %v, %d lender calls", err, f.lenders.decides.Load())
		}
		if _, err := f.submit(t, c, "fortiva_standard", "Decline", "123450001"); err != nil {
			t.Fatal(err)
		}
		// A third pull in this session is over the cap of 2.
		c.IdempotencyKey = "new-attempt"
		_, err = f.submit(t, c, "fortiva_standard", "Approve", "123450001")
		if chairside.ErrorCode(err) != chairside.ERATELIMITED || f.lenders.decides.Load() != 2 {
			t.Fatalf("over the cap: %v, %d lender calls", err, f.lenders.decides.Load())
		}

		// Session B sees none of A's provider applications.
		b := f.caller(t)
		if _, err := f.svc.Plans(context.Background(), b, "synchrony_standard", 1000); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("B reached A's application: %v", err)
		}
	})
}

// TestAcceptHandsBackOnLenderFailure: a lender failure during accept
// answers lender_unavailable and leaves the step retryable.
func TestAcceptHandsBackOnLenderFailure(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450002"); err != nil {
			t.Fatal(err)
		}
		plans, err := f.svc.Plans(ctx, c, "synchrony_standard", 200000)
		if err != nil || len(plans.PaymentPlans) == 0 {
			t.Fatalf("plans: %v", err)
		}
		code := plans.PaymentPlans[0].ProviderPlanCode
		if _, err := f.svc.SelectPlan(ctx, c, "synchrony_standard", code); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ConfirmPlan(ctx, c, "synchrony_standard", code); err != nil {
			t.Fatal(err)
		}
		f.lenders.failAccept.Store(true)
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); chairside.ErrorCode(err) != chairside.ELENDER {
			t.Fatalf("accept with lender down: %v", err)
		}
		f.lenders.failAccept.Store(false)
		pa, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil)
		if err != nil || pa.Status != chairside.StatusOfferAccepted {
			t.Fatalf("retry accept: %v", err)
		}
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("second accept: %v", err)
		}
	})
}

// TestAuthenticate: idle and finished sessions are refused; touches are
// throttled but keep an active session alive.
func TestAuthenticate(t *testing.T) {
	e := storetest.SQLite(t)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f := newFixture(t, e, flow.Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	start, err := f.svc.StartByEntityKey(ctx, "1000200030004000", flow.StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := start.Session.WebSessionID
	for range 3 { // active every 10 minutes: stays alive past the idle limit
		now = now.Add(10 * time.Minute)
		if _, err := f.svc.Authenticate(ctx, id); err != nil {
			t.Fatalf("active session refused: %v", err)
		}
	}
	now = now.Add(12 * time.Minute)
	if _, err := f.svc.Authenticate(ctx, id); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("idle session: %v", err)
	}
	if _, err := f.svc.Authenticate(ctx, "short"); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("malformed id: %v", err)
	}
}
