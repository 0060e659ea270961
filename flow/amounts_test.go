package flow_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// inflatingLenders answer every decision and status with an approved
// amount no lender would give.
type inflatingLenders struct{ chairside.Lenders }

func (g inflatingLenders) Lender(key string) (chairside.Lender, error) {
	l, err := g.Lenders.Lender(key)
	return inflating{l}, err
}

type inflating struct{ chairside.Lender }

// As hands out the optional steps of the lender it wraps, unchanged.
func (l inflating) As(target any) bool { return chairside.AsStep(l.Lender, target) }

func inflate(d *chairside.Decision, err error) (*chairside.Decision, error) {
	if d != nil && chairside.Positive(d.ResponseCode) {
		d.ApprovedAmountCents = 9_990_000_000 // $99,900,000.00
	}
	return d, err
}

func (l inflating) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	return inflate(l.Lender.Decide(ctx, req))
}

func (l inflating) Status(ctx context.Context, req *chairside.StatusRequest) (*chairside.Decision, error) {
	return inflate(l.Lender.Status(ctx, req))
}

func (l inflating) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	return inflate(l.Lender.Complete(ctx, req))
}

// TestAmountsNoLenderGives: a decision approving more than any lender
// gives is malformed: a submit records the lender's error, never the
// amount, a status look-up of a pending application records nothing, and
// a completion whose final decision holds it is the lender's failure, the
// signed application left as it was. (A webhook's: TestLenderWebhook.)
func TestAmountsNoLenderGives(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		testkit.SeedOffice(t, e.DB)
		f := &fixture{svc: flow.New(e.DB, inflatingLenders{sandbox.New(sandbox.Options{})}, e.Keys, flow.Options{}), db: e.DB}
		d, err := f.submit(t, f.caller(t), "synchrony_standard", "Approve", "123450091")
		if err != nil || d.ResponseCode != chairside.ResponseError || d.ApprovedAmountCents != 0 {
			t.Fatalf("an inflated approval: %+v %v; want the lender's error", d, err)
		}

		c, pending := pendingJourney(t, f, "pending-then-approved")
		if pending.ResponseCode != chairside.ResponsePending {
			t.Fatalf("pending-then-approved answered %q", pending.ResponseCode)
		}
		if _, err := f.svc.ApplicationStatus(context.Background(), c, "synchrony_standard"); chairside.ErrorCode(err) != chairside.ELENDER {
			t.Fatalf("status with an inflated approval: %v, want %s", err, chairside.ELENDER)
		}
		pa, err := e.DB.FindLenderApplication(context.Background(), c.Session.ApplicationID, "synchrony_standard")
		if err != nil || pa.Decision.ResponseCode != chairside.ResponsePending {
			t.Fatalf("after the status look-up: %+v %v; want still pending", pa.Decision, err)
		}

		// A signed offer whose lender completes with an inflated decision.
		honest := &fixture{svc: flow.New(e.DB, sandbox.New(sandbox.Options{}), e.Keys, flow.Options{}), db: e.DB}
		signed := honest.planConfirmed(t, "123450092")
		ctx := context.Background()
		if _, err := honest.svc.AcceptOffer(ctx, signed, "synchrony_standard", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := honest.svc.ESign(ctx, signed, "synchrony_standard", honest.esignRequest(t, signed, "synchrony_standard", true)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Complete(ctx, signed, "synchrony_standard"); chairside.ErrorCode(err) != chairside.ELENDER {
			t.Fatalf("complete with an inflated decision: %v, want %s", err, chairside.ELENDER)
		}
		if pa, err := e.DB.FindLenderApplication(ctx, signed.Session.ApplicationID, "synchrony_standard"); err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("after the malformed completion: %+v %v; want still signed", pa, err)
		}
	})
}
