package catalogue

import (
	"github.com/chairside/chairside"
)

// Character sets of validChars rules. The value is the inside of a regular
// expression character class, read the same way by Go's regexp and by a
// JavaScript RegExp with the u flag: \p{L} is any letter in any script and
// \p{M} any combining mark, so names such as O'Hara, Zoë, José and ねこ pass;
// the rest are literal characters ("’" is the typographic apostrophe that
// phones type; a final "-" is literal).
const (
	NameChars     = `\p{L}\p{M} '’.-`
	AddressChars  = `\p{L}\p{M}\p{N} '’.,#/-`
	EmployerChars = `\p{L}\p{M}\p{N} &'’.,()/-`
	IDNumberChars = `A-Za-z0-9 -`
)

// Group rule ids beyond chairside.RuleRequireOne, defined here only:
// package validate checks them by these names, and the browser reads them
// from a module generated from them (validate/browser_tables.go). A
// browser that meets a group rule it does not know leaves it to the server.
const (
	GroupRulePayDates = "payDates" // fields: payFrequency, previousPayDate, nextPayDate
	GroupRuleZipState = "zipState" // fields: addressZipCode, addressState
)

// States is the static state list (docs/behaviour.md, "Validation"): the
// 50 states and DC.
var States = []chairside.Option{
	{Value: "AL", Label: "Alabama"}, {Value: "AK", Label: "Alaska"}, {Value: "AZ", Label: "Arizona"},
	{Value: "AR", Label: "Arkansas"}, {Value: "CA", Label: "California"}, {Value: "CO", Label: "Colorado"},
	{Value: "CT", Label: "Connecticut"}, {Value: "DE", Label: "Delaware"}, {Value: "DC", Label: "District of Columbia"},
	{Value: "FL", Label: "Florida"}, {Value: "GA", Label: "Georgia"}, {Value: "HI", Label: "Hawaii"},
	{Value: "ID", Label: "Idaho"}, {Value: "IL", Label: "Illinois"}, {Value: "IN", Label: "Indiana"},
	{Value: "IA", Label: "Iowa"}, {Value: "KS", Label: "Kansas"}, {Value: "KY", Label: "Kentucky"},
	{Value: "LA", Label: "Louisiana"}, {Value: "ME", Label: "Maine"}, {Value: "MD", Label: "Maryland"},
	{Value: "MA", Label: "Massachusetts"}, {Value: "MI", Label: "Michigan"}, {Value: "MN", Label: "Minnesota"},
	{Value: "MS", Label: "Mississippi"}, {Value: "MO", Label: "Missouri"}, {Value: "MT", Label: "Montana"},
	{Value: "NE", Label: "Nebraska"}, {Value: "NV", Label: "Nevada"}, {Value: "NH", Label: "New Hampshire"},
	{Value: "NJ", Label: "New Jersey"}, {Value: "NM", Label: "New Mexico"}, {Value: "NY", Label: "New York"},
	{Value: "NC", Label: "North Carolina"}, {Value: "ND", Label: "North Dakota"}, {Value: "OH", Label: "Ohio"},
	{Value: "OK", Label: "Oklahoma"}, {Value: "OR", Label: "Oregon"}, {Value: "PA", Label: "Pennsylvania"},
	{Value: "RI", Label: "Rhode Island"}, {Value: "SC", Label: "South Carolina"}, {Value: "SD", Label: "South Dakota"},
	{Value: "TN", Label: "Tennessee"}, {Value: "TX", Label: "Texas"}, {Value: "UT", Label: "Utah"},
	{Value: "VT", Label: "Vermont"}, {Value: "VA", Label: "Virginia"}, {Value: "WA", Label: "Washington"},
	{Value: "WV", Label: "West Virginia"}, {Value: "WI", Label: "Wisconsin"}, {Value: "WY", Label: "Wyoming"},
}

// PayFrequencies are the pay frequencies (docs/behaviour.md, "Validation")
// with their labels.
var PayFrequencies = []chairside.Option{
	{Value: "weekly", Label: "Weekly"},
	{Value: "bi_weekly", Label: "Bi-Weekly"},
	{Value: "monthly", Label: "Monthly"},
	{Value: "semi_monthly", Label: "Twice Monthly"},
}

