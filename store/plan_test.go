package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestPaymentPlans: plans come back as saved, their totals worked out
// from the schedule kept (the first); a plan saved before schedules were
// kept (the second, no payment count) keeps its total cost as saved. One
// plan read by its code is the same row.
func TestPaymentPlans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		plans := []chairside.PaymentPlan{
			{LenderKey: "synchrony_standard", TypeID: chairside.PlanDeferredInterest, LenderPlanCode: "P12", DurationMonths: 12,
				MonthlyAmountCents: 41667, PaymentCount: 12, FinalPaymentCents: 41663, TotalOfPaymentsCents: 500000,
				TotalCostCents: 500000, APR: 26.99, PromoAPR: 0, Description: "No interest if paid in full in 12 months",
				ExpireDateTime: t0.Add(48 * time.Hour), MinAmountCents: 20000, MaxAmountCents: 2500000, AmountFinancedCents: 500000},
			{LenderKey: "synchrony_standard", TypeID: chairside.PlanFixedRate, LenderPlanCode: "P60", DurationMonths: 60,
				MonthlyAmountCents: 10125, TotalCostCents: 607500, APR: 9.9, PromoAPR: 9.9, ExpireDateTime: t0.Add(48 * time.Hour),
				AmountFinancedCents: 480000, DownPaymentCents: 20000, ProductType: "bankloan", SubLenderID: "sub-1"},
		}
		must(t, db.SavePaymentPlans(ctx, pa.ID, plans))
		got, err := db.ListPaymentPlans(ctx, pa.ID)
		must(t, err)
		if !reflect.DeepEqual(got, plans) {
			t.Fatalf("ListPaymentPlans =\n%+v\nwant\n%+v", got, plans)
		}
		// One plan by its code: the row ListPaymentPlans has for it; the first, should a code come twice.
		for i := range plans {
			one, err := db.FindPaymentPlan(ctx, pa.ID, plans[i].LenderPlanCode)
			must(t, err)
			if !reflect.DeepEqual(*one, plans[i]) {
				t.Fatalf("FindPaymentPlan(%s) =\n%+v\nwant\n%+v", plans[i].LenderPlanCode, *one, plans[i])
			}
		}
		_, err = db.FindPaymentPlan(ctx, pa.ID, "P99")
		wantCode(t, err, chairside.ENOTFOUND)
		other := newLenderApplication(t, db, a, "fortiva_standard")
		_, err = db.FindPaymentPlan(ctx, other.ID, "P12")
		wantCode(t, err, chairside.ENOTFOUND)
		twice := append([]chairside.PaymentPlan{}, plans...)
		twice[1].LenderPlanCode = "P12"
		must(t, db.SavePaymentPlans(ctx, other.ID, twice))
		if one, err := db.FindPaymentPlan(ctx, other.ID, "P12"); err != nil || one.DurationMonths != 12 {
			t.Fatalf("a code offered twice: %+v, %v; want the first (12 months)", one, err)
		}

		// Saving again replaces the set.
		must(t, db.SavePaymentPlans(ctx, pa.ID, plans[1:]))
		got, _ = db.ListPaymentPlans(ctx, pa.ID)
		if len(got) != 1 || got[0].LenderPlanCode != "P60" {
			t.Fatalf("after replace: %+v", got)
		}
		must(t, db.SavePaymentPlans(ctx, pa.ID, nil))
		got, _ = db.ListPaymentPlans(ctx, pa.ID)
		if len(got) != 0 {
			t.Fatalf("after clearing: %+v", got)
		}
		wantCode(t, db.SavePaymentPlans(ctx, "missing", plans), chairside.ENOTFOUND)
		got, err = db.ListPaymentPlans(ctx, "missing")
		must(t, err)
		if len(got) != 0 {
			t.Fatalf("plans of a missing provider application: %+v", got)
		}
	})
}
