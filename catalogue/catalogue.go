// Package lender is the catalogue of the eleven lender products Chairside
// offers: their configuration (chairside.LenderConfig) and the form fields each
// asks for per apply mode. It is data, and the one source of truth for both: the API
// sends these definitions to the browser and package validate checks every
// submit against exactly the same definitions.
package catalogue

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// Lender keys of the catalogue.
const (
	ADS         = "ads_standard"
	AFF         = "aff_standard"
	CoveredCare = "covered_care_standard"
	Fortiva     = "fortiva_standard"
	Genesis     = "genesis_aspen"
	HFD         = "hfd_standard"
	LendingClub = "lendingclub_standard"
	Proceed     = "proceed_standard"
	Snap        = "snap_standard"
	Synchrony   = "synchrony_standard"
	Vive        = "vive_standard"
)

// Lender kinds (chairside.LenderConfig.Kind).
const (
	KindPromotionalCard = "promotional_card"
	KindInstallmentLoan = "installment_loan"
	KindLeaseToOwn      = "lease_to_own"
	KindRevolving       = "revolving"
)

// Credit types (chairside.LenderConfig.CreditType).
const (
	CreditLoan      = "loan"
	CreditRevolving = "revolving_credit"
)

// A lender's decision time-outs unless its entry says otherwise
// (chairside.LenderConfig.QuickCheckTimeout, ApplyTimeout). A quick check
// is a soft look the lenders answer in a second or two; 8 s leaves room
// for a slow moment, and a waterfall of three silent lenders then keeps a
// patient 24 s, not 75. A full application may run identity and fraud
// checks, so it gets longer.
const (
	DefaultQuickCheckTimeout = 8 * time.Second
	DefaultApplyTimeout      = 20 * time.Second
)

// DecisionTimeout is the catalogue's time-out of the lender's decision
// on a full application (apply) or a quick check; 0 for a key it does not
// know.
func DecisionTimeout(lenderKey string, apply bool) time.Duration {
	p, err := Get(lenderKey)
	switch {
	case err != nil:
		return 0
	case apply:
		return p.ApplyTimeout
	}
	return p.QuickCheckTimeout
}

// DefaultPreauthExpireDays is how long a pre-authorization (prequalified,
// preapproved) stays valid unless a lender says otherwise.
const DefaultPreauthExpireDays = 30

