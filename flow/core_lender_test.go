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

// coreLenders serves every lender with coreLender: an adapter for a
// lender that has none of the optional steps.
type coreLenders struct{ sb *sandbox.Sandbox }

func (c coreLenders) Lender(key string) (chairside.Lender, error) {
	l, err := c.sb.Lender(key)
	if err != nil {
		return nil, err
	}
	return coreLender{next: l}, nil
}

// coreLender implements chairside.Lender and nothing more: each core
// method is its own (none promoted from the sandbox lender it asks), and
// it has no As, so no optional step can be found on it.
type coreLender struct{ next chairside.Lender }

var _ chairside.Lender = coreLender{}

func (l coreLender) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	return l.next.Decide(ctx, req)
}

func (l coreLender) Plans(ctx context.Context, req *chairside.PlansRequest) ([]chairside.PaymentPlan, error) {
	return l.next.Plans(ctx, req)
}

func (l coreLender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	return l.next.AcceptOffer(ctx, req)
}

func (l coreLender) ESign(ctx context.Context, req *chairside.OfferRequest) error {
	return l.next.ESign(ctx, req)
}

func (l coreLender) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	return l.next.Complete(ctx, req)
}

func (l coreLender) Status(ctx context.Context, req *chairside.StatusRequest) (*chairside.Decision, error) {
	return l.next.Status(ctx, req)
}

func (l coreLender) Document(ctx context.Context, req *chairside.DocumentRequest) (*chairside.Document, error) {
	return l.next.Document(ctx, req)
}

// newCoreFixture is newFixture with coreLenders over the sandbox.
func newCoreFixture(t *testing.T, e storetest.Engine) *fixture {
	t.Helper()
	testkit.SeedOffice(t, e.DB)
	log := &lenderLog{}
	lenders := coreLenders{sb: sandbox.New(sandbox.Options{Observe: log.observe})}
	f := &fixture{svc: flow.New(e.DB, lenders, e.Keys, flow.Options{}), log: log, db: e.DB}
	testkit.AuditAfter(t, e.DB)
	return f
}

// coreAccepted prequalifies with Synchrony (which asks for nothing of its
// own here) and accepts the first plan.
func (f *fixture) coreAccepted(t *testing.T, ssn string) (*flow.Caller, *chairside.LenderApplication) {
	t.Helper()
	c := f.caller(t)
	if d, err := f.submit(t, c, "synchrony_standard", "Approve", ssn); err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("prequalify: %+v %v", d, err)
	}
	f.confirmPlan(t, c, "synchrony_standard")
	pa, err := value(f.svc.AcceptOffer(context.Background(), c, "synchrony_standard", nil))
	if err != nil || pa.Status != chairside.StatusOfferAccepted {
		t.Fatalf("accept: %+v %v", pa, err)
	}
	return c, pa
}

// signAndComplete signs and completes the accepted offer of c.
func (f *fixture) signAndComplete(t *testing.T, c *flow.Caller) {
	t.Helper()
	ctx := context.Background()
	const key = "synchrony_standard"
	if pa, err := value(f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, true))); err != nil || pa.Status != chairside.StatusSigned {
		t.Fatalf("esign: %+v %v", pa, err)
	}
	if pa, err := value(f.svc.Complete(ctx, c, key)); err != nil || pa.Status != chairside.StatusCompleted {
		t.Fatalf("complete: %+v %v", pa, err)
	}
}

// TestCoreLenderJourney: a lender with only the core methods carries a
// whole journey — prequalify, plans, accept, e-sign, complete — through
// the flow service on a real store.
func TestCoreLenderJourney(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newCoreFixture(t, e)
		c, _ := f.coreAccepted(t, "123450901")
		f.signAndComplete(t, c)
		for _, op := range []string{sandbox.OpDecide, sandbox.OpAcceptOffer, sandbox.OpESign, sandbox.OpComplete} {
			if n, _ := f.log.count(op); n != 1 {
				t.Errorf("%s reached the lender %d times, want 1", op, n)
			}
		}
	})
}

