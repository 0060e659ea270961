package flow

import "github.com/chairside/chairside"

// The request and answer shapes of the API, as api/openapi.yaml describes
// them. Request types are decoded with unknown fields refused, so a client
// can only ever send what is listed here (no mass assignment).

// StartOptions is the optional body of a start by entity key.
type StartOptions struct {
	ExperienceType string `json:"experienceType,omitempty"`
	// PurchaseAmountCents is the treatment amount a patient at home enters.
	PurchaseAmountCents *int64 `json:"purchaseAmountCents,omitempty"`
}

// StartRequest is the body of POST /flow/start.
type StartRequest struct {
	EntityKey string `json:"entityKey"`
	StartOptions
}

// StartResponse answers every flow start and restart.
type StartResponse struct {
	Session     SessionInfo        `json:"session"`
	Application ApplicationSummary `json:"application"`
	Location    LocationInfo       `json:"location"`
	// Form is the first lender's form in its mode, as ApplyStart answers it,
	// so the first screen needs no second round trip.
	Form *ApplyStartResponse `json:"form,omitempty"`
	// Language is the language the form is answered in (the HTTP layer
	// decides it: locale.ForNewSession).
	Language string `json:"language,omitempty"`
}

// SessionInfo is the session as the browser keeps it.
type SessionInfo struct {
	// WebSessionID is the raw session id; it is answered once, here, and
	// only its SHA-256 is stored.
	WebSessionID        string            `json:"webSessionId"`
	Env                 string            `json:"env"`
	GroupID             string            `json:"groupId"`
	Properties          SessionProperties `json:"properties"`
	ExperienceType      string            `json:"experienceType"`
	FlowType            string            `json:"flowType"`
	WarnCountdownMillis int64             `json:"warnCountdownMillis"`
	TimeoutAfterMillis  int64             `json:"timeoutAfterMillis"`
	DynamicLenderKey    string            `json:"dynamicProviderKey"`
	ShowCancelModal     bool              `json:"showCancelModal"`
}

// SessionProperties are what the browser shows of the session's office
// and where its waterfall starts.
type SessionProperties struct {
	State        string `json:"state"`
	LocationName string `json:"locationName"`
	BrandName    string `json:"brandName,omitempty"`
	// ApplyMode is the mode of the first waterfall step.
	ApplyMode string `json:"applyMode"`
}

// ApplicationSummary is what the application knows at start.
type ApplicationSummary struct {
	// Reference is the application's short reference
	// (chairside.ApplicationReference), the applicant's id in the title.
	Reference           string         `json:"reference"`
	PurchaseAmountCents int64          `json:"purchaseAmountCents"`
	Primary             ApplicantName  `json:"primary"`
	Joint               *ApplicantName `json:"joint,omitempty"`
	Insurance           Insurance      `json:"insurance"`
	// PurchaserEnabled says whether someone other than the patient (a
	// parent or guardian who pays) may apply: the office's setting
	// (chairside.Location.PurchaserEnabled), false unless it says so.
	PurchaserEnabled bool `json:"purchaserEnabled"`
}

// ApplicantName is what the office entered of the applicant: the name,
// and on an invitation where it sent the link (docs/behaviour.md, "The
// office side"), for the patient to confirm rather than type again.
type ApplicantName struct {
	FirstName   string `json:"firstName,omitempty"`
	LastName    string `json:"lastName,omitempty"`
	Email       string `json:"email,omitempty"`
	MobilePhone string `json:"mobilePhone,omitempty"`
	// From the office's own records, when the invitation was made from
	// them (docs/practice-records.md): the date of birth (yyyy-mm-dd) and
	// the address. Never an SSN.
	DateOfBirth  string `json:"dateOfBirth,omitempty"`
	AddressLine1 string `json:"addressLine1,omitempty"`
	AddressLine2 string `json:"addressLine2,omitempty"`
	City         string `json:"city,omitempty"`
	State        string `json:"state,omitempty"`
	ZIP          string `json:"zip,omitempty"`
}

// Insurance holds the insurance benefits expected for the treatment.
type Insurance struct {
	InsuranceBenefitsCents int64 `json:"insuranceBenefitsCents"`
}

// LocationInfo is the public face of a location.
type LocationInfo struct {
	Name      string `json:"name"`
	State     string `json:"state"`
	GroupID   string `json:"groupId"`
	BrandName string `json:"brandName,omitempty"`
	BrandLogo string `json:"brandLogo,omitempty"`
	Language  string `json:"language,omitempty"`
}

// CurrentLocation answers GET /locations/current.
type CurrentLocation struct {
	LocationInfo
	Waterfall []chairside.WaterfallStep `json:"waterfall"`
}

// FinishResponse answers a finish.
type FinishResponse struct {
	Outcome string `json:"outcome"`
}

// ApplyStartResponse answers POST /apply/start/lenders/{providerKey}.
type ApplyStartResponse struct {
	LenderKey       string                      `json:"providerKey"`
	ApplyMode       string                      `json:"applyMode"`
	Fields          []chairside.FieldDefinition `json:"fields"`
	FieldGroupRules []chairside.FieldGroupRule  `json:"fieldGroupRules"`
	Lenders         []chairside.LenderConfig    `json:"providers"`
}

// ConsentInput names the document a patient agreed to.
type ConsentInput struct {
	DocumentID      string `json:"documentId"`
	DocumentVersion string `json:"documentVersion"`
	DocumentSHA256  string `json:"documentSha256"`
	Agreed          bool   `json:"agreed"`
}

