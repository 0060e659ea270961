package sandbox

import (
	"context"
	"fmt"

	"github.com/chairside/chairside"
)

// CreditLimitErrorIncomeCents is the yearly income ($99,999.00) at which a
// sandbox credit limit change fails as if the lender could not be reached,
// so the error answer can be tried on purpose.
const CreditLimitErrorIncomeCents = 9_999_900

// CreditLimitIncomeMultiple is how many times the limit asked for the
// yearly income must be for the sandbox to approve it.
const CreditLimitIncomeMultiple = 4

// CreditLimitRule is the sandbox's decision on a credit limit change
// (docs/content.md, "Credit limit change"): approved with the limit asked
// for when it is above the current one, at most maxCents, and the yearly
// income is at least CreditLimitIncomeMultiple times it; declined, with the
// limit unchanged, otherwise. The simulator (lender/lendersim) answers with
// the same rule, through ChangeCreditLimit.
func CreditLimitRule(currentCents, requestedCents, incomeCents, maxCents int64) (status string, limitCents int64) {
	if requestedCents > currentCents && requestedCents <= maxCents &&
		incomeCents >= CreditLimitIncomeMultiple*requestedCents {
		return chairside.CreditLimitApproved, requestedCents
	}
	return chairside.CreditLimitDeclined, currentCents
}

// maxCreditLimit is the highest limit the lender's product allows: the
// catalogue's for a revolving lender, the product's largest line
// otherwise.
func (l *lender) maxCreditLimit() int64 {
	if l.p.MaxCreditLimitCents > 0 {
		return l.p.MaxCreditLimitCents
	}
	return l.prod.maxCents
}

// ChangeCreditLimit decides a credit limit change on an application with
// an offer (CreditLimitRule). The sandbox keeps no state, so an approval
// answers a new lenderApplicationId (from the change's Reference, so a retry
// gets the same one) that carries the new limit as its approved amount;
// plans and later steps read it from there. A decline keeps the id.
func (l creditLimits) ChangeCreditLimit(ctx context.Context, req *chairside.CreditLimitRequest) (*chairside.CreditLimitAnswer, error) {
	if err := l.begin(ctx, OpCreditLimit, req.Reference); err != nil {
		return nil, err
	}
	if req.Reference == "" {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "A reference is required.")
	}
	if req.RequestedLimitCents <= 0 || req.AnnualGrossIncomeCents < 0 {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "The limit must be positive and the income not negative.")
	}
	r, _, err := l.offerable(req.LenderRef)
	if err != nil {
		return nil, err
	}
	if req.AnnualGrossIncomeCents == CreditLimitErrorIncomeCents {
		return nil, fmt.Errorf("sandbox: credit limit change for the error income: %w",
			chairside.Errorf(chairside.ELENDER, "The lender could not be reached."))
	}
	status, limit := CreditLimitRule(r.approvedCents, req.RequestedLimitCents, req.AnnualGrossIncomeCents, l.maxCreditLimit())
	ans := &chairside.CreditLimitAnswer{Status: status, CreditLimitCents: limit, LenderRef: req.LenderRef}
	if status == chairside.CreditLimitApproved {
		r.approvedCents, r.ref = limit, refHash(l.p.Key, req.Reference)
		ans.LenderRef = l.encodeID(r)
	}
	return ans, nil
}
