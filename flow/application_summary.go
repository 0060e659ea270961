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
		Primary:             ApplicantName{FirstName: d.firstName, LastName: d.lastName, Email: d.email, MobilePhone: d.mobilePhone},
		Insurance:           Insurance{InsuranceBenefitsCents: app.InsuranceBenefitsCents},
		PurchaserEnabled:    loc.PurchaserEnabled,
	}
}
