// Package pms is the bridge to a practice's own records, its
// practice-management system (docs/practice-records.md): find the patient
// the desk is inviting, read what their saved treatment plans leave them to
// pay, and post the financing back to their ledger once. Open Dental is
// the first system (pms/opendental); another is one more Bridge.
//
// Money is in cents throughout; a refund is a negative payment.
package pms

import (
	"context"
	"errors"
	"time"
)

// Patient is a patient as the practice's system keeps them: what an
// invitation may be prefilled with, never an SSN (a system that holds one
// is not asked for it, and nothing here would keep it).
type Patient struct {
	// ID is the system's own id of the patient (Open Dental's PatNum).
	ID            string `json:"id"`
	FirstName     string `json:"firstName"`
	MiddleInitial string `json:"middleInitial,omitempty"`
	LastName      string `json:"lastName"`
	// Birthdate is yyyy-mm-dd; "" when the system has none.
	Birthdate   string `json:"birthdate,omitempty"`
	Address     string `json:"address,omitempty"`
	Address2    string `json:"address2,omitempty"`
	City        string `json:"city,omitempty"`
	State       string `json:"state,omitempty"`
	ZIP         string `json:"zip,omitempty"`
	MobilePhone string `json:"mobilePhone,omitempty"`
	HomePhone   string `json:"homePhone,omitempty"`
	Email       string `json:"email,omitempty"`
	// Language is "en" or "es" when the system knows it, else "".
	Language string `json:"language,omitempty"`
	// TextOK says the patient agreed, at the practice, to be texted.
	TextOK bool `json:"textOk"`
}

// Procedure is one line of a treatment plan: the fee, what insurance is
// expected to pay, the discount, and the patient's share after them.
type Procedure struct {
	Code           string `json:"code"`
	Description    string `json:"description"`
	FeeCents       int64  `json:"feeCents"`
	InsuranceCents int64  `json:"insuranceCents"`
	DiscountCents  int64  `json:"discountCents"`
	PatientCents   int64  `json:"patientCents"`
}

// TreatmentPlan is a saved treatment plan of a patient and its lines.
type TreatmentPlan struct {
	ID         string      `json:"id"`
	Heading    string      `json:"heading"`
	Signed     bool        `json:"signed"`
	Procedures []Procedure `json:"procedures"`
}

// Totals are a plan's sums: the fees, the insurance estimate, the
// discounts, and the patient's share — the amount to finance.
type Totals struct {
	FeeCents       int64 `json:"feeCents"`
	InsuranceCents int64 `json:"insuranceCents"`
	DiscountCents  int64 `json:"discountCents"`
	PatientCents   int64 `json:"patientCents"`
}

// Totals sums the plan's lines.
func (p TreatmentPlan) Totals() Totals {
	var t Totals
	for _, l := range p.Procedures {
		t.FeeCents += l.FeeCents
		t.InsuranceCents += l.InsuranceCents
		t.DiscountCents += l.DiscountCents
		t.PatientCents += l.PatientCents
	}
	return t
}

// Payment is one payment to post to a patient's ledger: the amount
// financed or funded (negative for a refund), its date in the practice's
// time zone, a reference that names Chairside and our case (by which a
// retry finds it), and a one-line note naming the lender, the plan the
// patient chose and the case (office/records_post.go, postOf).
type Payment struct {
	PatientID   string
	AmountCents int64
	Date        time.Time
	Reference   string
	Note        string
}

// Query finds patients: by the system's id, or by last name with the
// first name or date of birth (yyyy-mm-dd) to narrow it.
type Query struct {
	ID        string
	LastName  string
	FirstName string
	Birthdate string
}

// Bridge is a practice-management system, as one office has connected it.
type Bridge interface {
	// Check answers whether the connection works (the keys are good and
	// the system answers), and what it could read.
	Check(ctx context.Context) error
	FindPatients(ctx context.Context, q Query) ([]Patient, error)
	Patient(ctx context.Context, id string) (*Patient, error)
	// TreatmentPlans answers the patient's saved plans with their lines.
	TreatmentPlans(ctx context.Context, patientID string) ([]TreatmentPlan, error)
	// PostPayment posts one payment and answers the system's id of it.
	// It is not idempotent: before trying again after an error whose
	// outcome is unknown, ask FindPayment.
	PostPayment(ctx context.Context, p Payment) (string, error)
	// FindPayment answers the id of the patient's payment of that day
	// with that reference, "" when there is none.
	FindPayment(ctx context.Context, patientID string, day time.Time, reference string) (string, error)
}

// Errors a Bridge answers, wrapped with what happened.
var (
	// ErrRefused: the system refused the keys (revoked, disabled, or the
	// practice turned its API off). Nothing works until the office fixes
	// it; waiting work waits.
	ErrRefused = errors.New("the practice's system refused Chairside's keys")
	// ErrUnavailable: the system did not answer or failed; the outcome of
	// a write is unknown.
	ErrUnavailable = errors.New("the practice's system did not answer")
	// ErrNotFound: no such patient or plan.
	ErrNotFound = errors.New("not found in the practice's system")
	// ErrInvalid: the system refused what was sent (a bad field); trying
	// again will not help.
	ErrInvalid = errors.New("the practice's system refused the request")
)