// Fields returns the form fields and field-group rules a lender asks for in
// an apply mode (full, prequalify or prescreen). Prequalify and prescreen ask
// for the same, shorter set; a full application adds housing and employment,
// and for the loan and lease products that collect payments from a paycheck
// (aff, hfd, snap) an ID and pay dates. The result is freshly built: callers
// may change it. Unknown lenders give ENOTFOUND, unknown modes EBADREQUEST.
func Fields(lenderKey, mode string) ([]chairside.FieldDefinition, []chairside.FieldGroupRule, error) {
	p, err := Get(lenderKey)
	if err != nil {
		return nil, nil, err
	}
	if !chairside.ValidMode(mode) {
		return nil, nil, chairside.Errorf(chairside.EBADREQUEST, "Unknown apply mode.")
	}

	defs := []chairside.FieldDefinition{
		firstName(), lastName(), dateOfBirth(), ssn(),
		addressLine1(), addressLine2(), addressZipCode(), addressCity(), addressState(),
		email(), phone("mobilePhone", "Mobile phone"), phone("homePhone", "Home phone"),
		annualGrossIncome(),
	}
	groups := []chairside.FieldGroupRule{
		{ID: "phone", Rule: chairside.RuleRequireOne, Fields: []string{"mobilePhone", "homePhone"},
			Message: "Enter a mobile or a home phone number"},
		{ID: "zipState", Rule: GroupRuleZipState, Fields: []string{"addressZipCode", "addressState"},
			Message: "Zip Code not valid for state"},
	}
	if mode != chairside.ModeFull {
		return defs, groups, nil
	}

	defs = append(defs, housingStatus(), housingPaymentAmount(), employerName(), monthsEmployed())
	if paycheckProduct(p.Key) {
		defs = append(defs, idType(), idNumber(), idState(), payFrequency(), previousPayDate(), nextPayDate())
		groups = append(groups, chairside.FieldGroupRule{
			ID: "payDates", Rule: GroupRulePayDates, Fields: []string{"payFrequency", "previousPayDate", "nextPayDate"},
			Message: "The dates of your last and next payday do not match how often you are paid",
		})
	}
	return defs, groups, nil
}

// paycheckProduct reports whether a lender's full application asks for an
// ID and pay dates: the products that set payments by payday.
func paycheckProduct(key string) bool {
	return key == AFF || key == HFD || key == Snap
}

func n(v int64) *int64 { return &v }

// field returns a definition whose path and name equal its id.
func field(id, typ, group, label, hint, autocomplete, inputMode string, rules map[string]chairside.Rule) chairside.FieldDefinition {
	return chairside.FieldDefinition{
		ID: id, Path: id, Name: id, Type: typ, Group: group, Label: label, Hint: hint,
		Autocomplete: autocomplete, InputMode: inputMode, Rules: rules,
	}
}

var required = chairside.Rule{}

func firstName() chairside.FieldDefinition {
	return field("firstName", chairside.FieldText, "personal", "First name", "", "given-name", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMaxLength:  {Max: n(40)},
			chairside.RuleValidChars: {Chars: NameChars},
		})
}

func lastName() chairside.FieldDefinition {
	return field("lastName", chairside.FieldText, "personal", "Last name", "", "family-name", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMaxLength:  {Max: n(40)},
			chairside.RuleValidChars: {Chars: NameChars},
		})
}

func dateOfBirth() chairside.FieldDefinition {
	return field("dateOfBirth", chairside.FieldDate, "personal", "Date of birth", "For example, 01/31/1980", "bday", "numeric",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMinAge:   {Age: 18},
			chairside.RuleMaxAge:   {Age: 120},
		})
}

func ssn() chairside.FieldDefinition {
	return field("ssn", chairside.FieldSSN, "personal", "Social Security number",
		"9 digits, for example 123-45-6789. We use it to check your credit.", "off", "numeric",
		map[string]chairside.Rule{chairside.RuleRequired: required})
}

func addressLine1() chairside.FieldDefinition {
	return field("addressLine1", chairside.FieldText, "address", "Street address",
		"Your home address. We can't accept a P.O. Box.", "address-line1", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMinLength:  {Min: n(3)},
			chairside.RuleMaxLength:  {Max: n(60)},
			chairside.RuleNoPoBox:    {},
			chairside.RuleValidChars: {Chars: AddressChars},
		})
}

func addressLine2() chairside.FieldDefinition {
	return field("addressLine2", chairside.FieldText, "address", "Apartment, suite or unit", "", "address-line2", "",
		map[string]chairside.Rule{
			chairside.RuleMaxLength:  {Max: n(60)},
			chairside.RuleValidChars: {Chars: AddressChars},
		})
}

func addressCity() chairside.FieldDefinition {
	return field("addressCity", chairside.FieldText, "address", "City", "", "address-level2", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMinLength:  {Min: n(2)},
			chairside.RuleMaxLength:  {Max: n(40)},
			chairside.RuleValidChars: {Chars: NameChars},
		})
}

func addressState() chairside.FieldDefinition {
	return field("addressState", chairside.FieldState, "address", "State", "", "address-level1", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:     required,
			chairside.RuleValidOptions: {Options: append([]chairside.Option(nil), States...)},
		})
}

