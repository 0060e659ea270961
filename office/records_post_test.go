package office

import (
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// TestPostOf: the post a money fact calls for — the payment for the
// office's moment, a negative one for a refund or a cancellation — dated
// the office's own day, with a short reference that names the case and
// tells its refunds apart; the payment's note names the plan the patient
// chose, in the office's words, when it is kept.
func TestPostOf(t *testing.T) {
	// 02:30 UTC on the 5th is still the 4th in California.
	on := time.Date(2026, 12, 5, 2, 30, 0, 0, time.UTC)
	c := chairside.RecordsCandidate{MoneyEntryID: "m-signed-1a2b", Kind: chairside.MoneySigned, AmountCents: 252000, OnAt: on,
		ApplicationID: "d37155d9aaaa", LocationID: "loc", State: "CA", PatientID: "18", LenderKey: "synchrony_standard"}
	pay := postOf(c, nil)
	if pay.Kind != chairside.RecordsPayment || pay.AmountCents != 252000 || pay.PayDate != "2026-12-04" || pay.Reference != "CS D371-55D9" ||
		!strings.Contains(pay.Note, "Synchrony") || pay.PatientID != "18" {
		t.Errorf("the payment: %+v", pay)
	}
	if pay.Note != "Chairside: financed by Synchrony, case D371-55D9" {
		t.Errorf("the payment's note without a plan: %q", pay.Note)
	}
	for plan, want := range map[chairside.PaymentPlan]string{
		{TypeID: chairside.PlanFixedRate, DurationMonths: 24, APR: 17.9}: "Chairside: financed by Synchrony, 24 months at 17.90% APR, case D371-55D9",
		{TypeID: chairside.PlanDeferredInterest, DurationMonths: 12, APR: 26.99}: "Chairside: financed by Synchrony, " +
			"no interest if paid in full in 12 months (26.99% APR after), case D371-55D9",
		{TypeID: chairside.PlanFixedInstallmentLoan, ProductType: chairside.ProductLease, DurationMonths: 12}: "Chairside: financed by Synchrony, " +
			"lease-to-own over 12 months, case D371-55D9",
	} {
		if got := postOf(c, &plan).Note; got != want {
			t.Errorf("the payment's note: %q, want %q", got, want)
		}
	}
	c.Kind, c.MoneyEntryID, c.AmountCents, c.State = chairside.MoneyRefunded, "m-refund-9f3c", 50000, "NY"
	refund := postOf(c, nil)
	if refund.Kind != chairside.RecordsRefund || refund.AmountCents != -50000 || refund.Reference != "CS D371-55D9 R9F3C" ||
		refund.PayDate != "2026-12-04" || !strings.Contains(refund.Note, "refund") {
		t.Errorf("the refund: %+v", refund)
	}
	c.Kind, c.MoneyEntryID, c.AmountCents = chairside.MoneyVoided, "m-void-0001", 252000
	if void := postOf(c, nil); void.AmountCents != -252000 || !strings.Contains(void.Note, "cancellation") || void.Reference == refund.Reference {
		t.Errorf("the cancellation: %+v", void)
	}
}
