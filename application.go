package chairside

import (
	"strings"
	"time"
)

// Application is one patient's request for financing, shared by every
// lender tried in the waterfall.
type Application struct {
	ID                     string `json:"-"`
	SessionID              string `json:"-"`
	LocationID             string `json:"-"`
	PurchaseAmountCents    int64  `json:"purchaseAmountCents"`
	InsuranceBenefitsCents int64  `json:"insuranceBenefitsCents"`
	ExternalCustomerID     string `json:"externalCustomerId,omitempty"`
	// RecordPatientID is the patient's id in the office's own system
	// (Open Dental's PatNum) when the invitation was made from the record
	// (docs/practice-records.md); "" otherwise.
	RecordPatientID string `json:"-"`
	JointEnabled    bool   `json:"jointEnabled"`
	// Primary and Joint hold the applicants' personal data. The store seals
	// them (AES-256-GCM) before they reach the database.
	Primary Applicant  `json:"primary"`
	Joint   *Applicant `json:"joint,omitempty"`
	// SSNIndex is the HMAC blind index of the primary SSN ("" without an
	// SSN), for the per-SSN caps without decrypting anything. It has one
	// source: the store computes it whenever it writes the applicants
	// (CreateApplication, UpdateApplication) and replaces any value the
	// caller set, so the index on record always matches the sealed SSN;
	// package flow reads it from there for the caps.
	SSNIndex string `json:"-"`
	// TestCase names the sandbox test case chosen with
	// POST /test-cases/apply/{id}; never honoured in env prod.
	TestCase  string     `json:"-"`
	CreatedAt time.Time  `json:"-"`
	UpdatedAt time.Time  `json:"-"`
	PurgedAt  *time.Time `json:"-"`
}

// Applicant holds the application data fields for one person
// (docs/behaviour.md, "What each lender asks for"). JSON names are the
// field ids of the field definitions; money is in cents; dates are
// YYYY-MM-DD; SSN and phones are digits only. The API refuses any field not
// named here (no mass assignment).
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
	HousingPaymentAmount *int64 `json:"housingPaymentAmount,omitempty"` // cents

	IDType           string `json:"idType,omitempty"`
	IDNumber         string `json:"idNumber,omitempty"`
	IDState          string `json:"idState,omitempty"`
	IDIssueDate      string `json:"idIssueDate,omitempty"`
	IDExpirationDate string `json:"idExpirationDate,omitempty"`

	// Incomes in cents.
	AnnualGrossIncome           *int64 `json:"annualGrossIncome,omitempty"`
	AdditionalAnnualGrossIncome *int64 `json:"additionalAnnualGrossIncome,omitempty"`
	AnnualNetIncome             *int64 `json:"annualNetIncome,omitempty"`
	MonthlyGrossIncome          *int64 `json:"monthlyGrossIncome,omitempty"`
	MonthlyNetIncome            *int64 `json:"monthlyNetIncome,omitempty"`
	IncomeType                  string `json:"incomeType,omitempty"`

	PayFrequency       string `json:"payFrequency,omitempty"` // weekly, bi_weekly, monthly, semi_monthly
	PreviousPayDate    string `json:"previousPayDate,omitempty"`
	NextPayDate        string `json:"nextPayDate,omitempty"`
	FirstPaymentDate   string `json:"firstPaymentDate,omitempty"`
	MaritalStatus      string `json:"maritalStatus,omitempty"`
	RelationshipStatus string `json:"relationshipStatus,omitempty"`
}

// MaskSSN returns an SSN as xxx-xx-1234, the only form the API ever answers.
func MaskSSN(ssn string) string {
	if len(ssn) < 4 {
		return ""
	}
	return "xxx-xx-" + ssn[len(ssn)-4:]
}

// MaskEmail shows the first letter of the mailbox and the domain only
// (m•••@example.com): what a screen or a record may show of an address.
func MaskEmail(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at < 1 {
		return "•••"
	}
	return addr[:1] + "•••" + addr[at:]
}

// Masked returns a copy of a with the SSN masked and the other secrets
// (ID number, date of birth) removed, for answers and logs.
func (a Applicant) Masked() Applicant {
	a.SSN = MaskSSN(a.SSN)
	a.IDNumber = ""
	a.DateOfBirth = ""
	return a
}

// Reference is the application's short reference, read out on the phone
// between a patient and the office (docs/behaviour.md, "Pending, patches
// and stipulations"): the first eight hex digits of its id in two groups,
// such as 4F2A-91C0. It is not a secret and identifies nothing by itself;
// the office finds the application by it in its own day's list.
func (a *Application) Reference() string { return ApplicationReference(a.ID) }

// ApplicationReference is Reference for an application id.
func ApplicationReference(id string) string {
	if len(id) < 8 {
		return strings.ToUpper(id)
	}
	return strings.ToUpper(id[:4] + "-" + id[4:8])
}