func addressZipCode() chairside.FieldDefinition {
	return field("addressZipCode", chairside.FieldZipCode, "address", "ZIP code", "5 digits, for example 60601", "postal-code", "numeric",
		map[string]chairside.Rule{chairside.RuleRequired: required})
}

func email() chairside.FieldDefinition {
	return field("email", chairside.FieldEmail, "contact", "Email address", "We'll send your offer details here.", "email", "email",
		map[string]chairside.Rule{
			chairside.RuleRequired:  required,
			chairside.RuleMaxLength: {Max: n(100)},
		})
}

// phone fields are optional on their own: the "phone" requireOne group asks
// for at least one of them.
func phone(id, label string) chairside.FieldDefinition {
	return field(id, chairside.FieldPhone, "contact", label, "10 digits, for example (312) 555-0100", "tel", "tel",
		map[string]chairside.Rule{})
}

func annualGrossIncome() chairside.FieldDefinition {
	return field("annualGrossIncome", chairside.FieldCurrency, "income", "Yearly income before taxes",
		"Include wages, benefits and other regular income. For example, $45,000", "off", "decimal",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMin:      {Min: n(0)},
			chairside.RuleMax:      {Max: n(999_999_900)}, // $9,999,999
		})
}

func housingStatus() chairside.FieldDefinition {
	return field("housingStatus", chairside.FieldRadio, "housing", "Do you rent or own your home?", "", "", "",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleValidOptions: {Options: []chairside.Option{
				{Value: "rent", Label: "Rent"}, {Value: "own", Label: "Own"}, {Value: "other", Label: "Other"},
			}},
		})
}

func housingPaymentAmount() chairside.FieldDefinition {
	return field("housingPaymentAmount", chairside.FieldCurrency, "housing", "Monthly rent or mortgage payment",
		"Enter 0 if you don't pay rent or a mortgage.", "off", "decimal",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMin:      {Min: n(0)},
			chairside.RuleMax:      {Max: n(5_000_000)}, // $50,000 a month
		})
}

func employerName() chairside.FieldDefinition {
	return field("employerName", chairside.FieldText, "employment", "Employer name",
		"If you are retired or not working, enter Retired or Not employed.", "organization", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMaxLength:  {Max: n(60)},
			chairside.RuleValidChars: {Chars: EmployerChars},
		})
}

func monthsEmployed() chairside.FieldDefinition {
	return field("monthsEmployed", chairside.FieldNumber, "employment", "Months with this employer",
		"For example, 2 years is 24 months. Enter 0 if you are not working.", "off", "numeric",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMin:      {Min: n(0)},
			chairside.RuleMax:      {Max: n(720)},
		})
}

func idType() chairside.FieldDefinition {
	return field("idType", chairside.FieldSelect, "id", "Type of photo ID", "", "", "",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleValidOptions: {Options: []chairside.Option{
				{Value: "drivers_license", Label: "Driver's license"},
				{Value: "state_id", Label: "State ID card"},
				{Value: "passport", Label: "U.S. passport"},
				{Value: "military_id", Label: "Military ID"},
			}},
		})
}

func idNumber() chairside.FieldDefinition {
	return field("idNumber", chairside.FieldText, "id", "ID number", "As printed on your ID", "off", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:   required,
			chairside.RuleMinLength:  {Min: n(4)},
			chairside.RuleMaxLength:  {Max: n(20)},
			chairside.RuleValidChars: {Chars: IDNumberChars},
		})
}

// idState is optional: a passport or a military ID has no issuing state.
func idState() chairside.FieldDefinition {
	return field("idState", chairside.FieldState, "id", "State that issued your ID",
		"Leave blank for a passport or military ID.", "off", "",
		map[string]chairside.Rule{
			chairside.RuleValidOptions: {Options: append([]chairside.Option(nil), States...)},
		})
}

func payFrequency() chairside.FieldDefinition {
	return field("payFrequency", chairside.FieldSelect, "income", "How often are you paid?", "", "", "",
		map[string]chairside.Rule{
			chairside.RuleRequired:     required,
			chairside.RuleValidOptions: {Options: append([]chairside.Option(nil), PayFrequencies...)},
		})
}

func previousPayDate() chairside.FieldDefinition {
	return field("previousPayDate", chairside.FieldDate, "income", "Your last payday", "For example, 03/13/2026", "off", "numeric",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMaxDate:  {Date: "today"},
		})
}

func nextPayDate() chairside.FieldDefinition {
	return field("nextPayDate", chairside.FieldDate, "income", "Your next payday", "For example, 03/27/2026", "off", "numeric",
		map[string]chairside.Rule{
			chairside.RuleRequired: required,
			chairside.RuleMinDate:  {Date: "today"},
		})
}
