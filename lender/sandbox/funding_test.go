package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// approvedFor decides an approval at key and answers it with its plans for
// amount.
func approvedFor(t *testing.T, s *Sandbox, key, ref, testCase string, amount int64) (*chairside.Decision, []chairside.PaymentPlan) {
	t.Helper()
	ctx := context.Background()
	req := request(key, "apply", ref, "Approve")
	if testCase != "" {
		req.Primary.LastName, req.TestCase = "Smith", testCase
	}
	d, err := mustLender(t, s, key).Decide(ctx, req)
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("%s: %+v %v", key, d, err)
	}
	plans, err := mustLender(t, s, key).Plans(ctx, &chairside.PlansRequest{LenderKey: key, LenderRef: d.LenderRef,
		AmountCents: amount, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
	if err != nil || len(plans) == 0 {
		t.Fatalf("%s plans: %v", key, err)
	}
	return d, plans
}

func funding(t *testing.T, s *Sandbox, key string, req *chairside.FundingRequest) *chairside.FundingStatus {
	t.Helper()
	f, ok := chairside.StepOf[chairside.Fundings](mustLender(t, s, key))
	if !ok {
		t.Fatalf("%s does not fund", key)
	}
	st, err := f.Funding(context.Background(), req)
	if err != nil {
		t.Fatalf("%s funding: %v", key, err)
	}
	return st
}

// TestFundingForEveryLender: every sandbox lender funds a completed case
// after its own number of business days (weekends not counted), keeps a
// fee that adds up (gross = fee + net, at the plan's rate), and deposits
// the business day after; before that it answers waiting with the day it
// expects to fund.
func TestFundingForEveryLender(t *testing.T) {
	s := New(Options{})
	completed := time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC) // a Friday
	for _, p := range catalogue.All() {
		h, ok := habits[p.Key]
		if !ok || h.days < 1 || h.baseBP <= 0 {
			t.Fatalf("%s: no funding habit", p.Key)
		}
		d, plans := approvedFor(t, s, p.Key, "fund-"+p.Key, "", 300_000)
		plan := plans[0]
		req := &chairside.FundingRequest{LenderKey: p.Key, LenderRef: d.LenderRef, LenderPlanCode: plan.LenderPlanCode,
			AmountCents: plan.AmountFinancedCents, CompletedAt: completed, Now: completed.Add(time.Hour)}
		st := funding(t, s, p.Key, req)
		// From a Friday, n business days later is the Monday after for 1.
		wantFunded := completed.AddDate(0, 0, 2+h.days)
		if st.State != chairside.FundingWaiting || !st.ExpectedOn.Equal(wantFunded) {
			t.Fatalf("%s before funding: %+v, want waiting until %s", p.Key, st, wantFunded)
		}
		req.Now = wantFunded
		st = funding(t, s, p.Key, req)
		if st.State != chairside.FundingFunded || st.GrossCents != plan.AmountFinancedCents || st.FeeCents+st.NetCents != st.GrossCents ||
			st.FeeRateBP < h.baseBP || st.FundingRef == "" || st.DepositRef == "" || !st.DepositOn.After(st.FundedOn) {
			t.Fatalf("%s funded: %+v", p.Key, st)
		}
		if wd := st.DepositOn.Weekday(); wd == time.Saturday || wd == time.Sunday {
			t.Errorf("%s deposits on a %s", p.Key, wd)
		}
		req.Now = st.DepositOn
		if again := funding(t, s, p.Key, req); again.State != chairside.FundingDeposited || again.DepositRef != st.DepositRef || again.NetCents != st.NetCents {
			t.Fatalf("%s deposited: %+v, funded %+v", p.Key, again, st)
		}
	}
}

// TestFundingFees: a no-interest promotion costs the practice more than a
// plan the patient pays interest on, and more the longer it runs; two cases
// funded the same day go in one deposit, cases of another day in another.
func TestFundingFees(t *testing.T) {
	s := New(Options{})
	completed := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	d, plans := approvedFor(t, s, catalogue.Synchrony, "fees", "", 400_000)
	rates := map[string]int{}
	deposits := map[string]string{}
	for i, pl := range plans {
		req := &chairside.FundingRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef, LenderPlanCode: pl.LenderPlanCode,
			AmountCents: pl.AmountFinancedCents, CompletedAt: completed.Add(time.Duration(i) * time.Minute), Now: completed.AddDate(0, 1, 0)}
		st := funding(t, s, catalogue.Synchrony, req)
		rates[pl.LenderPlanCode] = st.FeeRateBP
		deposits[pl.LenderPlanCode] = st.DepositRef
		if want := (pl.AmountFinancedCents*int64(st.FeeRateBP) + 5_000) / 10_000; st.FeeCents != want {
			t.Errorf("%s: fee %d, want %d", pl.LenderPlanCode, st.FeeCents, want)
		}
	}
	var promo6, promo24, interest int
	for _, pl := range plans {
		switch {
		case strings.Contains(pl.LenderPlanCode, "-DI-06"): // deferred interest, 6 months
			promo6 = rates[pl.LenderPlanCode]
		case strings.Contains(pl.LenderPlanCode, "-DI-24"):
			promo24 = rates[pl.LenderPlanCode]
		case strings.Contains(pl.LenderPlanCode, "-FR-"): // fixed rate: the patient pays interest
			interest = rates[pl.LenderPlanCode]
		}
	}
	if promo6 == 0 || promo24 <= promo6 {
		t.Errorf("promotion fees: 6 months %d bp, 24 months %d bp (rates %v)", promo6, promo24, rates)
	}
	if interest == 0 || interest >= promo6 {
		t.Errorf("an interest-bearing plan costs %d bp, a 6-month promotion %d bp", interest, promo6)
	}
	first := deposits[plans[0].LenderPlanCode]
	for code, dep := range deposits {
		if dep != first {
			t.Errorf("%s in deposit %s, the day's other cases in %s", code, dep, first)
		}
	}
	req := &chairside.FundingRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef, LenderPlanCode: plans[0].LenderPlanCode,
		AmountCents: plans[0].AmountFinancedCents, CompletedAt: completed.AddDate(0, 0, 1), Now: completed.AddDate(0, 1, 0)}
	if other := funding(t, s, catalogue.Synchrony, req); other.DepositRef == first {
		t.Errorf("a case of the next day in the same deposit %s", first)
	}
}

