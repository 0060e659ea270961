package flow

import (
	"context"
	"strconv"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// A credit limit change (docs/content.md, "Credit limit change"): a patient
// whose revolving lender found an existing account may ask that lender for a
// higher limit, so the account covers the treatment. It is a lender step of
// its own, asked once (docs/exactly-once.md); an approval is recorded as the
// application's new decision, whose approved amount is the new limit, so
// plans up to it can be chosen.

// maxIncomeCents bounds the yearly income a change may state
// ($9,999,999.00, as the browser's field does): anything above is a typing
// mistake.
const maxIncomeCents = 999_999_900

// CreditLimitChangeRequest is the body of account/change-credit-limit.
type CreditLimitChangeRequest struct {
	RequestedLimitCents    *int64 `json:"requestedLimitCents"`
	AnnualGrossIncomeCents *int64 `json:"annualGrossIncomeCents"`
}

// AccountTerms answers GET …/account/terms.
type AccountTerms struct {
	LenderKey            string              `json:"providerKey"`
	CreditLimitCents     int64               `json:"creditLimitCents"`
	AvailableCreditCents int64               `json:"availableCreditCents"`
	PurchaseAmountCents  int64               `json:"purchaseAmountCents"`
	MaxLimitCents        int64               `json:"maxLimitCents"`
	Document             *chairside.Document `json:"document"`
}

// CreditLimitChangeResult answers a credit limit change. ResponseCode is
// approved, declined or error (the lender could not be reached; the limit
// is unchanged, as after a decline).
type CreditLimitChangeResult struct {
	LenderKey            string `json:"providerKey"`
	ResponseCode         string `json:"responseCode"`
	CreditLimitCents     int64  `json:"creditLimitCents"`
	AvailableCreditCents int64  `json:"availableCreditCents"`
	PurchaseAmountCents  int64  `json:"purchaseAmountCents"`
	CoversPurchase       bool   `json:"coversPurchase"`
}

// changeableAccount answers the lender of pa when its latest decision is an
// approved existing account of a revolving lender, the only accounts whose
// limit can be changed; a conflict otherwise.
func changeableAccount(pa *chairside.LenderApplication) (chairside.LenderConfig, error) {
	p, err := catalogue.Get(pa.LenderKey)
	if err != nil {
		return p, err
	}
	d := pa.Decision
	if p.CreditType != catalogue.CreditRevolving || p.MaxCreditLimitCents == 0 || d == nil ||
		d.ResponseCode != chairside.ResponseApproved || !d.ExistingAccount {
		return p, errorf(chairside.ECONFLICT, "Only an existing card account with this lender can have its credit limit changed.")
	}
	return p, nil
}

// accountFacts reads the caller's changeable account and the treatment
// amount.
func (s *Service) accountFacts(ctx context.Context, c *Caller, lenderKey string) (*chairside.LenderApplication, chairside.LenderConfig, int64, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, chairside.LenderConfig{}, 0, err
	}
	p, err := changeableAccount(pa)
	if err != nil {
		return nil, p, 0, err
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, p, 0, err
	}
	return pa, p, app.PurchaseAmountCents, nil
}

