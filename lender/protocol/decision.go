// Package protocol is our JSON-over-HTTP lender protocol: the wire types
// both ends share, their mapping to the chairside types, and the webhook
// signature (docs/lender-protocol.md). lender/httplender speaks it as a
// client and lender/lendersim as a lender.
package protocol

import (
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// Application statuses on the wire. A decline is a status like any other,
// never an HTTP error.
const (
	StatusApproved     = "approved"
	StatusPreapproved  = "preapproved"
	StatusPrequalified = "prequalified"
	StatusDeclined     = "declined"
	StatusNoOffer      = "no_offer"
	StatusPending      = "pending"
)

// Stipulation is something the lender needs before it decides or funds.
type Stipulation struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Status      string `json:"status"`
}

// Decision is where a lender's application stands: the answer to a submit,
// to a status read, and the payload of a webhook. Money is in integer
// cents.
type Decision struct {
	ApplicationID     string `json:"applicationId"`
	PlatformReference string `json:"platformReference"`
	// Operation is the create's operation (prequalify, prescreen, apply),
	// so a status read knows what kind of decision it is.
	Operation           string        `json:"operation,omitempty"`
	Status              string        `json:"status"`
	ApprovedAmountCents int64         `json:"approvedAmountCents"`
	Currency            string        `json:"currency"`
	DownPaymentRequired bool          `json:"downPaymentRequired"`
	DownPaymentCents    int64         `json:"downPaymentCents"`
	ExistingAccount     bool          `json:"existingAccount"`
	PendingReasons      []string      `json:"pendingReasons"`
	Stipulations        []Stipulation `json:"stipulations"`
	SubLenderID         string        `json:"subLenderId,omitempty"`
	ExpiresAt           *time.Time    `json:"expiresAt,omitempty"`
}

// statusCodes maps wire statuses to chairside response codes.
var statusCodes = map[string]string{
	StatusApproved:     chairside.ResponseApproved,
	StatusPreapproved:  chairside.ResponsePreapproved,
	StatusPrequalified: chairside.ResponsePrequalified,
	StatusDeclined:     chairside.ResponseDeclined,
	StatusNoOffer:      chairside.ResponseNoOffer,
	StatusPending:      chairside.ResponsePending,
}

// KnownStatus reports whether s is a status of the protocol.
func KnownStatus(s string) bool {
	_, ok := statusCodes[s]
	return ok
}

// WireStatus maps a chairside response code to its wire status; "" for
// ResponseError, which is ours (the lender did not answer) and never sent.
func WireStatus(responseCode string) string {
	for k, v := range statusCodes {
		if v == responseCode {
			return k
		}
	}
	return ""
}

// Chairside maps a wire decision to a chairside.Decision for providerKey
// and operation ("" for the decision's own). An unknown status maps to
// ResponseError: a lender's word we cannot read is never taken for a yes.
func (d *Decision) Chairside(lenderKey, operation string) *chairside.Decision {
	code, ok := statusCodes[d.Status]
	if !ok {
		code = chairside.ResponseError
	}
	if operation == "" {
		operation = d.Operation
	}
	out := &chairside.Decision{
		LenderKey:           lenderKey,
		Operation:           operation,
		ResponseCode:        code,
		ApprovedAmountCents: d.ApprovedAmountCents,
		DownPaymentRequired: d.DownPaymentRequired,
		DownPaymentCents:    d.DownPaymentCents,
		ExistingAccount:     d.ExistingAccount,
		LenderRef:           d.ApplicationID,
		OfferedLenderID:     d.SubLenderID,
		ExpiresAt:           d.ExpiresAt,
		PendingReasons:      append([]string{}, d.PendingReasons...),
		Stipulations:        []chairside.Stipulation{},
	}
	for _, s := range d.Stipulations {
		out.Stipulations = append(out.Stipulations, chairside.Stipulation{ID: s.ID, Type: s.Type, Description: s.Description, Status: s.Status})
	}
	return out
}

// FromChairside maps a chairside.Decision to the wire, with the platform
// reference it answers.
func FromChairside(d *chairside.Decision, reference string) *Decision {
	out := &Decision{
		ApplicationID:       d.LenderRef,
		PlatformReference:   reference,
		Operation:           d.Operation,
		Status:              WireStatus(d.ResponseCode),
		ApprovedAmountCents: d.ApprovedAmountCents,
		Currency:            "USD",
		DownPaymentRequired: d.DownPaymentRequired,
		DownPaymentCents:    d.DownPaymentCents,
		ExistingAccount:     d.ExistingAccount,
		PendingReasons:      append([]string{}, d.PendingReasons...),
		Stipulations:        []Stipulation{},
		SubLenderID:         d.OfferedLenderID,
		ExpiresAt:           d.ExpiresAt,
	}
	for _, s := range d.Stipulations {
		out.Stipulations = append(out.Stipulations, Stipulation{ID: s.ID, Type: s.Type, Description: s.Description, Status: s.Status})
	}
	return out
}

// Validate refuses a decision we cannot act on: no application id, a
// status the protocol does not have, a negative amount, another currency.
// Its errors name the fault, never a value of the applicant.
func (d *Decision) Validate() error {
	if !KnownStatus(d.Status) {
		return fmt.Errorf("decision: unknown status %q", d.Status)
	}
	if d.ApplicationID == "" {
		return errors.New("decision: no applicationId")
	}
	if err := checkMoney("approvedAmountCents", d.ApprovedAmountCents); err != nil {
		return fmt.Errorf("decision: %w", err)
	}
	if err := checkMoney("downPaymentCents", d.DownPaymentCents); err != nil {
		return fmt.Errorf("decision: %w", err)
	}
	if err := checkCurrency(d.Currency, d.ApprovedAmountCents, d.DownPaymentCents); err != nil {
		return fmt.Errorf("decision: %w", err)
	}
	return nil
}