// TestCoreLenderRefusesOptionalSteps: asked for any optional step, a flow
// over a lender without it answers not found, "This lender has no such
// step.", before anything is claimed: no lender call of the step is on
// record, nothing is left in flight, and the journey then goes on.
func TestCoreLenderRefusesOptionalSteps(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newCoreFixture(t, e)
		ctx := context.Background()
		c, pa := f.coreAccepted(t, "123450902")
		const key = "synchrony_standard"
		consent := &flow.ConsentStepRequest{Consent: &flow.ConsentInput{DocumentID: "d", DocumentVersion: "v", DocumentSHA256: "s", Agreed: true}}
		steps := map[string]func() error{
			chairside.StepBankAccount: func() error { _, err := f.svc.AddBankAccount(ctx, c, key, goodAccount()); return err },
			chairside.StepBankCard:    func() error { _, err := f.svc.AddCard(ctx, c, key, goodCard()); return err },
			chairside.StepDownPayment: func() error {
				_, err := f.svc.DownPayment(ctx, c, key, &flow.DownPaymentRequest{AmountCents: 10_000, Method: chairside.DownPaymentCollected})
				return err
			},
			chairside.StepAdditionalContact:   func() error { _, err := f.svc.AddContact(ctx, c, key, goodContact()); return err },
			chairside.StepAgreement:           func() error { _, err := f.svc.AgreeAgreement(ctx, c, key, consent); return err },
			chairside.StepCaliforniaNotice:    func() error { _, err := f.svc.AcknowledgeCaliforniaNotice(ctx, c, key, consent); return err },
			chairside.StepCardholderAgreement: func() error { _, err := f.svc.AgreeCardholderAgreement(ctx, c, key, consent); return err },
			chairside.StepWisconsinSpouse: func() error {
				_, err := f.svc.AnswerWisconsin(ctx, c, key, &flow.WisconsinRequest{Married: testkit.Ptr(false)})
				return err
			},
			"quiz": func() error { _, err := f.svc.Quiz(ctx, c, key); return err },
			"quiz_1": func() error {
				_, err := f.svc.Answers(ctx, c, key, &flow.AnswersRequest{QuizID: "q", Answers: map[string]string{"q1": "c1"}})
				return err
			},
			chairside.StepPatchIncome: func() error {
				_, err := f.svc.Patch(ctx, c, key, chairside.PatchIncome, &flow.PatchRequest{AnnualGrossIncome: testkit.Ptr(int64(6_500_000))})
				return err
			},
			"stipulations": func() error { _, err := f.svc.RefreshStipulations(ctx, c, key, nil); return err },
			chairside.StepCreditLimit: func() error {
				_, err := f.svc.ChangeCreditLimit(ctx, c, key, &flow.CreditLimitChangeRequest{
					RequestedLimitCents: testkit.Ptr(int64(900_000)), AnnualGrossIncomeCents: testkit.Ptr(int64(9_000_000))})
				return err
			},
		}
		for step, ask := range steps {
			err := ask()
			if chairside.ErrorCode(err) != chairside.ENOTFOUND || chairside.ErrorMessage(err) != "This lender has no such step." {
				t.Errorf("%s: %v, want not found: no such step", step, err)
			}
			if _, err := e.DB.FindLenderCall(ctx, pa.ID, step); chairside.ErrorCode(err) != chairside.ENOTFOUND {
				t.Errorf("%s: a lender call is on record: %v", step, err)
			}
		}
		now, err := f.svc.LenderApplication(ctx, c, key)
		if err != nil || now.InFlight != "" || now.Status != chairside.StatusOfferAccepted || now.Version != pa.Version {
			t.Fatalf("after the refusals: %+v %v (was %+v)", now, err, pa)
		}
		f.signAndComplete(t, c)
	})
}
