package flow

import "github.com/chairside/chairside"

// applicationSummary is what a new session's start answers of its
// application: the office's facts, the name and contact the office gave,
// and whether someone other than the patient may apply — the office's
// setting (docs/behaviour.md, "The patient check").
func applicationSummary(app *chairside.Application, loc *chairside.Location, d newSessionData) ApplicationSummary {
	return ApplicationSummary{
		Reference:           app.Reference(),
		PurchaseAmountCents: app.PurchaseAmountCents,
		Primary:             applicantName(d),
		Insurance:           Insurance{InsuranceBenefitsCents: app.InsuranceBenefitsCents},
		PurchaserEnabled:    loc.PurchaserEnabled,
	}
}

// applicantName is what the office gave of the applicant, for the form:
// from the invitation, and from the office's own records when it was
// made from them.
func applicantName(d newSessionData) ApplicantName {
	n := ApplicantName{FirstName: d.firstName, LastName: d.lastName, Email: d.email, MobilePhone: d.mobilePhone}
	if r := d.record; r != nil {
		n.DateOfBirth, n.AddressLine1, n.AddressLine2, n.City, n.State, n.ZIP = r.Birthdate, r.Address1, r.Address2, r.City, r.State, r.ZIP
	}
	return n
}