// TestFundingHeldAndFast: under the funding-held test case the lender
// holds the money for review once its usual day comes, then funds two
// business days late; with a fast funding clock a day lasts FundingDay.
// An amount above the approval, or a plan not the lender's, is refused.
func TestFundingHeldAndFast(t *testing.T) {
	s := New(Options{FundingDay: 10 * time.Second})
	completed := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	d, plans := approvedFor(t, s, catalogue.Synchrony, "held", "funding-held", 300_000)
	req := &chairside.FundingRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef, LenderPlanCode: plans[0].LenderPlanCode,
		AmountCents: plans[0].AmountFinancedCents, CompletedAt: completed}
	at := func(d time.Duration) *chairside.FundingStatus {
		req.Now = completed.Add(d)
		return funding(t, s, catalogue.Synchrony, req)
	}
	if st := at(19 * time.Second); st.State != chairside.FundingWaiting {
		t.Fatalf("before the usual day: %+v", st)
	}
	if st := at(20 * time.Second); st.State != chairside.FundingHeld || st.HeldReason == "" || !st.ExpectedOn.Equal(completed.Add(40*time.Second)) {
		t.Fatalf("on the usual day: %+v", st)
	}
	if st := at(40 * time.Second); st.State != chairside.FundingFunded || !st.DepositOn.Equal(completed.Add(50*time.Second)) {
		t.Fatalf("two days late: %+v", st)
	}
	if st := at(50 * time.Second); st.State != chairside.FundingDeposited {
		t.Fatalf("the day after: %+v", st)
	}

	f, _ := chairside.StepOf[chairside.Fundings](mustLender(t, s, catalogue.Synchrony))
	bad := *req
	bad.AmountCents = d.ApprovedAmountCents + 1
	if _, err := f.Funding(context.Background(), &bad); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Errorf("an amount above the approval: %v", err)
	}
	bad = *req
	bad.LenderPlanCode = "NOPE"
	if _, err := f.Funding(context.Background(), &bad); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("a plan not the lender's: %v", err)
	}
}

// TestVoidAndRefund: a void is done until the lender funds and too late
// after; a refund is refused before funding and after the lender's window,
// refuses more than is left, and its refunds together give back exactly
// the fee the funding kept.
func TestVoidAndRefund(t *testing.T) {
	s := New(Options{FundingDay: time.Minute})
	completed := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	d, plans := approvedFor(t, s, catalogue.Synchrony, "changes", "", 300_000)
	plan := plans[0]
	ch, ok := chairside.StepOf[chairside.Changes](mustLender(t, s, catalogue.Synchrony))
	if !ok {
		t.Fatal("the sandbox takes no changes")
	}
	req := func(amount, refunded int64, at time.Duration) *chairside.ChangeRequest {
		return &chairside.ChangeRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef, LenderPlanCode: plan.LenderPlanCode,
			FinancedCents: plan.AmountFinancedCents, CompletedAt: completed, AmountCents: amount, RefundedCents: refunded,
			Reference: fmt.Sprintf("ref-%d-%d", amount, refunded), Now: completed.Add(at)}
	}
	ctx := context.Background()
	if a, err := ch.Void(ctx, req(0, 0, time.Minute)); err != nil || a.Status != chairside.ChangeDone || a.Reference == "" {
		t.Fatalf("a void before funding: %+v %v", a, err)
	}
	if a, err := ch.Void(ctx, req(0, 0, 2*time.Minute)); err != nil || a.Status != chairside.ChangeTooLate {
		t.Fatalf("a void once funded: %+v %v", a, err)
	}
	if a, err := ch.Refund(ctx, req(1_000, 0, time.Minute)); err != nil || a.Status != chairside.ChangeRefused {
		t.Fatalf("a refund before funding: %+v %v", a, err)
	}
	if _, err := ch.Refund(ctx, req(plan.AmountFinancedCents+1, 0, 3*time.Minute)); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Fatalf("a refund of more than was financed: %v", err)
	}
	st := funding(t, s, catalogue.Synchrony, &chairside.FundingRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef,
		LenderPlanCode: plan.LenderPlanCode, AmountCents: plan.AmountFinancedCents, CompletedAt: completed, Now: completed.Add(time.Hour)})
	var returned, refunded int64
	for _, part := range []int64{12_345, 67_890, plan.AmountFinancedCents - 12_345 - 67_890} {
		a, err := ch.Refund(ctx, req(part, refunded, 3*time.Minute))
		if err != nil || a.Status != chairside.ChangeDone {
			t.Fatalf("refund of %d: %+v %v", part, a, err)
		}
		returned, refunded = returned+a.FeeReturnedCents, refunded+part
	}
	if returned != st.FeeCents {
		t.Errorf("refunds gave back %d of fee, the funding kept %d", returned, st.FeeCents)
	}
	if a, err := ch.Refund(ctx, req(1_000, 0, 200*time.Minute)); err != nil || a.Status != chairside.ChangeRefused || a.Message == "" {
		t.Fatalf("a refund past the window: %+v %v", a, err)
	}
}
