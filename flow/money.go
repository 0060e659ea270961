package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// The money line (chairside.MoneyEntry; docs/behaviour.md, "After the
// signature"). The store adds the approval with each new approved amount;
// this file adds the signature and the completion, in the transactions
// that record them, and follows a completed case's funding by asking its
// lender (the reconciler's second task) until the money is deposited.

// moneyAfter answers the money-line entry that the offer step to status
// to proves, or nil: signed and completed, each for the amount the
// selected plan finances (the plan offeredPlan chose by its code), 0 when
// that plan is no longer offered. It reads the plan through tx, inside the
// transaction that records the step.
func (s *Service) moneyAfter(ctx context.Context, tx Store, cur *chairside.LenderApplication, to, reference string) (*chairside.MoneyEntry, error) {
	kind := map[string]string{chairside.StatusSigned: chairside.MoneySigned, chairside.StatusCompleted: chairside.MoneyCompleted}[to]
	if kind == "" {
		return nil, nil
	}
	var amount int64
	plan, err := tx.FindPaymentPlan(ctx, cur.ID, cur.SelectedPlanCode)
	switch {
	case err == nil:
		amount = plan.AmountFinancedCents
	case !isCode(err, chairside.ENOTFOUND):
		return nil, err
	}
	return &chairside.MoneyEntry{LenderApplicationID: cur.ID, LenderKey: cur.LenderKey, Kind: kind,
		AmountCents: amount, Reference: reference, On: s.now().UTC(), RecordedAt: s.now().UTC()}, nil
}

// recordMoneyAfter appends what an offer step proves to the money line,
// and starts following the funding of a completed case whose lender
// funds.
func (s *Service) recordMoneyAfter(ctx context.Context, tx Store, cur *chairside.LenderApplication, to, reference string) error {
	e, err := s.moneyAfter(ctx, tx, cur, to, reference)
	if err != nil || e == nil {
		return err
	}
	_, noFunding := stepOf[chairside.Fundings](s, cur.LenderKey)
	return tx.RecordMoney(ctx, e, noFunding == nil)
}

// Funding poll pacing: asked again at the moment the lender expects
// something to happen; once that moment has passed (a late lender), after
// a tenth of the delay so far but at least FundingFirstPoll; never more
// than an hour apart.
const maxFundingPollInterval = time.Hour

