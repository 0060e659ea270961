package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

// Outcomes a magic last name or a test case can force. The first five are
// response codes; OutcomeApproved gives approved in a full application and
// prequalified in a prequalify or prescreen, and a test case may also name
// prequalified or preapproved outright.
const (
	OutcomeApproved = chairside.ResponseApproved
	OutcomeDeclined = chairside.ResponseDeclined
	OutcomePending  = chairside.ResponsePending
	OutcomeNoOffer  = chairside.ResponseNoOffer
	OutcomeError    = chairside.ResponseError
	// OutcomeTimeout never answers: Decide waits until the caller's context
	// ends (at most Options.TimeoutCap) and returns its error.
	OutcomeTimeout = "timeout"
	// OutcomeExisting finds an existing account: approved, existingAccount.
	OutcomeExisting = "existing"
	// OutcomePendingThenApproved is pending at Decide and approved at the
	// first Status check.
	OutcomePendingThenApproved = "pending_then_approved"
	// OutcomePendingIncome is pending until the patient's verified income
	// reaches the lender (Patch with PatchIncome), then approved.
	OutcomePendingIncome = "pending_income"
	// OutcomeUnderReview is pending while the lender's fraud and identity
	// team reviews the application (pending reason red_flag); it stays so.
	OutcomeUnderReview = "under_review"
	// OutcomePendingReview is pending for an identity check whatever the
	// product's usual reason (LendingClub's is verify_email); it stays so.
	OutcomePendingReview = "pending_review"
	// OutcomeExpired finds an offer the lender made the patient earlier,
	// which ended the day before this decision: positive, with an
	// expiresAt already past.
	OutcomeExpired = "expired"
	// OutcomeExistingLowLimit finds an existing account whose credit limit
	// is LowLimitCents, all of it available: too little for most
	// treatments, so the patient may ask for a higher limit
	// (ChangeCreditLimit).
	OutcomeExistingLowLimit = "existing_low_limit"
	// OutcomeBadPlan approves, and one of the plans it then offers does not
	// add up (its total is $10.00 more than its payments): the plan a
	// careless lender might send, which the server must never show.
	OutcomeBadPlan = "approved_bad_plan"
	// OutcomeFundingHeld approves as usual; once completed, the lender
	// holds the funding back for a review and funds two business days
	// late (funding.go). It is a test case's word only: the id records an
	// approval, marked held.
	OutcomeFundingHeld = "approved_funding_held"
)

// LowLimitCents is the credit limit of an OutcomeExistingLowLimit account.
const LowLimitCents = 100_000

// magicNames map a primary applicant's last name (any case) to an outcome.
var magicNames = map[string]string{
	"approve":  OutcomeApproved,
	"decline":  OutcomeDeclined,
	"pending":  OutcomePending,
	"nooffer":  OutcomeNoOffer,
	"error":    OutcomeError,
	"timeout":  OutcomeTimeout,
	"existing": OutcomeExisting,
}

// TestCase is a named scenario for the whole waterfall (chosen with POST
// /test-cases/apply/{id}): an outcome per lender role or lender key.
type TestCase struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Outcomes maps a lender key ("synchrony_standard"), a role
	// ("primary") or "*" (any other) to an outcome (the Outcome constants).
	// A lender key wins over a role. Lenders the case does not name
	// decide as usual.
	Outcomes map[string]string `json:"outcomes"`
	// Quiz makes every offer of the case ask for the identity quiz before
	// signing (a StipulationIdentityQuiz on the decision).
	Quiz bool `json:"quiz,omitempty"`
	// Wait is how long each lender of the case takes to decide, as lenders
	// that take their time: long enough to watch the waiting screen name
	// each lender of a cascade. The wait ends early when the caller's
	// context does.
	Wait time.Duration `json:"-"`
}

