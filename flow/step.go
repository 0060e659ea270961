package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// Every lender step — a submit (prequalify, prescreen, apply), acceptOffer,
// e-sign, complete — runs in four phases, so that the lender is asked at
// most once per step whatever the browser sends, and a status never exists
// without its proof (docs/exactly-once.md):
//
//  1. precheck: the step, the input and the consent document, no writes;
//  2. claim: one transaction takes the step's LenderCall (unique per
//     lender application and step), reserves the credit pull, records
//     what must exist before the lender hears of it (consent, signature)
//     and marks the lender application in flight;
//  3. call: the lender is asked with the call's reference, detached from
//     the request so a client hanging up cannot lose the answer;
//  4. record: one transaction settles the call — only if this attempt
//     still holds it — with the lender's answer and the status it proves.
//
// A request that dies between 2 and 4 (a crash, a kill) leaves the call
// running until its lease runs out; the next attempt then takes it over and
// asks the lender again with the same reference, which a lender with
// idempotency keys answers with its first answer.

// lease is how long a claimed step is held before another request may take
// it over: the lender's time-out plus a margin for recording the answer. A
// takeover that comes too early is still safe (only the current attempt may
// record, and the lender sees the same reference), so the margin only keeps
// duplicate lender calls rare.
func (s *Service) lease() time.Duration {
	return s.opts.LenderTimeout + max(2*time.Second, s.opts.LenderTimeout/5)
}

// claimCall takes the lender call of step for pa inside the claim
// transaction tx. It answers the claimed call and whether this is the
// step's first attempt (fresh: caps and records of the first attempt are
// the caller's to write), or, when the step must not be claimed now:
//
//   - the step was done with the same request: replay holds the recorded
//     answer when the caller may have it (replayAny, or the same client
//     Idempotency-Key), else conflict;
//   - done with other data: idempotency_mismatch;
//   - being asked right now (running, lease live), or another step of pa
//     is: in_flight, with the time left as RetryAfter.
//
// A failed call, or a running one whose lease ran out, is taken over for
// its next attempt with the same reference (a failed one asked anew with
// other data gets a new reference: the lender never took the old request).
func (s *Service) claimCall(ctx context.Context, tx Store, c *Caller, pa *chairside.LenderApplication, step, hash string, replayAny bool) (call *chairside.LenderCall, fresh bool, replay []byte, err error) {
	now := s.now().UTC()
	want := &chairside.LenderCall{
		LenderApplicationID: pa.ID,
		Step:                step,
		SessionID:           c.Session.ID,
		Reference:           newReference(step),
		RequestHash:         hash,
		ClientKey:           clientKey(c.IdempotencyKey),
		ClaimedAt:           now,
		LeaseUntil:          now.Add(s.lease()),
	}
	existing, claimed, err := s.claimOrFind(ctx, tx, pa, want, now)
	if err != nil {
		return nil, false, nil, err
	} else if claimed {
		return want, true, nil, nil
	}

	switch {
	case existing.State == chairside.CallDone:
		if existing.RequestHash != hash {
			return nil, false, nil, errorf(chairside.EIDEMPOTENCY, "This was already sent to the lender with other details. To apply with new details, please start again.")
		}
		if replayAny || (want.ClientKey != "" && want.ClientKey == existing.ClientKey) {
			return nil, false, existing.Response, nil
		}
		return nil, false, nil, errorf(chairside.ECONFLICT, "This step was already done.")
	case existing.State == chairside.CallRunning && !existing.Expired(now):
		return nil, false, nil, inFlight(existing.LeaseUntil.Sub(now))
	case existing.State == chairside.CallRunning:
		// Abandoned by a request that died: take it over, same request only.
		if existing.RequestHash != hash {
			return nil, false, nil, errorf(chairside.EIDEMPOTENCY, "This was already sent to the lender with other details. To apply with new details, please start again.")
		}
		want.Reference = existing.Reference
	default: // failed
		if err := s.otherStepInFlight(pa, step, now); err != nil {
			return nil, false, nil, err
		}
		if existing.RequestHash == hash {
			want.Reference = existing.Reference
		}
	}
	want.Attempt = existing.Attempt
	if err := tx.RetakeLenderCall(ctx, want); err != nil {
		if isCode(err, chairside.ECONFLICT) {
			return nil, false, nil, inFlight(s.lease())
		}
		return nil, false, nil, err
	}
	s.log.Info("lender step taken over", "session", SessionHash(c.Session.ID), "lender", pa.LenderKey, "step", step, "attempt", want.Attempt)
	return want, false, nil, nil
}

