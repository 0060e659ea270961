package lender

import "github.com/chairside/chairside"

// AllSteps is a lender with every optional step. Our HTTP lender protocol
// has an endpoint for each and does not say which a lender uses, so its
// adapter (lender/httplender) is one, and so is what the simulator
// (lender/lendersim) serves for every product.
type AllSteps interface {
	chairside.Lender
	chairside.BankAccounts
	chairside.Cards
	chairside.DownPayments
	chairside.Contacts
	chairside.Consents
	chairside.Spouses
	chairside.Quizzes
	chairside.Patches
	chairside.Stipulations
	chairside.CreditLimits
	chairside.Fundings
	chairside.Changes
}
