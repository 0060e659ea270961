package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// What each sandbox lender does with a completed application's money
// (docs/behaviour.md, "After the signature"): it funds after a number of
// business days, keeps a fee that depends on the plan (a promotion the
// patient pays no interest on costs the practice more), and sends the
// day's fundings to the practice's bank as one deposit the business day
// after. Like the rest of the sandbox it keeps nothing: the answer is
// worked out from the application id, the plan, the amount and the
// completion time the caller gives, so it is the same on every server.

// habit is one lender's way of funding.
type habit struct {
	days int // business days from completion to funding
	// baseBP is the fee, in basis points of the gross, of a plan the
	// patient pays interest on (or a lease); promoBP is added per month
	// of a no-interest promotion.
	baseBP, promoBP int
	// refundDays is how long after funding the lender still refunds.
	refundDays int
}

// habits are the sandbox lenders' funding habits, by lender key.
var habits = map[string]habit{
	catalogue.Synchrony:   {days: 2, baseBP: 200, promoBP: 55, refundDays: 90},
	catalogue.ADS:         {days: 2, baseBP: 250, promoBP: 50, refundDays: 60},
	catalogue.Fortiva:     {days: 3, baseBP: 300, promoBP: 50, refundDays: 60},
	catalogue.Genesis:     {days: 2, baseBP: 350, promoBP: 45, refundDays: 60},
	catalogue.Vive:        {days: 3, baseBP: 300, promoBP: 50, refundDays: 60},
	catalogue.AFF:         {days: 3, baseBP: 450, promoBP: 40, refundDays: 30},
	catalogue.Snap:        {days: 1, baseBP: 200, promoBP: 0, refundDays: 30},
	catalogue.HFD:         {days: 1, baseBP: 600, promoBP: 0, refundDays: 30},
	catalogue.Proceed:     {days: 4, baseBP: 500, promoBP: 30, refundDays: 45},
	catalogue.LendingClub: {days: 3, baseBP: 400, promoBP: 35, refundDays: 30},
	catalogue.CoveredCare: {days: 2, baseBP: 550, promoBP: 30, refundDays: 45},
}

// heldDays is how much later a case held for review is funded.
const heldDays = 2

// feeBP is the fee rate of a plan: the base, and more for each month of a
// no-interest promotion.
func (h habit) feeBP(t term) int {
	promo := t.calc == calcDeferred || (t.apr == 0 && t.productType != chairside.ProductLease)
	if promo {
		return h.baseBP + h.promoBP*t.months
	}
	return h.baseBP
}

// Funding answers where a completed application's money stands at
// req.Now. The amount must be one the application can have financed.
func (l *lender) Funding(ctx context.Context, req *chairside.FundingRequest) (*chairside.FundingStatus, error) {
	if err := l.begin(ctx, OpFunding, ""); err != nil {
		return nil, err
	}
	r, _, err := l.offerable(req.LenderRef)
	if err != nil {
		return nil, err
	}
	t, ok := l.prod.term(r.score, req.LenderPlanCode)
	if !ok {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "Unknown payment plan.")
	}
	if req.AmountCents <= 0 || req.AmountCents > r.approvedCents || req.CompletedAt.IsZero() {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "The amount or the completion is not one this application can have.")
	}
	h, clock, now := habits[l.p.Key], l.sb.fundingClock(), orNow(req.Now)
	held := r.fundingHeld
	fundedAt := l.fundedAt(r, req.CompletedAt)
	st := &chairside.FundingStatus{State: chairside.FundingWaiting, ExpectedOn: fundedAt}
	if now.Before(fundedAt) {
		if held && !now.Before(clock.add(req.CompletedAt, h.days)) {
			st.State, st.HeldReason = chairside.FundingHeld, "The lender is reviewing this account before it funds."
		}
		return st, nil
	}
	bp := h.feeBP(t)
	fee := (req.AmountCents*int64(bp) + 5_000) / 10_000 // to the nearest cent
	depositAt := clock.add(fundedAt, 1)
	st = &chairside.FundingStatus{
		State:      chairside.FundingFunded,
		FundingRef: fmt.Sprintf("%s-F-%s", l.prod.abbr, shortHash(req.LenderRef)),
		GrossCents: req.AmountCents, FeeCents: fee, FeeRateBP: bp, NetCents: req.AmountCents - fee,
		FundedOn:   fundedAt,
		DepositRef: fmt.Sprintf("%s-D-%s", l.prod.abbr, clock.day(fundedAt)),
		DepositOn:  depositAt,
	}
	if !now.Before(depositAt) {
		st.State = chairside.FundingDeposited
	}
	return st, nil
}

// fundedAt is when the lender funds a case of record r completed at
// completed: its usual business days, two more when it holds the case.
func (l *lender) fundedAt(r record, completed time.Time) time.Time {
	days := habits[l.p.Key].days
	if r.fundingHeld {
		days += heldDays
	}
	return l.sb.fundingClock().add(completed, days)
}

// orNow is t, or the time now when t is zero.
func orNow(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

// term finds a plan of the product by its code, as offered at a score.
func (p *product) term(score int, code string) (term, bool) {
	for _, t := range p.terms(score) {
		if t.code == code {
			return t, true
		}
	}
	return term{}, false
}

// shortHash is a short, stable name for s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:5])
}