// catalogue holds the eleven lenders in the order the office usually
// sees them. Names are our own plausible product names, not the lenders'
// trademarks for their products. base() fills the defaults all share.
var catalogue = []chairside.LenderConfig{
	with(base(ADS, "ads", "ADS Health", "ADS Health Card", "ADS", KindPromotionalCard, CreditRevolving), func(p *chairside.LenderConfig) {
		p.SupportsFullAppMode = true
		p.FooterLogo = "/logos/ads.svg"
		p.FundingName = "ADS Health Card account"
		p.FundingSourceDescription = "A healthcare credit card with promotional financing."
		p.MaxCreditLimitCents = 2_500_000
	}),
	with(base(AFF, "aff", "AFF", "AFF Treatment Loan", "AFF", KindInstallmentLoan, CreditLoan), func(p *chairside.LenderConfig) {
		p.MaxDownPaymentCents = 5000
		p.ShowPaymentPlanDetails = true
		p.StepsBeforeSigning = append(p.StepsBeforeSigning, chairside.JourneyAgreement, chairside.JourneyWisconsin, chairside.JourneyCalifornia)
		p.DeclinedMessage = "AFF could not offer you a treatment loan this time. Within 30 days AFF will send you a letter " +
			"with the main reasons and the credit bureau it used; you can ask that bureau for a free copy of your credit report " +
			"within 60 days of the letter. You may apply with AFF again in 90 days."
		p.FundingSourceDescription = "A simple-interest installment loan for treatment, with a small down payment."
		p.FundingSourceDescriptionByProductType = map[string]string{
			"ric": "A retail installment contract: the office sells the treatment on credit and AFF takes on the contract.",
		}
	}),
	with(base(CoveredCare, "covered", "Covered Care", "Covered Care Payment Plan", "Covered", KindInstallmentLoan, CreditLoan), func(p *chairside.LenderConfig) {
		p.MinPaymentCalculatorCents = 50000
		p.FundingSourceDescription = "A fixed monthly payment plan for treatment of $500 or more."
	}),
	with(base(Fortiva, "fortiva", "Fortiva", "Fortiva Care Card", "Fortiva", KindRevolving, CreditRevolving), func(p *chairside.LenderConfig) {
		p.FundingSourceDescription = "A second-look credit card for patients building their credit."
		p.MaxCreditLimitCents = 1_000_000
		p.StepsAfterSigning = []string{chairside.JourneyCompleteAgreement}
	}),
	with(base(Genesis, "genesis", "Genesis", "Genesis Aspen Care Card", "Genesis", KindRevolving, CreditRevolving), func(p *chairside.LenderConfig) {
		p.FundingSourceDescription = "A second-look credit card with short promotional periods."
		p.MaxCreditLimitCents = 1_000_000
		// Its promotions are short and deferred: the explanation of the
		// suggested plan opens by itself with the plans.
		p.AutoShowLearnHowDrawer = true
	}),
	with(base(HFD, "hfd", "HFD", "HFD Direct Payment Plan", "HFD", KindInstallmentLoan, CreditLoan), func(p *chairside.LenderConfig) {
		p.ShowDownPaymentAcknowledgeByLenderRoles = []string{"highline_secondary"}
		p.ShowBankCardErrorModal = true
		p.StepsBeforeSigning = append(p.StepsBeforeSigning, chairside.JourneyDownPayment, chairside.JourneyAdditionalContact, chairside.JourneyLoanPayment)
		p.FundingSourceDescription = "An in-office payment plan with a down payment, for most credit histories."
		p.FundingSourceDescriptionByProductType = map[string]string{
			"risa": "A retail installment sales agreement with HFD, paid monthly after the down payment.",
		}
	}),
	with(base(LendingClub, "lendingclub", "LendingClub", "LendingClub Patient Loan", "LendingClub", KindInstallmentLoan, CreditLoan), func(p *chairside.LenderConfig) {
		p.SelectPaymentPlanOnReviewScreen = true
		p.FundingSourceDescription = "A fixed-rate installment loan from a bank."
	}),
	with(base(Proceed, "proceed", "Proceed", "Proceed Patient Loan", "Proceed", KindInstallmentLoan, CreditLoan), func(p *chairside.LenderConfig) {
		p.PaymentCalculatorButtonsHidden = true
		// A new amount is priced again by each partner lender, which takes
		// longer and may change which partners' plans show: a short dialog
		// says so while they load (docs/decisions.md, "Recalculating dialog").
		p.PaymentCalculatorRecalculatingModal = true
		p.SubLenders = []chairside.SubLender{
			{LenderID: "harbor", Name: "Harbor Community Bank", Logo: "/logos/harbor.svg"},
			{LenderID: "cedarline", Name: "Cedarline Credit Union", Logo: "/logos/cedarline.svg"},
		}
		p.FundingSourceDescription = "Installment loans from Proceed and its partner lenders."
		p.FundingSourceDescriptionByProductType = map[string]string{
			"bankloan": "A fixed-rate loan from Proceed or one of its partner banks and credit unions.",
		}
	}),
	with(base(Snap, "snap", "Snap", "Snap Lease-to-Own", "Snap", KindLeaseToOwn, CreditLoan), func(p *chairside.LenderConfig) {
		p.FetchPaymentPlansOnPreAuth = false
		p.PreauthExpireDays = 60
		p.StepsBeforeSigning = append(p.StepsBeforeSigning, chairside.JourneyBankAccount, chairside.JourneyAgreement)
		p.FundingName = "Snap lease"
		// Lease-to-own is restricted by some states; our catalogue leaves
		// five out of Snap's list, and an office there cannot list it
		// (docs/offices.md).
		p.States = allStatesExcept("MN", "NJ", "VT", "WI", "WY")
		p.FundingSourceDescription = "A lease-to-own plan paid from your checking account; no credit needed."
		p.FundingSourceDescriptionByProductType = map[string]string{
			chairside.ProductLease: "A lease, not credit: you own the treatment once every payment is made, or sooner with the early purchase option.",
		}
	}),
	with(base(Synchrony, "synchrony", "Synchrony", "Synchrony Health Card", "Synchrony", KindPromotionalCard, CreditRevolving), func(p *chairside.LenderConfig) {
		p.SupportsFullAppMode = true
		p.FooterLogo = "/logos/synchrony.svg"
		p.FundingName = "Synchrony Health Card account"
		p.FundingSourceDescription = "A healthcare credit card with deferred-interest and fixed-rate plans."
		p.MaxCreditLimitCents = 2_500_000
		p.PaymentPlanFilterOverrides = map[string][]string{
			"credit_card": {chairside.PlanDeferredInterest, chairside.PlanFixedRate},
		}
	}),
	with(base(Vive, "vive", "Vive", "Vive Care Card", "Vive", KindRevolving, CreditRevolving), func(p *chairside.LenderConfig) {
		p.FundingSourceDescription = "A revolving card: pay 4% of your highest balance or $25 a month, whichever is more."
		p.MaxCreditLimitCents = 1_000_000
	}),
}