// SubmitRequest is the body of prequalify, prescreen and apply. Besides
// the applicants it may carry the application's own facts: the treatment
// amount a patient enters when the office gave none, the insurance
// benefits, and the office's id for the patient (flow/validate.go,
// checkApplicationFields).
type SubmitRequest struct {
	Primary             chairside.Applicant  `json:"primary"`
	Joint               *chairside.Applicant `json:"joint,omitempty"`
	JointEnabled        bool                 `json:"jointEnabled"`
	Consent             *ConsentInput        `json:"consent"`
	PurchaseAmountCents *int64               `json:"purchaseAmountCents,omitempty"`
	Insurance           *Insurance           `json:"insurance,omitempty"`
	ExternalCustomerID  string               `json:"externalCustomerId,omitempty"`
	// Cascade names the later lenders the server may ask within this
	// submit when this one does not say yes (cascade.go). It is no part
	// of what makes two submits the same one.
	Cascade []CascadeStep `json:"cascade,omitempty"`
}

// DecisionResponse answers a submit: the decision, and where the waterfall
// goes next when it cascades.
type DecisionResponse struct {
	chairside.Decision
	Next *Next `json:"next,omitempty"`
	// Cascaded are the decisions of the later lenders the server asked
	// within the same submit, in order (cascade.go); never recorded.
	Cascaded []DecisionResponse `json:"cascaded,omitempty"`
}

// Next sends the browser on to the next lender of the waterfall.
type Next struct {
	ResultType string `json:"resultType"` // start or resume
	AutoSubmit bool   `json:"autoSubmit"`
	Lender     string `json:"provider"`
	ApplyMode  string `json:"applyMode"`
	Resume     bool   `json:"resume"`
}

// PlansRequest is the body of payment/plans.
type PlansRequest struct {
	AmountCents int64 `json:"amountCents"`
	// PurchaseAmountCents is the treatment amount the patient was shown,
	// when the browser sends it (0: not sent).
	PurchaseAmountCents int64 `json:"purchaseAmountCents,omitempty"`
}

// AmountsResponse answers application/amounts.
type AmountsResponse struct {
	PurchaseAmountCents    int64 `json:"purchaseAmountCents"`
	InsuranceBenefitsCents int64 `json:"insuranceBenefitsCents"`
}

// PlansResponse answers payment/plans.
type PlansResponse struct {
	PaymentPlans []chairside.PaymentPlan `json:"paymentPlans"`
}

// AcceptOfferRequest is the optional body of acceptOffer.
type AcceptOfferRequest struct {
	LenderPlanCode string `json:"providerPlanCode,omitempty"`
}

// ESignRequest is the body of application/esign: the patient's consents,
// each naming the document shown, and the signature.
type ESignRequest struct {
	// Consent names the lender's E-SIGN disclosure (disclosures?kind=esign).
	Consent *ConsentInput `json:"consent"`
	// AgreementConsent names the lender's agreement (POST agreement).
	AgreementConsent *ConsentInput `json:"agreementConsent"`
	// HardPullConsent names the lender's application disclosures
	// (disclosures?kind=application): required when the offer came from a
	// prequalify or prescreen, refused when it came from a full application
	// (that authorisation was given before applying).
	HardPullConsent *ConsentInput `json:"hardPullConsent,omitempty"`
	// SignaturePNG is a data URL: data:image/png;base64,…
	SignaturePNG string `json:"signaturePng"`
	// SignatureMethod is how the signature was made: "drawn" (the default)
	// or "typed", the patient's full name typed and adopted as their
	// signature; TypedName is that name, which must be the applicant's.
	SignatureMethod string `json:"signatureMethod,omitempty"`
	TypedName       string `json:"typedName,omitempty"`
}

// ValidateRequest is the body of POST /validate.
type ValidateRequest struct {
	LenderKey       string          `json:"providerKey"`
	Mode            string          `json:"mode,omitempty"`
	ApplicationData ApplicationData `json:"applicationData"`
	FieldIDs        []string        `json:"fieldIds,omitempty"`
}

// ApplicationData is the applicant data checked by /validate.
type ApplicationData struct {
	Primary      chairside.Applicant  `json:"primary"`
	Joint        *chairside.Applicant `json:"joint,omitempty"`
	JointEnabled bool                 `json:"jointEnabled,omitempty"`
}

// ValidateResponse answers POST /validate.
type ValidateResponse struct {
	Valid       bool                   `json:"valid"`
	FieldErrors []chairside.FieldError `json:"fieldErrors"`
}

// LogRequest is a structured error report from the browser (POST /log):
// how bad, which error (a code of the app's own, never a message), and on
// which route pattern. Nothing free-form, so nothing a patient typed can
// reach the server log this way.
type LogRequest struct {
	// Level is error, warn or info.
	Level string `json:"level"`
	// Code matches ^[a-z][a-z0-9_.-]{0,63}$, e.g. "api.lender_unavailable".
	Code string `json:"code"`
	// Route is the app's route pattern, e.g. "/lenders/{providerKey}/plans";
	// it matches ^/[A-Za-z0-9_./{}:-]{0,127}$.
	Route string `json:"route"`
	// ClientDateTime is the browser's clock (RFC 3339, at most 40
	// characters). It is checked but not logged: the server's time is the
	// one that counts.
	ClientDateTime string `json:"clientDateTime,omitempty"`
}

// PlansPresentedRequest is the body of
// /application/events/financing-plans-presented.
type PlansPresentedRequest struct {
	LenderKeys []string `json:"providerKeys"`
}

// TestCaseResponse answers POST /test-cases/apply/{id}.
type TestCaseResponse struct {
	TestCase string `json:"testCase"`
}