// claimOrFind claims want as the step's first attempt, or answers the
// step's call as it stands. Most steps are asked once, so when nothing
// else is in flight the claim comes first (one statement) and the call is
// read only when the step already had one. When another step of pa is in
// flight the call is read first: a step already done still answers its
// repeat, and one never asked is refused, as it must not be claimed now.
func (s *Service) claimOrFind(ctx context.Context, tx Store, pa *chairside.LenderApplication, want *chairside.LenderCall, now time.Time) (existing *chairside.LenderCall, claimed bool, err error) {
	busy := s.otherStepInFlight(pa, want.Step, now)
	if busy == nil {
		// Claimed, or the step's call, whoever made it (another request
		// may have claimed it first).
		return tx.ClaimLenderCall(ctx, want)
	}
	existing, err = tx.FindLenderCall(ctx, pa.ID, want.Step)
	if isCode(err, chairside.ENOTFOUND) {
		return nil, false, busy
	}
	return existing, false, err
}

// otherStepInFlight refuses to start step while another lender step of pa
// is being asked.
func (s *Service) otherStepInFlight(pa *chairside.LenderApplication, step string, now time.Time) error {
	if pa.InFlight != "" && pa.InFlight != step {
		return inFlight(s.lease())
	}
	return nil
}

// inFlight is the answer to a step that must wait for another to settle.
func inFlight(wait time.Duration) error {
	return &chairside.Error{
		Code:       chairside.EINFLIGHT,
		Message:    "The lender is still working on your application. Please wait a moment.",
		RetryAfter: max(wait, time.Second),
	}
}

// settleCall records, inside the record transaction tx, how this attempt of
// call ended; response is a done step's answer, encoded once for the record
// and the first request alike (StepAnswer, flow/answer.go). If the attempt
// lost its claim (its lease ran out and another request took the step
// over) the whole batch answers errClaimLost when it ends (Service.batch)
// and keeps nothing it wrote.
func settleCall(ctx context.Context, tx Store, call *chairside.LenderCall, state string, response []byte) error {
	call.State, call.Response, call.SettledAt = state, response, nil
	return tx.SettleLenderCall(ctx, call)
}

// errClaimLost: a request's claim was taken over before it could record the
// lender's answer. The lender saw the same reference both times, so the
// other attempt records the same answer; this one answers from it.
var errClaimLost = &chairside.Error{
	Code:       chairside.EINFLIGHT,
	Message:    "The lender is still working on your application. Please wait a moment.",
	RetryAfter: time.Second,
}

// newReference returns a fresh platform reference for a lender step: what
// the lender receives as its idempotency key.
func newReference(step string) string {
	return "chs_" + step + "_" + newID()
}

// clientKey hashes a client's Idempotency-Key for storage; "" for none.
func clientKey(k string) string {
	if k == "" {
		return ""
	}
	return sha256Hex(k)[:32]
}

// language is the patient's language as the call gave it, which every
// lender request carries for the words the lender writes (documents,
// plans, what it waits for); "" is English, and a call without a caller
// (the reconciler's) speaks it.
func (c *Caller) language() string {
	if c == nil {
		return ""
	}
	return string(c.Language)
}

// callLender runs fn against the lender of providerKey as detached does.
func (s *Service) callLender(ctx context.Context, lenderKey string, fn func(context.Context, chairside.Lender) error) error {
	return s.callLenderWithin(ctx, lenderKey, s.opts.LenderTimeout, fn)
}

// callLenderWithin is callLender with the time-out d.
func (s *Service) callLenderWithin(ctx context.Context, lenderKey string, d time.Duration, fn func(context.Context, chairside.Lender) error) error {
	l, err := s.lenders.Lender(lenderKey)
	if err != nil {
		return err
	}
	return s.detachedWithin(ctx, d, func(ctx context.Context) error { return fn(ctx, l) })
}

// decisionTimeout is how long the lender's decision on op may keep the
// patient waiting: the lender's own time-out for a quick check or a full
// application, within the time-out of every lender call.
func (s *Service) decisionTimeout(lenderKey, op string) time.Duration {
	d := s.opts.DecisionTimeout(lenderKey, op == OpApply)
	if d <= 0 || d > s.opts.LenderTimeout {
		return s.opts.LenderTimeout
	}
	return d
}

// detached runs fn, a lender call, under the lender time-out, detached
// from the request: an answer the lender gave must be recorded even when
// the browser has gone.
func (s *Service) detached(ctx context.Context, fn func(context.Context) error) error {
	return s.detachedWithin(ctx, s.opts.LenderTimeout, fn)
}

// detachedWithin is detached with the time-out d.
func (s *Service) detachedWithin(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	defer cancel()
	return fn(lctx)
}

// stepOf answers the lender of providerKey as its optional step S
// (chairside.Cards, chairside.Quizzes …), or ENOTFOUND when that lender has
// no such step. Every optional step asks it first, before its step is
// claimed: a lender without the step is never called, and no claim is
// left running for an answer that cannot come. The step's call then uses
// what it answered.
func stepOf[S any](s *Service, lenderKey string) (S, error) {
	var none S
	l, err := s.lenders.Lender(lenderKey)
	if err != nil {
		return none, err
	}
	step, ok := chairside.StepOf[S](l)
	if !ok {
		return none, errorf(chairside.ENOTFOUND, "This lender has no such step.")
	}
	return step, nil
}
