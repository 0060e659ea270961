package sandbox

// The sandbox's rules: how a product decides for a simulated profile, what
// its decision says, and why it waits when it does. The products' data is
// in products.go.

import (
	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

func (p *product) positiveCode(op string) string {
	if op == "apply" {
		return chairside.ResponseApproved
	}
	return chairside.ResponsePrequalified
}

// planCodes lists every plan code the product can offer.
func (p *product) planCodes() []string {
	p.codesOnce.Do(func() {
		for _, score := range []int{500, 850} {
			for _, t := range p.terms(score) {
				p.codes = append(p.codes, t.code)
			}
		}
	})
	return p.codes
}

// decide works out an application: a forced outcome, or one from the
// profile. It returns the outcome as an id records it (one of idOutcomes;
// a simulated positive decision is OutcomeApproved, which answers
// prequalified in a prequalify or prescreen), the amount approved (for
// pending-then-approved, the amount the approval will carry) and the down
// payment required, 0 for none.
func (p *product) decide(outcome string, prof profile, purchase int64) (result string, amountCents, downCents int64) {
	// A down payment is a share of the treatment the patient is buying, not
	// of the approval: a $5,000 approval for a $600 treatment asks a tenth
	// of $600. Without a treatment amount, the approval stands in for it.
	down := func(amount int64) int64 {
		if p.downPayment == nil {
			return 0
		}
		if purchase > 0 {
			amount = purchase
		}
		return max(0, p.downPayment(prof.score, amount))
	}
	// A forced approval covers the purchase, at least $5,000, within bounds.
	forced := clamp(roundUp100(max(purchase, 500_000)), p.minCents, p.maxCents)

	switch outcome {
	case OutcomeApproved, chairside.ResponsePrequalified, chairside.ResponsePreapproved, OutcomeExisting, OutcomeExpired, OutcomeBadPlan:
		return outcome, forced, down(forced)
	case OutcomeExistingLowLimit:
		return outcome, LowLimitCents, down(LowLimitCents)
	case OutcomeDeclined, OutcomeNoOffer, OutcomeError, OutcomePending, OutcomeUnderReview, OutcomePendingReview:
		return outcome, 0, 0
	case OutcomePendingThenApproved, OutcomePendingIncome:
		// Keep the amount the approval will carry.
		return outcome, forced, 0
	}

	// The simulated credit decision.
	if purchase > 0 && purchase < p.minCents && p.loan {
		return OutcomeNoOffer, 0, 0 // too small to finance
	}
	if prof.score < p.minScore || prof.incomeCents < p.minIncomeCents {
		return OutcomeDeclined, 0, 0
	}
	capacity := prof.incomeCents * int64(capacityPercent(prof.score)) / 100
	amount := min(capacity, p.maxCents)
	if p.loan && purchase > 0 {
		amount = min(amount, roundUp100(purchase))
	}
	amount = amount / 10_000 * 10_000 // whole $100
	if amount < p.minCents {
		return OutcomeDeclined, 0, 0
	}
	return OutcomeApproved, amount, down(amount)
}

// answer fills a decision's outcome from an application record (see
// lender.answer): the response code, amounts, stipulations and pending
// reasons, all derived from the record and the product; what the
// stipulations ask is in lang.
func (p *product) answer(d *chairside.Decision, r record, settled bool, lang locale.Language) {
	switch r.outcome {
	case OutcomeApproved, chairside.ResponsePrequalified, chairside.ResponsePreapproved, OutcomeExisting, OutcomeExpired, OutcomeExistingLowLimit,
		OutcomeBadPlan:
		d.ResponseCode = p.positiveCode(d.Operation)
		d.ApprovedAmountCents = r.approvedCents
		if r.downCents > 0 {
			d.DownPaymentRequired, d.DownPaymentCents = true, r.downCents
		}
		if p.offered != nil {
			d.OfferedLenderID = p.offered(r.score)
		}
		if p == products[catalogue.Snap] {
			d.Stipulations = append(d.Stipulations, chairside.Stipulation{
				ID: "STIP-SNP-BANK", Type: "bank_account", Status: "open",
				Description: stipulationWords["bank_account"].in(lang),
			})
		}
		switch r.outcome {
		case chairside.ResponsePrequalified, chairside.ResponsePreapproved:
			d.ResponseCode = r.outcome
		case OutcomeExisting, OutcomeExistingLowLimit:
			d.ResponseCode = chairside.ResponseApproved
			d.ExistingAccount = true
		}
	case OutcomePendingThenApproved:
		d.ApprovedAmountCents = r.approvedCents
		if settled {
			d.ResponseCode = p.positiveCode(d.Operation)
			return
		}
		p.pending(d, lang)
	case OutcomePending:
		p.pending(d, lang)
	case OutcomePendingIncome:
		// The amount the approval will carry once the income is in.
		d.ApprovedAmountCents = r.approvedCents
		pendingFor(d, p.abbr, lang, ReasonIncome)
	case OutcomeUnderReview:
		pendingFor(d, p.abbr, lang, ReasonRedFlag)
	case OutcomePendingReview:
		pendingFor(d, p.abbr, lang, "identity_verification")
	default: // declined, nooffer, error
		d.ResponseCode = r.outcome
	}
}

// pending makes a decision pending for the product's reasons.
func (p *product) pending(d *chairside.Decision, lang locale.Language) {
	pendingFor(d, p.abbr, lang, p.pendingReasons...)
}

// Pending reasons of the outcomes that do not follow the product's own.
const (
	// ReasonIncome asks for the patient's verified income: its stipulation
	// has the type of the patch that answers it (chairside.PatchIncome).
	ReasonIncome = "income_verification"
	// ReasonRedFlag: the lender's fraud and identity team is reviewing the
	// application. Nothing is asked of the patient, so no stipulation.
	ReasonRedFlag = "red_flag"
)

// pendingFor makes a decision pending for reasons, each but red_flag with
// the stipulation that says, in lang, what the lender waits for.
func pendingFor(d *chairside.Decision, abbr string, lang locale.Language, reasons ...string) {
	d.ResponseCode = chairside.ResponsePending
	for _, r := range reasons {
		d.PendingReasons = append(d.PendingReasons, r)
		if r == ReasonRedFlag {
			continue
		}
		typ := r
		if r == ReasonIncome {
			typ = chairside.PatchIncome
		}
		d.Stipulations = append(d.Stipulations, chairside.Stipulation{
			ID: "STIP-" + abbr + "-" + r, Type: typ, Status: "pending", Description: stipulationWords[r].in(lang),
		})
	}
}

// capacityPercent is the share of yearly income a lender will lend by score.
func capacityPercent(score int) int {
	switch {
	case score >= 760:
		return 25
	case score >= 720:
		return 20
	case score >= 680:
		return 15
	case score >= 640:
		return 12
	case score >= 600:
		return 10
	}
	return 8
}