var testCases = []TestCase{
	{ID: "all-approve", Name: "Every lender approves",
		Description: "Every lender approves (prequalifies in prequalify and prescreen).",
		Outcomes:    map[string]string{"*": OutcomeApproved}},
	{ID: "two-declines-then-approval", Name: "Two declines, then an approval",
		Description: "The primary and secondary lenders decline; the next lender approves.",
		Outcomes:    map[string]string{"primary": OutcomeDeclined, "secondary": OutcomeDeclined, "*": OutcomeApproved}},
	{ID: "two-declines-then-approval-slowly", Name: "Two declines, then an approval, each after a while",
		Description: "The primary and secondary lenders decline and the next lender approves, each taking a second and a half to decide.",
		Outcomes:    map[string]string{"primary": OutcomeDeclined, "secondary": OutcomeDeclined, "*": OutcomeApproved},
		Wait:        1500 * time.Millisecond},
	{ID: "all-decline", Name: "Every lender declines",
		Description: "Every lender declines: the waterfall runs to its end.",
		Outcomes:    map[string]string{"*": OutcomeDeclined}},
	{ID: "primary-declines-secondary-approves", Name: "Primary declines, secondary approves",
		Description: "The primary lender declines; the secondary approves; any other declines.",
		Outcomes:    map[string]string{"primary": OutcomeDeclined, "secondary": OutcomeApproved, "*": OutcomeDeclined}},
	{ID: "primary-nooffer-secondary-approves", Name: "Primary has no offer, secondary approves",
		Description: "The primary lender has no offer; the secondary approves.",
		Outcomes:    map[string]string{"primary": OutcomeNoOffer, "secondary": OutcomeApproved, "*": OutcomeDeclined}},
	{ID: "primary-error-secondary-approves", Name: "Primary errors, secondary approves",
		Description: "The primary lender answers with an error; the secondary approves.",
		Outcomes:    map[string]string{"primary": OutcomeError, "secondary": OutcomeApproved, "*": OutcomeDeclined}},
	{ID: "primary-timeout-secondary-approves", Name: "Primary times out, secondary approves",
		Description: "The primary lender never answers (the call times out); the secondary approves.",
		Outcomes:    map[string]string{"primary": OutcomeTimeout, "secondary": OutcomeApproved, "*": OutcomeDeclined}},
	{ID: "primary-pending", Name: "Primary pending",
		Description: "The primary lender needs more time (pending) and stays pending.",
		Outcomes:    map[string]string{"primary": OutcomePending, "*": OutcomeDeclined}},
	{ID: "pending-then-approved", Name: "Pending, then approved",
		Description: "Every lender answers pending, and approves when its status is checked.",
		Outcomes:    map[string]string{"*": OutcomePendingThenApproved}},
	{ID: "existing-account", Name: "Existing account",
		Description: "The primary lender finds an account the patient already has.",
		Outcomes:    map[string]string{"primary": OutcomeExisting, "*": OutcomeDeclined}},
	{ID: "patch-income", Name: "Income needed, then approved",
		Description: "The primary lender answers pending until it has the patient's verified income, then approves.",
		Outcomes:    map[string]string{"primary": OutcomePendingIncome, "*": OutcomeDeclined}},
	{ID: "under-review", Name: "Under review by the lender",
		Description: "The primary lender's fraud and identity team reviews the application (pending reason red_flag); it stays pending.",
		Outcomes:    map[string]string{"primary": OutcomeUnderReview, "*": OutcomeDeclined}},
	{ID: "lendingclub-true-pending", Name: "LendingClub still reviewing",
		Description: "LendingClub answers pending to confirm the patient's identity (not an email to confirm) and stays pending.",
		Outcomes:    map[string]string{"lendingclub_standard": OutcomePendingReview, "*": OutcomeDeclined}},
	{ID: "offer-expired", Name: "Offer already expired",
		Description: "LendingClub finds an offer it made the patient earlier, which has expired: it can no longer be accepted.",
		Outcomes:    map[string]string{"lendingclub_standard": OutcomeExpired, "*": OutcomeDeclined}},
	{ID: "identity-quiz", Name: "Identity quiz before signing",
		Description: "Every lender approves and asks three identity questions before signing; one failed attempt may be retried.",
		Outcomes:    map[string]string{"*": OutcomeApproved}, Quiz: true},
	{ID: "all-error", Name: "Every lender errors",
		Description: "Every lender answers with an error.",
		Outcomes:    map[string]string{"*": OutcomeError}},
	{ID: "credit-limit-change", Name: "Existing account with a low limit",
		Description: "The primary lender finds an account the patient already has, with a $1,000.00 credit limit, all of it available; " +
			"a revolving lender's patient may ask for a higher limit (approved when the yearly income is at least four times the limit asked for).",
		Outcomes: map[string]string{"primary": OutcomeExistingLowLimit, "*": OutcomeDeclined}},
	{ID: "hfd-down-payment", Name: "HFD approves with a down payment",
		Description: "HFD approves with its down payment (10% of the amount, at least $100), so its own steps follow the accepted plan: the down payment, another contact and the monthly payment method; any other lender declines.",
		Outcomes:    map[string]string{"hfd_standard": OutcomeApproved, "*": OutcomeDeclined}},
	{ID: "inconsistent-plan", Name: "A plan that does not add up",
		Description: "The primary lender approves, and the first of its plans states a total $10.00 above what its payments add up to: " +
			"that plan is not shown (and is counted on /metrics), the others are.",
		Outcomes: map[string]string{"primary": OutcomeBadPlan, "*": OutcomeDeclined}},
	{ID: "funding-held", Name: "Funding held for review",
		Description: "The primary lender approves; once the account is completed it holds the funding back for a review, " +
			"and funds two business days later than it usually does.",
		Outcomes: map[string]string{"primary": OutcomeFundingHeld, "*": OutcomeDeclined}},
}

