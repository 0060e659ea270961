package catalogue

import "github.com/chairside/chairside"

// Ids of the application's own fields: what a submit may carry besides the
// applicants (docs/behaviour.md, "What each lender asks for").
const (
	PurchaseAmountID     = "purchaseAmountCents"
	InsuranceBenefitsID  = "insurance.insuranceBenefitsCents"
	ExternalCustomerIDID = "externalCustomerId"
)

// MaxPurchaseCents bounds every treatment amount the API takes ($100,000).
const MaxPurchaseCents = 10_000_000

// PurchaseAmount is the treatment amount field. The form shows it, with
// this definition, only when the office gave no amount; the server checks
// a submit's amount with the same definition.
func PurchaseAmount() chairside.FieldDefinition {
	return field(PurchaseAmountID, chairside.FieldCurrency, "purchase", "Treatment amount",
		"The total on your treatment plan from the office. For example, $4,500", "off", "decimal",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMin:      {Min: n(100)}, // $1
			chairside.RuleMax:      {Max: n(MaxPurchaseCents)},
		})
}

// InsuranceBenefits bounds the insurance benefits a submit may carry; the
// server also keeps them at most the treatment amount.
func InsuranceBenefits() chairside.FieldDefinition {
	return field(InsuranceBenefitsID, chairside.FieldCurrency, "purchase", "Expected insurance benefits", "", "off", "decimal",
		map[string]chairside.Rule{
			chairside.RuleMin: {Min: n(0)},
			chairside.RuleMax: {Max: n(MaxPurchaseCents)},
		})
}

// ExternalCustomerID bounds the office's own id for the patient, which a
// submit may carry: letters, digits and . _ - only, at most 64.
func ExternalCustomerID() chairside.FieldDefinition {
	return field(ExternalCustomerIDID, chairside.FieldText, "", "Customer id", "", "off", "",
		map[string]chairside.Rule{
			chairside.RuleMaxLength:  {Max: n(64)},
			chairside.RuleValidChars: {Chars: `A-Za-z0-9._-`},
		})
}