// ReconcileFunding runs the reconciler's funding round: it claims up to
// limit completed cases whose funding poll is due, asks each lender where
// the money stands, and adds what is new to the money line. A case leaves
// the round once deposited.
func (s *Service) ReconcileFunding(ctx context.Context, limit int) ([]PollResult, error) {
	now := s.now().UTC()
	polls, err := s.store.ClaimFundingPolls(ctx, now, s.lease(), limit)
	if err != nil {
		return nil, err
	}
	out := make([]PollResult, 0, len(polls))
	for _, p := range polls {
		r := PollResult{LenderKey: catalogue.BaseKey(p.LenderKey), Result: "unchanged"}
		st, err := s.fundingStatus(ctx, p)
		next := now.Add(pollInterval(p.Polls))
		if err == nil {
			var added bool
			added, err = s.applyFunding(ctx, p, st)
			if added {
				r.Result = "changed"
			}
			next = nextFundingPoll(s.now().UTC(), st)
		}
		if err != nil {
			r.Result = "error"
			s.log.Warn("funding poll failed", "lender", r.LenderKey, "err", chairside.ErrorCode(err))
		}
		if st == nil || st.State != chairside.FundingDeposited {
			var expected time.Time
			if st != nil && (st.State == chairside.FundingWaiting || st.State == chairside.FundingHeld) {
				expected = st.ExpectedOn
			}
			if err := s.store.RescheduleFundingPoll(ctx, p.LenderApplicationID, next, expected); err != nil {
				return out, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// nextFundingPoll is when to ask again after answer st: when the lender
// expects to fund or deposit, so that the office sees each step as soon as
// it happens, within the bounds above.
func nextFundingPoll(now time.Time, st *chairside.FundingStatus) time.Time {
	want := st.ExpectedOn
	if st.State == chairside.FundingFunded {
		want = st.DepositOn
	}
	wait := want.Sub(now)
	if wait <= 0 { // late: the later, the more rarely asked
		wait = max(chairside.FundingFirstPoll, -wait/10)
	}
	return now.Add(min(wait, maxFundingPollInterval))
}

// fundingStatus asks the lender of a claimed funding poll where its money
// stands.
func (s *Service) fundingStatus(ctx context.Context, p *chairside.FundingPoll) (*chairside.FundingStatus, error) {
	f, err := stepOf[chairside.Fundings](s, p.LenderKey)
	if err != nil {
		return nil, err
	}
	var st *chairside.FundingStatus
	err = s.detached(ctx, func(ctx context.Context) error {
		var err error
		st, err = f.Funding(ctx, &chairside.FundingRequest{LenderKey: catalogue.BaseKey(p.LenderKey), LenderRef: p.LenderRef,
			LenderPlanCode: p.LenderPlanCode, AmountCents: p.AmountCents, CompletedAt: p.CompletedAt, Now: s.now().UTC()})
		return err
	})
	if err == nil && st == nil {
		err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
	}
	return st, err
}

// applyFunding adds to the money line what a lender's funding answer
// says that is not on it yet: held, funded, deposited. Each fact is kept
// once (the store ignores one it has), so a repeated or late answer, or
// two servers, change nothing. It answers whether anything was added.
func (s *Service) applyFunding(ctx context.Context, p *chairside.FundingPoll, st *chairside.FundingStatus) (bool, error) {
	added := false
	err := s.batch(ctx, nil, func(tx Store) error {
		var err error
		added, err = s.appendFunding(ctx, tx, &p.LenderApplicationRef, st)
		return err
	})
	return added, err
}

// appendFunding adds, inside tx, what a lender's funding answer (a poll's
// or a webhook's) says that is news to its case's money line, and answers
// whether anything was added. Nothing for a waiting answer, for a voided
// case (it moves no money), or for a hold once the line has the funding
// (older news); each fact once, whatever the order answers come in.
func (s *Service) appendFunding(ctx context.Context, tx Store, ref *chairside.LenderApplicationRef, st *chairside.FundingStatus) (bool, error) {
	if st.State == chairside.FundingWaiting {
		return false, nil
	}
	_, m, err := s.completedCase(ctx, tx, ref.ApplicationID)
	if err != nil {
		return false, err
	}
	if m.voided || m.funded && st.State == chairside.FundingHeld {
		return false, nil
	}
	p := &chairside.FundingPoll{LenderApplicationRef: *ref, AmountCents: m.completed.AmountCents, CompletedAt: m.completed.On}
	added := false
	for _, e := range s.fundingEntries(p, st) {
		ok, err := tx.AppendMoney(ctx, e, false)
		if err != nil {
			return false, err
		}
		added = added || ok
	}
	return added, nil
}

// fundingEntries are the money-line facts a funding answer states.
func (s *Service) fundingEntries(p *chairside.FundingPoll, st *chairside.FundingStatus) []*chairside.MoneyEntry {
	entry := func(kind, ref string, on time.Time) *chairside.MoneyEntry {
		return &chairside.MoneyEntry{LenderApplicationID: p.LenderApplicationID, LenderKey: p.LenderKey, Kind: kind,
			AmountCents: st.GrossCents, FeeCents: st.FeeCents, FeeRateBP: st.FeeRateBP, NetCents: st.NetCents,
			Reference: ref, DepositRef: st.DepositRef, DepositOn: st.DepositOn, On: on, RecordedAt: s.now().UTC()}
	}
	switch st.State {
	case chairside.FundingHeld:
		e := entry(chairside.MoneyHeld, "held", s.now().UTC())
		e.AmountCents = p.AmountCents
		return []*chairside.MoneyEntry{e}
	case chairside.FundingFunded:
		return []*chairside.MoneyEntry{entry(chairside.MoneyFunded, st.FundingRef, st.FundedOn)}
	case chairside.FundingDeposited:
		return []*chairside.MoneyEntry{entry(chairside.MoneyFunded, st.FundingRef, st.FundedOn),
			entry(chairside.MoneyDeposited, st.DepositRef, st.DepositOn)}
	}
	return nil
}

// FundingEvent applies a lender's verified webhook about a completed
// case's money — funded, held, deposited — for the lender of the base key
// lenderKey, once per event id: the event is recorded in the transaction
// that adds its entries, so a repeated delivery stops there. Events may
// come in any order: a deposit's answer carries its funding too, and an
// entry already on the line is kept as it was. An unknown application
// answers ENOTFOUND and is not recorded, as LenderEvent does.
func (s *Service) FundingEvent(ctx context.Context, lenderKey, eventID, eventType, lenderRef string, st *chairside.FundingStatus) (string, error) {
	ctx = context.WithoutCancel(ctx)
	ref, err := s.store.FindByLenderRef(ctx, lenderKey, lenderRef)
	if err != nil {
		return chairside.EventUnknownApplication, err
	}
	ev := &chairside.LenderEvent{LenderKey: lenderKey, EventID: eventID, Type: eventType,
		LenderRef: lenderRef, Result: chairside.EventIgnored, ReceivedAt: s.now().UTC()}
	var duplicate bool
	err = s.batch(ctx, nil, func(tx Store) error {
		// The entries first, so the event is kept with what it did; they
		// are kept once anyway, so a repeat adds none and then stops at
		// its event id.
		added, err := s.appendFunding(ctx, tx, ref, st)
		if err != nil {
			return err
		}
		ev.Result = chairside.EventIgnored
		if added {
			ev.Result = chairside.EventApplied
		}
		if err := tx.RecordLenderEvent(ctx, ev); isCode(err, chairside.ECONFLICT) {
			duplicate = true
			return nil
		} else if err != nil {
			return err
		}
		return nil
	})
	switch {
	case err != nil:
		return "", err
	case duplicate:
		return chairside.EventDuplicate, nil
	}
	s.log.Info("lender funding event", "lender", lenderKey, "event", eventID, "result", ev.Result)
	return ev.Result, nil
}

// DepositStated keeps the total a lender says it sent to the bank in a
// deposit, so that a deposit whose cases do not add up to it is an alert
// for the practice (store.DB.ListMoneyAlerts). What the cases say is
// applied either way: the total is checked, never trusted over them.
func (s *Service) DepositStated(ctx context.Context, lenderKey, reference string, on time.Time, netCents int64) error {
	return s.store.RecordDeposit(context.WithoutCancel(ctx), lenderKey, reference, on.UTC(), netCents)
}
