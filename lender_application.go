package chairside

import "time"

// Lender application statuses: where one lender's part of an application
// stands. Steps run in this order; the store refuses a change made from a
// stale version, so two parallel requests cannot both move a step. A status
// that a lender step proves (decided, offer_accepted, signed, completed) is
// written only in the transaction that records the proof.
const (
	StatusStarted       = "started"        // fields sent, nothing submitted
	StatusDecided       = "decided"        // a decision is recorded
	StatusPlanSelected  = "plan_selected"  // the patient picked a plan
	StatusPlanConfirmed = "plan_confirmed" // the patient confirmed it
	StatusOfferAccepted = "offer_accepted" // acceptOffer went through
	StatusSigned        = "signed"         // e-consent and signature recorded
	StatusCompleted     = "completed"      // the lender completed the account
)

// LenderApplication is one lender's part of an application.
type LenderApplication struct {
	ID            string `json:"-"`
	ApplicationID string `json:"-"`
	LenderKey     string `json:"providerKey"`
	Role          string `json:"role"`
	ApplyMode     string `json:"applyMode"`
	Status        string `json:"status"`
	LenderRef     string `json:"lenderApplicationId,omitempty"`
	// Decision is the latest decision, if any.
	Decision *Decision `json:"decision,omitempty"`
	// SelectedPlanCode is the providerPlanCode of the chosen plan.
	SelectedPlanCode string `json:"selectedPlanCode,omitempty"`
	// OpenSteps are the lender's own steps still to do before the next
	// lender step (signing, or completing once signed), in order: the
	// Journey… names of chairside.LenderConfig. Computed for an answer, never
	// stored.
	OpenSteps []string `json:"openSteps,omitempty"`
	// InFlight names the lender step being asked right now (a Step…
	// constant), "" when none: while it is set no other step may start.
	InFlight string `json:"-"`
	// OfferRound counts the times the office changed the treatment amount
	// after this lender's decision (docs/behaviour.md, "Changing the
	// amount"). Each change lets the patient choose, accept and sign again:
	// the steps after the decision are new lender steps in each round
	// (RoundStep).
	OfferRound int `json:"-"`
	// Version increases with every update; updates from a stale version fail
	// with ECONFLICT.
	Version   int       `json:"-"`
	CreatedAt time.Time `json:"-"`
	UpdatedAt time.Time `json:"-"`
}
