package flow_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

const synchrony = "synchrony_standard"

// limitChange is a change's body.
func limitChange(limit, income int64) *flow.CreditLimitChangeRequest {
	return &flow.CreditLimitChangeRequest{RequestedLimitCents: testkit.Ptr(limit), AnnualGrossIncomeCents: testkit.Ptr(income)}
}

// TestCreditLimitChangeExactlyOnce: the credit-limit-change case finds a
// $1,000.00 account that does not cover a $4,500 treatment; wrong figures
// never reach the lender; twelve parallel taps ask it once; the approval
// becomes the decision plans are bounded by, and the journey goes on to
// acceptance.
func TestCreditLimitChangeExactlyOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c, d := pendingJourney(t, f, "credit-limit-change")
		if d.ResponseCode != chairside.ResponseApproved || !d.ExistingAccount || d.ApprovedAmountCents != sandbox.LowLimitCents {
			t.Fatalf("credit-limit-change answered %+v", d)
		}
		terms, err := f.svc.AccountTerms(ctx, c, synchrony)
		if err != nil || terms.CreditLimitCents != 100_000 || terms.AvailableCreditCents != 100_000 || terms.PurchaseAmountCents != 450_000 ||
			terms.MaxLimitCents != 2_500_000 || terms.Document == nil || terms.Document.ID != synchrony+"/"+chairside.DocKindAccountTerms {
			t.Fatalf("terms: %+v %v", terms, err)
		}
		plans, err := f.svc.Plans(ctx, c, synchrony, 450_000)
		if err != nil || plans.PaymentPlans[0].MaxAmountCents != 100_000 {
			t.Fatalf("plans before: %+v %v", plans, err)
		}

		for _, tc := range []struct {
			req    *flow.CreditLimitChangeRequest
			fields []string
		}{
			{&flow.CreditLimitChangeRequest{}, []string{"requestedLimitCents", "annualGrossIncomeCents"}},
			{limitChange(100_000, 9_000_000), []string{"requestedLimitCents"}},
			{limitChange(2_500_100, 9_000_000), []string{"requestedLimitCents"}},
			{limitChange(500_000, -1), []string{"annualGrossIncomeCents"}},
			{limitChange(500_000, 999_999_901), []string{"annualGrossIncomeCents"}},
		} {
			_, err := f.svc.ChangeCreditLimit(ctx, c, synchrony, tc.req)
			var ce *chairside.Error
			if !errors.As(err, &ce) || ce.Code != chairside.EINVALID || len(ce.FieldErrors) != len(tc.fields) {
				t.Fatalf("%+v: %v", tc.req, err)
			}
			for i, fe := range ce.FieldErrors {
				if fe.Field != tc.fields[i] || fe.Message == "" {
					t.Errorf("%+v: field error %+v", tc.req, fe)
				}
			}
		}
		if n, _ := f.log.count(sandbox.OpCreditLimit); n != 0 {
			t.Fatalf("%d changes reached the lender before a valid one", n)
		}

		// Twelve taps at once: one lender call; every answer that is not
		// "wait" is the approval.
		var wg sync.WaitGroup
		results := make([]*flow.CreditLimitChangeResult, 12)
		errs := make([]error, 12)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = value(f.svc.ChangeCreditLimit(ctx, c, synchrony, limitChange(500_000, 2_000_000)))
			}()
		}
		wg.Wait()
		for i, r := range results {
			if errs[i] != nil && chairside.ErrorCode(errs[i]) != chairside.EINFLIGHT {
				t.Fatalf("tap %d: %v", i, errs[i])
			}
			if r != nil && (r.ResponseCode != chairside.CreditLimitApproved || r.CreditLimitCents != 500_000 || !r.CoversPurchase) {
				t.Fatalf("tap %d: %+v", i, r)
			}
		}
		again, err := value(f.svc.ChangeCreditLimit(ctx, c, synchrony, limitChange(500_000, 2_000_000)))
		if err != nil || again.ResponseCode != chairside.CreditLimitApproved || again.AvailableCreditCents != 500_000 || again.PurchaseAmountCents != 450_000 {
			t.Fatalf("the same change again: %+v %v", again, err)
		}
		if _, err := f.svc.ChangeCreditLimit(ctx, c, synchrony, limitChange(600_000, 9_000_000)); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("another change after the answer: %v", err)
		}
		if n, refs := f.log.count(sandbox.OpCreditLimit); n != 1 || len(refs) != 1 {
			t.Fatalf("the lender saw %d changes", n)
		}

		// The new limit bounds the plans; the journey goes on.
		plans, err = f.svc.Plans(ctx, c, synchrony, 450_000)
		if err != nil || plans.PaymentPlans[0].MaxAmountCents != 500_000 || plans.PaymentPlans[0].AmountFinancedCents != 450_000 {
			t.Fatalf("plans after: %+v %v", plans, err)
		}
		if terms, _ := f.svc.AccountTerms(ctx, c, synchrony); terms.CreditLimitCents != 500_000 {
			t.Errorf("terms after: %+v", terms)
		}
		f.confirmPlan(t, c, synchrony)
		if _, err := f.svc.AcceptOffer(ctx, c, synchrony, nil); err != nil {
			t.Fatal(err)
		}
		wantEvents(t, f, c, "credit_limit.requested", "credit_limit.approved")
	})
}