// fundingClock counts the sandbox's business days: real ones (Monday to
// Friday, in UTC), or, with Options.FundingDay set, days of that length
// one after another, so that a demo shows a whole funding in minutes.
type fundingClock struct{ fast time.Duration }

func (s *Sandbox) fundingClock() fundingClock { return fundingClock{s.opts.FundingDay} }

// add answers t moved on by n business days.
func (c fundingClock) add(t time.Time, n int) time.Time {
	if c.fast > 0 {
		return t.Add(time.Duration(n) * c.fast)
	}
	for n > 0 {
		t = t.AddDate(0, 0, 1)
		if wd := t.Weekday(); wd != time.Saturday && wd != time.Sunday {
			n--
		}
	}
	return t
}

// day names the business day t falls in, which batches the fundings of
// one lender into one deposit: the date, or with a fast clock the
// number of the fast day.
func (c fundingClock) day(t time.Time) string {
	if c.fast > 0 {
		return fmt.Sprintf("T%d", t.UnixNano()/int64(c.fast))
	}
	return t.UTC().Format("20060102")
}

// Void cancels a completed case before the lender funds it; once funded it
// is too late, and the case must be refunded instead.
func (l *lender) Void(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	r, err := l.changeable(ctx, OpVoid, req)
	if err != nil {
		return nil, err
	}
	if !orNow(req.Now).Before(l.fundedAt(r, req.CompletedAt)) {
		return &chairside.ChangeAnswer{Status: chairside.ChangeTooLate, Message: "This case is already funded: refund it instead."}, nil
	}
	return &chairside.ChangeAnswer{Status: chairside.ChangeDone, Reference: fmt.Sprintf("%s-V-%s", l.prod.abbr, shortHash(req.Reference))}, nil
}

// Refund refunds part or all of a funded case, within the lender's refund
// window, and gives back the same share of its fee. More than is left to
// refund is a bad request.
func (l *lender) Refund(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	r, err := l.changeable(ctx, OpRefund, req)
	if err != nil {
		return nil, err
	}
	if req.AmountCents <= 0 || req.AmountCents > req.FinancedCents-req.RefundedCents {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "A refund must be more than nothing and at most what is left of the amount financed.")
	}
	h, now := habits[l.p.Key], orNow(req.Now)
	funded := l.fundedAt(r, req.CompletedAt)
	if now.Before(funded) {
		return &chairside.ChangeAnswer{Status: chairside.ChangeRefused, Message: "This case is not funded yet: cancel it instead."}, nil
	}
	if !now.Before(l.sb.fundingClock().add(funded, h.refundDays)) {
		return &chairside.ChangeAnswer{Status: chairside.ChangeRefused,
			Message: fmt.Sprintf("The lender refunds only within %d business days of funding.", h.refundDays)}, nil
	}
	t, _ := l.prod.term(r.score, req.LenderPlanCode)
	bp := int64(h.feeBP(t))
	// The fee returned is the refund's share of the whole fee, so that all
	// refunds of a case together give back exactly the fee.
	whole := (req.FinancedCents*bp + 5_000) / 10_000
	before := whole * req.RefundedCents / req.FinancedCents
	after := whole * (req.RefundedCents + req.AmountCents) / req.FinancedCents
	return &chairside.ChangeAnswer{Status: chairside.ChangeDone, Reference: fmt.Sprintf("%s-R-%s", l.prod.abbr, shortHash(req.Reference)),
		FeeReturnedCents: after - before}, nil
}

// ChangeAmount lets an accepted offer go because the treatment amount
// changed before the patient signed; plans are then priced for the new
// amount. Every sandbox lender allows it for an application it approved,
// at any new amount: one above the approval leaves the rest to a down
// payment, as at the first choice of a plan.
func (l *lender) ChangeAmount(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	if err := l.begin(ctx, OpAmount, req.Reference); err != nil {
		return nil, err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return nil, err
	}
	if req.AmountCents <= 0 || req.Reference == "" {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "The new amount or the reference is missing.")
	}
	return &chairside.ChangeAnswer{Status: chairside.ChangeDone, Reference: fmt.Sprintf("%s-A-%s", l.prod.abbr, shortHash(req.Reference))}, nil
}

// changeable checks a change's request against the application it names:
// one with an offer, a plan of the product and an amount it can have
// financed.
func (l *lender) changeable(ctx context.Context, op string, req *chairside.ChangeRequest) (record, error) {
	if err := l.begin(ctx, op, req.Reference); err != nil {
		return record{}, err
	}
	r, _, err := l.offerable(req.LenderRef)
	if err != nil {
		return record{}, err
	}
	if _, ok := l.prod.term(r.score, req.LenderPlanCode); !ok {
		return record{}, chairside.Errorf(chairside.ENOTFOUND, "Unknown payment plan.")
	}
	if req.FinancedCents <= 0 || req.FinancedCents > r.approvedCents || req.CompletedAt.IsZero() || req.Reference == "" {
		return record{}, chairside.Errorf(chairside.EBADREQUEST, "The amount, the completion or the reference is not one this application can have.")
	}
	return r, nil
}
