package protocol

import (
	"github.com/chairside/chairside"
)

// Operations of a CreateApplication: a soft-pull prequalification, a
// prescreen, or the full (hard-pull) application.
const (
	OperationPrequalify = "prequalify"
	OperationPrescreen  = "prescreen"
	OperationApply      = "apply"
)

// CreateApplication is the body of POST /applications: one prequalify,
// prescreen or full application. PlatformReference is ours and unique per
// submit; the lender echoes it and finds the application by it.
type CreateApplication struct {
	PlatformReference   string     `json:"platformReference"`
	Operation           string     `json:"operation"`
	Role                string     `json:"role,omitempty"`
	LocationState       string     `json:"locationState,omitempty"`
	PurchaseAmountCents int64      `json:"purchaseAmountCents"`
	Currency            string     `json:"currency"`
	Primary             Applicant  `json:"primary"`
	Joint               *Applicant `json:"joint,omitempty"`
	// TestCase names a sandbox test case; a real lender ignores it.
	TestCase string `json:"testCase,omitempty"`
}

// Applicant is one person of an application on the wire. Money is in cents
// (the …Cents names), dates YYYY-MM-DD, SSN and phones digits only. All of
// it is personal data: never logged by either side.
type Applicant struct {
	FirstName     string `json:"firstName,omitempty"`
	LastName      string `json:"lastName,omitempty"`
	MiddleInitial string `json:"middleInitial,omitempty"`
	NamePrefix    string `json:"namePrefix,omitempty"`
	NameSuffix    string `json:"nameSuffix,omitempty"`
	DateOfBirth   string `json:"dateOfBirth,omitempty"`
	SSN           string `json:"ssn,omitempty"`

	AddressLine1   string `json:"addressLine1,omitempty"`
	AddressLine2   string `json:"addressLine2,omitempty"`
	AddressCity    string `json:"addressCity,omitempty"`
	AddressState   string `json:"addressState,omitempty"`
	AddressZipCode string `json:"addressZipCode,omitempty"`

	Email       string `json:"email,omitempty"`
	HomePhone   string `json:"homePhone,omitempty"`
	MobilePhone string `json:"mobilePhone,omitempty"`
	WorkPhone   string `json:"workPhone,omitempty"`

	EmployerName           string `json:"employerName,omitempty"`
	EmployerPhone          string `json:"employerPhone,omitempty"`
	EmployerPhoneExtension string `json:"employerPhoneExtension,omitempty"`
	JobTitle               string `json:"jobTitle,omitempty"`
	MonthsEmployed         *int   `json:"monthsEmployed,omitempty"`
	EmploymentStartDate    string `json:"employmentStartDate,omitempty"`
	Occupation             string `json:"occupation,omitempty"`

	HousingMonths        *int   `json:"housingMonths,omitempty"`
	HousingStatus        string `json:"housingStatus,omitempty"`
	HousingPaymentAmount *int64 `json:"housingPaymentCents,omitempty"`

	IDType           string `json:"idType,omitempty"`
	IDNumber         string `json:"idNumber,omitempty"`
	IDState          string `json:"idState,omitempty"`
	IDIssueDate      string `json:"idIssueDate,omitempty"`
	IDExpirationDate string `json:"idExpirationDate,omitempty"`

	AnnualGrossIncome           *int64 `json:"annualGrossIncomeCents,omitempty"`
	AdditionalAnnualGrossIncome *int64 `json:"additionalAnnualGrossIncomeCents,omitempty"`
	AnnualNetIncome             *int64 `json:"annualNetIncomeCents,omitempty"`
	MonthlyGrossIncome          *int64 `json:"monthlyGrossIncomeCents,omitempty"`
	MonthlyNetIncome            *int64 `json:"monthlyNetIncomeCents,omitempty"`
	IncomeType                  string `json:"incomeType,omitempty"`

	PayFrequency       string `json:"payFrequency,omitempty"`
	PreviousPayDate    string `json:"previousPayDate,omitempty"`
	NextPayDate        string `json:"nextPayDate,omitempty"`
	FirstPaymentDate   string `json:"firstPaymentDate,omitempty"`
	MaritalStatus      string `json:"maritalStatus,omitempty"`
	RelationshipStatus string `json:"relationshipStatus,omitempty"`
}