// TestCases returns the named test cases, in a stable order. The result is
// a copy.
func TestCases() []TestCase {
	out := make([]TestCase, len(testCases))
	for i, tc := range testCases {
		out[i] = copyTestCase(tc)
	}
	return out
}

// FindTestCase returns the test case with an id, or ENOTFOUND.
func FindTestCase(id string) (TestCase, error) {
	for _, tc := range testCases {
		if tc.ID == id {
			return copyTestCase(tc), nil
		}
	}
	return TestCase{}, chairside.Errorf(chairside.ENOTFOUND, "Unknown test case.")
}

func copyTestCase(tc TestCase) TestCase {
	m := make(map[string]string, len(tc.Outcomes))
	for k, v := range tc.Outcomes {
		m[k] = v
	}
	tc.Outcomes = m
	return tc
}

// outcomeFor returns the outcome a test case gives a lender in a role, ""
// when the case leaves it to the usual decision.
func (tc TestCase) outcomeFor(lenderKey, role string) string {
	if o, ok := tc.Outcomes[lenderKey]; ok {
		return o
	}
	if o, ok := tc.Outcomes[role]; ok && role != "" {
		return o
	}
	return tc.Outcomes["*"]
}

// profile is a simulated credit file.
type profile struct {
	score       int   // 500–850
	incomeCents int64 // yearly, before taxes
}

// profileOf derives a credit profile from the applicant: the score from
// SHA-256 of the SSN (or, without one, of name and date of birth), the
// income as stated or else simulated from the same hash ($25,000–$150,000).
func profileOf(a chairside.Applicant) profile {
	seed := a.SSN
	if seed == "" {
		seed = strings.ToLower(a.FirstName + "|" + a.LastName + "|" + a.DateOfBirth)
	}
	h := sha256.Sum256([]byte(seed))
	p := profile{score: 500 + int(binary.BigEndian.Uint16(h[0:2])%351)}
	if a.AnnualGrossIncome != nil {
		p.incomeCents = *a.AnnualGrossIncome
	} else {
		p.incomeCents = 2_500_000 + int64(binary.BigEndian.Uint32(h[2:6])%12_500_001)
	}
	return p
}