// TestCreditLimitChangeDeclinedAndError: a decline keeps the limit; a
// lender out of reach answers error with the limit unchanged, and the
// change may be asked again.
func TestCreditLimitChangeDeclinedAndError(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c, _ := pendingJourney(t, f, "credit-limit-change")
		r, err := value(f.svc.ChangeCreditLimit(ctx, c, synchrony, limitChange(500_000, 1_900_000)))
		if err != nil || r.ResponseCode != chairside.CreditLimitDeclined || r.CreditLimitCents != 100_000 || r.CoversPurchase {
			t.Fatalf("declined: %+v %v", r, err)
		}
		if plans, _ := f.svc.Plans(ctx, c, synchrony, 450_000); plans.PaymentPlans[0].MaxAmountCents != 100_000 {
			t.Errorf("a decline changed the limit: %+v", plans.PaymentPlans[0])
		}
		wantEvents(t, f, c, "credit_limit.requested", "credit_limit.declined")

		c2, _ := pendingJourney(t, f, "credit-limit-change")
		for range 2 {
			r, err := value(f.svc.ChangeCreditLimit(ctx, c2, synchrony, limitChange(500_000, sandbox.CreditLimitErrorIncomeCents)))
			if err != nil || r.ResponseCode != chairside.ResponseError || r.CreditLimitCents != 100_000 {
				t.Fatalf("error: %+v %v", r, err)
			}
		}
		if n, refs := f.log.count(sandbox.OpCreditLimit); n != 3 || len(refs) != 2 {
			t.Fatalf("lender calls %d with %d references, want the failed one asked again with its reference", n, len(refs))
		}
		r, err = value(f.svc.ChangeCreditLimit(ctx, c2, synchrony, limitChange(500_000, 2_000_000)))
		if err != nil || r.ResponseCode != chairside.CreditLimitApproved {
			t.Fatalf("after an error, another change: %+v %v", r, err)
		}
		wantEvents(t, f, c2, "credit_limit.requested", "credit_limit.failed", "credit_limit.requested", "credit_limit.failed",
			"credit_limit.requested", "credit_limit.approved")
	})
}

// TestCreditLimitChangeOnlyForExistingCards: an ordinary approval has no
// account to change.
func TestCreditLimitChangeOnlyForExistingCards(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, synchrony, "Approve", "123450043"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.AccountTerms(ctx, c, synchrony); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Errorf("terms: %v", err)
		}
		if _, err := f.svc.ChangeCreditLimit(ctx, c, synchrony, limitChange(600_000, 9_000_000)); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Errorf("change: %v", err)
		}
		if _, err := f.svc.AccountTerms(ctx, c, "fortiva_standard"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("a lender not asked: %v", err)
		}
	})
}

// wantEvents fails unless the caller's session recorded these events, in
// this order, among others.
func wantEvents(t *testing.T, f *fixture, c *flow.Caller, types ...string) {
	t.Helper()
	events, err := f.db.ListEvents(context.Background(), c.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		if slices.Contains(types, e.Type) {
			got = append(got, e.Type)
		}
	}
	if !slices.Equal(got, types) {
		t.Errorf("events %v, want %v", got, types)
	}
}
