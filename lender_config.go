package chairside

import "time"

// LenderConfig is the configuration of one lender product, as the browser reads
// it for each lender key. The catalogue of the eleven lenders lives in
// package catalogue.
type LenderConfig struct {
	Key                      string `json:"providerKey"` // e.g. synchrony_standard
	LenderID                 string `json:"providerId"`  // e.g. synchrony
	Name                     string `json:"name"`
	FinancingName            string `json:"financingName"`
	AbbreviatedName          string `json:"abbreviatedName"`
	FundingName              string `json:"fundingName"`
	FundingSourceDescription string `json:"fundingSourceDescription"`
	// FundingSourceDescriptionByProductType describes the product by a
	// plan's product type where it says more than FundingSourceDescription.
	FundingSourceDescriptionByProductType map[string]string `json:"fundingSourceDescriptionByProductType"`
	// Kind is promotional_card, installment_loan, lease_to_own or revolving.
	Kind       string `json:"kind"`
	CreditType string `json:"creditType"` // loan or revolving_credit
	Logo       string `json:"logo"`       // path of an SVG served with the web app
	FooterLogo string `json:"footerLogo"`

	PaymentCalculatorButtonsHidden          bool        `json:"paymentCalculatorButtonsHidden"`
	PaymentCalculatorRecalculatingModal     bool        `json:"paymentCalculatorRecalculatingModal"`
	AutoShowLearnHowDrawer                  bool        `json:"autoShowLearnHowDrawer"`
	FetchPaymentPlansOnPreAuth              bool        `json:"fetchPaymentPlansOnPreAuth"`
	FetchPaymentPlansOnResume               bool        `json:"fetchPaymentPlansOnResume"`
	FetchPaymentPlansOnFullResume           bool        `json:"fetchPaymentPlansOnFullResume"`
	MaxDownPaymentCents                     int64       `json:"maxDownPaymentCents"`
	MinPaymentCalculatorCents               int64       `json:"minPaymentCalculatorCents"`
	ShowPaymentPlanDetails                  bool        `json:"showPaymentPlanDetails"`
	CompleteAfterEsign                      bool        `json:"completeAfterEsign"`
	PreauthExpireDays                       int         `json:"preauthExpireDays"`
	SubLenders                              []SubLender `json:"subLenders"`
	SupportsFullAppMode                     bool        `json:"supportsFullAppMode"`
	ShowDownPaymentAcknowledgeByLenderRoles []string    `json:"showDownPaymentAcknowledgeByProviderRoles"`
	ShowBankCardErrorModal                  bool        `json:"showBankCardErrorModal"`
	SelectPaymentPlanOnReviewScreen         bool        `json:"selectPaymentPlanOnReviewScreen"`
	// PaymentPlanFilterOverrides maps a product kind to the plan types shown.
	PaymentPlanFilterOverrides map[string][]string `json:"paymentPlanFilterOverrides"`
	// StepsBeforeSigning are the lender's own steps between accepting an
	// offer and signing, in order (the Journey… names, which are also the
	// browser's route names); StepsAfterSigning those between signing and
	// completing. Some are conditional; the server reports the ones still
	// open (docs/behaviour.md, "Signing").
	StepsBeforeSigning []string `json:"stepsBeforeSigning,omitempty"`
	StepsAfterSigning  []string `json:"stepsAfterSigning,omitempty"`
	// DeclinedMessage is the lender's own word on the declined screen when
	// it is the lender that declined last (docs/behaviour.md, "Decision
	// routing"); "" for the screen's general words only.
	DeclinedMessage string `json:"declinedMessage,omitempty"`
	// States are the states (two letters, DC included) whose offices the
	// lender serves; nil means all 50 states and DC. An office's waterfall
	// may only name lenders that serve its state (docs/offices.md).
	States []string `json:"-"`
	// MaxCreditLimitCents is the highest credit limit a revolving lender's
	// product allows: a credit limit change may ask for at most this
	// (docs/content.md, "Credit limit change"). 0 for the other lenders.
	MaxCreditLimitCents int64 `json:"-"`
	// QuickCheckTimeout and ApplyTimeout are how long a patient waits for
	// the lender's decision on a quick check (prequalify, prescreen) and on
	// a full application before the lender counts as not answering and the
	// waterfall moves on (docs/behaviour.md, "Time-outs"). A lenders file
	// may set others; -lender-timeout bounds both.
	QuickCheckTimeout time.Duration `json:"-"`
	ApplyTimeout      time.Duration `json:"-"`
}

// A lender's own steps around signing (LenderConfig.StepsBeforeSigning and
// StepsAfterSigning). Each name is also the browser's route of its screen.
const (
	JourneyQuiz              = "quiz"                         // the identity quiz, when the decision asks for it
	JourneyBankAccount       = "addBankAccount"               // the checking account, then the payment choice
	JourneyDownPayment       = "downpayment"                  // when the decision requires a down payment
	JourneyAdditionalContact = "additionalContactInformation" // one more way to reach the patient
	JourneyLoanPayment       = "loanPayment"                  // how the monthly payments are made: card or checking
	JourneyAgreement         = "agreement"                    // the agreement read and agreed on its own screen
	JourneyWisconsin         = "checkWisconsin"               // a married applicant living in Wisconsin: the spouse
	JourneyCalifornia        = "checkCalifornia"              // an office in California: the California notice
	JourneyCompleteAgreement = "completeAgreement"            // after signing: the cardholder agreement, then complete
)

// SubLender is a partner lender whose offers a lender passes on.
type SubLender struct {
	LenderID string `json:"providerId"`
	Name     string `json:"name"`
	Logo     string `json:"logo"`
}