// Decide runs a prequalify, prescreen or full application. The outcome comes
// from the request's test case if it names this lender or its role, else
// from a magic last name of the primary applicant, else from the simulated
// credit profile. Nothing is stored: the answer and its lenderApplicationId
// are a function of the request (the time only by its UTC date), so a retry
// with the same Reference gets the first answer again, from any process.
func (l *lender) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	if err := l.begin(ctx, OpDecide, req.Reference); err != nil {
		return nil, err
	}
	if req.Reference == "" {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "A reference is required.")
	}
	op := req.Operation
	if op != "prequalify" && op != "prescreen" && op != "apply" {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "Unknown operation.")
	}

	outcome, quiz := "", false
	if req.TestCase != "" {
		tc, err := FindTestCase(req.TestCase)
		if err != nil {
			return nil, err
		}
		role := req.Role
		if _, mods := catalogue.ParseKey(req.LenderKey); role == "" && mods != nil {
			role = mods["role"]
		}
		outcome, quiz = tc.outcomeFor(l.p.Key, role), tc.Quiz
		if err := sleep(ctx, tc.Wait); err != nil {
			return nil, err
		}
	}
	if outcome == "" {
		outcome = magicNames[strings.ToLower(strings.TrimSpace(req.Primary.LastName))]
	}
	if outcome == OutcomeTimeout {
		// No answer, no id: like a lender that never got the request.
		return nil, l.sb.hang(ctx)
	}

	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	day, err := dayOf(now)
	if err != nil {
		return nil, err
	}
	prof := profileOf(req.Primary)
	// A held funding is an ordinary approval whose id says so (id.go).
	held := outcome == OutcomeFundingHeld
	if held {
		outcome = OutcomeApproved
	}
	result, amount, down := l.prod.decide(outcome, prof, req.PurchaseAmountCents)
	if amount > math.MaxUint32 || down > math.MaxUint32 {
		// No product comes near; an id could not hold it.
		return nil, fmt.Errorf("sandbox: amount %d or down payment %d out of range: %w", amount, down,
			chairside.Errorf(chairside.ELENDER, "The lender could not process the request."))
	}
	r := record{
		op: op, outcome: result, score: prof.score, day: day,
		approvedCents: amount, downCents: down, ref: refHash(l.p.Key, req.Reference), fundingHeld: held,
	}
	id := l.encodeID(r)
	lang := language(req.Language)
	d := l.answer(lang, id, r, false)
	d.CreatedAt = now
	if quiz && chairside.Positive(d.ResponseCode) {
		d.Stipulations = append(d.Stipulations, chairside.Stipulation{
			ID: "kba", Type: chairside.StipulationIdentityQuiz, Status: "open",
			Description: stipulationWords[chairside.StipulationIdentityQuiz].in(lang),
		})
	}
	return d, nil
}

// answer is the decision an application record stands for. Decide answers
// with settled false; every later call with settled true, which is where a
// pending-then-approved application stands after its first status check:
// approved. CreatedAt is the start of the decision's date (Decide sets the
// exact time). The stipulations' descriptions are in lang.
func (l *lender) answer(lang locale.Language, id string, r record, settled bool) *chairside.Decision {
	d := &chairside.Decision{
		LenderKey:      l.p.Key,
		Operation:      r.op,
		Stipulations:   []chairside.Stipulation{},
		PendingReasons: []string{},
		LenderRef:      id,
		CreatedAt:      r.date(),
	}
	l.prod.answer(d, r, settled, lang)
	if chairside.Positive(d.ResponseCode) {
		exp := r.expires(l.p.PreauthExpireDays)
		if r.outcome == OutcomeExpired {
			// The earlier offer ended the second before this decision's date.
			exp = r.date().Add(-time.Second)
		}
		d.ExpiresAt = &exp
	}
	return d
}
