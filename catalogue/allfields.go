package catalogue

import (
	"sync"

	"github.com/chairside/chairside"
)

// AllFields returns one definition for every field of chairside.Applicant,
// with no required rule: the bounds a value must keep whichever lender
// asked for it. A submit is checked against its lender's own field set and,
// for every other field it carries, against these, so nothing reaches the
// store or a lender unchecked (a 20,000-character ID number, a negative
// payment, control characters).
//
// A field some lender asks for keeps that lender's definition (the widest
// set: a full application of a paycheck product); the fields no lender asks
// for yet get a definition of their kind here. The result is freshly built:
// callers may change it.
func AllFields() []chairside.FieldDefinition {
	allFieldsOnce.Do(buildAllFields)
	out := make([]chairside.FieldDefinition, len(allFields))
	copy(out, allFields)
	return out
}

var (
	allFieldsOnce sync.Once
	allFields     []chairside.FieldDefinition
)

func buildAllFields() {
	asked, _, _ := Fields(AFF, chairside.ModeFull)
	for _, d := range asked {
		rules := make(map[string]chairside.Rule, len(d.Rules))
		for id, r := range d.Rules {
			if id != chairside.RuleRequired {
				rules[id] = r
			}
		}
		d.Rules = rules
		allFields = append(allFields, d)
	}
	text := func(id string, max int64, chars string) chairside.FieldDefinition {
		rules := map[string]chairside.Rule{chairside.RuleMaxLength: {Max: n(max)}}
		if chars != "" {
			rules[chairside.RuleValidChars] = chairside.Rule{Chars: chars}
		}
		return field(id, chairside.FieldText, "", id, "", "", "", rules)
	}
	months := func(id string) chairside.FieldDefinition {
		return field(id, chairside.FieldNumber, "", id, "", "", "", map[string]chairside.Rule{
			chairside.RuleMin: {Min: n(0)}, chairside.RuleMax: {Max: n(1200)}, // 100 years
		})
	}
	money := func(id string, max int64) chairside.FieldDefinition {
		return field(id, chairside.FieldCurrency, "", id, "", "", "", map[string]chairside.Rule{
			chairside.RuleMin: {Min: n(0)}, chairside.RuleMax: {Max: n(max)},
		})
	}
	date := func(id string) chairside.FieldDefinition {
		return field(id, chairside.FieldDate, "", id, "", "", "", map[string]chairside.Rule{})
	}
	const yearly, monthly = 999_999_900, 99_999_900 // $9,999,999 and $999,999
	allFields = append(allFields,
		text("middleInitial", 1, NameChars),
		text("namePrefix", 10, NameChars),
		text("nameSuffix", 10, NameChars),
		field("workPhone", chairside.FieldPhone, "", "Work phone", "", "", "", map[string]chairside.Rule{}),
		field("employerPhone", chairside.FieldPhone, "", "Employer phone", "", "", "", map[string]chairside.Rule{}),
		text("employerPhoneExtension", 6, `0-9`),
		text("jobTitle", 100, EmployerChars),
		text("occupation", 100, EmployerChars),
		date("employmentStartDate"),
		months("housingMonths"),
		date("idIssueDate"),
		date("idExpirationDate"),
		money("additionalAnnualGrossIncome", yearly),
		money("annualNetIncome", yearly),
		money("monthlyGrossIncome", monthly),
		money("monthlyNetIncome", monthly),
		text("incomeType", 40, `a-z_`),
		date("firstPaymentDate"),
		text("maritalStatus", 40, `a-z_`),
		text("relationshipStatus", 40, `a-z_`),
	)
}