// NewCreateApplication is the wire form of a decision request.
func NewCreateApplication(req *chairside.DecisionRequest) *CreateApplication {
	out := &CreateApplication{
		PlatformReference:   req.Reference,
		Operation:           req.Operation,
		Role:                req.Role,
		LocationState:       req.LocationState,
		PurchaseAmountCents: req.PurchaseAmountCents,
		Currency:            Currency,
		Primary:             FromApplicant(req.Primary),
		TestCase:            req.TestCase,
	}
	if req.Joint != nil {
		j := FromApplicant(*req.Joint)
		out.Joint = &j
	}
	return out
}

// Chairside is the decision request a create stands for, for providerKey.
func (c *CreateApplication) Chairside(lenderKey string) *chairside.DecisionRequest {
	out := &chairside.DecisionRequest{
		LenderKey:           lenderKey,
		Operation:           c.Operation,
		Reference:           c.PlatformReference,
		Role:                c.Role,
		LocationState:       c.LocationState,
		PurchaseAmountCents: c.PurchaseAmountCents,
		Primary:             c.Primary.Chairside(),
		TestCase:            c.TestCase,
	}
	if c.Joint != nil {
		j := c.Joint.Chairside()
		out.Joint = &j
	}
	return out
}

// Validate lists what a lender refuses in a create, as 422 field errors.
// It checks the shape only; whether to lend is the lender's decision.
func (c *CreateApplication) Validate() []FieldError {
	var fe []FieldError
	add := func(field, msg string) { fe = append(fe, FieldError{Field: field, Message: msg}) }
	if c.PlatformReference == "" {
		add("platformReference", "Required.")
	}
	switch c.Operation {
	case OperationPrequalify, OperationPrescreen, OperationApply:
	default:
		add("operation", "Must be prequalify, prescreen or apply.")
	}
	if c.PurchaseAmountCents < 0 {
		add("purchaseAmountCents", "Cannot be negative.")
	}
	if checkCurrency(c.Currency, c.PurchaseAmountCents) != nil {
		add("currency", "Must be "+Currency+".")
	}
	fe = append(fe, c.Primary.validate("primary")...)
	if c.Joint != nil {
		fe = append(fe, c.Joint.validate("joint")...)
	}
	return fe
}

func (a *Applicant) validate(prefix string) []FieldError {
	var fe []FieldError
	add := func(field, msg string) { fe = append(fe, FieldError{Field: prefix + "." + field, Message: msg}) }
	if a.FirstName == "" {
		add("firstName", "Required.")
	}
	if a.LastName == "" {
		add("lastName", "Required.")
	}
	if a.SSN != "" && !digits(a.SSN, 9) {
		add("ssn", "Must be 9 digits.")
	}
	for _, m := range []struct {
		name string
		v    *int64
	}{
		{"housingPaymentCents", a.HousingPaymentAmount}, {"annualGrossIncomeCents", a.AnnualGrossIncome},
		{"additionalAnnualGrossIncomeCents", a.AdditionalAnnualGrossIncome}, {"annualNetIncomeCents", a.AnnualNetIncome},
		{"monthlyGrossIncomeCents", a.MonthlyGrossIncome}, {"monthlyNetIncomeCents", a.MonthlyNetIncome},
	} {
		if m.v != nil && *m.v < 0 {
			add(m.name, "Cannot be negative.")
		}
	}
	return fe
}

// digits reports whether s is exactly n ASCII digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// FromApplicant is the wire form of an applicant. The two types have the
// same fields (the wire names money …Cents in JSON only), so this is a
// conversion: a field added to one and not the other stops the build.
func FromApplicant(a chairside.Applicant) Applicant { return Applicant(a) }

// Chairside is the chairside form of a wire applicant.
func (a Applicant) Chairside() chairside.Applicant { return chairside.Applicant(a) }
