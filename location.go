package chairside

import "time"

// Lender roles in a location's waterfall (docs/behaviour.md, "The
// waterfall").
const (
	RolePrimary           = "primary"
	RoleSecondary         = "secondary"
	RoleTertiary          = "tertiary"
	RoleHighline          = "highline"
	RoleHighlineSecondary = "highline_secondary"
	RoleQuaternary        = "quaternary"
)

// Location is a dental office. Patients reach it by its 16-digit entity key
// (at-home links) or through a flow token issued by its staff (QR codes).
type Location struct {
	ID        string `json:"id"`
	EntityKey string `json:"entityKey"` // exactly 16 digits
	Name      string `json:"name"`
	State     string `json:"state"` // US state or DC, two letters
	GroupID   string `json:"groupId"`
	// BrandName and BrandLogo give the brand-specific wording; an empty
	// BrandName means neutral wording ("the dental practice").
	BrandName string `json:"brandName,omitempty"`
	BrandLogo string `json:"brandLogo,omitempty"`
	// Language is the office's default language for its patients ("es"),
	// or "" to follow each patient's browser (docs/languages.md).
	Language string `json:"language,omitempty"`
	// PurchaserEnabled lets someone other than the patient (a parent or
	// guardian who pays) apply for the patient's treatment; false, the
	// applicant is the patient or the patient's responsible party
	// (docs/behaviour.md, "The patient check").
	PurchaserEnabled bool `json:"purchaserEnabled,omitempty"`
	// TextSender is who the office's texts come from (a Twilio Messaging
	// Service, MG…, or a number in E.164); "" uses the server's. A
	// patient's STOP applies to the sender.
	TextSender string `json:"textSender,omitempty"`
	// Waterfall is the ordered list of lenders tried for this location; the
	// first step is where every application starts.
	Waterfall []WaterfallStep `json:"waterfall"`
	CreatedAt time.Time       `json:"-"`
}

// WaterfallStep is one lender in a location's cascade.
type WaterfallStep struct {
	LenderKey string `json:"providerKey"`
	Role      string `json:"role"`
	ApplyMode string `json:"applyMode"`
	// AutoSubmit makes the browser submit this step with the data already
	// entered, instead of sending the patient to this lender's start.
	AutoSubmit bool `json:"autoSubmit"`
}

// Next returns the step after providerKey in the waterfall, or nil when
// providerKey is the last one or not in the waterfall. It is the one place
// that decides where a cascade goes.
func (l *Location) Next(lenderKey string) *WaterfallStep {
	for i, s := range l.Waterfall {
		if s.LenderKey == lenderKey && i+1 < len(l.Waterfall) {
			next := l.Waterfall[i+1]
			return &next
		}
	}
	return nil
}

// Step returns the waterfall step for providerKey, or nil.
func (l *Location) Step(lenderKey string) *WaterfallStep {
	for i := range l.Waterfall {
		if l.Waterfall[i].LenderKey == lenderKey {
			s := l.Waterfall[i]
			return &s
		}
	}
	return nil
}
