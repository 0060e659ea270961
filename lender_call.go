package chairside

import (
	"strconv"
	"time"
)

// Lender steps: the calls that ask a lender to decide or to change
// something on its side. Each is made at most once per lender
// application, whatever the browser sends (docs/exactly-once.md).
const (
	StepPrequalify = "prequalify"
	StepPrescreen  = "prescreen"
	StepApply      = "apply"
	StepAccept     = "accept"
	StepESign      = "esign"
	// StepBankAccount and StepBankCard give the lender the payment method
	// of an accepted offer, before signing.
	StepBankAccount = "bank_account"
	StepBankCard    = "bank_card"
	// StepDownPayment tells the lender the down payment was collected in the
	// office or will be paid there; StepAdditionalContact gives it one more
	// way to reach the patient (docs/behaviour.md, "What each lender asks
	// for").
	StepDownPayment       = "down_payment"
	StepAdditionalContact = "additional_contact"
	// StepAgreement, StepCaliforniaNotice and StepCardholderAgreement tell
	// the lender the patient agreed to (acknowledged) one of its documents
	// on a screen of its own; StepWisconsinSpouse gives it what Wisconsin's
	// marital property law needs (docs/behaviour.md, "Signing").
	StepAgreement           = "agreement"
	StepCaliforniaNotice    = "california_notice"
	StepCardholderAgreement = "cardholder_agreement"
	StepWisconsinSpouse     = "wisconsin_spouse"
	StepComplete            = "complete"
	// StepPatchIncome gives a pending application the verified income its
	// lender asked for (docs/behaviour.md, "Pending, patches and
	// stipulations").
	StepPatchIncome = "patch_income"
	// StepCreditLimit asks for a higher limit on an existing revolving
	// account (docs/content.md, "Credit limit change").
	StepCreditLimit = "credit_limit"
	// StepVoid cancels a completed case before the lender funds it;
	// StepRefund is the n-th refund of a funded one, as "refund:n"
	// (docs/behaviour.md, "After the signature").
	StepVoid   = "void"
	StepRefund = "refund"
	// StepAmount tells the lender of an accepted offer that the office
	// changed the treatment amount before the patient signed, as
	// "amount:" and a key of the office's request; the lender lets the
	// offer go, to be chosen again at the new amount.
	StepAmount = "amount"
)

// roundSteps are the steps after a decision that a change of the
// treatment amount starts over: made once per offer round.
var roundSteps = map[string]bool{StepAccept: true, StepESign: true, StepBankAccount: true, StepBankCard: true,
	StepDownPayment: true, StepAdditionalContact: true, StepAgreement: true, StepCaliforniaNotice: true,
	StepCardholderAgreement: true, StepWisconsinSpouse: true, StepComplete: true}

// RoundStep is the name a step's lender call has in an offer round: the
// step itself in the first round (0), "step@n" in round n for the steps a
// change of amount starts over, the step itself for the others.
func RoundStep(step string, round int) string {
	if round == 0 || !roundSteps[step] {
		return step
	}
	return step + "@" + strconv.Itoa(round)
}

// Lender call states.
const (
	// CallRunning: claimed, the lender is being asked. Nothing else may
	// happen to the lender application until the call settles or its
	// lease runs out.
	CallRunning = "running"
	// CallDone: the lender answered and the answer is recorded with the
	// status it proves.
	CallDone = "done"
	// CallFailed: the lender could not be reached or refused; the step may
	// be claimed again, and is then sent with the same reference.
	CallFailed = "failed"
)

// LenderCall is the claim on one lender step of one lender application.
// The store keeps at most one per (LenderApplicationID, Step): a second
// request for the step finds it and answers from it (in flight, the first
// answer, or a retry of a failed or abandoned call) instead of asking the
// lender again.
type LenderCall struct {
	LenderApplicationID string
	Step                string
	SessionID           string
	// Reference is the platform reference sent to the lender: its
	// idempotency key. Every attempt of the step sends the same one, so a
	// lender that already processed it answers with its first answer.
	Reference string
	// RequestHash is a keyed hash of what the step asks (the applicant
	// data, the plan); a repeat with other data is refused.
	RequestHash string
	// ClientKey is the hash of the Idempotency-Key of the request that
	// claimed the step, "" when it sent none.
	ClientKey string
	State     string // CallRunning, CallDone or CallFailed
	// Attempt counts the claims of the step; only the current attempt may
	// settle it, so a request that lost its claim (its lease ran out and
	// another took over) cannot overwrite the answer.
	Attempt    int
	ClaimedAt  time.Time
	LeaseUntil time.Time
	SettledAt  *time.Time
	// Response is the answer recorded when done (already masked JSON), for
	// a repeat of the same request.
	Response []byte
}

// ErrCallTakenOver answers the settling of a lender call by an attempt
// that is no longer the running one: its lease ran out and another request
// took the step over, so only that one may write the answer.
var ErrCallTakenOver = &Error{Code: ECONFLICT, Message: "This lender step was taken over by another request."}

// Expired reports whether a running call's lease has run out at now: its
// request died (a crash, a kill) and the next attempt may take it over.
func (c *LenderCall) Expired(now time.Time) bool {
	return c.State == CallRunning && !now.Before(c.LeaseUntil)
}