// AccountTerms answers the existing account's limit, what is available of
// it, the most the product allows and the lender's account terms. The
// lender's decision gives the available credit as its approved amount; the
// limit is the same figure (an account found with nothing owed on it).
func (s *Service) AccountTerms(ctx context.Context, c *Caller, lenderKey string) (*AccountTerms, error) {
	pa, p, purchase, err := s.accountFacts(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	doc, err := s.document(ctx, c.Language, lenderKey, chairside.DocKindAccountTerms)
	if err != nil {
		return nil, err
	}
	limit := pa.Decision.ApprovedAmountCents
	return &AccountTerms{LenderKey: lenderKey, CreditLimitCents: limit, AvailableCreditCents: limit,
		PurchaseAmountCents: purchase, MaxLimitCents: p.MaxCreditLimitCents, Document: doc}, nil
}

// checkCreditLimitChange validates a change's body against the account:
// a limit above the current one (unless a change was answered already,
// whose repeat is the claim's to judge) and at most the product's, an
// income from $0 to maxIncomeCents.
func checkCreditLimitChange(req *CreditLimitChangeRequest, current, most int64, answered bool) error {
	var fe []chairside.FieldError
	switch r := req.RequestedLimitCents; {
	case r == nil:
		fe = append(fe, chairside.FieldError{Field: "requestedLimitCents", Message: "Required Field"})
	case *r <= 0 || (!answered && *r <= current):
		fe = append(fe, chairside.FieldError{Field: "requestedLimitCents",
			Message: "Please ask for more than your current limit of " + chairside.Dollars(current) + "."})
	case *r > most:
		fe = append(fe, chairside.FieldError{Field: "requestedLimitCents",
			Message: "The highest limit this account allows is " + chairside.Dollars(most) + "."})
	}
	switch i := req.AnnualGrossIncomeCents; {
	case i == nil:
		fe = append(fe, chairside.FieldError{Field: "annualGrossIncomeCents", Message: "Required Field"})
	case *i < 0 || *i > maxIncomeCents:
		fe = append(fe, chairside.FieldError{Field: "annualGrossIncomeCents",
			Message: "Please enter your yearly income before taxes, from $0 to " + chairside.Dollars(maxIncomeCents) + "."})
	}
	if len(fe) > 0 {
		return &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.", FieldErrors: fe}
	}
	return nil
}

// ChangeCreditLimit asks the lender for a higher limit, once: the same
// request again (a double tap, whatever its Idempotency-Key) gets the
// recorded result, another one idempotency_mismatch. A lender that cannot
// be reached answers the result error with the limit unchanged (recorded
// nowhere), and the step may be tried again.
func (s *Service) ChangeCreditLimit(ctx context.Context, c *Caller, lenderKey string, req *CreditLimitChangeRequest) (*StepAnswer[CreditLimitChangeResult], error) {
	limits, err := stepOf[chairside.CreditLimits](s, lenderKey)
	if err != nil {
		return nil, err
	}
	pa, p, purchase, err := s.accountFacts(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	current := pa.Decision.ApprovedAmountCents
	// Once answered, the limit may be the new one already, and the same
	// request again must get its recorded result, not a field error.
	call, err := s.store.FindLenderCall(ctx, pa.ID, chairside.StepCreditLimit)
	if err != nil && !isCode(err, chairside.ENOTFOUND) {
		return nil, err
	}
	answered := err == nil && call.State == chairside.CallDone
	if err := checkCreditLimitChange(req, current, p.MaxCreditLimitCents, answered); err != nil {
		return nil, err
	}
	requested, income := *req.RequestedLimitCents, *req.AnnualGrossIncomeCents
	result := func(code string, limit int64) *CreditLimitChangeResult {
		return &CreditLimitChangeResult{LenderKey: lenderKey, ResponseCode: code, CreditLimitCents: limit,
			AvailableCreditCents: limit, PurchaseAmountCents: purchase, CoversPurchase: limit >= purchase}
	}
	var (
		answer *chairside.CreditLimitAnswer
		kept   *CreditLimitChangeResult // the result recorded, for the first request
	)
	step := chairside.StepCreditLimit
	_, body, err := s.runStep(ctx, c, lenderKey, offerStep{
		step: step, from: chairside.StatusDecided, to: chairside.StatusDecided, event: "credit_limit", replayAny: true, read: pa,
		hash: s.keys.BlindIndex(step + "\x00" + strconv.FormatInt(requested, 10) + "\x00" + strconv.FormatInt(income, 10)),
		allow: func(pa *chairside.LenderApplication) error {
			if _, err := changeableAccount(pa); err != nil {
				return err
			}
			return s.positive(pa, chairside.StatusDecided)
		},
		prepare: func(ctx context.Context, tx Store, pa *chairside.LenderApplication) error {
			s.eventIn(ctx, tx, c.Session, lenderKey, "credit_limit.requested", nil)
			return nil
		},
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			a, err := limits.ChangeCreditLimit(ctx, &chairside.CreditLimitRequest{Language: c.language(), LenderKey: lenderKey, LenderRef: pa.LenderRef,
				RequestedLimitCents: requested, AnnualGrossIncomeCents: income, Reference: ref, Now: s.now().UTC()})
			if err != nil {
				return nil, err
			}
			return approvedLimit(pa, a, &answer)
		},
		answer: func(cur *chairside.LenderApplication) (string, any) {
			// The limit the account has once recorded: the lender's new one
			// when approved (approvedLimit), the current one when declined.
			kept = result(answer.Status, cur.Decision.ApprovedAmountCents)
			return "credit_limit." + answer.Status, kept
		},
	})
	switch {
	case isCode(err, chairside.ELENDER):
		return notRecorded(result(chairside.ResponseError, current)), nil
	case err != nil:
		return nil, err
	}
	// kept is nil for a repeat, whose value is read from body when asked.
	return recorded(body, kept), nil
}

// approvedLimit reads a lender's answer to a change, keeping it in *kept:
// an approval is the account's decision with the new limit as its approved
// amount (and the lender's new application id, when it gives one); a
// decline changes no decision. Anything else, or an approval that lowers
// the limit, is an answer that cannot be read.
func approvedLimit(pa *chairside.LenderApplication, a *chairside.CreditLimitAnswer, kept **chairside.CreditLimitAnswer) (*chairside.Decision, error) {
	if a == nil || (a.Status != chairside.CreditLimitApproved && a.Status != chairside.CreditLimitDeclined) ||
		(a.Status == chairside.CreditLimitApproved && a.CreditLimitCents < pa.Decision.ApprovedAmountCents) {
		return nil, errorf(chairside.ELENDER, "The lender's answer could not be read.")
	}
	*kept = a
	if a.Status == chairside.CreditLimitDeclined {
		a.CreditLimitCents = pa.Decision.ApprovedAmountCents
		return nil, nil
	}
	d := *pa.Decision
	d.ApprovedAmountCents = a.CreditLimitCents
	if a.LenderRef != "" {
		d.LenderRef = a.LenderRef
	}
	return &d, nil
}
