package protocol

import (
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// What becomes of a completed application's money (docs/lender-protocol.md,
// "Funding and changes"): GET …/funding answers where it stands; POST
// …/void and POST …/refunds change it, each under an Idempotency-Key.

// Funding is the answer of GET /applications/{id}/funding. State is
// waiting (ExpectedOn says when the lender will fund), held (HeldReason),
// funded or deposited; a funded or deposited answer carries the funding's
// reference and amounts, and the deposit that carries them.
type Funding struct {
	ApplicationID string     `json:"applicationId"`
	State         string     `json:"state"`
	ExpectedOn    *time.Time `json:"expectedOn,omitempty"`
	HeldReason    string     `json:"heldReason,omitempty"`
	FundingRef    string     `json:"fundingRef,omitempty"`
	Currency      string     `json:"currency"`
	GrossCents    int64      `json:"grossCents,omitempty"`
	FeeCents      int64      `json:"feeCents,omitempty"`
	FeeRateBP     int        `json:"feeRateBp,omitempty"`
	NetCents      int64      `json:"netCents,omitempty"`
	FundedOn      *time.Time `json:"fundedOn,omitempty"`
	DepositRef    string     `json:"depositRef,omitempty"`
	DepositOn     *time.Time `json:"depositOn,omitempty"`
}

// FromFunding is the wire form of a lender's funding answer.
func FromFunding(id string, st *chairside.FundingStatus) *Funding {
	f := &Funding{ApplicationID: id, State: st.State, HeldReason: st.HeldReason, FundingRef: st.FundingRef, Currency: Currency,
		GrossCents: st.GrossCents, FeeCents: st.FeeCents, FeeRateBP: st.FeeRateBP, NetCents: st.NetCents, DepositRef: st.DepositRef}
	f.ExpectedOn, f.FundedOn, f.DepositOn = timeOrNil(st.ExpectedOn), timeOrNil(st.FundedOn), timeOrNil(st.DepositOn)
	return f
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func orZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// Chairside is the funding answer as the Fundings step answers it.
func (f *Funding) Chairside() *chairside.FundingStatus {
	return &chairside.FundingStatus{State: f.State, ExpectedOn: orZero(f.ExpectedOn), HeldReason: f.HeldReason, FundingRef: f.FundingRef,
		GrossCents: f.GrossCents, FeeCents: f.FeeCents, FeeRateBP: f.FeeRateBP, NetCents: f.NetCents,
		FundedOn: orZero(f.FundedOn), DepositRef: f.DepositRef, DepositOn: orZero(f.DepositOn)}
}

// Validate refuses a funding answer whose money we could not keep: an
// unknown state, another application or currency, and for a funded or
// deposited one a missing reference or day, a negative amount, or a fee
// and net that are not the gross.
func (f *Funding) Validate(id string) error {
	if f.ApplicationID != id {
		return errors.New("funding: for another application")
	}
	if f.Currency != Currency {
		return fmt.Errorf("funding: currency %q", f.Currency)
	}
	switch f.State {
	case chairside.FundingWaiting, chairside.FundingHeld:
		return nil
	case chairside.FundingFunded, chairside.FundingDeposited:
	default:
		return fmt.Errorf("funding: state %q", f.State)
	}
	if f.FundingRef == "" || f.DepositRef == "" || f.FundedOn == nil || f.DepositOn == nil {
		return errors.New("funding: a funding without its reference, deposit or days")
	}
	if f.GrossCents <= 0 || f.FeeCents < 0 || f.NetCents < 0 || f.FeeRateBP < 0 || f.FeeCents+f.NetCents != f.GrossCents {
		return errors.New("funding: amounts that do not add up")
	}
	return nil
}

// Change is the body of POST …/void and POST …/refunds: the platform
// reference of the change (also its Idempotency-Key), a refund's amount,
// and the practice's reason.
type Change struct {
	PlatformReference string `json:"platformReference"`
	AmountCents       int64  `json:"amountCents,omitempty"`
	Currency          string `json:"currency"`
	Reason            string `json:"reason"`
}

// ChangeAnswer is the lender's answer to a change: done (with its own
// reference, and for a refund the fee it gives back), too_late (a void
// once funded) or refused (Message says why).
type ChangeAnswer struct {
	ApplicationID     string `json:"applicationId"`
	PlatformReference string `json:"platformReference"`
	Status            string `json:"status"`
	Reference         string `json:"reference,omitempty"`
	FeeReturnedCents  int64  `json:"feeReturnedCents,omitempty"`
	Message           string `json:"message,omitempty"`
}

// FromChangeAnswer is the wire form of a lender's answer to a change.
func FromChangeAnswer(id, reference string, a *chairside.ChangeAnswer) *ChangeAnswer {
	return &ChangeAnswer{ApplicationID: id, PlatformReference: reference, Status: a.Status, Reference: a.Reference,
		FeeReturnedCents: a.FeeReturnedCents, Message: a.Message}
}

// Validate refuses an answer for another change or application, an
// unknown status, a done one without its reference, or a negative fee.
func (a *ChangeAnswer) Validate(id, reference string) error {
	if a.ApplicationID != id || a.PlatformReference != reference {
		return errors.New("change: for another application or change")
	}
	switch a.Status {
	case chairside.ChangeDone:
		if a.Reference == "" {
			return errors.New("change: done without its reference")
		}
	case chairside.ChangeTooLate, chairside.ChangeRefused:
	default:
		return fmt.Errorf("change: status %q", a.Status)
	}
	if a.FeeReturnedCents < 0 {
		return errors.New("change: a negative fee")
	}
	return nil
}

// Chairside is the answer as the Changes step answers it.
func (a *ChangeAnswer) Chairside() *chairside.ChangeAnswer {
	return &chairside.ChangeAnswer{Status: a.Status, Reference: a.Reference, FeeReturnedCents: a.FeeReturnedCents, Message: a.Message}
}
