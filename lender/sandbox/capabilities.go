package sandbox

import (
	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	lenderops "github.com/chairside/chairside/lender"
)

// The steps of each sandbox lender. The core methods (chairside.Lender) are
// lender's; each optional step's are on a small type embedding it; and a
// lender's lender is a struct embedding lender and the steps its product
// has, so that it has those methods and no others: the flow service asks a
// lender for a step (chairside.StepOf) and refuses one its lender has not.
// Which product has which step follows the catalogue (package catalogue:
// StepsBeforeSigning and StepsAfterSigning, and the revolving cards' credit
// limit change); TestStepsFollowTheCatalogue holds the two together.

// The optional steps, each on the lender it is asked of.
type (
	bankAccounts struct{ *lender }
	cards        struct{ *lender }
	downPayments struct{ *lender }
	contacts     struct{ *lender }
	consents     struct{ *lender }
	spouses      struct{ *lender }
	quizzes      struct{ *lender }
	patches      struct{ *lender }
	stipulations struct{ *lender }
	creditLimits struct{ *lender }
)

// anyLender is what every sandbox lender may ask, whatever its product:
// the identity quiz (a test case asks it of every lender, as the
// catalogue allows any lender to), and what a pending decision waits for,
// since a test case can leave any lender pending on the patient's income
// (patch-income) or on its stipulations.
type anyLender struct {
	quizzes
	patches
	stipulations
}

func anyOf(l *lender) anyLender { return anyLender{quizzes{l}, patches{l}, stipulations{l}} }

// The lenders by the steps of their products. Each embeds *lender itself,
// so that its core methods are the shallowest and never ambiguous.
type (
	// loanLender is an installment lender with no steps of its own
	// (Covered Care, LendingClub, Proceed).
	loanLender struct {
		*lender
		anyLender
	}
	// cardLender is a revolving card (ADS, Genesis, Synchrony, Vive): an
	// existing account's limit can be raised.
	cardLender struct {
		*lender
		anyLender
		creditLimits
	}
	// fortivaLender is a revolving card whose cardholder agreement is
	// agreed between signing and completing.
	fortivaLender struct {
		*lender
		anyLender
		creditLimits
		consents
	}
	// affLender has its agreement and the California notice on screens of
	// their own, and the Wisconsin spouse question.
	affLender struct {
		*lender
		anyLender
		consents
		spouses
	}
	// hfdLender has the down payment, another contact, and monthly
	// payments from a checking account or a card.
	hfdLender struct {
		*lender
		anyLender
		downPayments
		contacts
		bankAccounts
		cards
	}
	// snapLender is a lease paid from a checking account, with its
	// agreement on a screen of its own.
	snapLender struct {
		*lender
		anyLender
		bankAccounts
		consents
	}
	// allSteps has every step (Sandbox.AllSteps).
	allSteps struct {
		*lender
		anyLender
		bankAccounts
		cards
		downPayments
		contacts
		consents
		spouses
		creditLimits
	}
)

// withSteps gives, by lender key, the lender of the product with its
// steps.
var withSteps = map[string]func(l *lender) chairside.Lender{
	catalogue.ADS:         cardOf,
	catalogue.Genesis:     cardOf,
	catalogue.Synchrony:   cardOf,
	catalogue.Vive:        cardOf,
	catalogue.CoveredCare: loanOf,
	catalogue.LendingClub: loanOf,
	catalogue.Proceed:     loanOf,
	catalogue.Fortiva: func(l *lender) chairside.Lender {
		return &fortivaLender{l, anyOf(l), creditLimits{l}, consents{l}}
	},
	catalogue.AFF: func(l *lender) chairside.Lender {
		return &affLender{l, anyOf(l), consents{l}, spouses{l}}
	},
	catalogue.HFD: func(l *lender) chairside.Lender {
		return &hfdLender{l, anyOf(l), downPayments{l}, contacts{l}, bankAccounts{l}, cards{l}}
	},
	catalogue.Snap: func(l *lender) chairside.Lender {
		return &snapLender{l, anyOf(l), bankAccounts{l}, consents{l}}
	},
}

func cardOf(l *lender) chairside.Lender { return &cardLender{l, anyOf(l), creditLimits{l}} }
func loanOf(l *lender) chairside.Lender { return &loanLender{l, anyOf(l)} }

func allStepsOf(l *lender) *allSteps {
	return &allSteps{l, anyOf(l), bankAccounts{l}, cards{l}, downPayments{l}, contacts{l}, consents{l}, spouses{l}, creditLimits{l}}
}

var _ lenderops.AllSteps = (*allSteps)(nil)