// base returns a lender with the defaults all lenders share.
func base(key, id, name, financing, abbr, kind, creditType string) chairside.LenderConfig {
	return chairside.LenderConfig{
		Key:                        key,
		LenderID:                   id,
		Name:                       name,
		FinancingName:              financing,
		AbbreviatedName:            abbr,
		FundingName:                financing,
		Kind:                       kind,
		CreditType:                 creditType,
		Logo:                       "/logos/" + id + ".svg",
		FetchPaymentPlansOnPreAuth: true,
		PreauthExpireDays:          DefaultPreauthExpireDays,
		QuickCheckTimeout:          DefaultQuickCheckTimeout,
		ApplyTimeout:               DefaultApplyTimeout,
		// Any lender may ask the identity quiz (when its decision carries
		// the stipulation); it comes before the lender's own steps.
		StepsBeforeSigning: []string{chairside.JourneyQuiz},
	}
}

func with(p chairside.LenderConfig, f func(*chairside.LenderConfig)) chairside.LenderConfig {
	f(&p)
	return p
}

// All returns every lender of the catalogue. The result is a deep copy:
// callers may change it freely.
func All() []chairside.LenderConfig {
	out := make([]chairside.LenderConfig, len(catalogue))
	for i, p := range catalogue {
		out[i] = clone(p)
	}
	return out
}

// Get returns the lender for a key. The key may carry modifiers
// (key[:modifier[=value]...]), which are ignored here; see
// ParseKey. Unknown keys give an ENOTFOUND *chairside.Error.
func Get(key string) (chairside.LenderConfig, error) {
	base, _ := ParseKey(key)
	for _, p := range catalogue {
		if p.Key == base {
			return clone(p), nil
		}
	}
	return chairside.LenderConfig{}, chairside.Errorf(chairside.ENOTFOUND, "Unknown lender.")
}

// ParseKey splits a lender key of the form key[:modifier[=value]...] into
// its base key and its modifiers, e.g. "hfd_standard:role=highline_secondary"
// gives "hfd_standard" and {"role": "highline_secondary"}. A modifier without
// a value maps to "". modifiers is nil when there are none. Surrounding
// spaces are trimmed; the base key is otherwise returned as given.
func ParseKey(k string) (base string, modifiers map[string]string) {
	parts := strings.Split(strings.TrimSpace(k), ":")
	for _, m := range parts[1:] {
		if m == "" {
			continue
		}
		name, value, _ := strings.Cut(m, "=")
		if modifiers == nil {
			modifiers = map[string]string{}
		}
		modifiers[name] = value
	}
	return parts[0], modifiers
}

// BaseKey is the base key of a lender key: "hfd_standard" for
// "hfd_standard:role=highline_secondary".
func BaseKey(k string) string {
	base, _ := ParseKey(k)
	return base
}

// EffectiveRole is a waterfall step's role for a lender: the role= modifier
// of its lender key when it has one, else the step's role.
func EffectiveRole(st chairside.WaterfallStep) string {
	if _, mods := ParseKey(st.LenderKey); mods["role"] != "" {
		return mods["role"]
	}
	return st.Role
}

// AcknowledgesDownPayment reports whether a lender in a role asks the
// patient to acknowledge its down payment with a box of its own
// (LenderConfig.ShowDownPaymentAcknowledgeByLenderRoles).
func AcknowledgesDownPayment(p chairside.LenderConfig, role string) bool {
	return role != "" && slices.Contains(p.ShowDownPaymentAcknowledgeByLenderRoles, role)
}

// clone deep-copies p. The configuration fields a lender does not use come
// out empty rather than nil, so every one of them is in the JSON the
// browser reads (api/openapi.yaml, Provider).
func clone(p chairside.LenderConfig) chairside.LenderConfig {
	p.SubLenders = append([]chairside.SubLender{}, p.SubLenders...)
	p.ShowDownPaymentAcknowledgeByLenderRoles = append([]string{}, p.ShowDownPaymentAcknowledgeByLenderRoles...)
	p.StepsBeforeSigning = slices.Clone(p.StepsBeforeSigning)
	p.StepsAfterSigning = slices.Clone(p.StepsAfterSigning)
	p.States = slices.Clone(p.States)
	m := map[string][]string{}
	for k, v := range p.PaymentPlanFilterOverrides {
		m[k] = slices.Clone(v)
	}
	p.PaymentPlanFilterOverrides = m
	p.FundingSourceDescriptionByProductType = maps.Clone(p.FundingSourceDescriptionByProductType)
	if p.FundingSourceDescriptionByProductType == nil {
		p.FundingSourceDescriptionByProductType = map[string]string{}
	}
	return p
}
